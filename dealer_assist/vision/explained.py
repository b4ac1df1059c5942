"""Card outlines that are read already: inside them the index reader looks for nothing more.

A card outline (``detect.find_cards``: a white, card-shaped, filled quad) is a card lying on top
of whatever is under it, or a tight pile or fan seen as one. Once the detector's crops inside it
read one card only, in two of its corners, at the scale of that card's own index (its long side
EXPLAINED_STEPS times the index's rank-to-suit step), the rest of its ink is that card's: its
pips, its picture, more of its indices. The
reader then spends nothing more there: no whole-frame ink pairs on that paper, and no second,
stretched or detector's second look at its other crops (the looks that cost most on a court
card, whose picture the detector and the ink pairs take for indices). A white region that holds
a card at another scale (a white cloth around it), or readings of two cards (a pile), or one
corner read (two cards overlapping in one card-shaped outline, or a card with one index
hidden), is not explained: everything is looked at there as before.

Issue 16, sixty-seventh step (rule FF, docs/vision-results.md).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

# a card's long side over its index's rank-to-suit step, for the reading to explain the card:
# chosen on the training designs (seed 20261579's training and oblique scenes and 20261563's
# fans: 502 readings inside outlines, the middle half 5.7-10.7, jumbo and steep indices from
# about 4, small ones to 14; the tail beyond is outlines around more than one card)
EXPLAINED_STEPS = (4.0, 14.0)


def long_side(quad: np.ndarray) -> float:
    """The mean length of a quad's two longer opposite sides."""
    q = np.asarray(quad, np.float64)
    one = np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[3] - q[2])
    other = np.linalg.norm(q[2] - q[1]) + np.linalg.norm(q[0] - q[3])
    return max(one, other) / 2


def inside(points: np.ndarray, quads: Sequence[np.ndarray]) -> np.ndarray:
    """For each of ``points`` (N, 2), whether it lies in any of the convex ``quads``."""
    points = np.asarray(points, np.float64).reshape(-1, 2)
    out = np.zeros(len(points), bool)
    for quad in quads:
        q = np.asarray(quad, np.float64)
        edge = np.roll(q, -1, axis=0) - q  # each side, in order
        to_point = points[:, None, :] - q[None, :, :]
        cross = edge[None, :, 0] * to_point[..., 1] - edge[None, :, 1] * to_point[..., 0]
        out |= (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)
    return out


def corner_of(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """For each of ``points`` (N, 2), the corner of a card with outline ``quad``
    (``detect.order_quad``'s order) whose index it is where (within a quarter of the width and a
    fifth of the height of the corner): 0-3 in the quad's order, or -1."""
    points = np.asarray(points, np.float32).reshape(-1, 1, 2)
    if len(points) == 0:
        return np.zeros(0, int)
    to_unit = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), _UNIT)
    uv = cv2.perspectiveTransform(points, to_unit)
    u, v = uv[:, 0, 0], uv[:, 0, 1]
    near = (np.minimum(u, 1 - u) <= 0.25) & (np.minimum(v, 1 - v) <= 0.2)
    corner = np.where(v > 0.5, np.where(u > 0.5, 2, 3), np.where(u > 0.5, 1, 0))
    return np.where(near, corner, -1)


def in_corner(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """For each of ``points`` (N, 2), whether it is where a corner index of a card with outline
    ``quad`` is printed (:func:`corner_of`)."""
    return corner_of(points, quad) >= 0


_UNIT = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])


def explained(quads: Sequence[np.ndarray], centres: np.ndarray, steps: np.ndarray,
              cards: Sequence[str]) -> list[np.ndarray]:
    """The ``quads`` (``detect.order_quad``'s order) that are one card read: the readings
    inside (their ``centres`` (N, 2) and rank-to-suit ``steps`` in the quads' pixels, and the
    ``cards`` they name) all name one card, and two of them are in two of its corners at that
    card's own index scale (EXPLAINED_STEPS). Readings of two cards make it a pile or a fan seen
    as one; one corner read may be one card of two overlapping in a card-shaped outline."""
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    steps = np.asarray(steps, np.float64).reshape(-1)
    out = []
    for quad in quads:
        held = inside(centres, [quad])
        if len({c for c, h in zip(cards, held, strict=True) if h}) != 1:
            continue
        ratio = long_side(quad) / np.maximum(steps, 1e-6)
        at_scale = held & (ratio >= EXPLAINED_STEPS[0]) & (ratio <= EXPLAINED_STEPS[1])
        corners = set(corner_of(centres[at_scale], quad).tolist()) - {-1}
        if len(corners) >= 2:
            out.append(np.asarray(quad, np.float32))
    return out


def without(mask: np.ndarray, quads: Sequence[np.ndarray]) -> np.ndarray:
    """A copy of the uint8 ``mask`` with the ``quads`` (its pixels) cleared."""
    out = mask.copy()
    if quads:
        cv2.fillPoly(out, [np.round(q).astype(np.int32) for q in quads], 0)
    return out
