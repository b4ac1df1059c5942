"""Frame in, proposals out: whole cards (a QR label on a card beats its face), then the corner
indices of overlapping cards, and QR labels anywhere when no card outline is found."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from dealer_assist.vision.barcode import label_on_card, read_barcodes
from dealer_assist.vision.detect import DETECT_LONG_SIDE, find_cards, warp_card
from dealer_assist.vision.fan import find_loose_indices
from dealer_assist.vision.model import GlyphModel, model_path
from dealer_assist.vision.proposal import Proposal
from dealer_assist.vision.reader import read_card

MIN_SIDE = 16  # a frame narrower than this cannot show a readable corner index


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

    def __init__(self, models: Models | None = None, barcodes: bool = True,
                 fans: bool = True) -> None:
        self.models = models or Models.shipped()
        self.barcodes = barcodes
        self.fans = fans

    def read(self, frame: np.ndarray) -> list[Proposal]:
        """Every card found in ``frame`` (BGR); unknown cards have ``card=None``.

        Any frame size is accepted; one with a side under MIN_SIDE pixels holds no readable card.
        """
        if frame.ndim == 2:
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        if frame.ndim != 3 or frame.shape[2] != 3 or min(frame.shape[:2]) < MIN_SIDE:
            return []
        outlines = find_cards(frame)
        quads = outlines.quads
        proposals: list[Proposal] = []
        for quad in quads:
            face = warp_card(frame, quad)  # once, for the label search and the pip check
            label = label_on_card(face) if self.barcodes else None
            if label is not None:  # a barcode label beats reading the card's face
                proposals.append(Proposal(label, 1.0, quad, "barcode"))
            else:
                card, conf = read_card(frame, quad, self.models.ranks, self.models.suits, face)
                proposals.append(Proposal(card, conf, quad, "visual"))
        if self.barcodes and not quads:
            proposals.extend(_scaled_barcodes(frame))
        if self.fans:
            # overlapping cards: their outline is no card's (or a blob read as unknown)
            taken = [p.quad for p in proposals if p.card is not None]
            loose = find_loose_indices(frame, self.models.ranks, self.models.suits, taken,
                                       outlines)
            for blob in [p for p in proposals if p.card is None]:
                inside = [f for f in loose if _inside(f.centre, blob.quad)]
                if len({f.code for f in inside}) >= 2:
                    proposals.remove(blob)  # several overlapping cards, not one unreadable card
                else:
                    loose = [f for f in loose if f not in inside]  # the whole-card check stands
            proposals.extend(loose)
        return proposals


def _inside(point: tuple[float, float], quad: np.ndarray) -> bool:
    return cv2.pointPolygonTest(quad.astype(np.float32).reshape(-1, 1, 2), point, False) >= 0


def _scaled_barcodes(frame: np.ndarray) -> list[Proposal]:
    """Labels anywhere in the frame (searched at detection size, for speed)."""
    h, w = frame.shape[:2]
    scale = min(1.0, DETECT_LONG_SIDE / max(h, w))
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    return [Proposal(p.card, p.confidence, p.quad / scale, p.source)
            for p in read_barcodes(small, qr_only=True)]


def single_threaded() -> None:
    """Make OpenCV use one thread (benchmarks measure one core)."""
    cv2.setNumThreads(1)
