"""Photos a user would take to adapt the recogniser to their deck: a few cards laid out side by
side on a table, in everyday light, each photo labelled with the cards in it (no positions).

Benchmark and test code only (the faces come from ``decks``/``scenes``, rendered with QtSvg).
"""

from __future__ import annotations

import cv2
import numpy as np

from scripts.vision_data import scenes


def deck_photo(rng: np.random.Generator, faces: dict[str, np.ndarray], codes: list[str],
               size: tuple[int, int] = (1280, 960), max_tilt: float = 20.0
               ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """``codes`` laid out in a loose grid, not overlapping, a little turned, the camera tilted
    up to ``max_tilt`` degrees; a random table, everyday light and camera. Also each card's
    outline in the photo (for checking, not given to the adaptation)."""
    w, h = size
    img = scenes.background(rng, w, h)
    cols = int(np.ceil(np.sqrt(len(codes) * w / h / scenes.CARD_ASPECT)))
    rows = int(np.ceil(len(codes) / cols))
    height = 0.8 * min(h / rows, w / cols / scenes.CARD_ASPECT)
    tilt = scenes.tilt_homography(rng, w, h, max_tilt)
    outlines = {}
    for i, code in enumerate(codes):
        centre = ((i % cols + 0.5) * w / cols + rng.normal(0, 0.03 * height),
                  (i // cols + 0.5) * h / rows + rng.normal(0, 0.03 * height))
        quad = scenes.card_rect(centre, height * rng.uniform(0.92, 1.0), rng.normal(0, 6)
                                + 180 * (rng.random() < 0.5))
        quad = cv2.perspectiveTransform(quad[None].astype(np.float64), tilt)[0]
        outlines[code] = quad.astype(np.float32)
        face = faces[code]
        fh, fw = face.shape[:2]
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        hm = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
        warped = cv2.warpPerspective(face, hm, (w, h), flags=cv2.INTER_AREA)
        a = warped[..., 3:4].astype(np.float32) / 255
        img = (img * (1 - a) + warped[..., :3] * a).astype(np.uint8)
    return scenes.mild_degrade(rng, img), outlines


def deck_photos(deck: str, n: int, seed: int) -> list[tuple[np.ndarray, set[str]]]:
    """``n`` photos that together show every card of ``deck`` once, with their labels."""
    from scripts.vision_data import decks

    faces = scenes.load_faces(deck)
    rng = np.random.default_rng(seed)
    codes = list(rng.permutation(decks.CODES))
    groups = [codes[i::n] for i in range(n)]
    return [(deck_photo(rng, faces, [str(c) for c in g])[0], {str(c) for c in g}) for g in groups]


def suit_photos(deck: str, seed: int) -> list[tuple[np.ndarray, set[str]]]:
    """Four photos of ``deck``, each the 13 cards of one suit, as the app's "Teach a deck"
    dialog asks the dealer to take them (``dealer_assist.vision.teach``)."""
    from dealer_assist.vision.teach import STEPS

    faces = scenes.load_faces(deck)
    rng = np.random.default_rng(seed)
    return [(deck_photo(rng, faces, sorted(step.cards))[0], set(step.cards)) for step in STEPS]
