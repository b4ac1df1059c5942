"""Rank-over-suit pairs of ink blobs: the classical index proposals, and the crop a pair cuts.

Ink is whatever is darker than its neighbourhood on the darkest colour channel; each glyph-sized
blob is paired with a smaller one about a glyph away in any direction (rank over suit, the index
turned any way). Each pair (a :class:`Candidate`) gives an upright crop, scaled and turned by its
geometry, for the index network (``indices.py``). Glyphs that touch a printed line are cut off it
first (see LINE_MIN_LENGTH).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

CROP_W, CROP_H = 28, 40  # network input (w, h)
MIN_GLYPH, MAX_GLYPH = 6, 90  # rank glyph size (px, at the reader's work size)
MAX_CANDIDATES = 160  # a frame's most contrasted pairs (a busy 12-card scene has about 60)
MIN_CONTRAST = 40  # ink this much darker than the paper around it (0-255, dark channel)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A rank-over-suit pair: rank and suit centres (frame pixels) and the upright crop's quad."""

    rank: np.ndarray
    suit: np.ndarray
    quad: np.ndarray  # (4, 2) float32: crop corners TL, TR, BR, BL in frame pixels
    off_line: bool = False  # a glyph of it was cut off a line it touched (see LINE_MIN_LENGTH)
    detected: bool = False  # cut by the index detector's own (rough) rank and suit estimate
    anchored: bool = False  # cut on one glyph and the detector's step (see anchored_pairs)

    @property
    def size(self) -> float:
        return math.hypot(float(self.suit[0] - self.rank[0]), float(self.suit[1] - self.rank[1]))

    @property
    def centre(self) -> tuple[float, float]:
        c = (self.rank + self.suit) / 2
        return float(c[0]), float(c[1])


_REACH = 16 + 4  # px: the ink threshold's half block (31) and the paper dilation's (7), and a spare


def ink_mask(gray_dark: np.ndarray, block: int) -> np.ndarray:
    """Pixels clearly darker than their ``block``-sized neighbourhood (uint8 0/255)."""
    return cv2.adaptiveThreshold(gray_dark, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                 cv2.THRESH_BINARY_INV, block, 12)


def glyph_blobs(frame: np.ndarray, where: np.ndarray | None = None, lines: bool = False
                ) -> np.ndarray:
    """Glyph-sized ink blobs: rows of (cx, cy, size, area, w, h, contrast to the paper, off a
    line: 1 if the blob was cut off a long straight line it touched, else 0); ``where``: only ink
    inside this mask (uint8 0/255, the frame's size); ``lines``: also the glyphs cut off the long
    straight lines they touch (see LINE_MIN_LENGTH)."""
    if where is None:
        return _ink_blobs(frame, None, lines)
    # only around the mask: no filter reaches further, so these are the same blobs
    x, y, w, h = cv2.boundingRect(where)
    if w == 0:
        return np.zeros((0, 8), np.float32)
    x0, y0 = max(0, x - _REACH), max(0, y - _REACH)
    x1, y1 = min(frame.shape[1], x + w + _REACH), min(frame.shape[0], y + h + _REACH)
    return _ink_blobs(frame[y0:y1, x0:x1], where[y0:y1, x0:x1], lines, (x0, y0))


def blobs_off_lines(frame: np.ndarray) -> np.ndarray:
    """:func:`glyph_blobs` of the whole ``frame``, glyphs cut off the long straight lines they
    touch included (the training scenes' index anchors use it; the reader does not)."""
    return glyph_blobs(frame, lines=True)


