"""Printable QR labels for barcode cards (payload format in :mod:`barcode`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import segno

from dealer_assist.cards import Card
from dealer_assist.vision.barcode import encode_payload

QUIET = 4  # modules of white border around a QR code, as the standard asks


def qr_matrix(card: Card) -> np.ndarray:
    """The QR code of ``card``'s label as a bool array (True = dark), quiet zone included."""
    qr = segno.make_qr(encode_payload(card), error="m")
    return np.array([list(row) for row in qr.matrix_iter(scale=1, border=QUIET)], bool)


def label_image(card: Card, module_px: int = 8) -> np.ndarray:
    """A BGR label: the QR code with the card's code printed under it."""
    modules = qr_matrix(card)
    qr = np.where(np.kron(modules, np.ones((module_px, module_px), bool)), 0, 255).astype(np.uint8)
    size = qr.shape[1]
    caption = np.full((size // 4, size), 255, np.uint8)
    scale = size / 260
    text = card.code
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, int(3 * scale)))
    cv2.putText(caption, text, ((size - tw) // 2, (caption.shape[0] + th) // 2 - int(6 * scale)),
                cv2.FONT_HERSHEY_SIMPLEX, scale, 0, max(1, int(3 * scale)), cv2.LINE_AA)
    return cv2.cvtColor(np.vstack([qr, caption]), cv2.COLOR_GRAY2BGR)


def label_sheet(cards: Sequence[Card], columns: int = 6, module_px: int = 8) -> np.ndarray:
    """All labels in a grid on one white sheet (BGR)."""
    tiles = [label_image(c, module_px) for c in cards]
    th = max(t.shape[0] for t in tiles)
    tw = max(t.shape[1] for t in tiles)
    rows = -(-len(tiles) // columns)
    gap = module_px * 2
    sheet = np.full((rows * (th + gap) + gap, columns * (tw + gap) + gap, 3), 255, np.uint8)
    for i, tile in enumerate(tiles):
        r, c = divmod(i, columns)
        y, x = gap + r * (th + gap), gap + c * (tw + gap)
        sheet[y:y + tile.shape[0], x:x + tile.shape[1]] = tile
        cv2.rectangle(sheet, (x - 1, y - 1), (x + tile.shape[1], y + tile.shape[0]), (200,) * 3, 1)
    return sheet


def write_image(path: Path, image: np.ndarray) -> None:
    """Save an image; the format follows the file suffix."""
    if not cv2.imwrite(str(path), image):
        raise OSError(f"cannot write {path}")
