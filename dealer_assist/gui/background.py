"""Run a slow call (network, server) off the GUI thread and get its result back as a signal."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal


class Background(QObject):
    """``run(fn)`` calls ``fn()`` in a thread; ``done`` carries its result or the exception it
    raised, delivered in the GUI thread. One call at a time: ``busy`` while it runs."""

    done = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.busy = False

    def run(self, fn: Callable[[], Any]) -> bool:
        if self.busy:
            return False
        self.busy = True
        threading.Thread(target=self._work, args=(fn,), daemon=True).start()
        return True

    def _work(self, fn: Callable[[], Any]) -> None:
        try:
            result: Any = fn()
        except Exception as exc:  # handed to the GUI, which says what happened
            result = exc
        self.busy = False
        self.done.emit(result)
