"""JSON from files a user hands us (scenarios, log bodies), read within bounds.

``loads`` refuses, with :class:`InputError`, what the app could not handle later: nesting deeper
than ``MAX_DEPTH``, integers beyond ``MAX_INT`` (money is whole units; 2**53 keeps every value
exact for other JSON readers too), lone UTF-16 surrogates (text that cannot be printed or stored
as UTF-8), NaN and Infinity.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from dealer_assist.errors import InputError

MAX_DEPTH = 64
MAX_INT = 2**53
MAX_FILE_BYTES = 64 * 1024 * 1024


def _no_constant(name: str) -> Any:
    raise InputError(f"{name} is not a number JSON allows")


def _check_int(text: str) -> int:
    if len(text.lstrip("-")) > 16:
        raise InputError(f"the number {text[:20]}... is too large (limit {MAX_INT})")
    value = int(text)
    if abs(value) > MAX_INT:
        raise InputError(f"the number {value} is too large (limit {MAX_INT})")
    return value


def check_value(value: Any) -> None:
    """Walk a decoded value (without recursion): depth, integer size and text."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise InputError(f"nested deeper than {MAX_DEPTH} levels")
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise InputError("text with an invalid character (a lone surrogate)") from None
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > MAX_INT:
            raise InputError(f"the number {item} is too large (limit {MAX_INT})")


def loads(text: str | bytes) -> Any:
    """Decode JSON text or UTF-8 bytes; InputError says why it cannot be read."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 text (byte {exc.start})") from None
    if not isinstance(text, str):
        raise InputError("no JSON text (empty value)")
    try:
        value = json.loads(text, parse_int=_check_int, parse_constant=_no_constant)
    except RecursionError:
        raise InputError(f"nested deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc}") from None
    except ValueError as exc:  # InputError from the hooks, or another value the decoder refuses
        raise InputError(str(exc)) from None
    check_value(value)
    return value


def read_regular_file(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file (never a FIFO or device: those would block or never end)."""
    path = Path(path)
    try:
        info = path.stat()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{path} is not a regular file")
    if info.st_size > limit:
        raise InputError(f"{path} is larger than {limit // (1024 * 1024)} MB")
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
