"""Barcode cards: a QR code (or any 1D/2D symbol zbar reads) whose payload names one card.

Payload format: ``31DA:<code>`` with a canonical card code, e.g. ``31DA:QS`` or ``31DA:10H``. A bare
code (``QS``) is accepted too, so a deck labelled by another tool still reads; anything else is
ignored. A barcode reading has confidence 1.0 and beats a visual reading of the same card.
"""

from __future__ import annotations

import cv2
import numpy as np
from pyzbar import pyzbar

from dealer_assist.cards import Card, CardError, parse_card
from dealer_assist.vision.proposal import Proposal

PREFIX = "31DA:"


def encode_payload(card: Card | str) -> str:
    """The label text for a card: ``31DA:QS``."""
    return PREFIX + parse_card(card).code


def decode_payload(data: bytes | str) -> Card | None:
    """The card a label names, or None if the payload is not a card label."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    text = text.strip()
    if text.upper().startswith(PREFIX):
        text = text[len(PREFIX):]
    elif len(text) > 3:
        return None
    try:
        return parse_card(text)
    except CardError:
        return None


def read_barcodes(frame: np.ndarray, qr_only: bool = False) -> list[Proposal]:
    """Card labels found in ``frame`` (BGR or grey), one proposal per symbol.

    zbar is slow on big frames (~65 ms for 1280x960 with every symbology): the recogniser calls this
    on each card's warped image, and on a reduced frame only when no card outline is found.
    """
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    found = []
    symbols = [pyzbar.ZBarSymbol.QRCODE] if qr_only else None
    for symbol in pyzbar.decode(gray, symbols=symbols):
        card = decode_payload(symbol.data)
        if card is None:
            continue
        pts = np.array([(p.x, p.y) for p in symbol.polygon], np.float32)
        if len(pts) != 4:
            x, y, w, h = symbol.rect
            pts = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)
        found.append(Proposal(card, 1.0, pts, "barcode"))
    return found


def finder_patterns(gray: np.ndarray) -> int:
    """How many QR finder-pattern-like shapes (a square ring around a square) ``gray`` shows."""
    _, ink = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    contours, hierarchy = cv2.findContours(ink, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return 0
    child = hierarchy[0][:, 2]
    # needs a hole that holds another blob: a child that has a child (most blobs have none)
    nested = np.nonzero((child >= 0) & (hierarchy[0][np.maximum(child, 0), 2] >= 0))[0]
    found = 0
    for i in nested:
        _, _, w, h = cv2.boundingRect(contours[i])
        if w >= 5 and 0.6 < w / h < 1.6 and cv2.contourArea(contours[i]) > 0.6 * w * h:
            found += 1
    return found


def labels_anywhere(frame: np.ndarray) -> list[Proposal]:
    """QR labels anywhere in ``frame`` (BGR or grey: a warped card, or the whole frame when no
    card outline is found).

    zbar runs only if the frame shows at least two finder-pattern-like shapes (a cheap test):
    most cards and most frames without an outline have no label, and zbar takes ~5 ms a frame.
    """
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if finder_patterns(gray) < 2:
        return []
    return read_barcodes(gray, qr_only=True)


def label_on_card(card_image: np.ndarray) -> Card | None:
    """The card named by a QR label stuck on an upright warped card image, if there is one.

    zbar runs only if the card shows at least two finder-pattern-like shapes (a cheap test).
    """
    cards = {p.card for p in labels_anywhere(card_image)}
    return cards.pop() if len(cards) == 1 else None
