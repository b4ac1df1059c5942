"""The benchmark's steep camera sets (``bench_vision.py --synthetic oblique|training-oblique``)."""

from __future__ import annotations

import cv2
import numpy as np

from scripts.bench_vision import OBLIQUE_TILT, synthetic_scenes
from scripts.vision_data import decks
from scripts.vision_data.scenes import tilt_homography

W, H = 1280, 960


def keystone(homography: np.ndarray) -> float:
    """How much longer the table's far edge (the frame's top before the tilt) is drawn than its
    near edge: 1 for a camera looking straight down."""
    c = cv2.perspectiveTransform(np.float64([[[0, 0], [W, 0], [W, H], [0, H]]]), homography)[0]
    return float(np.linalg.norm(c[1] - c[0]) / np.linalg.norm(c[2] - c[3]))


def test_a_steep_tilt_draws_a_stronger_keystone_than_a_gentle_one() -> None:
    rng = np.random.default_rng(1)
    steep = [keystone(tilt_homography(rng, W, H, OBLIQUE_TILT[1], OBLIQUE_TILT[0]))
             for _ in range(100)]
    gentle = [keystone(tilt_homography(rng, W, H, 20.0)) for _ in range(100)]
    assert min(steep) > max(gentle)


def test_the_oblique_sets_show_the_designs_of_their_kind() -> None:
    (deck, _i, scene, _anchors, _marks), = synthetic_scenes("training-oblique", 1, 3)
    assert deck in decks.training_decks()
    assert scene.image.shape == (H, W, 3)
    (deck, *_rest), = synthetic_scenes("oblique", 1, 3)
    assert deck in decks.held_out_decks()
