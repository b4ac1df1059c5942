"""Issue 16's sixty-seventh step (rule FG's candidate): a frame whose card outlines are all close
to the camera is read at half size, where their indices are in the detector's range
(``indices.close_to_camera``, ``IndexReader(close_up=True)``)."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.vision import indices
from dealer_assist.vision.detect import find_cards
from dealer_assist.vision.index_detector import IndexDetector
from dealer_assist.vision.indices import (
    CLOSE_FROM,
    CLOSE_SIZES,
    IndexReader,
    close_to_camera,
    work_size,
)
from dealer_assist.vision.recognizer import Recognizer

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.vision_data import decks, scenes

DECK = "tigullio-international"  # a held-out design whose court cards find_cards outlines
needs_decks = pytest.mark.skipif(DECK not in decks.held_out_decks(),
                                 reason="no SVG deck installed (kdegames-card-data-kf5)")


def outline(long_side: float) -> np.ndarray:
    """A card outline ``long_side`` px long (a 1280 x 960 frame's pixels)."""
    return cv2.boxPoints(((640.0, 480.0), (long_side * 0.7, long_side), 10.0))


def test_a_frame_is_close_when_all_its_outlines_are_long_at_the_detectors_size() -> None:
    frame = np.zeros((960, 1280, 3), np.uint8)  # 640 px at the detector's size: half
    long_enough = 2 * CLOSE_FROM * 1.01
    assert close_to_camera(frame, [outline(long_enough)])
    assert close_to_camera(frame, [outline(long_enough), outline(long_enough * 1.3)])
    assert not close_to_camera(frame, [outline(2 * CLOSE_FROM * 0.99)])
    assert not close_to_camera(frame, [outline(long_enough), outline(300)])  # one far card
    assert not close_to_camera(frame, [])  # no outline: nothing says the cards are close
    small = np.zeros((480, 640, 3), np.uint8)  # at the detector's size already
    assert close_to_camera(small, [outline(CLOSE_FROM * 1.01)])


def test_the_work_image_can_be_read_at_another_size() -> None:
    frame = np.zeros((960, 1280, 3), np.uint8)
    assert work_size(frame)[0].shape[:2] == (960, 1280)
    half, scale = work_size(frame, CLOSE_SIZES[0], CLOSE_SIZES[1])
    assert half.shape[:2] == (480, 640) and scale == 0.5
    small, scale = work_size(np.zeros((240, 320, 3), np.uint8), CLOSE_SIZES[0], CLOSE_SIZES[1])
    assert small.shape[:2] == (240, 320) and scale == 1.0  # never enlarged


def card_on_felt(code: str, height: float, at: tuple[float, float] = (640.0, 480.0),
                 table: np.ndarray | None = None) -> np.ndarray:
    """A card of DECK, ``height`` px tall and a little turned, on green felt (or ``table``)."""
    face = scenes.on_white(scenes.load_faces(DECK)[code])
    h, w = face.shape[:2]
    table = np.full((960, 1280, 3), (40, 110, 30), np.uint8) if table is None else table
    quad = cv2.boxPoints((at, (height * w / h, height), 8.0)).astype(np.float32)
    m = cv2.getPerspectiveTransform(np.float32([[0, h], [0, 0], [w, 0], [w, h]]), quad)
    card = cv2.warpPerspective(face, m, table.shape[1::-1])
    inked = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, table.shape[1::-1]) > 0
    table[inked] = card[inked]
    return table


def detector_sizes(monkeypatch) -> list[int]:
    """The long sides of the frames the index detector's first pass runs at."""
    sizes: list[int] = []
    maps = IndexDetector.maps

    def spy(self, frame, scaled=None, long_side=indices.DET_LONG_SIDE):
        sizes.append(long_side)
        return maps(self, frame, scaled, long_side)

    monkeypatch.setattr(IndexDetector, "maps", spy)
    return sizes


@needs_decks
def test_a_card_close_to_the_camera_is_read_at_half_size(monkeypatch) -> None:
    frame = card_on_felt("JD", 900)
    assert close_to_camera(frame, find_cards(frame).quads)
    sizes = detector_sizes(monkeypatch)
    reader = IndexReader(close_up=True)
    proposals = Recognizer(index_reader=reader).read(frame)
    assert "JD" in {p.code for p in proposals}
    assert sizes[0] == CLOSE_SIZES[2]
    assert reader.sizes == indices.USUAL_SIZES  # back to the usual sizes after the frame
    read = [p for p in proposals if p.code == "JD"]
    assert max(np.ptp(p.quad[:, 0]) for p in read) > 300  # in the frame's own pixels


@needs_decks
def test_a_close_card_beside_a_far_one_is_read_at_the_usual_size(monkeypatch) -> None:
    frame = card_on_felt("7C", 180, at=(1120.0, 200.0), table=card_on_felt("JD", 900))
    assert len(find_cards(frame).quads) == 2
    sizes = detector_sizes(monkeypatch)
    IndexReader(close_up=True).read(frame, outlines=find_cards(frame).quads)
    assert sizes[0] == indices.DET_LONG_SIDE


def test_the_shipped_reader_reads_every_frame_at_the_usual_size() -> None:
    assert indices.SHIPPED_CLOSE_UP is False
    assert IndexReader().close_up is False
