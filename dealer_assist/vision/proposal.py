"""What the vision layer proposes to the dealer: a card (or unknown) at a place in the frame."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from dealer_assist.cards import Card

Source = Literal["visual", "barcode"]

# a card's diagonal in rank-to-suit steps of its index: on the training designs' faces 6 to 11
# at the median, up to 13.1 (dondorf, jolly-royal); 9 left the two corners of decks with small
# indices as two cards (on --synthetic training 3 such cards, at 12 one, at 14 none)
CARD_DIAGONALS = 14.0


@dataclass(frozen=True, eq=False)
class Proposal:
    """A reading: ``card`` is None when unsure (a wrong card is worse than no card).

    ``quad`` holds the four corners (frame pixels, float32 (4, 2)) of the card, index or label read.
    ``track`` identifies the same physical card across frames once :mod:`voting` has seen it.
    ``step``: the rank-to-suit step (frame pixels) of the largest corner index it was read
    from; None for a reading without one (a whole card alone, a barcode). :mod:`advice` tells
    the dealer from it when the cards are too small in the frame to be read surely.
    """

    card: Card | None
    confidence: float
    quad: np.ndarray = field(repr=False)
    source: Source = "visual"
    track: int | None = None
    step: float | None = None

    @property
    def centre(self) -> tuple[float, float]:
        cx, cy = self.quad.mean(axis=0)
        return float(cx), float(cy)

    @property
    def box(self) -> tuple[int, int, int, int]:
        """Axis-aligned (x, y, w, h) around the quad."""
        x0, y0 = self.quad.min(axis=0)
        x1, y1 = self.quad.max(axis=0)
        return int(x0), int(y0), int(x1 - x0), int(y1 - y0)

    @property
    def code(self) -> str | None:
        return None if self.card is None else self.card.code

    @property
    def label(self) -> str:
        return "?" if self.card is None else self.card.code
