"""``scripts/bench_vision.py --synthetic drawn-fans``: the precision test's fans, as many as asked."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from dealer_assist.vision import synth

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.bench_vision import main, synthetic_items


def test_drawn_fans_are_the_precision_tests_fans() -> None:
    rng = np.random.default_rng(7)  # as tests/vision/test_recognition.py draws them
    for i, (name, frame, expected, allowed, steps, partly) in enumerate(
            synthetic_items("drawn-fans", 3, 7)):
        test_frame, cards = synth.random_fan(rng, i)
        assert name == f"drawn-fan-{i:03d}"
        assert expected == allowed == {card.code for card in cards}
        assert 2 <= len(cards) <= 5
        assert np.array_equal(frame, test_frame)
        assert steps is None and partly is None  # its index sizes are not known


def test_drawn_fans_are_measured(capsys) -> None:
    assert main(["--synthetic", "drawn-fans", "--seed", "7", "--scenes", "2", "--runs", "1",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    fans = list(synthetic_items("drawn-fans", 2, 7))
    assert result["images"] == 2
    assert result["cards"] == sum(len(item.expected) for item in fans)
    assert result["read_wrong"] == 0
    assert result["host_reference_ms"] > 0  # the host's speed, to compare machines by
    assert result["host_networks_ms"] > 0  # and how fast it runs the shipped networks
