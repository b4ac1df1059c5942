"""The table's camera dock opens the camera named by $DEALER_ASSIST_CAMERA (here an image folder,
as a dealer's second camera or a recorded table would be), with the deck choice working."""

from __future__ import annotations

import cv2
import numpy as np
from PySide6.QtWidgets import QApplication

from dealer_assist.gui.app import MainWindow
from dealer_assist.gui.camera_panel import STANDARD_DECK
from dealer_assist.vision import synth
from dealer_assist.vision.sources import CAMERA_ENV, camera_spec
from tests.gui.gui_driver import Driver


def test_the_camera_setting_defaults_to_the_first_camera(monkeypatch) -> None:
    monkeypatch.delenv(CAMERA_ENV, raising=False)
    assert camera_spec() == "0"
    monkeypatch.setenv(CAMERA_ENV, " 2 ")
    assert camera_spec() == "2"
    monkeypatch.setenv(CAMERA_ENV, "")
    assert camera_spec() == "0"


def test_the_camera_dock_reads_the_camera_of_the_setting(qtbot, data_dir, tmp_path,
                                                         monkeypatch) -> None:
    frames = tmp_path / "camera"
    frames.mkdir()
    table = synth.table((640, 480), seed=1)
    cv2.imwrite(str(frames / "table.png"), table)
    monkeypatch.setenv(CAMERA_ENV, str(frames))
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    driver = Driver(qtbot, window)
    driver.click(window.start.button("demoButton"))
    driver.click(next(b for b in window.dialog.buttons if b.text() == "Greek 31"))
    window.tool_actions["camera"].trigger()  # Tools → Camera…
    assert window.camera is not None
    panel = window.camera.widget()
    assert panel.reader is not None
    qtbot.waitUntil(lambda: panel.reader.last_frame is not None, timeout=10_000)
    assert np.array_equal(panel.reader.last_frame, cv2.imread(str(frames / "table.png")))
    assert panel.deck_box.isEnabled() and panel.teach_button.isEnabled()
    assert panel.deck_box.currentText() == STANDARD_DECK
    # the dealer closes the dock: it stops reading; shown again it reads again
    timer = panel._timer
    window.camera.close()
    assert not timer.isActive()
    window.camera.show()
    assert timer.isActive()
    released = []
    monkeypatch.setattr(panel.reader.source, "close", lambda: released.append(True))
    window.close_table()  # the table closes: the camera is let go
    QApplication.processEvents()
    assert window.camera is None and not timer.isActive() and released == [True]
