"""The shipped index network: it loads without the training stack and reads rendered table scenes
of deck designs it was never trained on (Debian's kdegames-card-data-kf5, installed by setup.sh)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.vision.indices import CLASSES, IndexReader, _percentile95
from dealer_assist.vision.recognizer import Recognizer

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.vision_data import decks, scenes

needs_decks = pytest.mark.skipif(not decks.held_out_decks(),
                                 reason="no SVG deck installed (kdegames-card-data-kf5)")


def test_the_shipped_model_loads_and_gives_a_probability_per_class() -> None:
    reader = IndexReader()
    probs = reader.probabilities(np.full((3, 40, 28, 3), 255, np.uint8))
    assert probs.shape == (3, len(CLASSES))
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    assert (probs.argmax(axis=1) == 0).all()  # a blank crop is not an index


def unseen_scene(deck: str, seed: int, kind: str):
    """A rendered table of ``deck`` and the cards with an index in full view and legible (rank and
    suit centres 8 px or more apart)."""
    faces = scenes.load_faces(deck)
    anchors = scenes.anchors_of(deck, faces)
    rng = np.random.default_rng(seed)
    sc = scenes.make_scene(rng, faces, (1280, 960), kind=kind, max_tilt=25, mild=True)
    return sc, {m.code for m in scenes.visible_indices(sc, anchors) if m.legible()}


@needs_decks
@pytest.mark.parametrize("kind", ["single", "fan"])
def test_reads_a_scene_of_a_deck_design_never_trained_on(kind: str) -> None:
    recognizer = Recognizer()
    right = wrong = total = 0
    for i, deck in enumerate(decks.held_out_decks() * 2):
        assert deck not in decks.training_decks()
        sc, expected = unseen_scene(deck, 100 + i, kind)
        read = {p.code for p in recognizer.read(sc.image)} - {None}
        right += len(read & expected)
        wrong += len(read - {c.code for c in sc.cards})  # a card not on the table
        total += len(expected)
    assert total >= 8
    assert wrong == 0
    # shipped model (third step): 38/53 scattered, 8/9 in fans; the second step's 29/53 and 6/9
    # (it would fail this bar); before issue 16 about 5 %
    assert right >= 0.65 * total


@needs_decks
def test_without_the_index_network_the_same_scenes_read_worse() -> None:
    """The network is what reads unseen decks (not the whole-card glyph models)."""
    with_index = without = 0
    for seed, deck in enumerate(decks.held_out_decks()):
        sc, expected = unseen_scene(deck, 200 + seed, "fan")
        with_index += len({p.code for p in Recognizer().read(sc.image)} & expected)
        without += len({p.code for p in Recognizer(index=False).read(sc.image)} & expected)
    assert with_index > without


@given(st.integers(1, 40), st.integers(2, 400), st.integers(0, 2**32 - 1), st.booleans())
@settings(max_examples=200, deadline=None)
def test_each_crops_bright_level_is_numpys_95th_percentile(n: int, m: int, seed: int,
                                                           flat: bool) -> None:
    """The crops' contrast stretch takes each crop's 95th percentile from its histogram: the
    same value as ``np.percentile`` (linear), ties and single values included."""
    rng = np.random.default_rng(seed)
    rows = (rng.integers(0, 3, (n, m)) * 120 if flat else rng.integers(0, 256, (n, m))
            ).astype(np.uint8)
    expected = np.percentile(rows, 95, axis=1).astype(np.float32)
    assert np.allclose(_percentile95(rows), expected, rtol=0, atol=1e-4)
