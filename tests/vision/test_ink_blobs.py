"""The ink-blob search's faster steps (issue 16, forty-first step) give what the plain ones gave:
the dark channel, and each component's contrast summed in its own box or over all the ink."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.vision import ink_pairs
from dealer_assist.vision.synth import random_fan


@settings(max_examples=60, deadline=None)
@given(h=st.integers(1, 40), w=st.integers(1, 40), seed=st.integers(0, 2**32 - 1),
       x0=st.integers(0, 5), y0=st.integers(0, 5))
def test_the_dark_channel_is_each_pixel_s_darkest_channel(h, w, seed, x0, y0) -> None:
    frame = np.random.default_rng(seed).integers(0, 256, (h + 6, w + 6, 3), dtype=np.uint8)
    view = frame[y0:y0 + h, x0:x0 + w]  # a window: rows that are not contiguous in memory
    dark = ink_pairs.dark_channel(view)
    assert dark.shape == (h, w) and dark.dtype == np.uint8 and dark.flags.c_contiguous
    assert np.array_equal(dark, view.min(axis=2))


def blobs_both_ways(frame: np.ndarray, monkeypatch) -> tuple[np.ndarray, np.ndarray]:
    monkeypatch.setattr(ink_pairs, "BOXED_MOST", 10**9)  # every component in its own box
    boxed = ink_pairs.glyph_blobs(frame)
    monkeypatch.setattr(ink_pairs, "BOXED_MOST", -1)  # one pass over all the ink
    return boxed, ink_pairs.glyph_blobs(frame)


def test_glyph_blobs_are_the_same_whichever_way_their_contrast_is_summed(monkeypatch) -> None:
    frame, cards = random_fan(np.random.default_rng(3), 0)
    boxed, in_one_pass = blobs_both_ways(frame, monkeypatch)
    assert len(boxed) >= 2 * len(cards)  # a rank and a suit, at least, of every card
    assert np.array_equal(boxed, in_one_pass)


def test_a_textured_frame_s_many_specks_are_summed_in_one_pass(monkeypatch) -> None:
    """Over BOXED_MOST glyph-shaped components (a textured table), one pass is quicker: both
    ways still agree."""
    rng = np.random.default_rng(5)
    frame = np.full((400, 600, 3), 235, np.uint8)
    for _ in range(900):  # dark specks of glyph size
        x, y = int(rng.integers(5, 595)), int(rng.integers(5, 395))
        cv2.circle(frame, (x, y), int(rng.integers(2, 4)), (20, 20, 20), -1)
    components = cv2.connectedComponentsWithStats(
        ink_pairs.ink_mask(ink_pairs.dark_channel(frame), 31), 8)
    assert components[0] - 1 > ink_pairs.BOXED_MOST
    boxed, in_one_pass = blobs_both_ways(frame, monkeypatch)
    assert len(boxed) > ink_pairs.BOXED_MOST
    assert np.array_equal(boxed, in_one_pass)


def test_a_widened_candidate_shows_its_crop_smaller_in_the_middle() -> None:
    """``widened`` grows the crop's quad about its centre and keeps the rank and suit."""
    from dealer_assist.vision.ink_pairs import candidate, widened

    c = candidate(np.array([50, 40], np.float32), np.array([50, 60], np.float32))
    w = widened(c, 2.0)
    assert np.array_equal(w.rank, c.rank) and np.array_equal(w.suit, c.suit)
    assert np.allclose(w.quad.mean(axis=0), c.quad.mean(axis=0))
    assert np.allclose(w.quad - w.quad.mean(axis=0), 2 * (c.quad - c.quad.mean(axis=0)))
    assert widened(c, 1.0).quad.tolist() == c.quad.tolist()
