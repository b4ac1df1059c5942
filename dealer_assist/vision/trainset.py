"""Training glyphs for the shipped models: synthetic card corners, augmented, cut like real ones."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from dealer_assist.cards import RANKS, SUITS, Card
from dealer_assist.vision import synth
from dealer_assist.vision.glyphs import (
    IndexGlyphs,
    corner_crop,
    glyph_features,
    split_index,
    suit_features,
)


def augmented_corners(card: Card, rng: np.random.Generator, count: int, font: str
                      ) -> Iterator[IndexGlyphs]:
    """``count`` attempts at glyphs of ``card``'s index after random rendering and degradation."""
    for _ in range(count):
        scale = rng.choice([0.5, 0.7, 1.0, 1.4])
        w, h = int(300 * scale), int(420 * scale)
        img = synth.render_card(card, size=(w, h), font=font,
                                weight=float(rng.uniform(-0.03, 0.07)),
                                width=float(rng.uniform(0.7, 1.1)),
                                paper=tuple(int(v) for v in rng.integers(200, 256, 3)))
        img = cv2.copyMakeBorder(img, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=(40, 90, 40))
        quad = np.array([[20, 20], [20 + w, 20], [20 + w, 20 + h], [20, 20 + h]], np.float32)
        quad += rng.normal(0, 0.012 * h, quad.shape).astype(np.float32)
        img = synth.degrade(img, seed=int(rng.integers(1 << 30)), blur=float(rng.uniform(0, 1.2)),
                            noise=float(rng.uniform(0, 8)), light=float(rng.uniform(0, 0.4)))
        if rng.random() < 0.5:  # a compressed camera frame
            quality = int(rng.integers(40, 90))
            _ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
            img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        glyphs = split_index(corner_crop(img, quad))
        if glyphs is not None:
            yield glyphs


def without_stem(glyph: np.ndarray) -> np.ndarray:
    """A spade or club whose thin stem is lost, as in a small or blurry photo."""
    k = max(3, int(0.22 * glyph.shape[0]) | 1)
    body = cv2.morphologyEx(glyph, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    ys, xs = np.nonzero(body)
    if len(ys) < 0.5 * np.count_nonzero(glyph):
        return glyph
    return body[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def build_training_set(per_font: int = 4, seed: int = 0
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rank features/labels and suit features/labels from every font and card."""
    rng = np.random.default_rng(seed)
    rank_x, rank_y, suit_x, suit_y = [], [], [], []
    for font in synth.FONTS:
        for rank in RANKS:
            for suit in SUITS:
                for g in augmented_corners(Card(rank, suit), rng, per_font, font):
                    rank_x.append(glyph_features(g.rank))
                    rank_y.append(rank)
                    suit_x.append(suit_features(g.suit))
                    suit_y.append(suit)
                    if suit in "SC" and rng.random() < 0.5:
                        suit_x.append(suit_features(without_stem(g.suit)))
                        suit_y.append(suit)
    return np.array(rank_x), np.array(rank_y), np.array(suit_x), np.array(suit_y)
