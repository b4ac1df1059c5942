"""Draw what was read on a frame: card outlines with labels, and the seats' zones."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from dealer_assist.vision.proposal import Proposal
from dealer_assist.vision.zones import ZoneMap

GREEN, AMBER, BLUE, GREY = (60, 200, 60), (0, 170, 255), (255, 140, 0), (160, 160, 160)


def annotate(frame: np.ndarray, proposals: Sequence[Proposal], zones: ZoneMap | None = None,
             highlight: int | None = None) -> np.ndarray:
    """A copy of ``frame`` with zones (seat numbers) and each proposal's outline and label.

    Known cards are green (blue when read from a barcode), unknown ones amber; the proposal whose
    track is ``highlight`` is drawn thicker.
    """
    out = frame.copy()
    h, w = out.shape[:2]
    scale = max(h, w) / 1000
    if zones is not None:
        for zone in zones.zones:
            poly = zone.pixels((w, h)).astype(np.int32)
            cv2.polylines(out, [poly], True, GREY, max(1, int(2 * scale)), cv2.LINE_AA)
            x, y = poly.min(axis=0)
            _label(out, f"seat {zone.seat}", (int(x) + 8, int(y) + int(34 * scale)), GREY, scale)
    for p in proposals:
        colour = AMBER if p.card is None else BLUE if p.source == "barcode" else GREEN
        thick = max(2, int((6 if p.track is not None and p.track == highlight else 3) * scale))
        cv2.polylines(out, [p.quad.astype(np.int32)], True, colour, thick, cv2.LINE_AA)
        x, y = p.quad.min(axis=0)
        text = f"{p.label} {p.confidence:.0%}" if p.card is not None else "?"
        _label(out, text, (int(x), max(int(30 * scale), int(y) - int(8 * scale))), colour, scale)
    return out


def _label(img: np.ndarray, text: str, org: tuple[int, int], colour: tuple[int, ...],
           scale: float) -> None:
    font_scale = 0.9 * scale
    thick = max(1, int(2 * scale))
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thick)
    x, y = org
    cv2.rectangle(img, (x - 2, y - th - 4), (x + tw + 4, y + base), (30, 30, 30), -1)
    cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, font_scale, colour, thick, cv2.LINE_AA)
