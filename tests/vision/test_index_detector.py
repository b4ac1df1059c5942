"""The shipped index detector (models/index_det.onnx): it runs without the training stack
(ONNX Runtime), finds the printed indices of a deck design it was never trained on, and spares
the whole-card reader where the indices already settle a card."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from dealer_assist.vision import recognizer as recognizer_module
from dealer_assist.vision.index_detector import IndexDetector
from dealer_assist.vision.recognizer import Recognizer

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.vision_data import decks, scenes

needs_decks = pytest.mark.skipif(not decks.held_out_decks(),
                                 reason="no SVG deck installed (kdegames-card-data-kf5)")


def scene_of(deck: str, seed: int, kind: str):
    """A rendered table of ``deck`` and its indices in full view and legible (rank to suit centre
    8 px or more): (code, rank centre, suit centre)."""
    faces = scenes.load_faces(deck)
    anchors = scenes.anchors_of(deck, faces)
    rng = np.random.default_rng(seed)
    sc = scenes.make_scene(rng, faces, (1280, 960), kind=kind, max_tilt=25, mild=True)
    marks = [(m.code, m.rank, m.suit) for m in scenes.visible_indices(sc, anchors)
             if m.legible()]
    return sc, marks


def test_the_detector_gives_nothing_on_an_empty_table() -> None:
    felt = np.zeros((720, 1280, 3), np.uint8)
    felt[:] = (40, 110, 30)
    assert IndexDetector().peaks(felt) == []


@needs_decks
def test_the_detector_finds_the_indices_of_deck_designs_never_trained_on() -> None:
    """A peak on the index's centre whose rank-to-suit direction and size are right."""
    detector = IndexDetector()
    found = total = 0
    for i, deck in enumerate(decks.held_out_decks() * 2):
        assert deck not in decks.training_decks()
        sc, marks = scene_of(deck, 300 + i, "single")
        peaks = detector.peaks(sc.image)
        for _code, rank, suit in marks:
            d = float(np.linalg.norm(suit - rank))
            total += 1
            found += any(np.linalg.norm((r + s) / 2 - (rank + suit) / 2) < 0.5 * d
                         and np.dot(s - r, suit - rank) > np.cos(np.deg2rad(30)) * d
                         * np.linalg.norm(s - r)
                         and 0.6 * d < np.linalg.norm(s - r) < 1.6 * d
                         for _p, r, s in peaks)
    assert total >= 20
    assert found >= 0.65 * total  # shipped model: 63 of 76 (65 of 76 have a peak there)


@needs_decks
def test_a_lone_card_read_from_its_indices_skips_the_whole_card_reader(monkeypatch) -> None:
    calls = []
    real = recognizer_module.read_card
    monkeypatch.setattr(recognizer_module, "read_card",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    deck = decks.held_out_decks()[0]
    faces = scenes.load_faces(deck)
    frame = np.zeros((960, 1280, 3), np.uint8)
    frame[:] = (40, 110, 30)
    face = scenes.on_white(faces["7H"])
    h, w = face.shape[:2]
    frame[200:200 + h, 400:400 + w] = face
    proposals = Recognizer().read(frame)
    assert [p.code for p in proposals] == ["7H"]
    assert calls == []  # the indices (and pips) settled it
    assert [p.code for p in Recognizer(always_whole_card=True).read(frame)] == ["7H"]
    assert calls  # the old path reads the whole card as well
