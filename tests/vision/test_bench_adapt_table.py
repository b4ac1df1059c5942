"""The deck-adaptation benchmark's table and totals (``bench_vision.py --adapt-heldout``)."""

from __future__ import annotations

from scripts.bench_vision import adapt_table, adapt_totals


def reading(right: int, wrong: int, cards: int) -> dict:
    return {"read_right": right, "read_wrong": wrong, "cards": cards,
            "recall": round(right / cards, 4), "precision": round(right / (right + wrong), 4),
            "median_ms": 30.0, "median_cpu_ms": 29.0}


RESULT = {
    "gm-paris": {"adaptation": {}, "heldout": {"before": reading(78, 0, 85),
                                                "after": reading(80, 1, 85)},
                 "fans": {"before": reading(58, 0, 70), "after": reading(58, 0, 70)}},
    "penguins": {"adaptation": {}, "heldout": {"before": reading(74, 1, 86),
                                                "after": reading(75, 1, 86)},
                 "fans": {"before": reading(40, 0, 50), "after": reading(41, 0, 50)}},
}


def test_the_designs_are_pooled_per_set_before_and_after() -> None:
    totals = adapt_totals(RESULT)
    assert totals["heldout"]["before"] == {"read_right": 152, "read_wrong": 1, "cards": 171,
                                           "recall": 0.8889, "precision": 0.9935}
    assert totals["heldout"]["after"]["read_right"] == 155
    assert totals["heldout"]["after"]["read_wrong"] == 2
    assert totals["fans"]["after"] == {"read_right": 99, "read_wrong": 0, "cards": 120,
                                       "recall": 0.825, "precision": 1.0}


def test_the_table_ends_with_the_pooled_rows() -> None:
    lines = adapt_table(RESULT).splitlines()
    assert len(lines) == 2 + 4 + 2  # header, a row per design and set, a pooled row per set
    assert lines[-2] == ("| **all 2** | heldout | 88.9% (152/171) · 99.3% (1 wrong) | "
                         "90.6% (155/171) · 98.7% (2 wrong) |")
    assert lines[-1].startswith("| **all 2** | fans | 81.7% (98/120) · 100.0% (0 wrong) | ")


def test_a_set_no_design_has_is_left_out() -> None:
    only_scenes = {deck: {k: v for k, v in row.items() if k != "fans"}
                   for deck, row in RESULT.items()}
    assert list(adapt_totals(only_scenes)) == ["heldout"]
    assert "fans" not in adapt_table(only_scenes)
