"""The benchmark's recall by index size (``bench_vision.py``: ``by_size``)."""

from __future__ import annotations

import numpy as np

from dealer_assist.cards import parse_card
from dealer_assist.vision.proposal import Proposal
from scripts.bench_vision import SIZE_BINS, Item, by_size, evaluate, summary


class Reads:
    """A recogniser that reads the cards it is told to, one list per frame."""

    def __init__(self, *reads: list[str]) -> None:
        self.reads = list(reads)

    def read(self, _frame: np.ndarray) -> list[Proposal]:
        return [proposal(code) for code in self.reads.pop(0)]


def proposal(code: str) -> Proposal:
    return Proposal(parse_card(code), 1.0, np.zeros((4, 2), np.float32))


FRAME = np.zeros((8, 8, 3), np.uint8)


def test_cards_are_counted_in_the_bin_of_their_largest_index() -> None:
    items = [Item("a", FRAME, {"AS", "2H", "KD"}, {"AS", "2H", "KD"},
                  {"AS": 9.0, "2H": 15.9, "KD": 60.0}),
             Item("b", FRAME, {"AS", "3C"}, {"AS", "3C"}, {"AS": 16.0, "3C": 8.0})]
    result = evaluate(Reads(["AS", "KD"], ["AS"]), iter(items), 1, False)
    assert result["by_size"] == [
        {"step_px": [8, 12], "cards": 2, "read": 1},   # a's AS read, b's 3C not
        {"step_px": [12, 16], "cards": 1, "read": 0},  # 2H
        {"step_px": [16, 20], "cards": 1, "read": 1},  # b's AS
        {"step_px": [45, None], "cards": 1, "read": 1},  # KD
    ]
    assert sum(r["cards"] for r in result["by_size"]) == result["cards"]
    assert sum(r["read"] for r in result["by_size"]) == result["read_right"]
    assert "by index size (rank-to-suit step): 8–12 px 1/2, 12–16 px 0/1" in summary("x", result)


def test_photos_have_no_sizes_and_no_size_line() -> None:
    result = evaluate(Reads(["AS"]), iter([Item("p", FRAME, {"AS"}, {"AS"})]), 1, False)
    assert result["by_size"] == []
    assert by_size(result["by_size"]) == ""
    assert "by index size" not in summary("x", result)


def test_the_bins_start_at_the_smallest_legible_index_and_rise() -> None:
    assert SIZE_BINS[0] == 8
    assert list(SIZE_BINS) == sorted(set(SIZE_BINS))