# A glyph that touches a card's printed border line (a bordered deck, a fan or a pile: the next
# card's border) is one blob with the line, too large to be a glyph. In such large blobs, straight
# runs of ink at least LINE_MIN_LENGTH work pixels long (a glyph's strokes are shorter: a legible
# rank is 8-40 px tall) are erased LINE_WIDTH px wide, and what is left is searched for glyphs again
# (HoughLinesP, angles in LINE_ANGLE_STEP degree steps; blobs of LINE_MIN_AREA to LINE_MAX_AREA
# pixels); two such glyphs are no pair (mostly fragments of the lines). Only with
# glyph_blobs(lines=True): the training scenes' index anchors (blobs_off_lines). The reader's
# whole-frame pairs used it from the tenth step (chosen on --synthetic training, 240 scenes, seed
# 20261126: 620 cards against 617, 13 wrong either way; such a pair needed 0.99) to the
# twenty-fourth. Twenty-fifth step, rule AV (docs/vision-results.md): without it, and with the
# second network in int8, the reader takes 11 % less time for 0.5 % fewer cards, at the same
# precision (the Hough search was most of the whole-frame pass's cost on textured real tables).
LINE_MIN_LENGTH, LINE_WIDTH, LINE_ANGLE_STEP = 40, 3, 3.0
LINE_MIN_AREA, LINE_MAX_AREA = 40, 10000


_BYTES_OF_A_PIXEL = np.ones((1, 3), np.uint8)


def dark_channel(frame: np.ndarray) -> np.ndarray:
    """The darkest of each pixel's three channels of a uint8 BGR ``frame``: each row's bytes
    (B, G, R, B, G, R, ...) eroded three wide and read at every pixel's middle byte, the same
    values as min(B, G, R) in half the time."""
    h, w = frame.shape[:2]
    rows = cv2.erode(frame.reshape(h, w * 3), _BYTES_OF_A_PIXEL,
                     borderType=cv2.BORDER_REPLICATE)
    return np.ascontiguousarray(rows[:, 1::3])


def _ink_blobs(frame: np.ndarray, where: np.ndarray | None, lines: bool,
               origin: tuple[int, int] = (0, 0)) -> np.ndarray:
    """:func:`glyph_blobs` of the whole of ``frame``, a part of a larger frame at ``origin``."""
    dark = dark_channel(frame)
    # stretch contrast locally so a dim frame keeps the same threshold meaning
    mask = ink_mask(dark, 31)
    if where is not None:
        mask &= where
    # printed ink on paper is much darker than the brightest pixels just around it (wood grain,
    # cloth and soft shadows are not)
    lighter = cv2.subtract(cv2.dilate(dark, np.ones((7, 7), np.uint8)), dark)  # ≥ 0
    # BBDT gives the same components as the default (Spaghetti) at about half the time on these
    # masks (a textured table makes ~16 000 specks at 1280 px)
    components = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_BBDT)
    rows = _glyph_rows(mask, components, lighter, origin, 0.0)
    if not lines:
        return rows
    return np.vstack([rows, *_off_line_blobs(components, lighter, origin)])


def _glyph_rows(mask: np.ndarray, components, lighter: np.ndarray, origin: tuple[int, int],
                off_line: float) -> np.ndarray:
    """:func:`glyph_blobs`' rows of the glyph-sized, inky ``components`` of ``mask``."""
    _n, labels, stats, cents = components
    w, h, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
    size = np.maximum(w, h)
    keep = ((size >= 0.5 * MIN_GLYPH) & (size <= MAX_GLYPH) & (area >= 8)
            & (area >= 0.08 * w * h) & (w < 3 * h + 3) & (h < 4 * w + 3))
    contrast = _mean_inside(labels, stats, lighter, keep, mask)
    keep &= contrast >= MIN_CONTRAST
    rows = np.column_stack([cents[1:, 0] + origin[0], cents[1:, 1] + origin[1], size, area, w,
                            h, contrast, np.full(len(w), off_line)]).astype(np.float32)
    return rows[keep]


# up to this many glyph-shaped components, their contrast is summed in each one's own box (a
# tenth of the time of a pass over all the ink of a 1280-px frame); more (a textured table's
# specks), in one pass over the ink
BOXED_MOST = 300


