"""The benchmark's partly covered cards (``bench_vision.py``: ``partly_covered``, issue 16,
sixty-first step): rendered cards with no index in full view but one at least PARTLY visible,
counted apart from the recall."""

from __future__ import annotations

import numpy as np

from dealer_assist.cards import parse_card
from dealer_assist.vision.proposal import Proposal
from scripts.bench_vision import PARTLY, Item, evaluate, summary, synthetic_items
from scripts.vision_data import scenes

FRAME = np.zeros((8, 8, 3), np.uint8)


class Reads:
    """A recogniser that reads the cards it is told to, one list per frame."""

    def __init__(self, *reads: list[str]) -> None:
        self.reads = list(reads)

    def read(self, _frame: np.ndarray) -> list[Proposal]:
        return [Proposal(parse_card(code), 1.0, np.zeros((4, 2), np.float32))
                for code in self.reads.pop(0)]


def test_partly_covered_cards_are_counted_apart_from_the_recall() -> None:
    items = [Item("a", FRAME, {"AS"}, {"AS", "2H", "3C"}, {"AS": 20.0}, {"2H", "3C"}),
             Item("b", FRAME, {"KD"}, {"KD", "QS"}, {"KD": 20.0}, {"QS"})]
    result = evaluate(Reads(["AS", "2H"], ["QS"]), iter(items), 1, False)
    assert result["partly_covered"] == {"cards": 3, "read": 2}
    assert (result["cards"], result["read_right"], result["read_wrong"]) == (2, 1, 0)
    assert "partly covered (no index in full view, one 60% visible; not in the recall): 2/3 " \
        "read" in summary("x", result)


def test_photos_have_no_partly_covered_line() -> None:
    result = evaluate(Reads(["AS"]), iter([Item("p", FRAME, {"AS"}, {"AS"})]), 1, False)
    assert result["partly_covered"] == {"cards": 0, "read": 0}
    assert "partly covered" not in summary("x", result)


def test_a_partly_visible_index_needs_both_halves() -> None:
    assert scenes.partly_visible(0.7, 0.65, PARTLY)
    assert not scenes.partly_visible(0.7, 0.5, PARTLY)  # its suit half mostly covered
    assert not scenes.partly_visible(0.55, 0.9, PARTLY)
    assert not scenes.partly_visible(1.0, 1.0, None)  # the render's default: none taught


def test_rendered_scenes_hold_partly_covered_cards_on_the_table_and_not_expected() -> None:
    items = list(synthetic_items("heldout", 3, 20261551))  # the third holds one or more
    assert any(item.partly for item in items)
    for item in items:
        assert item.partly <= item.allowed - item.expected
