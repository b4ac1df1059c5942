"""``scripts/bench_live.py``: what a dealer is asked when the live reader watches a still table."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.bench_live import main
from scripts.bench_vision import synthetic_items


def test_a_still_fan_asks_about_each_card_once_and_steadily(capsys) -> None:
    assert main(["--synthetic", "drawn-fans", "--seed", "7", "--scenes", "3", "--frames",
                 "20", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    fans = list(synthetic_items("drawn-fans", 3, 7))
    assert result["expected"] == sum(len(item.expected) for item in fans)
    assert result["right"] >= result["expected"] - 2  # most of a fan's cards are read
    assert result["right"] + result["never"] >= result["expected"]
    assert result["again"] == result["wrong"] == result["switches"] == 0
    assert [row["scene"] for row in result["per_scene"]] == [item.name for item in fans]


def test_nonsense_counts_are_refused(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--synthetic", "drawn-fans", "--frames", "0"])
    assert exit_.value.code == 2
    assert "at least 1" in capsys.readouterr().err
