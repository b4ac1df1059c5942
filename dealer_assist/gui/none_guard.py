"""Work-around for PySide6 6.12.0 on Python 3.11: its bindings drop references to singletons.

Each call of a void Qt method from Python (``setText``, ``show``, ``processEvents``, ...)
leaves ``None`` with one reference fewer, and each ``Signal.emit`` does the same to ``True``;
after a few thousand calls Python aborts ("none_dealloc: deallocating None", "bool_dealloc").
Python 3.12 made these objects immortal, and PySide6 6.11.3 does not have the bug. Until the
lock moves off 6.12.0, give them the huge reference count 3.12 gives them, once per process:
they are never freed anyway, so nothing else changes.
"""

from __future__ import annotations

import ctypes
import sys

_RESERVE = 1 << 40
_done = False


def protect_none() -> None:
    """Idempotent; does nothing on Python 3.12 and later (None is immortal there)."""
    global _done
    if _done or sys.version_info >= (3, 12):
        return
    for singleton in (None, True, False):
        refcount = ctypes.c_ssize_t.from_address(id(singleton))  # PyObject's first field
        refcount.value += _RESERVE
    _done = True
