"""The live reader proposes each physical card once, however the frames read it."""

from __future__ import annotations

import numpy as np

from dealer_assist.cards import parse_card
from dealer_assist.vision.live import FORGET_HANDLED, LiveReader
from dealer_assist.vision.proposal import Proposal

FRAME = np.zeros((960, 1280, 3), np.uint8)


def square(cx: float, cy: float, half: float) -> np.ndarray:
    return np.array([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half],
                     [cx - half, cy + half]], np.float32)


def index(code: str, cx: float, cy: float) -> Proposal:
    """A card read from one corner index: a small quad where the index is (step 11 px)."""
    return Proposal(parse_card(code), 0.95, square(cx, cy, 10), step=11.0)


def outline(cx: float, cy: float) -> Proposal:
    """An outline whose card is unknown (120 px tall)."""
    return Proposal(None, 0.0, square(cx, cy, 60))


class Scripted:
    """Gives the live reader these readings, one list per frame (what the recogniser gave for a
    120-px card read by its top corner in some frames and its bottom one in others)."""

    def __init__(self, frames: list[list[Proposal]]) -> None:
        self.frames = iter(frames)

    def read(self, _frame: np.ndarray) -> list[Proposal]:
        return next(self.frames)


TOP, BOTTOM = (478, 430), (545, 532)  # the 7H's two corners; its outline's middle at (510, 480)


def pending_cards(frames: list[list[Proposal]]) -> list[str]:
    """The cards the dealer is asked about, each confirmed at once."""
    reader = LiveReader(recognizer=Scripted(frames))
    asked = []
    for _ in frames:
        update = reader.process(FRAME)
        if update.pending is not None:
            asked.append(update.pending.code)
            reader.mark_handled(update.pending)
    return asked


def test_a_card_read_by_either_corner_is_asked_about_once() -> None:
    frames = [[index("7H", *BOTTOM), outline(510, 480)],
              [index("7H", *TOP), outline(510, 480)]] * 5
    assert pending_cards(frames) == ["7H"]


def test_two_copies_seen_together_are_two_cards() -> None:
    frames = [[index("7H", *TOP), index("7H", 600, 430)]] * 6
    assert pending_cards(frames) == ["7H", "7H"]


def test_another_card_at_the_other_corner_is_asked_about() -> None:
    frames = [[index("7H", *TOP)]] * 4 + [[index("7D", *BOTTOM)]] * 4
    assert pending_cards(frames) == ["7H", "7D"]


def test_the_card_shown_stays_until_the_dealer_answers() -> None:
    """Two cards whose confidences take turns: the one shown first stays shown (a tap confirms
    what the dealer read), then the other comes."""
    sure, unsure = 0.95, 0.9
    frames = [[Proposal(parse_card("7H"), sure if i % 2 else unsure, square(300, 300, 60)),
               Proposal(parse_card("KS"), unsure if i % 2 else sure, square(700, 300, 60))]
              for i in range(12)]
    reader = LiveReader(recognizer=Scripted(frames))
    shown = [u.pending and u.pending.code for u in (reader.process(FRAME) for _ in range(8))]
    first = next(code for code in shown if code)
    assert set(shown) == {None, first} and shown[-1] == first
    reader.mark_handled(reader.process(FRAME).pending)
    other = ({"7H", "KS"} - {first}).pop()
    assert {reader.process(FRAME).pending.code for _ in range(3)} == {other}


def test_a_card_lost_for_a_few_frames_is_not_asked_about_again() -> None:
    """The reader loses a card for longer than a track lasts, then reads it again where it was:
    still the card the dealer answered. Unseen for longer than FORGET_HANDLED frames, it is
    forgotten (the table has moved on)."""
    seen, lost = [index("9C", *TOP)], []
    assert pending_cards([seen] * 4 + [lost] * 8 + [seen] * 6) == ["9C"]
    forgotten = [seen] * 4 + [lost] * (FORGET_HANDLED + 2) + [seen] * 6
    assert pending_cards(forgotten) == ["9C", "9C"]