def _mean_inside(labels: np.ndarray, stats: np.ndarray, values: np.ndarray, wanted: np.ndarray,
                 mask: np.ndarray) -> np.ndarray:
    """Per component 1..n of ``labels`` (``stats``: its boxes and areas; ``mask``: the pixels
    labelled), the mean of ``values`` (uint8) over its pixels, for the ``wanted`` ones (0 for the
    others): the same float64 sums either way, as the values are whole numbers."""
    area = stats[1:, 4]
    if wanted.sum() > BOXED_MOST:
        inked = mask > 0
        return (np.bincount(labels[inked], values[inked].astype(np.float32), len(stats))[1:]
                / np.maximum(area, 1))
    sums = np.zeros(len(area), np.float64)
    for k in np.flatnonzero(wanted):
        x, y, bw, bh = stats[k + 1, :4]
        box = np.s_[y:y + bh, x:x + bw]
        sums[k] = values[box][labels[box] == k + 1].sum(dtype=np.float64)
    return sums / np.maximum(area, 1)


def _off_line_blobs(components, lighter: np.ndarray, origin: tuple[int, int]
                    ) -> list[np.ndarray]:
    """:func:`glyph_blobs`' rows of the glyphs left in the components too large or too sparse to be
    a glyph once their long straight lines are erased (one array per component with a line)."""
    _n, labels, stats, _cents = components
    w, h, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
    size = np.maximum(w, h)
    drawings = np.flatnonzero(((size > MAX_GLYPH) | ((area < 0.08 * w * h) & (size >= MIN_GLYPH)))
                              & (area >= LINE_MIN_AREA) & (area <= LINE_MAX_AREA)) + 1
    out = []
    for k in drawings:
        x, y, bw, bh = (int(v) for v in stats[k, :4])
        ink = (labels[y:y + bh, x:x + bw] == k).astype(np.uint8) * 255
        lines = cv2.HoughLinesP(ink, 1, np.deg2rad(LINE_ANGLE_STEP), LINE_MIN_LENGTH * 3 // 4,
                                minLineLength=LINE_MIN_LENGTH, maxLineGap=2)
        if lines is None:
            continue
        for x1, y1, x2, y2 in lines.reshape(-1, 4):
            cv2.line(ink, (int(x1), int(y1)), (int(x2), int(y2)), 0, LINE_WIDTH)
        pieces = cv2.connectedComponentsWithStatsWithAlgorithm(ink, 8, cv2.CV_32S, cv2.CCL_BBDT)
        out.append(_glyph_rows(ink, pieces, lighter[y:y + bh, x:x + bw],
                               (origin[0] + x, origin[1] + y), 1.0))
    return out


