"""Find whole cards in a frame: bright low-saturation blobs whose outline is a card-shaped quad.

A *quad* is a float32 array of shape (4, 2) in frame pixels, ordered clockwise from the card's
top-left corner with the short edge first, so that :func:`warp_card` gives an upright portrait card
(or the same card turned 180°, which reads the same: the index sits in two opposite corners).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from dealer_assist.vision.exposure import neutral_paper

MAX_OUTLINES = 24  # more card-shaped regions than this in one frame are a pattern
CARD_W, CARD_H = 240, 336  # a whole card warped upright (poker card 63 x 88 mm)
DETECT_LONG_SIDE = 640  # frames are searched at this size, then read at full size

Quad = np.ndarray


def order_quad(pts: np.ndarray) -> Quad:
    """Order four points clockwise on screen, starting so that the first edge is a short one."""
    pts = np.asarray(pts, dtype=np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen (y points down)
    e0 = np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[3] - pts[2])
    e1 = np.linalg.norm(pts[2] - pts[1]) + np.linalg.norm(pts[0] - pts[3])
    if e0 > e1:
        pts = np.roll(pts, -1, axis=0)
    # of the two short-edge-first orders, start at the upper one so the result is stable
    if pts[0, 1] + pts[1, 1] > pts[2, 1] + pts[3, 1]:
        pts = np.roll(pts, -2, axis=0)
    return pts


def warp_card(frame: np.ndarray, quad: Quad,
              size: tuple[int, int] = (CARD_W, CARD_H)) -> np.ndarray:
    """The card inside ``quad`` warped to an upright ``size`` (w, h) image."""
    w, h = size
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, dtype=np.float32), dst)
    return cv2.warpPerspective(frame, m, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def scaled_down(frame: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
    """``frame`` scaled down (INTER_AREA) to at most ``long_side`` pixels on its long side, and
    the scale; at least one pixel a side (a 1 x 4000 frame stays 1 x 640)."""
    h, w = frame.shape[:2]
    scale = min(1.0, long_side / max(h, w))
    if scale < 1:
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    return frame, scale


def white_mask(small: np.ndarray) -> np.ndarray:
    """Card paper: bright, unsaturated pixels (measured in neutral colour under a strongly
    coloured light, see exposure.CAST_RATIO), uint8 0/255."""
    hsv = cv2.cvtColor(neutral_paper(small), cv2.COLOR_BGR2HSV)
    sat, val = hsv[..., 1], hsv[..., 2]
    mask = ((val > max(_bright(val), 90)) & (sat < 70)).astype(np.uint8) * 255
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _bright(val: np.ndarray) -> float:
    """The brightness above which a pixel is among the frame's bright things (Otsu)."""
    otsu, _ = cv2.threshold(val, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return otsu


def _edge_mask(small: np.ndarray) -> np.ndarray:
    """Regions enclosed by edges that are bright (a card's face is among the frame's bright
    things, whatever the colour of the light, and however dim: no floor, unlike white_mask)."""
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(gray, (5, 5), 0), 30, 90)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    inside = cv2.bitwise_not(edges)
    val = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)[..., 2]
    inside[val <= _bright(val)] = 0
    return cv2.erode(inside, np.ones((3, 3), np.uint8))


def _quad_of(contour: np.ndarray, min_area: float) -> Quad | None:
    area = cv2.contourArea(contour)
    if area < min_area:
        return None
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    approx = None
    for eps in (0.02, 0.03, 0.045):
        cand = cv2.approxPolyDP(hull, eps * peri, True)
        if len(cand) == 4:
            approx = cand.reshape(4, 2).astype(np.float32)
            break
    if approx is None:
        rect = cv2.minAreaRect(hull)
        box = cv2.boxPoints(rect)
        if area < 0.85 * rect[1][0] * rect[1][1]:
            return None
        approx = box.astype(np.float32)
    if area < 0.85 * cv2.contourArea(approx.reshape(-1, 1, 2)):
        return None  # outline is not a filled quad (a fan or a blob of several cards)
    quad = order_quad(approx)
    short = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[3] - quad[2])) / 2
    long_ = (np.linalg.norm(quad[2] - quad[1]) + np.linalg.norm(quad[0] - quad[3])) / 2
    if short < 1 or not 1.0 <= long_ / short <= 3.6:  # a card seen at a low angle looks long
        return None
    return quad


@dataclass(frozen=True)
class Outlines:
    """Whole cards found in a frame, the card-white mask they were found in and the frame at
    detection size (``small``, for other searches at that size).

    ``mask`` and ``small`` are at detection size: frame pixels times ``scale``.
    """

    quads: list[Quad]
    mask: np.ndarray
    scale: float
    small: np.ndarray


def find_card_quads(frame: np.ndarray, min_area_frac: float = 0.004) -> list[Quad]:
    """Outlines of whole cards in ``frame`` (BGR), in frame pixels, largest first."""
    return find_cards(frame, min_area_frac).quads


def find_cards(frame: np.ndarray, min_area_frac: float = 0.004) -> Outlines:
    """Whole cards in ``frame``: white blobs shaped like a card; edges if no blob is one."""
    small, scale = scaled_down(frame, DETECT_LONG_SIDE)
    min_area = min_area_frac * small.shape[0] * small.shape[1]
    max_area = 0.9 * small.shape[0] * small.shape[1]
    found: list[_Found] = []
    white = white_mask(small)
    for make_mask in (lambda: white, lambda: _edge_mask(small)):
        contours, _ = cv2.findContours(make_mask(), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            q = _quad_of(c, min_area)
            if q is None:
                continue
            f = _Found(q, cv2.contourArea(q), (*q.min(axis=0), *q.max(axis=0)))
            if f.area > max_area or any(_overlap(f, other) for other in found):
                continue
            found.append(f)
        if len(found) > MAX_OUTLINES:
            found = []  # a pattern (a checked cloth, tiles), not cards
        if found:
            break
    found.sort(key=lambda f: -f.area)
    return Outlines([f.quad / scale for f in found], white, scale, small)


@dataclass(frozen=True, slots=True)
class _Found:
    """A card-shaped quad at detection size, its area and bounding box (x0, y0, x1, y1)."""

    quad: Quad
    area: float
    box: tuple[float, float, float, float]


def _overlap(a: _Found, b: _Found) -> bool:
    """Do two quads share more than 30 % of the smaller one? (Most quads are far apart: their
    bounding boxes say so without intersecting the quads.)"""
    if a.box[0] > b.box[2] or b.box[0] > a.box[2] or a.box[1] > b.box[3] or b.box[1] > a.box[3]:
        return False
    inter, _ = cv2.intersectConvexConvex(a.quad, b.quad)
    return inter > 0.3 * min(a.area, b.area)
