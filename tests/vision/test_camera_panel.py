"""The camera panel: shows proposals, emits card_confirmed(seat, code) on a real button click."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt

from dealer_assist.cards import parse_card
from dealer_assist.gui.camera_panel import CameraPanel
from dealer_assist.vision import synth
from dealer_assist.vision.labels import write_image
from dealer_assist.vision.live import LiveReader, LiveSettings
from dealer_assist.vision.proposal import Proposal
from dealer_assist.vision.sources import ImageFolderSource
from dealer_assist.vision.zones import ZoneMap


def proposal(code: str, conf: float = 0.93, source: str = "visual") -> Proposal:
    quad = np.array([[10, 10], [60, 10], [60, 80], [10, 80]], np.float32)
    return Proposal(parse_card(code), conf, quad, source, track=1)


@pytest.fixture
def panel(qtbot) -> CameraPanel:
    widget = CameraPanel(seats=6)
    qtbot.addWidget(widget)
    widget.resize(1000, 600)
    widget.show()
    return widget


def test_buttons_wait_for_a_card(panel: CameraPanel, qtbot) -> None:
    assert not panel.confirm_button.isEnabled() and not panel.reject_button.isEnabled()
    with qtbot.assertNotEmitted(panel.card_confirmed):
        qtbot.mouseClick(panel.confirm_button, Qt.MouseButton.LeftButton)
    panel.set_proposal(proposal("QS"), seat=3)
    assert panel.confirm_button.isEnabled() and panel.reject_button.isEnabled()
    assert panel.card_label.text() == "Q♠"
    assert "93%" in panel.detail_label.text()
    assert panel.seat_box.value() == 3


def test_confirm_emits_seat_and_code(qtbot) -> None:
    calls = []
    panel = CameraPanel(on_confirm=lambda seat, code: calls.append((seat, code)), seats=6)
    qtbot.addWidget(panel)
    panel.set_proposal(proposal("10H"), seat=4)
    with qtbot.waitSignal(panel.card_confirmed, timeout=1000) as blocker:
        qtbot.mouseClick(panel.confirm_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [4, "10H"]
    assert calls == [(4, "10H")]
    assert panel.pending_code is None and not panel.confirm_button.isEnabled()
    assert panel.card_label.text() == "–" and "#c62828" not in panel.card_label.styleSheet()


def test_reject_does_not_confirm(panel: CameraPanel, qtbot) -> None:
    panel.set_proposal(proposal("AC"))
    panel.set_seat(2)
    with qtbot.assertNotEmitted(panel.card_confirmed), \
            qtbot.waitSignal(panel.card_rejected, timeout=1000) as blocker:
        qtbot.mouseClick(panel.reject_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [2, "AC"]
    assert panel.card_label.text() == "–"


def test_dealer_picks_the_seat_when_no_zone_says(panel: CameraPanel, qtbot) -> None:
    panel.set_seat(4)
    panel.set_proposal(proposal("7D"), seat=None)
    assert panel.seat_box.value() == 4
    for _ in range(3):  # one past the last seat: stays at 6
        qtbot.mouseClick(panel.seat_up, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.seat_down, Qt.MouseButton.LeftButton)
    with qtbot.waitSignal(panel.card_confirmed, timeout=1000) as blocker:
        qtbot.mouseClick(panel.confirm_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [5, "7D"]


def test_the_seat_buttons_stay_put_when_the_detail_wraps(qtbot) -> None:
    """At a small tablet's panel width the detail of one card fits a line and another's wraps
    to two: the seat and confirm buttons must not move between them."""
    panel = CameraPanel(seats=6)
    qtbot.addWidget(panel)
    panel.resize(700, 560)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_proposal(proposal("4S", 0.85), seat=4)
    qtbot.wait(50)
    where = [panel.seat_up.mapTo(panel, panel.seat_up.rect().topLeft()),
             panel.confirm_button.mapTo(panel, panel.confirm_button.rect().topLeft())]
    width = panel.detail_label.width()
    metrics = panel.detail_label.fontMetrics()
    assert metrics.horizontalAdvance(panel.detail_label.text()) <= width  # one line
    panel.set_proposal(proposal("10H", 0.78, source="barcode"), seat=2)
    if metrics.horizontalAdvance(panel.detail_label.text()) <= width:  # a wider font's metrics
        panel.detail_label.setText(panel.detail_label.text() + " · seat 2")
    assert metrics.horizontalAdvance(panel.detail_label.text()) > width  # two lines
    qtbot.wait(50)
    assert [panel.seat_up.mapTo(panel, panel.seat_up.rect().topLeft()),
            panel.confirm_button.mapTo(panel, panel.confirm_button.rect().topLeft())] == where


def test_buttons_are_touch_sized(panel: CameraPanel) -> None:
    for button in (panel.confirm_button, panel.reject_button):
        assert button.height() >= 80 and button.width() >= 180
    for button in (panel.seat_up, panel.seat_down):
        assert button.height() >= 60 and button.width() >= 60


@pytest.fixture
def frames(tmp_path: Path) -> Path:
    """Six frames of a table with a QS in the zone of seat 3 (of 4)."""
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(6):
        quad = synth.card_quad((800 + i, 600), 360, 8)
        write_image(folder / f"{i:02}.png",
                    synth.scene([parse_card("QS")], [quad], seed=i, noise=3))
    return folder


def test_live_reader_drives_panel(frames: Path, qtbot) -> None:
    reader = LiveReader(ImageFolderSource(frames), zones=ZoneMap.strips(4, top=0.3))
    panel = CameraPanel(reader, seats=4, interval_ms=5)
    qtbot.addWidget(panel)
    panel.show()
    panel.start()
    qtbot.waitUntil(lambda: panel.pending_code == "QS", timeout=10000)
    assert panel.seat_box.value() == 3
    assert panel.view.pixmap() is not None and not panel.view.pixmap().isNull()
    with qtbot.waitSignal(panel.card_confirmed, timeout=1000) as blocker:
        qtbot.mouseClick(panel.confirm_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [3, "QS"]
    qtbot.waitUntil(lambda: not panel._timer.isActive(), timeout=10000)  # source ended
    assert panel.pending_code is None  # the confirmed card is not proposed again


def test_auto_accept_confirms_without_a_click(frames: Path, qtbot) -> None:
    settings = LiveSettings(auto_accept=True, auto_accept_threshold=0.5)
    reader = LiveReader(ImageFolderSource(frames), zones=ZoneMap.strips(4), settings=settings)
    panel = CameraPanel(reader, seats=4, interval_ms=5)
    qtbot.addWidget(panel)
    received = []
    panel.card_confirmed.connect(lambda seat, code: received.append((seat, code)))
    panel.start()
    qtbot.waitUntil(lambda: not panel._timer.isActive(), timeout=10000)
    assert received == [(3, "QS")]  # once, not once per frame
