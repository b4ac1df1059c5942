"""Cut the rank and suit glyphs out of a card's corner index and turn them into feature vectors.

The corner index is read from an upright crop of the card's top-left corner (see
:func:`corner_crop`): ink (black or red) is separated from the white paper, the largest blob at the
top is the rank (the two digits of ``10`` are merged), the blob under it is the suit.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from dealer_assist.vision.detect import Quad

# card read at this size (w, h); the index lives in the top-left CORNER_W x CORNER_H pixels
READ_W, READ_H = 300, 420
CORNER_W, CORNER_H = 50, 126
GLYPH_SIZE = (16, 24)  # (w, h) of a normalised glyph
RED_ABOVE, BLACK_BELOW = 45.0, 22.0  # ink redness (paper-relative) of red and of black indices


@dataclass(frozen=True, slots=True)
class IndexGlyphs:
    """The two glyphs of one corner index, binarised (uint8 0/255), and whether the ink is red."""

    rank: np.ndarray
    suit: np.ndarray
    red: bool
    redness: float


def corner_crop(frame: np.ndarray, quad: Quad) -> np.ndarray:
    """Upright crop of the top-left corner of the card ``quad`` (ordered as by ``order_quad``)."""
    dst = np.array([[0, 0], [READ_W - 1, 0], [READ_W - 1, READ_H - 1], [0, READ_H - 1]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(frame, m, (CORNER_W, CORNER_H), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def ink_image(bgr: np.ndarray) -> np.ndarray:
    """How much each pixel looks like ink (black or red) rather than white paper: 0..255."""
    b, g, r = cv2.split(bgr)
    return cv2.bitwise_not(cv2.min(cv2.min(b, g), r))


def binarise(bgr: np.ndarray) -> np.ndarray | None:
    """Ink mask of a corner crop, or None when there is no clear ink/paper contrast."""
    ink = cv2.GaussianBlur(ink_image(bgr), (3, 3), 0)
    _t, mask = cv2.threshold(ink, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    n_fg = cv2.countNonZero(mask)
    if n_fg == 0 or n_fg == mask.size:
        return None
    fg = cv2.mean(ink, mask)[0]
    bg = cv2.mean(ink, cv2.bitwise_not(mask))[0]
    if fg - bg < 50:
        return None
    return mask


def split_index(bgr: np.ndarray) -> IndexGlyphs | None:
    """Rank and suit glyphs of an upright corner crop, or None if they cannot be found."""
    mask = binarise(bgr)
    if mask is None:
        return None
    h, w = mask.shape
    # a face card's picture frame runs close to the index: remove long vertical strokes
    lines = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((int(0.55 * h), 1), np.uint8))
    mask = cv2.bitwise_and(mask, cv2.bitwise_not(cv2.dilate(lines, np.ones((3, 3), np.uint8))))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    blobs, specks = [], []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if x + bw >= w - 1 or y + bh >= h - 1 or x <= 0 or y <= 0:
            continue  # card edge, table, a big pip or the picture frame cut by the crop
        if area < 0.002 * h * w or bh < 0.06 * h:
            if area >= 3:
                specks.append((y, x, bw, bh, i))  # a thin stroke cut off in a blurry image
            continue
        if bh > 0.45 * h or bw > 0.9 * w:
            continue
        blobs.append((y, x, bw, bh, i))
    if len(blobs) < 2:
        return None
    blobs.sort()
    y0, x0, bw0, bh0, i0 = blobs[0]
    rank_ids = [i0]
    rx0, rx1, ry1 = x0, x0 + bw0, y0 + bh0
    rest = []
    for y, x, bw, bh, i in blobs[1:]:
        overlap = min(y + bh, y0 + bh0) - max(y, y0)
        if overlap > 0.6 * min(bh, bh0):
            rank_ids.append(i)  # the other digit of "10"
            rx0, rx1, ry1 = min(rx0, x), max(rx1, x + bw), max(ry1, y + bh)
        else:
            rest.append((y, x, bw, bh, i))
    suit = None
    for y, x, bw, bh, i in rest:
        if y >= ry1 - 2 and x < rx1 and x + bw > rx0 and y - ry1 < 0.25 * h:
            suit = (y, x, bw, bh, i)
            break
    if suit is None:
        return None
    sy, sx, sw, sh, si = suit
    suit_ids = [si]
    for y, x, bw, bh, i in specks:
        cx, cy = x + bw / 2, y + bh / 2
        if rx0 <= cx <= rx1 and y0 <= cy <= ry1:
            rank_ids.append(i)  # e.g. the tail of a Q
        elif sx <= cx <= sx + sw and sy <= cy <= sy + 1.35 * sh:
            suit_ids.append(i)  # e.g. the stem of a spade
    rank_mask = np.isin(labels, rank_ids)
    suit_mask = np.isin(labels, suit_ids)
    redness = ink_redness(bgr, rank_mask | suit_mask)
    if BLACK_BELOW <= redness <= RED_ABOVE:
        return None  # neither clearly red nor clearly black (dim light, odd ink): do not guess
    return IndexGlyphs(_cut(rank_mask), _cut(suit_mask), redness > RED_ABOVE, redness)


def ink_redness(bgr: np.ndarray, ink: np.ndarray) -> float:
    """How red the ``ink`` pixels are (R above max(G, B)), relative to the paper's brightness."""
    px = bgr[ink].astype(np.float32)
    paper = bgr[~ink].max(axis=1).astype(np.float32)
    level = float(np.percentile(paper, 75)) if paper.size else 255.0
    return float(np.mean(px[:, 2] - np.maximum(px[:, 0], px[:, 1]))) * 255.0 / max(level, 40.0)


def _cut(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask)
    return (mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1] * 255).astype(np.uint8)


def glyph_features(glyph: np.ndarray) -> np.ndarray:
    """Feature vector of a binarised glyph: its shape squeezed to GLYPH_SIZE, plus its aspect."""
    h, w = glyph.shape
    small = cv2.resize(glyph, GLYPH_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    small = cv2.GaussianBlur(small, (3, 3), 0)
    vec = small.ravel() - small.mean()
    vec /= np.linalg.norm(vec) + 1e-6
    aspect = np.float32(np.log(w / h))
    return np.concatenate([vec, [aspect]]).astype(np.float32)


def suit_features(glyph: np.ndarray) -> np.ndarray:
    """Glyph features plus the width profile and solidity that tell a spade from a club."""
    h, w = glyph.shape
    rows = np.linspace(0.1, 0.9, 9) * (h - 1)
    profile = np.array([np.count_nonzero(glyph[int(r)]) / w for r in rows], np.float32)
    contours, _ = cv2.findContours(glyph, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    hull_area = cv2.contourArea(cv2.convexHull(outline))
    solidity = cv2.contourArea(outline) / hull_area if hull_area > 0 else 0.0
    extra = np.concatenate([0.6 * profile, [2.0 * solidity]])
    return np.concatenate([glyph_features(glyph), extra]).astype(np.float32)
