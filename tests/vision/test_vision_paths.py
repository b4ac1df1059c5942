"""``scripts/vision_paths.py``: the ways each card read was read, and what each way adds."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from dealer_assist.vision.detect import find_cards
from dealer_assist.vision.exposure import exposed
from dealer_assist.vision.indices import WAYS, Acceptance, IndexReader, _merge
from dealer_assist.vision.recognizer import Recognizer
from scripts.bench_vision import evaluate, synthetic_items
from scripts.vision_paths import OUTLINE, cards_read, main, table

KIND, SCENES, SEED = "training", 3, 29  # test_vision_misses' scenes


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return cards_read(KIND, SCENES, SEED)


def test_the_readings_merged_are_what_the_reader_reads() -> None:
    reader = IndexReader()
    for item in synthetic_items(KIND, SCENES, SEED):
        frame = exposed(item.frame)
        outlines = find_cards(frame)
        ways = reader.readings(frame, outlines.small, outlines.mask)
        assert ways and {way for way, _r in ways} <= set(WAYS)
        merged = _merge([r for _way, r in ways])
        read = reader.read(frame, outlines.small, outlines.mask)
        assert [(r.card, r.prob) for r in merged] == [(r.card, r.prob) for r in read]
        assert all(np.array_equal(a.candidate.quad, b.candidate.quad)
                   for a, b in zip(merged, read, strict=True))


def test_the_cards_are_the_benchmark_s(rows: list[dict]) -> None:
    result = evaluate(Recognizer(), synthetic_items(KIND, SCENES, SEED), 1, False)
    wrong = {(scene, card) for scene, m in result["misses"].items() for card in m["wrong"]}
    assert {(r["scene"], r["card"]) for r in rows if not r["right"]} == wrong
    right = sum(r["right"] for r in rows)
    assert right >= result["read_right"] > 0  # it also counts cards on the table not legible


def test_each_card_s_ways_are_the_reader_s_with_their_surest_probability(
        rows: list[dict]) -> None:
    assert any(len(r["ways"]) > 1 for r in rows)
    least = min(Acceptance().values())  # the lowest bar of any way (the group's, the look's)
    for r in rows:
        assert set(r["ways"]) <= set(WAYS)
        assert all(least <= p <= 1 for p in r["ways"].values())  # no way reads below its bar


def test_a_way_the_reader_does_not_take_reads_nothing(monkeypatch) -> None:
    monkeypatch.setattr(IndexReader, "_group_reads", lambda self, *args: [])
    assert all("group" not in r["ways"] for r in cards_read(KIND, SCENES, SEED))


def test_the_table_counts_cards_read_only_one_way_and_with_others() -> None:
    rows = [{"right": True, "ways": {"whole frame": 0.98}},
            {"right": False, "ways": {"whole frame": 0.995}},
            {"right": True, "ways": {"whole frame": 0.99, "group": 0.95}},
            {"right": True, "ways": {}}]
    lines = table(rows, (0.99,)).splitlines()
    cells = {line.split()[0]: line for line in lines[1:-1]}
    assert cells["whole"].split()[2:] == ["1", "·", "1", "1", "·", "0", "0", "·", "1"]
    assert cells["group"].split()[1:] == ["0", "·", "0", "1", "·", "0", "0", "·", "0"]
    assert cells[OUTLINE].split()[1:4] == ["1", "·", "0"]
    assert lines[-1].startswith("all: 3 right · 1 wrong")


def test_the_command_prints_a_table_or_json(capsys) -> None:
    assert main(["--synthetic", KIND, "--scenes", "1", "--seed", str(SEED), "--at",
                 "0.99"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("all:") and "only, ≥ 0.99" in out[-1 - len(WAYS) - 2]
    assert main(["--synthetic", KIND, "--scenes", "1", "--seed", str(SEED), "--json"]) == 0
    assert isinstance(json.loads(capsys.readouterr().out), list)
