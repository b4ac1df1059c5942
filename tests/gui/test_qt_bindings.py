"""The Qt bindings must not drop references to None or True (PySide6 6.12.0 on Python 3.11 did,
and the app aborted after a few thousand calls: pyproject excludes that version)."""

import sys

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel


class Emitter(QObject):
    fired = Signal(bool)


def test_void_calls_and_signals_keep_none_and_true_alive(qtbot):
    label = QLabel()
    qtbot.addWidget(label)
    emitter = Emitter()
    received = []
    emitter.fired.connect(received.append)
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(500):
        label.setText("x")
        emitter.fired.emit(True)
    assert len(received) == 500
    assert sys.getrefcount(None) >= none_before - 5  # a leak would lose 500
    assert sys.getrefcount(True) >= true_before - 5
