"""The table's camera dock opens the camera named by $DEALER_ASSIST_CAMERA (here an image folder,
as a dealer's second camera or a recorded table would be), with the deck choice working."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PySide6.QtCore import QPoint
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


@pytest.fixture
def camera_folder(tmp_path, monkeypatch):
    """$DEALER_ASSIST_CAMERA names a folder holding one frame of a bare table."""
    frames = tmp_path / "camera"
    frames.mkdir()
    cv2.imwrite(str(frames / "table.png"), synth.table((640, 480), seed=1))
    monkeypatch.setenv(CAMERA_ENV, str(frames))
    return frames


def demo_table(qtbot, game: str, size: tuple[int, int] | None = None) -> MainWindow:
    """The app's window (at ``size``) with the demo table of ``game``, opened by taps."""
    window = MainWindow()
    qtbot.addWidget(window)
    if size is not None:
        window.resize(*size)
    window.show()
    driver = Driver(qtbot, window)
    driver.click(window.start.button("demoButton"))
    driver.click(next(b for b in window.dialog.buttons if b.text() == game))
    QApplication.processEvents()
    return window


def test_the_camera_dock_reads_the_camera_of_the_setting(qtbot, data_dir, camera_folder,
                                                         monkeypatch) -> None:
    frames = camera_folder
    window = demo_table(qtbot, "Greek 31")
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


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)], ids=["1024x600", "1920x1080"])
def test_the_camera_fits_a_small_tablet(qtbot, data_dir, camera_folder, size) -> None:
    """At 1024×600 the table and the camera cannot stand side by side: the camera floats over
    the table's right part, inside the window, and the table keeps its width; on a wide screen
    it is docked beside the table."""
    window = demo_table(qtbot, "Greek 31", size)
    window.tool_actions["camera"].trigger()  # Tools → Camera…
    QApplication.processEvents()
    dock, panel = window.camera, window.camera.widget()
    assert dock.isFloating() == (size == (1024, 600))
    assert window.width() == size[0]  # the window did not grow off the screen
    for button in (panel.confirm_button, panel.reject_button, panel.teach_button):
        corner = button.mapToGlobal(QPoint(button.width() - 1, button.height() - 1))
        assert window.geometry().contains(button.mapToGlobal(QPoint(0, 0)))
        assert window.geometry().contains(corner)
    # floating, the camera takes no width from the table; docked, it stands beside it
    assert (window.centralWidget().width() == window.width()) == dock.isFloating()
    window.close_table()


def test_the_table_beside_the_docked_camera_shows_its_titles_whole(qtbot, data_dir,
                                                                   camera_folder) -> None:
    """At 1920×1080 the camera docked beside the table leaves it about 1 300 px: the type is
    the table's normal size there, not the big screen's, so that no row title is cut."""
    from tests.gui.test_table_fit import check_fits

    window = demo_table(qtbot, "Trianta Ena", (1920, 1080))
    assert window.scale > 1  # the whole big screen for the table: bigger type
    window.tool_actions["camera"].trigger()  # Tools → Camera…
    for _ in range(3):
        QApplication.processEvents()
    assert not window.camera.isFloating() and window.centralWidget().width() < 1500
    assert window.scale == 1.0
    check_fits(window)
    window.camera.close()  # the dock closed: the table has the whole screen again
    for _ in range(3):
        QApplication.processEvents()
    assert window.scale > 1
    check_fits(window)
    window.close_table()
