"""Frame in, proposals out: barcode labels first, then whole cards, then loose corner indices."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from dealer_assist.vision.barcode import read_barcodes
from dealer_assist.vision.detect import find_card_quads
from dealer_assist.vision.fan import find_loose_indices
from dealer_assist.vision.model import GlyphModel, model_path
from dealer_assist.vision.proposal import Proposal
from dealer_assist.vision.reader import read_card


@dataclass(frozen=True)
class Models:
    """The rank and suit glyph models a recogniser uses."""

    ranks: GlyphModel
    suits: GlyphModel

    @classmethod
    def shipped(cls) -> Models:
        return cls(GlyphModel.load(model_path("ranks")), GlyphModel.load(model_path("suits")))


class Recognizer:
    """Reads cards in frames with the shipped models, or with a calibrated deck's models."""

    def __init__(self, models: Models | None = None, barcodes: bool = True, fans: bool = True) -> None:
        self.models = models or Models.shipped()
        self.barcodes = barcodes
        self.fans = fans

    def read(self, frame: np.ndarray) -> list[Proposal]:
        """Every card found in ``frame`` (BGR); unknown cards have ``card=None``."""
        proposals = read_barcodes(frame) if self.barcodes else []
        for quad in find_card_quads(frame):
            if any(_covers(p.quad, quad) for p in proposals):
                continue  # a barcode label on this card already says what it is
            card, conf = read_card(frame, quad, self.models.ranks, self.models.suits)
            proposals.append(Proposal(card, conf, quad, "visual"))
        if self.fans:
            taken = [p.quad for p in proposals]
            proposals.extend(find_loose_indices(frame, self.models.ranks, self.models.suits, taken))
        return proposals


def _covers(inner: np.ndarray, outer: np.ndarray) -> bool:
    cx, cy = inner.mean(axis=0)
    return cv2.pointPolygonTest(outer.astype(np.float32).reshape(-1, 1, 2), (float(cx), float(cy)),
                                False) >= 0