def find_candidates(frame: np.ndarray, blobs: np.ndarray | None = None,
                    detected: list[tuple[np.ndarray, np.ndarray]] = (),
                    most: int = MAX_CANDIDATES) -> list[Candidate]:
    """The ``most`` inkiest rank-over-suit pairs of ink blobs in a BGR ``frame`` (any
    orientation), frame pixels. ``blobs``: the frame's :func:`glyph_blobs`, if the caller has them.
    ``detected``: (rank, suit) of indices found otherwise; pairs that agree with one of them
    (see :func:`agrees`) are left out, as its own pairs are read already."""
    if frame.ndim != 3 or min(frame.shape[:2]) < 8:
        return []
    blobs = glyph_blobs(frame) if blobs is None else blobs
    if len(blobs) < 2:
        return []
    xy, size, area, contrast = blobs[:, :2], blobs[:, 2], blobs[:, 3], blobs[:, 6]
    # every rank blob against the blobs within reach along x (sorted), all at once
    ranks = np.nonzero(size >= MIN_GLYPH)[0]
    order = np.argsort(xy[:, 0])
    xs = xy[order, 0]
    reach = 1.6 * size[ranks]
    lo = np.searchsorted(xs, xy[ranks, 0] - reach)
    counts = np.searchsorted(xs, xy[ranks, 0] + reach) - lo
    rank_of = np.repeat(ranks, counts)
    first = np.repeat(np.cumsum(counts) - counts, counts)
    suit_of = order[np.repeat(lo, counts) + np.arange(int(counts.sum())) - first]
    # pairs: the suit no larger than the rank, its centre 0.6-1.6 rank sizes away
    d = xy[suit_of] - xy[rank_of]
    dist = np.hypot(d[:, 0], d[:, 1])
    r_size = size[rank_of]
    ok = ((dist >= 0.6 * r_size) & (dist <= 1.6 * r_size) & (size[suit_of] <= 1.3 * r_size)
          & (size[suit_of] >= 0.35 * r_size) & (area[suit_of] <= 3 * area[rank_of]))
    # two pieces cut off lines are mostly the lines' own fragments, not an index
    ok &= (blobs[rank_of, 7] == 0) | (blobs[suit_of, 7] == 0)
    rank_of, suit_of = rank_of[ok], suit_of[ok]
    if len(detected) and len(rank_of):
        known = np.array([[*r, *s] for r, s in detected], np.float32)
        new = ~agrees(xy[rank_of], xy[suit_of], known[:, :2], known[:, 2:]).any(axis=1)
        rank_of, suit_of = rank_of[new], suit_of[new]
    if len(rank_of) > most:  # keep the inkiest pairs: faint ones are mostly texture
        inkiest = np.argsort(-np.minimum(contrast[rank_of], contrast[suit_of]), kind="stable")
        rank_of, suit_of = rank_of[inkiest[:most]], suit_of[inkiest[:most]]
    off_line = np.maximum(blobs[rank_of, 7], blobs[suit_of, 7]) > 0
    return _candidates(xy[rank_of], xy[suit_of], off_line)


def agrees(rank: np.ndarray, suit: np.ndarray, known_rank: np.ndarray, known_suit: np.ndarray
           ) -> np.ndarray:
    """(pairs, known) booleans: does a rank-to-suit pair agree with a known index (length
    0.65-1.5 times its, direction within 40°, middle within half its length)?"""
    v = (suit - rank)[:, None, :]
    u = (known_suit - known_rank)[None, :, :]
    length, known_length = np.hypot(v[..., 0], v[..., 1]), np.hypot(u[..., 0], u[..., 1])
    off = (rank + suit)[:, None, :] / 2 - (known_rank + known_suit)[None, :, :] / 2
    return ((length >= 0.65 * known_length) & (length <= 1.5 * known_length)
            & ((v * u).sum(axis=2) >= np.cos(np.deg2rad(40)) * length * known_length)
            & (np.hypot(off[..., 0], off[..., 1]) <= 0.5 * known_length))


