"""Work-around for PySide6 6.12.0 on Python 3.11: its void methods drop a reference to None.

Each call of a void Qt method from Python (``setText``, ``show``, ``processEvents``, ...)
leaves ``None`` with one reference fewer; after a few thousand calls Python aborts with
"none_dealloc: deallocating None". Python 3.12 made None immortal, and PySide6 6.11.3 does not
have the bug. Until the lock moves off 6.12.0, give None the huge reference count that 3.12
gives it, once per process: None is never freed anyway, so nothing else changes.
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
    refcount = ctypes.c_ssize_t.from_address(id(None))  # ob_refcnt is PyObject's first field
    refcount.value += _RESERVE
    _done = True
