"""Voting over consecutive frames."""

from __future__ import annotations

import numpy as np
import pytest

from dealer_assist.cards import parse_card
from dealer_assist.vision.proposal import Proposal
from dealer_assist.vision.voting import Voter


def square(cx: float, cy: float, half: float = 50) -> np.ndarray:
    return np.array([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half],
                     [cx - half, cy + half]], np.float32)


def reading(code: str | None, cx: float = 100, cy: float = 100, conf: float = 0.9,
            source: str = "visual", half: float = 50, step: float | None = None) -> Proposal:
    return Proposal(None if code is None else parse_card(code), conf, square(cx, cy, half),
                    source, step=step)


def feed(voter: Voter, frames: list[list[Proposal]]) -> list[Proposal]:
    out: list[Proposal] = []
    for frame in frames:
        out = voter.update(frame)
    return out


def test_card_is_settled_after_enough_agreeing_frames() -> None:
    voter = Voter(window=5, min_votes=3)
    assert [p.card for p in voter.update([reading("QS")])] == [None]
    assert [p.card for p in voter.update([reading("QS", 103, 98)])] == [None]
    third = voter.update([reading("QS", 98, 101)])
    assert [p.code for p in third] == ["QS"]
    assert third[0].track == 1
    assert 0 < third[0].confidence <= 0.9


def test_unknown_frames_do_not_break_the_vote_but_lower_confidence() -> None:
    voter = Voter(window=5, min_votes=3)
    clean = feed(Voter(window=5, min_votes=3), [[reading("9H")]] * 4)
    noisy = feed(voter, [[reading("9H")], [reading(None)], [reading("9H")], [reading("9H")]])
    assert noisy[0].code == "9H"
    assert noisy[0].confidence < clean[0].confidence


def test_disagreeing_frames_give_no_card() -> None:
    voter = Voter(window=5, min_votes=3)
    out = feed(voter, [[reading("6C")], [reading("9C")], [reading("6C")], [reading("9C")]])
    assert [p.card for p in out] == [None]


def test_barcode_reading_settles_at_once() -> None:
    voter = Voter(window=5, min_votes=3)
    out = voter.update([reading("KD", source="barcode", conf=1.0)])
    assert [(p.code, p.source) for p in out] == [("KD", "barcode")]
    out = voter.update([reading("KH")])  # a visual misread of the same card changes nothing
    assert [p.code for p in out] == ["KD"]


def test_cards_are_tracked_separately_by_position() -> None:
    voter = Voter(window=3, min_votes=2)
    out = feed(voter, [[reading("AS", 100, 100), reading("2H", 400, 100)]] * 2)
    assert sorted(p.code for p in out) == ["2H", "AS"]
    assert len({p.track for p in out}) == 2


def test_track_dropped_after_card_leaves() -> None:
    voter = Voter(window=3, min_votes=2, max_missed=2)
    feed(voter, [[reading("AS")]] * 2)
    assert voter.update([]) == []  # not seen this frame: not reported
    assert len(voter.tracks) == 1
    voter.update([])
    voter.update([])
    assert voter.tracks == {}
    out = voter.update([reading("AS")])  # back again: a new track, votes start over
    assert [p.card for p in out] == [None]


def test_min_votes_must_fit_window() -> None:
    with pytest.raises(ValueError):
        Voter(window=2, min_votes=3)


def corner(code: str, cx: float, cy: float) -> Proposal:
    """A card read from one corner index only: a small quad where the index is (step 12 px)."""
    return reading(code, cx, cy, half=10, step=12)


def test_a_card_read_by_either_corner_is_one_track() -> None:
    """A 120-px card read by its top index in some frames and its bottom one in others (about
    a card's length apart): one track, so the dealer is asked about it once."""
    voter = Voter(window=5, min_votes=3)
    top, bottom = corner("QS", 220, 430), corner("QS", 282, 530)
    out = feed(voter, [[top], [top], [bottom], [top], [bottom], [bottom]])
    assert len(voter.tracks) == 1
    assert [(p.code, p.track) for p in out] == [("QS", 1)]


def test_two_copies_of_a_card_in_one_frame_stay_two_tracks() -> None:
    voter = Voter(window=3, min_votes=2)
    out = feed(voter, [[corner("7H", 100, 100), corner("7H", 200, 100)]] * 2)
    assert [p.code for p in out] == ["7H", "7H"] and len(voter.tracks) == 2


def test_another_card_or_a_far_one_makes_its_own_track() -> None:
    voter = Voter(window=3, min_votes=2)
    feed(voter, [[corner("QS", 100, 100)]] * 2)
    voter.update([corner("QH", 160, 180)])  # another card where the other corner would be
    voter.update([corner("QS", 100 + 12 * 14, 100 + 10)])  # further than a card's diagonal
    assert len(voter.tracks) == 3
