"""Vote over consecutive frames: follow each card by position and settle on what it shows.

A single frame can misread; a card that reads the same in most of the last frames can be trusted.
Each proposal is matched to the nearest track (its centre within ``match`` card sizes); a track's
card is the one read in at least ``min_votes`` of its last ``window`` readings with no other card
read as often. A barcode reading in the window settles the track at once.

A card read from its corner indices alone is where the index is, so one frame may read it by
its top corner and the next by its bottom one, a card's length away. A reading that no track is
near therefore joins a track of the same card within a card's diagonal (``CARD_DIAGONALS`` of its
index's step) that no other reading has taken this frame: one card, one track, proposed once.
Two copies of a card (a shoe of several decks) read in the same frame stay two tracks.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field, replace

import numpy as np

from dealer_assist.cards import Card
from dealer_assist.vision.proposal import CARD_DIAGONALS, Proposal


@dataclass
class Track:
    """One physical card followed over frames."""

    id: int
    quad: np.ndarray
    readings: deque[Proposal] = field(default_factory=deque)
    missed: int = 0

    @property
    def size(self) -> float:
        x0, y0 = self.quad.min(axis=0)
        x1, y1 = self.quad.max(axis=0)
        return float(max(x1 - x0, y1 - y0, 1.0))

    @property
    def centre(self) -> np.ndarray:
        return self.quad.mean(axis=0)


class Voter:
    """Turns per-frame proposals into stable, voted proposals (one per track)."""

    def __init__(self, window: int = 5, min_votes: int = 3, max_missed: int = 5,
                 match: float = 0.5) -> None:
        if not 1 <= min_votes <= window:
            raise ValueError("min_votes must be between 1 and window")
        self.window, self.min_votes = window, min_votes
        self.max_missed, self.match = max_missed, match
        self.tracks: dict[int, Track] = {}
        self._next_id = 1

    def update(self, proposals: list[Proposal]) -> list[Proposal]:
        """Feed one frame's proposals; return the voted proposal of every live track."""
        unmatched = dict(self.tracks)
        for p in sorted(proposals, key=lambda p: -p.confidence):
            track = self._nearest(p, unmatched) or self._same_card(p, unmatched)
            if track is None:
                track = Track(self._next_id, p.quad, deque(maxlen=self.window))
                self.tracks[track.id] = track
                self._next_id += 1
            else:
                del unmatched[track.id]
            track.quad, track.missed = p.quad, 0
            track.readings.append(p)
        for track in unmatched.values():
            track.missed += 1
            if track.missed > self.max_missed:
                del self.tracks[track.id]
        return [self.vote(t) for t in self.tracks.values() if t.missed == 0]

    def _nearest(self, p: Proposal, candidates: dict[int, Track]) -> Track | None:
        best, best_d = None, float("inf")
        for track in candidates.values():
            d = float(np.linalg.norm(track.centre - np.asarray(p.centre)))
            if d < self.match * track.size and d < best_d:
                best, best_d = track, d
        return best

    @staticmethod
    def _same_card(p: Proposal, candidates: dict[int, Track]) -> Track | None:
        """The nearest of ``candidates`` that :func:`same_card_near` ``p``, or None."""
        near = [(d, t) for t in candidates.values() if (d := same_card_near(p, t)) is not None]
        return min(near, key=lambda n: n[0])[1] if near else None

    def vote(self, track: Track) -> Proposal:
        """The settled reading of ``track`` (card None until the votes agree)."""
        readings = list(track.readings)
        barcodes = [r for r in readings if r.source == "barcode" and r.card is not None]
        if barcodes:
            return replace(barcodes[-1], quad=track.quad, track=track.id)
        counts: Counter[Card] = Counter(r.card for r in readings if r.card is not None)
        card: Card | None = None
        confidence = 0.0
        if counts:
            (top, n), *rest = counts.most_common()
            if n >= self.min_votes and (not rest or rest[0][1] < n):
                others = sum(c for _, c in rest)
                mean = float(np.mean([r.confidence for r in readings if r.card == top]))
                card, confidence = top, mean * (n - others) / max(len(readings), self.min_votes)
        steps = [r.step for r in readings if r.step is not None]
        step = float(np.median(steps)) if steps else None
        return Proposal(card, round(confidence, 3), track.quad, "visual", track.id, step)

    def reset(self) -> None:
        self.tracks.clear()


def same_card_near(p: Proposal, track: Track) -> float | None:
    """How far ``p`` is from ``track`` if the track's readings name ``p``'s card most often and it
    is within a card's diagonal of it (:func:`card_apart`); else None."""
    counts = Counter(r.card for r in track.readings if r.card is not None)
    if not counts:
        return None
    return card_apart(p, counts.most_common(1)[0][0], track.centre,
                      [r.step for r in track.readings])


def card_apart(p: Proposal, card: Card | None, centre, steps: list[float | None]
               ) -> float | None:
    """How far ``p`` is from ``card`` seen at ``centre`` (frame pixels; ``steps``: the index
    steps it was read from) if ``p`` reads that card within a card's diagonal of it
    (CARD_DIAGONALS of the larger index step): the same card, perhaps read by its other corner
    index; else None."""
    if p.card is None or p.step is None or p.card != card:
        return None
    d = float(np.linalg.norm(np.asarray(centre) - np.asarray(p.centre)))
    return d if d < CARD_DIAGONALS * max(s for s in (p.step, *steps) if s is not None) else None
