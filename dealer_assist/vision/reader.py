"""Read one whole card: both corner indices, checked against the face (pips or picture).

Evidence for the rank: the glyph classifier on each corner index, and the card's middle: a picture
(J, Q, K) or a count of pips (A, 2-10). The suit: the index suit glyphs, and the ink colour. A
reading is given a card only when the evidence agrees; otherwise the card is unknown.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from dealer_assist.cards import FACES, RANKS, Card
from dealer_assist.vision.detect import Quad, warp_card
from dealer_assist.vision.exposure import neutral_paper
from dealer_assist.vision.glyphs import (
    IndexGlyphs,
    binarise,
    corner_crop,
    glyph_features,
    split_index,
    suit_features,
)
from dealer_assist.vision.model import GlyphModel, Guess

NUMBER_RANKS = tuple(r for r in RANKS if r not in FACES)
RED_SUITS, BLACK_SUITS = ("H", "D"), ("C", "S")
MIN_SCORE = 0.80  # glyph similarity below this is not trusted
MIN_MARGIN = 0.03  # nor a glyph barely closer to its label than to another one
MIN_PIP_SCORE = 0.6  # a pip this unlike any suit (an ornate ace) gets no vote
AGREEMENT = {1: 0.75, 2: 0.9, 3: 1.0}  # confidence factor by agreeing cues (indices, pips/picture)
LOW_SCORE, WIDE_MARGIN = 0.65, 0.12  # ...unless it is far from every other allowed label


@dataclass(frozen=True)
class IndexReading:
    """The classifier's guesses for one corner index."""

    rank: Guess
    suit: Guess
    red: bool

    @property
    def trusted(self) -> bool:
        """A rank read well enough to vote."""
        score, margin = self.rank.score, self.rank.margin
        return (score >= MIN_SCORE and margin >= MIN_MARGIN) or (
            score >= LOW_SCORE and margin >= WIDE_MARGIN)


def read_index(glyphs: IndexGlyphs, ranks: GlyphModel, suits: GlyphModel,
               allowed_ranks: tuple[str, ...] | None = None) -> IndexReading | None:
    """Classify the two glyphs of a corner index (the suit among those of the ink's colour)."""
    rank = ranks.classify(glyph_features(glyphs.rank), allowed_ranks)
    suit = suits.classify(suit_features(glyphs.suit), RED_SUITS if glyphs.red else BLACK_SUITS)
    if rank is None or suit is None:
        return None
    return IndexReading(rank, suit, glyphs.red)


def face_picture(card: np.ndarray) -> bool:
    """Whether the middle of an upright warped card holds a coloured picture (J, Q, K). Looked
    at in neutral colour under a strongly coloured light (``exposure.neutral_paper``: under
    tungsten light the paper itself is yellow enough to be taken for a picture, and an ace's
    index was overruled; issue 16, sixteenth step)."""
    card = neutral_paper(card)
    h, w = card.shape[:2]
    mid = card[int(0.2 * h):int(0.8 * h), int(0.25 * w):int(0.75 * w)]
    hsv = cv2.cvtColor(mid, cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    coloured = (sat > 90) & (val > 60)
    yellow_or_blue = coloured & (((hue > 12) & (hue < 40)) | ((hue > 90) & (hue < 135)))
    return float(yellow_or_blue.mean()) > 0.04


def find_pips(card: np.ndarray) -> list[np.ndarray] | None:
    """Masks of the pips in the middle of an upright warped number card, top first; None if unclear.

    The top pip is upright (pips in the lower half are printed upside down).
    """
    h, w = card.shape[:2]
    x0, x1, y0, y1 = int(0.17 * w), int(0.83 * w), int(0.06 * h), int(0.94 * h)
    mask = binarise(card[y0:y1, x0:x1])
    if mask is None:
        return None
    _n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA]
    if len(areas) == 0 or areas.max() < 0.004 * h * w:
        return None
    keep = [i + 1 for i in np.nonzero(areas > 0.35 * areas.max())[0]]
    sizes = stats[keep, cv2.CC_STAT_AREA]
    if len(keep) > 10 or (len(keep) > 1 and sizes.max() > 2.2 * np.median(sizes)):
        return None  # pips of uneven size: two merged, or a smudge
    keep.sort(key=lambda i: stats[i, cv2.CC_STAT_TOP])
    return [(labels[y:y + bh, x:x + bw] == i).astype(np.uint8) * 255
            for i in keep for x, y, bw, bh in [stats[i, :4]]]


def _vote(labels: list[str]) -> str | None:
    """The label all votes agree on, or None."""
    return labels[0] if labels and len(set(labels)) == 1 else None


def read_card(frame: np.ndarray, quad: Quad, ranks: GlyphModel, suits: GlyphModel,
              warped: np.ndarray | None = None) -> tuple[Card | None, float]:
    """The card inside ``quad`` and a confidence in 0..1; (None, c) when the evidence disagrees.

    ``warped`` is the card already warped upright (any size), if the caller has it.
    """
    if warped is None:
        warped = warp_card(frame, quad)
    face = face_picture(warped)
    allowed = tuple(sorted(FACES)) if face else NUMBER_RANKS
    readings = []
    for q in (quad, np.roll(quad, -2, axis=0)):
        glyphs = split_index(corner_crop(frame, q))
        if glyphs is not None:
            reading = read_index(glyphs, ranks, suits, allowed)
            if reading is not None:
                readings.append(reading)
    if not readings or len({r.red for r in readings}) > 1:
        return None, 0.0
    red = readings[0].red
    trusted = [r for r in readings if r.trusted]
    rank = _vote([r.rank.label for r in trusted])
    suit_votes = [r.suit.label for r in readings]
    support = len(trusted) + face  # a picture is a cue too: it rules out A-10
    if rank is not None and not face:
        pips = find_pips(warped)
        pip_rank = None if pips is None else ("A" if len(pips) == 1 else str(len(pips)))
        if pip_rank == rank:
            support += 1
            pip_suit = suits.classify(suit_features(pips[0]), RED_SUITS if red else BLACK_SUITS)
            if pip_suit is not None and pip_suit.score >= MIN_PIP_SCORE:
                suit_votes.append(pip_suit.label)
        elif pip_rank in NUMBER_RANKS or max(r.rank.score for r in trusted) < MIN_SCORE:
            rank = None  # index and pips disagree, or a weak index with no pips to back it
    suit = _vote(suit_votes)
    if rank is None or suit is None:
        return None, 0.2
    score = float(np.mean([r.rank.score for r in trusted]))
    return Card(rank, suit), round(min(1.0, score) * AGREEMENT[min(support, 3)], 3)
