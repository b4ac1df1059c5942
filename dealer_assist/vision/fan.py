"""Corner indices of cards that overlap (a fan, a pile): read where no whole card outline is found.

In card-coloured regions not explained by a whole card, each ink blob is paired with a blob just
"below" it in any direction (rank over suit); the pair is turned upright using that direction, cut
like a corner index, and classified. Only pairs close to the region's edge (where indices are) and
read with a high score count; they are proposed with a lower confidence than whole cards.
"""

from __future__ import annotations

import cv2
import numpy as np

from dealer_assist.cards import Card
from dealer_assist.vision.detect import Outlines, find_cards
from dealer_assist.vision.glyphs import CORNER_H, CORNER_W, ink_image, split_index
from dealer_assist.vision.model import GlyphModel
from dealer_assist.vision.proposal import Proposal
from dealer_assist.vision.reader import read_index

MIN_SCORE = 0.88
MIN_MARGIN = 0.06
MIN_SUIT_MARGIN = 0.12
FAN_CONFIDENCE = 0.75  # below the usual auto-accept threshold: a dealer confirms these


def find_loose_indices(frame: np.ndarray, ranks: GlyphModel, suits: GlyphModel,
                       taken: list[np.ndarray], outlines: Outlines | None = None) -> list[Proposal]:
    """Readings of corner indices in card regions outside the ``taken`` quads (frame pixels).

    ``outlines`` is the frame's :func:`find_cards` result, if the caller has it.
    """
    if outlines is None:
        outlines = find_cards(frame)
    mask, scale = outlines.mask.copy(), outlines.scale
    for quad in taken:
        cv2.fillPoly(mask, [(quad * scale).astype(np.int32)], 0)
    # close notches where an index glyph near the card's edge cuts into the white outline
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((11, 11), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    proposals: list[Proposal] = []
    for contour in contours:
        if cv2.contourArea(contour) < 0.01 * mask.size:
            continue
        x, y, bw, bh = cv2.boundingRect(contour)
        x0, y0 = int(x / scale), int(y / scale)
        # the scaled box can end a pixel past the frame (e.g. 963 rows seen as 482): clip it
        x1 = min(int((x + bw) / scale), frame.shape[1])
        y1 = min(int((y + bh) / scale), frame.shape[0])
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue
        region = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(region, [contour - [x, y]], -1, 255, -1)
        region = cv2.resize(region, (x1 - x0, y1 - y0), interpolation=cv2.INTER_NEAREST)
        proposals.extend(_read_region(frame[y0:y1, x0:x1], region, (x0, y0), ranks, suits))
    return proposals


def _read_region(patch: np.ndarray, region: np.ndarray, origin: tuple[int, int],
                 ranks: GlyphModel, suits: GlyphModel) -> list[Proposal]:
    ink = ink_image(patch)
    _t, inkmask = cv2.threshold(ink, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    inkmask &= region
    edge_dist = cv2.distanceTransform(region, cv2.DIST_L2, 3)
    n, _, stats, _cents = cv2.connectedComponentsWithStats(inkmask, connectivity=8)
    boxes = [tuple(stats[i, :4]) for i in range(1, n) if stats[i, 4] >= 20]
    blobs = [(np.array([x + w / 2, y + h / 2]), float(max(w, h)), float(w * h))
             for x, y, w, h in _group_digits(boxes)]
    best: dict[str, Proposal] = {}
    for ca, sa, aa in blobs:
        if edge_dist[int(ca[1]), int(ca[0])] > 1.3 * sa:
            continue
        for cb, sb, ab in blobs:
            d = cb - ca
            dist = float(np.hypot(*d))
            # an index: the suit sits about one rank height below the rank and is smaller
            if not 0.75 * sa <= dist <= 1.4 * sa or not 0.45 * sa <= sb <= sa or ab > aa:
                continue
            proposal = _read_pair(patch, ca, d, sa, origin, ranks, suits)
            if proposal is not None and proposal.code is not None:
                old = best.get(proposal.code)
                if old is None or old.confidence < proposal.confidence:
                    best[proposal.code] = proposal
    return list(best.values())


def _group_digits(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Merge side-by-side blobs of the same size (the "1" and "0" of a 10) into one box."""
    boxes = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                sa, sb = max(a[2], a[3]), max(b[2], b[3])
                ca = np.array([a[0] + a[2] / 2, a[1] + a[3] / 2])
                cb = np.array([b[0] + b[2] / 2, b[1] + b[3] / 2])
                if 0.8 < sa / sb < 1.25 and np.linalg.norm(ca - cb) < 0.75 * max(sa, sb):
                    x0, y0 = min(a[0], b[0]), min(a[1], b[1])
                    x1, y1 = max(a[0] + a[2], b[0] + b[2]), max(a[1] + a[3], b[1] + b[3])
                    boxes[i] = (x0, y0, x1 - x0, y1 - y0)
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return boxes


def _read_pair(patch: np.ndarray, rank_centre: np.ndarray, down: np.ndarray, size: float,
               origin: tuple[int, int], ranks: GlyphModel, suits: GlyphModel) -> Proposal | None:
    """Cut an upright index-shaped crop around a rank blob whose suit lies along ``down``."""
    unit = down / (np.linalg.norm(down) + 1e-6)
    side = np.array([unit[1], -unit[0]])  # "right" when ``down`` points down the card
    # the index crop: rank glyph near the top, suit under it; same proportions as a corner crop
    height = size * CORNER_H / 46
    width = height * CORNER_W / CORNER_H
    top_left = rank_centre - unit * size * 0.9 - side * width * 0.5
    src = np.array([top_left, top_left + side * width, top_left + side * width + unit * height,
                    top_left + unit * height], np.float32)
    dst = np.array([[0, 0], [CORNER_W - 1, 0], [CORNER_W - 1, CORNER_H - 1], [0, CORNER_H - 1]],
                   np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    crop = cv2.warpPerspective(patch, m, (CORNER_W, CORNER_H), borderValue=(255, 255, 255))
    glyphs = split_index(crop)
    if glyphs is None:
        return None
    reading = read_index(glyphs, ranks, suits)
    if reading is None or reading.rank.score < MIN_SCORE or reading.rank.margin < MIN_MARGIN:
        return None
    if reading.suit.score < MIN_SCORE or reading.suit.margin < MIN_SUIT_MARGIN:
        return None  # e.g. a heart half hidden by the next card looks like a diamond
    card = Card(reading.rank.label, reading.suit.label)
    quad = src + np.array(origin, np.float32)
    return Proposal(card, FAN_CONFIDENCE * reading.rank.score, quad, "visual")