def window_blobs(frame: np.ndarray, rank: np.ndarray, suit: np.ndarray) -> np.ndarray:
    """:func:`glyph_blobs` rows (centres in frame pixels) in a window of about two glyphs around
    a detected index (``rank``, ``suit``: the detector's estimate)."""
    d = float(np.hypot(*(suit - rank)))
    c = (rank + suit) / 2
    reach = int(2.0 * d + 6)
    h, w = frame.shape[:2]
    x0, y0 = max(0, int(c[0]) - reach), max(0, int(c[1]) - reach)
    x1, y1 = min(w, int(c[0]) + reach + 1), min(h, int(c[1]) + reach + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return np.zeros((0, 8), np.float32)
    blobs = glyph_blobs(frame[y0:y1, x0:x1])
    blobs[:, :2] += np.array([x0, y0], np.float32)
    return blobs


def local_pairs(frame: np.ndarray, rank: np.ndarray, suit: np.ndarray, most: int = 2,
                blobs: np.ndarray | None = None) -> list[Candidate]:
    """Rank-over-suit ink-blob pairs that agree with a detected index (``rank``, ``suit``: the
    detector's estimate; see :func:`agrees`), found in a window around it; the closest ``most``
    first. ``blobs``: the window's :func:`window_blobs`, if the caller has them."""
    blobs = window_blobs(frame, rank, suit) if blobs is None else blobs
    if len(blobs) < 2:
        return []
    d = float(np.hypot(*(suit - rank)))
    c = (rank + suit) / 2
    xy, size, area = blobs[:, :2], blobs[:, 2], blobs[:, 3]
    # every (rank i, suit j) pair of glyph sizes at once, ranks first, as a loop would find them
    ranks = np.nonzero(size >= MIN_GLYPH)[0]
    r_size, r_area = size[ranks, None], area[ranks, None]
    rows, cols = np.nonzero((size <= 1.3 * r_size) & (size >= 0.35 * r_size)
                            & (area <= 3 * r_area))
    rank_xy, suit_xy = xy[ranks[rows]], xy[cols]
    agree = agrees(rank_xy, suit_xy, rank[None, :], suit[None, :])[:, 0]
    rank_xy, suit_xy = rank_xy[agree], suit_xy[agree]
    v = suit_xy - rank_xy
    off = np.hypot(*((rank_xy + suit_xy) / 2 - c).T).astype(np.float64)
    miss = off + np.abs(np.hypot(v[:, 0], v[:, 1]).astype(np.float64) - d)
    best = np.argsort(miss, kind="stable")[:most]
    return [candidate(rank_xy[k], suit_xy[k]) for k in best]


# A detected index with no blob pair: in a fan or a pile one of its glyphs often merges with the
# next card's edge into one blob, while the other glyph is whole and where the index is. That
# glyph (a blob within ANCHOR_REACH steps of the detector's estimate of its centre, rank-sized:
# RANK_SIZES, or suit-sized: SUIT_SIZES, in steps) is paired with a point one detector step
# away: the crop is cut on it, not on the detector's rougher centre. Fifteenth step, chosen on
# the training designs (docs/vision-results.md)
ANCHOR_REACH = 0.5
RANK_SIZES, SUIT_SIZES = (0.6, 1.7), (0.3, 1.3)


def anchored_pairs(rank: np.ndarray, suit: np.ndarray, blobs: np.ndarray) -> list[Candidate]:
    """For a detected index (``rank``, ``suit``: the detector's estimate) and the
    :func:`window_blobs` around it: the blob nearest its rank estimate paired with the point one
    detector step on, and the blob nearest its suit estimate paired with the point one step
    back; each only if there is such a blob."""
    step = (suit - rank).astype(np.float32)
    d = float(np.hypot(*step))
    out = []
    k = _nearest_glyph(blobs, rank, d, RANK_SIZES, MIN_GLYPH)
    if k is not None:
        out.append(replace(candidate(blobs[k, :2], blobs[k, :2] + step), anchored=True))
    k = _nearest_glyph(blobs, suit, d, SUIT_SIZES)
    if k is not None:
        out.append(replace(candidate(blobs[k, :2] - step, blobs[k, :2]), anchored=True))
    return out


def _nearest_glyph(blobs: np.ndarray, at: np.ndarray, d: float, sizes: tuple[float, float],
                   least: float = 0.0) -> int | None:
    """The row of the blob nearest ``at``, within ANCHOR_REACH of step ``d``, whose size is
    ``sizes`` (in steps) and at least ``least`` px; None if there is none."""
    size = blobs[:, 2]
    dist = np.hypot(*(blobs[:, :2] - at).T)
    ok = ((size >= sizes[0] * d) & (size <= sizes[1] * d) & (size >= least)
          & (dist <= ANCHOR_REACH * d))
    if not ok.any():
        return None
    return int(np.flatnonzero(ok)[np.argmin(dist[ok])])


def candidate(rank: np.ndarray, suit: np.ndarray, off_line: bool = False,
               detected: bool = False) -> Candidate:
    down = suit - rank
    d = float(np.hypot(*down)) + 1e-6
    unit = down / d
    side = np.array([unit[1], -unit[0]], np.float32)  # "right" on the upright index
    # crop: 2.0 d wide, 2.86 d tall (same 28:40 aspect as the network input), the pair's middle
    # a little above the crop's centre
    half_w, top, bottom = 1.0 * d, 1.35 * d, 1.51 * d
    mid = (rank + suit) / 2
    tl = mid - unit * top - side * half_w
    tr = mid - unit * top + side * half_w
    br = mid + unit * bottom + side * half_w
    bl = mid + unit * bottom - side * half_w
    return Candidate(rank.astype(np.float32), suit.astype(np.float32),
                     np.array([tl, tr, br, bl], np.float32), off_line, detected)


def _candidates(rank: np.ndarray, suit: np.ndarray, off_line: np.ndarray | None = None
                ) -> list[Candidate]:
    """:func:`candidate` of each row of (N, 2) float32 ``rank`` and ``suit`` (and of
    ``off_line``, booleans), computed at once (the same float32 arithmetic, so the same
    quads)."""
    down = suit - rank
    d = np.hypot(down[:, 0], down[:, 1]).astype(np.float64) + 1e-6
    unit = down / d.astype(np.float32)[:, None]
    side = np.stack([unit[:, 1], -unit[:, 0]], axis=1)
    half_w, top, bottom = ((f * d).astype(np.float32)[:, None] for f in (1.0, 1.35, 1.51))
    mid = (rank + suit) / 2
    quads = np.stack([mid - unit * top - side * half_w, mid - unit * top + side * half_w,
                      mid + unit * bottom + side * half_w, mid + unit * bottom - side * half_w],
                     axis=1).astype(np.float32)
    if off_line is None:
        off_line = np.zeros(len(rank), bool)
    return [Candidate(r, s, q, bool(o))
            for r, s, q, o in zip(rank, suit, quads, off_line, strict=True)]


def recut(cand: Candidate, scale: float, across: float, along: float) -> Candidate:
    """``cand`` cut again: its rank-to-suit step times ``scale``, its middle moved ``across`` and
    ``along`` the step by those shares of it."""
    step = cand.suit - cand.rank
    length = float(np.hypot(*step))
    unit = step / (length + 1e-6)
    side = np.array([unit[1], -unit[0]], np.float32)
    mid = (cand.rank + cand.suit) / 2 + (across * side + along * unit) * length
    half = step / 2 * scale
    return candidate((mid - half).astype(np.float32), (mid + half).astype(np.float32))


_DST = np.array([[0, 0], [CROP_W, 0], [CROP_W, CROP_H], [0, CROP_H]], np.float32)


def crop(frame: np.ndarray, cand: Candidate) -> np.ndarray:
    """The candidate's upright crop (CROP_H x CROP_W x 3 uint8)."""
    m = cv2.getPerspectiveTransform(cand.quad, _DST)
    return cv2.warpPerspective(frame, m, (CROP_W, CROP_H), flags=cv2.INTER_AREA
                               if cand.size > 2 * CROP_H else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def stretched(c: Candidate, k: float) -> Candidate:
    """``c`` with its crop's quad ``k`` times as wide across the rank-to-suit step, as tall along
    it (an index foreshortened across its step is read narrower, k < 1; along it, wider)."""
    across = (c.quad[1] - c.quad[0]) * (k - 1) / 2
    return replace(c, quad=(c.quad + np.array([-across, across, across, -across])).astype(
        np.float32))


def widened(c: Candidate, k: float) -> Candidate:
    """``c`` with its crop's quad grown ``k`` times about its centre (more of what surrounds the
    index, at the same aspect; rank and suit unchanged)."""
    centre = c.quad.mean(axis=0)
    return Candidate(c.rank, c.suit, (centre + k * (c.quad - centre)).astype(np.float32),
                     c.off_line, c.detected, c.anchored)


def rescaled(c: Candidate, f: float) -> Candidate:
    """``c`` in the pixels of a frame ``f`` times as large."""
    return Candidate(c.rank * f, c.suit * f, c.quad * f)
