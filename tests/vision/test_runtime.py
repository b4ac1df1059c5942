"""The shipped detector on ONNX Runtime (vision/runtime.py) gives what OpenCV's cv2.dnn gives for
the same file (the index networks are int8 files cv2.dnn cannot run: test_build_quantize.py
checks their rounding), and the per-frame shortcuts of the speed work (issue 16) change no
reading."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.vision.detect import find_cards
from dealer_assist.vision.index_detector import IndexDetector
from dealer_assist.vision.indices import IndexReader

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.vision_data import decks, scenes

needs_decks = pytest.mark.skipif(not decks.held_out_decks(),
                                 reason="no SVG deck installed (kdegames-card-data-kf5)")


def table(seed: int, kind: str | None = None) -> np.ndarray:
    deck = decks.held_out_decks()[seed % len(decks.held_out_decks())]
    rng = np.random.default_rng(seed)
    return scenes.make_scene(rng, scenes.load_faces(deck), (1280, 960), kind=kind,
                             mild=True).image


@needs_decks
def test_the_detector_maps_agree_with_cv2_dnn() -> None:
    detector = IndexDetector()
    net = cv2.dnn.readNetFromONNX(str(detector.path))
    frame = cv2.resize(table(1), (640, 480), interpolation=cv2.INTER_AREA)
    net.setInput(cv2.dnn.blobFromImage(frame, 1 / 255.0))
    expected = net.forward()[0]
    maps, scale = detector.maps(frame)
    assert scale == 1.0 and maps.shape == expected.shape
    assert np.abs(maps - expected).max() < 1e-4


@needs_decks
@pytest.mark.parametrize("size", [(1280, 960), (1279, 963), (800, 600), (2000, 1500)])
def test_the_outline_search_frame_serves_the_detector_without_changing_a_reading(size) -> None:
    """The recogniser hands the detector the frame the outline search scaled to 640 px; the index
    readings are those of the detector scaling it itself, at any frame size."""
    frame = cv2.resize(table(7, "single"), size, interpolation=cv2.INTER_AREA)
    reader = IndexReader()
    alone = reader.read(frame)
    shared = reader.read(frame, find_cards(frame).small)
    assert alone, "the table should show some readable index"
    assert [(r.card, r.prob, r.candidate.centre) for r in shared] == \
        [(r.card, r.prob, r.candidate.centre) for r in alone]


def test_load_error_says_why_a_file_is_no_network(tmp_path: Path) -> None:
    from dealer_assist.vision.model import model_path
    from dealer_assist.vision.runtime import load_error

    assert load_error(model_path("index_det", ".onnx")) is None
    notes = tmp_path / "notes.onnx"
    notes.write_text("not a network\n")
    for path in (notes, tmp_path / "missing.onnx"):
        why = load_error(path)
        assert why and "\n" not in why
