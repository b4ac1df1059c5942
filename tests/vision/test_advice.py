"""The "move the camera closer" advice: index steps as the reader sees them, pooled over frames,
from the recogniser through the live reader to the camera panel."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dealer_assist.cards import parse_card
from dealer_assist.gui.camera_panel import CameraPanel
from dealer_assist.vision import synth
from dealer_assist.vision.advice import (
    MIN_READINGS,
    MOVE_CLOSER,
    SMALL_STEP,
    WINDOW,
    SizeAdvice,
    reader_steps,
    too_small,
)
from dealer_assist.vision.labels import write_image
from dealer_assist.vision.live import LiveReader
from dealer_assist.vision.proposal import Proposal
from dealer_assist.vision.recognizer import Recognizer
from dealer_assist.vision.sources import ImageFolderSource
from dealer_assist.vision.voting import Voter

CODES = ("QS", "7H", "10D", "AC")
QUAD = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], np.float32)


def read_with_step(step: float | None, code: str = "QS") -> Proposal:
    return Proposal(parse_card(code), 0.9, QUAD, step=step)


def row_of_cards(height: float, seed: int = 1) -> np.ndarray:
    """A 1280×960 table with four drawn cards of ``height`` px in a row."""
    quads = [synth.card_quad((250 + 260 * i, 480), height, 5) for i in range(4)]
    return synth.scene([parse_card(c) for c in CODES], quads, seed=seed, noise=3)


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


def test_steps_are_in_the_pixels_the_reader_sees() -> None:
    reads = [read_with_step(24.0), read_with_step(None), read_with_step(12.0)]
    assert reader_steps(reads, (1280, 960)) == [24.0, 12.0]
    assert reader_steps(reads, (2560, 1440)) == [12.0, 6.0]  # scaled down to 1280 first
    assert reader_steps(reads, (640, 480)) == [24.0, 12.0]  # enlarging adds no detail


def test_too_small_needs_enough_readings_and_a_small_median() -> None:
    small = SMALL_STEP - 1
    assert not too_small([small] * (MIN_READINGS - 1))
    assert too_small([small] * MIN_READINGS)
    assert not too_small([small, SMALL_STEP, SMALL_STEP + 10])  # the median is not small
    assert too_small([small, small, SMALL_STEP + 10])
    assert not too_small([])


def test_advice_pools_the_last_frames_and_clears() -> None:
    advice = SizeAdvice()
    one_small = [read_with_step(10.0)]
    said = [advice.update(one_small, (1280, 960)) for _ in range(MIN_READINGS)]
    assert said == [None] * (MIN_READINGS - 1) + [MOVE_CLOSER]  # one card in three frames
    big = [read_with_step(30.0, c) for c in CODES]
    assert advice.update(big, (1280, 960)) is None  # the median is big now
    for _ in range(WINDOW):
        advice.update([], (1280, 960))
    assert advice.update(one_small, (1280, 960)) is None  # the old frames left the window
    advice.reset()
    assert not advice.frames


def test_the_voter_keeps_the_step() -> None:
    voter = Voter(window=5, min_votes=3)
    for step in (10.0, 12.0, 20.0):
        voted = voter.update([read_with_step(step)])
    assert voted[0].card == parse_card("QS") and voted[0].step == 12.0  # the median
    unknown = Voter().update([Proposal(None, 0.0, QUAD)])
    assert unknown[0].step is None


def test_index_readings_carry_their_step(recognizer: Recognizer) -> None:
    big = {p.code: p.step for p in recognizer.read(row_of_cards(360)) if p.code}
    small = {p.code: p.step for p in recognizer.read(row_of_cards(120)) if p.code}
    assert set(CODES) <= set(big) and set(CODES) <= set(small)
    for code in CODES:
        assert big[code] is not None and small[code] is not None
    # the cards are three times as tall; each reading's step is its own crop's, which varies
    # by about a sixth between cards (an ace's at 360 px: 40 px, its neighbours' 29-36)
    ratios = [big[code] / small[code] for code in CODES]
    assert 2.5 < float(np.median(ratios)) < 3.5 and all(2 < r < 4.5 for r in ratios)
    assert min(big.values()) > SMALL_STEP > max(small.values())


def frames_of(folder: Path, height: float, n: int = 4) -> Path:
    folder.mkdir()
    for i in range(n):
        write_image(folder / f"{i:02}.png", row_of_cards(height, seed=i))
    return folder


def test_live_reader_advises_on_small_cards_only(tmp_path: Path, recognizer: Recognizer) -> None:
    small = LiveReader(ImageFolderSource(frames_of(tmp_path / "small", 120)), recognizer)
    assert [u.advice for u in iter(small.step, None)][-1] == MOVE_CLOSER
    big = LiveReader(ImageFolderSource(frames_of(tmp_path / "big", 360)), recognizer)
    assert {u.advice for u in iter(big.step, None)} == {None}


def test_panel_shows_the_advice_and_hides_it(tmp_path: Path, recognizer: Recognizer,
                                             qtbot) -> None:
    reader = LiveReader(ImageFolderSource(frames_of(tmp_path / "small", 120)), recognizer)
    panel = CameraPanel(reader, seats=4, interval_ms=5)
    qtbot.addWidget(panel)
    panel.resize(1000, 600)
    panel.show()
    assert not panel.advice_label.isVisible()
    panel.start()
    qtbot.waitUntil(panel.advice_label.isVisible, timeout=10000)
    assert panel.advice_label.text() == MOVE_CLOSER
    qtbot.waitUntil(lambda: not panel._timer.isActive(), timeout=10000)  # source ended
    big = LiveReader(ImageFolderSource(frames_of(tmp_path / "big", 360)), recognizer)
    panel.show_update(big.step())
    assert not panel.advice_label.isVisible()


def test_watch_tells_the_advice_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    """Cards stay one JSON line each on stdout; the advice comes on stderr, once."""
    from dealer_assist.vision.cli import main

    assert main(["watch", str(frames_of(tmp_path / "small", 120, n=8))]) == 0
    out, err = capsys.readouterr()
    assert [line for line in err.splitlines() if MOVE_CLOSER in line] == [f"frame 1: {MOVE_CLOSER}"]
    assert sorted(json.loads(line)["card"] for line in out.splitlines()) == sorted(CODES)
