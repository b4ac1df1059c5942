"""Sizes that follow the screen: touch targets of about 9 mm whatever the screen's density."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication

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
