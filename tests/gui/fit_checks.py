"""Geometry checks for a whole window (training, reconcile): every enabled button and input
is shown whole inside the window and at least 9 mm, and no text is cut or elided."""

from __future__ import annotations

import itertools
import os

from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QTabBar,
    QTableWidget,
    QWidget,
)

from dealer_assist.gui.metrics import TOUCH_MM, mm_px

SHOTS = itertools.count()
INPUTS = (QAbstractButton, QLineEdit, QComboBox, QAbstractSpinBox)


def rect_in(widget: QWidget, window: QWidget) -> QRect:
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def shown_rect(widget: QWidget, window: QWidget) -> QRect:
    """The part of ``widget`` its ancestors up to ``window`` do not clip away."""
    shown = rect_in(widget, window)
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        shown = shown.intersected(rect_in(parent, window))
        parent = parent.parentWidget()
    return shown.intersected(window.rect())


def plain(label: QLabel) -> str:
    if label.textFormat().name == "PlainText" or "<" not in label.text():
        return label.text()
    document = QTextDocument()
    document.setHtml(label.text())
    return document.toPlainText()


def label_cut(label: QLabel) -> str | None:
    """Why the label's text does not show whole, or None."""
    text = plain(label)
    if not text.strip():
        return None
    room = label.contentsRect()
    metrics = label.fontMetrics()
    if not label.wordWrap():
        widest = max(metrics.horizontalAdvance(line) for line in text.splitlines())
        return f"{text!r} is {widest} px wide in {room.width()}" if widest > room.width() + 1 \
            else None
    wide = [w for w in text.split() if metrics.horizontalAdvance(w) > room.width() + 1]
    if wide:
        return f"{wide[0]!r} is wider than the label ({room.width()} px)"
    if label.heightForWidth(label.width()) > label.height() + 2:  # margins included in both
        return f"{text[:40]!r} needs more height than {label.width()}×{label.height()} px"
    return None


def owned_by_input(widget: QWidget) -> bool:
    """The line edit inside a spin box or combo box (checked with its owner)."""
    parent = widget.parentWidget()
    return isinstance(parent, (QAbstractSpinBox, QComboBox))


def check_window(window: QWidget) -> int:
    """Assert the window fits; return how many inputs were checked. With FIT_SHOTS=folder,
    each window checked is also saved there as a PNG (to look at)."""
    QApplication.processEvents()
    if os.environ.get("FIT_SHOTS"):
        name = f"{window.objectName()}-{window.width()}-{next(SHOTS):03d}.png"
        window.grab().save(os.path.join(os.environ["FIT_SHOTS"], name))
    least = mm_px(TOUCH_MM)
    checked = 0
    for widget in window.findChildren(QWidget):
        if not widget.isVisible():
            continue
        name = widget.objectName() or type(widget).__name__
        if isinstance(widget, INPUTS) and widget.isEnabled() and not owned_by_input(widget):
            if isinstance(widget, QAbstractButton) and widget.parentWidget() is not None and \
                    isinstance(widget.parentWidget(), QTabBar):
                continue  # a tab bar's scroll arrows (never shown: tabs are not elided)
            text = widget.text() if isinstance(widget, (QAbstractButton, QLineEdit)) else \
                widget.currentText() if isinstance(widget, QComboBox) else ""
            name = f"{name} {text!r}"
            assert shown_rect(widget, window) == rect_in(widget, window), f"{name} is cut off"
            assert min(widget.width(), widget.height()) >= least - 1, \
                f"{name} is {widget.width()}×{widget.height()}, under 9 mm ({least} px)"
            checked += 1
            if isinstance(widget, QAbstractButton) and text:
                room = widget.contentsRect().width() - 4
                widest = max(widget.fontMetrics().horizontalAdvance(t) for t in text.split("\n"))
                assert widest <= room, f"{name} is cut: {widest} px in {room}"
            if isinstance(widget, (QAbstractSpinBox, QLineEdit)):  # the value shows whole
                edit = widget.lineEdit() if isinstance(widget, QAbstractSpinBox) else widget
                shown = edit.text() or edit.placeholderText()
                need = edit.fontMetrics().horizontalAdvance(shown)
                assert need <= edit.width() - 20, f"{name}: {shown!r} in {edit.width()} px"
            if isinstance(widget, QComboBox):
                room = widget.width() - 40 - 16  # less the drop-down and the padding
                widest = max(widget.fontMetrics().horizontalAdvance(widget.itemText(i))
                             for i in range(widget.count()))
                assert widest <= room, f"{name}: an item is {widest} px in {room}"
        elif isinstance(widget, QTabBar):
            for i in range(widget.count()):
                tab = widget.tabRect(i)
                assert tab.height() >= least - 1, f"tab {widget.tabText(i)!r} is too low"
                assert window.rect().contains(QRect(widget.mapTo(window, tab.topLeft()),
                                                    tab.size())), widget.tabText(i)
                need = widget.fontMetrics().horizontalAdvance(widget.tabText(i))
                assert need <= tab.width() - 8, f"tab {widget.tabText(i)!r} is cut"
            checked += widget.count()
        elif isinstance(widget, QLabel):
            why = label_cut(widget)
            assert why is None, f"label {name}: {why}"
        elif isinstance(widget, QTableWidget):
            check_cells(widget)
    assert checked, "no input was shown"
    return checked


def check_cells(table: QTableWidget) -> None:
    """No word of a cell or a header is wider than its column."""
    metrics = table.fontMetrics()
    assert table.horizontalHeader().length() <= table.viewport().width() + 1, \
        f"a column of {table.objectName() or 'a table'} is cut off"
    for c in range(table.columnCount()):
        room = table.columnWidth(c) - 6
        words = []
        header = table.horizontalHeaderItem(c)
        for r in range(table.rowCount()):
            item = table.item(r, c)
            if item is not None:
                words += item.text().split()
        for word in words:
            assert metrics.horizontalAdvance(word) <= room, \
                f"{word!r} is wider than column {c} ({room} px)"
        if header is not None and header.text():
            hm = table.horizontalHeader().fontMetrics()
            assert hm.horizontalAdvance(header.text()) <= table.columnWidth(c) - 4, \
                f"header {header.text()!r} is cut"
