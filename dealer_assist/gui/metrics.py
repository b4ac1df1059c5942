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


class TouchScroll(QScrollArea):
    """A frameless, vertical scroll area that a finger drags (for reading, never for actions:
    those stay outside it). Its content is kept as tall as its wrapped text needs at the
    area's width (a plain scroll area lets word-wrapped labels overlap)."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(widget)
        self.setStyleSheet("QScrollArea, QScrollArea > QWidget > QWidget "
                           "{ background: transparent; }")
        QScroller.grabGesture(self.viewport(),
                              QScroller.ScrollerGestureType.LeftMouseButtonGesture)

    def fit(self) -> None:
        """Call after the content's text changed."""
        content = self.widget()
        layout = content.layout() if content is not None else None
        if layout is not None and layout.hasHeightForWidth():
            content.setMinimumHeight(layout.totalHeightForWidth(self.viewport().width()))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit()


def touch_scroll(widget: QWidget) -> TouchScroll:
    return TouchScroll(widget)


def seats_scroll(widget: QWidget) -> QScrollArea:
    """The table's seats in a frameless scroll area: a finger drags it on a touch screen (a
    mouse click still reaches the seat), for a table with more seats than the screen shows."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(widget)
    # setWidget turned the fill on, in the palette's light grey: #table paints only the oval,
    # so the screen's themed background shows round it
    widget.setAutoFillBackground(False)
    area.setStyleSheet("QScrollArea { background: transparent; }")
    area.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # a tap on the felt leaves the keys where they are
    QScroller.grabGesture(area.viewport(), QScroller.ScrollerGestureType.TouchGesture)
    return area
