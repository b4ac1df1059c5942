"""Issue 16, sixteenth step: under warm light the white mask looks for card paper in neutral
colour (``exposure.neutral_paper``); the networks read the frame as it is."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.vision import exposure
from dealer_assist.vision.detect import CARD_H, CARD_W, white_mask
from dealer_assist.vision.exposure import channel_levels, neutral_paper
from dealer_assist.vision.reader import face_picture
from dealer_assist.vision.recognizer import Recognizer

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.bench_vision import PERTURBATIONS, synthetic_items
from scripts.vision_data import decks, scenes

warm = PERTURBATIONS["warm"]


def table_with_a_card() -> np.ndarray:
    frame = np.full((240, 320, 3), (40, 110, 30), np.uint8)  # green felt
    frame[60:180, 100:190] = (235, 240, 245)  # card paper
    return frame


@pytest.mark.parametrize("seed", range(3))
def test_each_channel_s_level_is_its_brightest_thousandth_s_floor(seed: int) -> None:
    frame = np.random.default_rng(seed).integers(0, 256, (300, 200, 3), np.uint8)
    for c, level in enumerate(channel_levels(frame)):
        sample = frame[::4, ::4, c].ravel()
        k = int(sample.size * 0.999)
        assert level == np.partition(sample, k)[k]


def test_daylight_and_mild_casts_pass_as_they_are() -> None:
    frame = table_with_a_card()
    assert neutral_paper(frame) is frame
    tinted = (frame * np.float32([0.9, 1.0, 1.1])).clip(0, 255).astype(np.uint8)  # +-10 %
    assert neutral_paper(tinted) is tinted
    grey = np.full((20, 20), 200, np.uint8)
    assert neutral_paper(grey) is grey


def test_warm_paper_is_made_neutral_by_taking_channels_down() -> None:
    frame = warm(table_with_a_card())
    out = neutral_paper(frame)
    b, g, r = out[100, 140].astype(int)
    assert abs(g - b) <= 2 and abs(r - b) <= 2  # the paper is grey again
    assert (out <= frame).all()  # no channel amplified
    assert frame[100, 140].tolist() == warm(table_with_a_card())[100, 140].tolist()  # untouched


def test_the_white_mask_finds_card_paper_under_warm_light(monkeypatch) -> None:
    frame = warm(table_with_a_card())
    card = white_mask(frame)[60:180, 100:190]
    assert (card > 0).mean() > 0.9
    assert (white_mask(frame)[:50] == 0).all()  # not the felt
    monkeypatch.setattr(exposure, "CAST_RATIO", float("inf"))  # as before
    assert (white_mask(frame)[60:180, 100:190] > 0).mean() < 0.1


@pytest.mark.skipif("konqi-modern" not in decks.training_decks(),
                    reason="no SVG deck installed (kdegames-card-data-kf5)")
def test_a_scene_under_warm_light_reads_as_in_daylight(monkeypatch) -> None:
    """The nine-card training-design scene of the dark-light test: under warm light it read
    fewer cards before the white mask looked in neutral colour (two with the detector shipped
    until the sixtieth step, three with today's), never a card not on the table."""
    _name, frame, expected, on_table, *_sizes = list(
        synthetic_items("training", 2, 0, only=["konqi-modern"]))[1]
    recognizer = Recognizer()
    daylight = {p.code for p in recognizer.read(frame)} - {None}
    assert len(expected) == 9 and daylight == expected
    assert {p.code for p in recognizer.read(warm(frame))} - {None} == daylight
    monkeypatch.setattr(exposure, "CAST_RATIO", float("inf"))
    before = {p.code for p in recognizer.read(warm(frame))} - {None}
    assert len(before & expected) < len(expected) and before <= on_table


def upright_face(deck: str, code: str) -> np.ndarray:
    face = scenes.on_white(scenes.load_faces(deck)[code])
    return cv2.resize(face, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)


@pytest.mark.skipif("dondorf" not in decks.training_decks(),
                    reason="no SVG deck installed (kdegames-card-data-kf5)")
def test_an_ace_under_warm_light_is_no_court_picture(monkeypatch) -> None:
    """Under warm light the paper itself looked like a picture's yellow, and an outline's one
    pip (an ace) was taken for a court picture, which overrules its index."""
    aces = [upright_face(deck, code) for deck in ("dondorf", "standard") for code in ("AS", "AH")]
    king = upright_face("dondorf", "KH")
    assert not any(face_picture(warm(ace)) for ace in aces)
    assert face_picture(warm(king)) and face_picture(king)
    monkeypatch.setattr(exposure, "CAST_RATIO", float("inf"))  # as before
    assert all(face_picture(warm(ace)) for ace in aces)
