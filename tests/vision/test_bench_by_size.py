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


class StepReads:
    """A recogniser that reads (code, step) pairs, one list per frame."""

    def __init__(self, *reads: list[tuple[str, float]]) -> None:
        self.reads = list(reads)

    def read(self, _frame: np.ndarray) -> list[Proposal]:
        return [Proposal(parse_card(code), 1.0, np.zeros((4, 2), np.float32), step=step)
                for code, step in self.reads.pop(0)]


def test_the_move_closer_advice_is_counted_against_small_frames() -> None:
    frame = np.zeros((960, 1280, 3), np.uint8)
    small = {"AS": 10.0, "2H": 11.0, "3C": 12.0, "4D": 30.0}  # median 11.5: small
    big = {"AS": 30.0, "2H": 40.0, "3C": 35.0}
    items = [Item("s", frame, set(small), set(small), small),
             Item("s2", frame, set(small), set(small), small),
             Item("b", frame, set(big), set(big), big)]
    result = evaluate(StepReads([("AS", 10.0), ("2H", 11.0), ("3C", 12.0)],  # advised
                                [("AS", 10.0)],  # too few readings to advise on
                                [("AS", 30.0), ("2H", 40.0), ("3C", 35.0)]),  # big: quiet
                      iter(items), 1, False)
    assert result["advice"] == {
        "frames": 3, "small_frames": 2,
        "advised_frames": 1, "advised_small_frames": 1, "advised_cards": 4, "advised_read": 3,
        "quiet_frames": 2, "quiet_small_frames": 1, "quiet_cards": 7, "quiet_read": 4}
    assert ("'move closer' advice on 1 of 3 frames (1 of the 2 of small cards); cards read where "
            "advised 3/4, elsewhere 4/7") in summary("x", result)


def test_photos_have_no_advice_line() -> None:
    result = evaluate(Reads(["AS"]), iter([Item("p", FRAME, {"AS"}, {"AS"})]), 1, False)
    assert result["advice"] == {}
    assert "move closer" not in summary("x", result)
