"""Sizes that follow the screen: touch targets of about 9 mm whatever the screen's density,
windows at the screen's size, reading areas a finger scrolls."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QScrollArea, QScroller, QWidget

TOUCH_MM = 9.0
MINIMUM_PX = 40  # never smaller than this, even on a low-density screen


def touch_px() -> int:
    """The side of a touch target in Qt logical pixels: 9 mm at the primary screen's DPI."""
    screen = QGuiApplication.primaryScreen()
    dpi = screen.logicalDotsPerInch() if screen is not None else 96.0
    return max(MINIMUM_PX, round(TOUCH_MM / 25.4 * dpi))


def mm_px(mm: float) -> int:
    """``mm`` millimetres in Qt logical pixels on the primary screen."""
    screen = QGuiApplication.primaryScreen()
    dpi = screen.logicalDotsPerInch() if screen is not None else 96.0
    return round(mm / 25.4 * dpi)


def fit_to_screen(window: QWidget) -> None:
    """Open ``window`` at its screen's available size (a 1024×600 tablet, a desktop), its
    title bar on the screen too."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        window.resize(1024, 600)
        return
    area = screen.availableGeometry()
    window.setGeometry(area)
    frame = window.frameGeometry()
    if frame.height() > area.height() or frame.width() > area.width():
        window.resize(area.width() - (frame.width() - window.width()),
                      area.height() - (frame.height() - window.height()))
        window.move(area.topLeft())


def touch_scroll(widget: QWidget) -> QScrollArea:
    """``widget`` in a frameless, vertical scroll area that a finger drags (for reading, never
    for actions: those stay outside it)."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(widget)
    area.setStyleSheet("QScrollArea, QScrollArea > QWidget > QWidget { background: transparent; }")
    QScroller.grabGesture(area.viewport(), QScroller.ScrollerGestureType.LeftMouseButtonGesture)
    return area
