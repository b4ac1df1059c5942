"""Checkpoints: a cache of a session's folded state beside its log, so a long session reopens fast.

Derived, never the truth. A checkpoint (``<log>.checkpoint``) holds the session's state after
the log's event *k*, with event *k*'s Ed25519 signature (the signed chain's ``sig``: it depends
on every event up to *k*, so the checkpoint is bound to that prefix of this very log), a
fingerprint of the fold's code (the engine, the games, the cards) and an HMAC-SHA256 over all of
it, keyed by a secret in the user's data folder.
It is used only when the HMAC, the fingerprint and the log's signature at *k* all match; then only
the events after *k* are folded. Otherwise it is ignored (the log is replayed in full) and
rewritten. The state is pickled for speed, so nothing is unpickled before the HMAC checks: a
file planted beside a log cannot run code. Any failure to read or write a checkpoint is silent:
the log alone always suffices.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import io
import os
import pickle
import secrets
from pathlib import Path
from typing import Any

from dealer_assist.paths import data_dir

MAGIC = b"dealer-assist checkpoint 2\n"  # 2: bound to the signed chain's sig
KEY_FILE = "checkpoint.key"
# the Session attributes a fold derives (everything else comes from session_start or the log)
FIELDS = ("state", "rounds", "voided", "ended", "chip_counts", "money_moves", "_checkpoint",
          "_round")
SAVE_AFTER = 1000  # write a new checkpoint when at least this many events were folded


def path_for(log_path: Path) -> Path:
    return log_path.with_name(log_path.name + ".checkpoint")


def _key() -> bytes:
    path = data_dir() / KEY_FILE
    try:
        return path.read_bytes()
    except FileNotFoundError:
        key = secrets.token_bytes(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as file:
            file.write(key)
        return key


@functools.cache
def fingerprint() -> str:
    """A hash of the code a fold runs: a rule fix makes every older checkpoint stale."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted([root / "cards.py", root / "errors.py", root / "session" / "engine.py",
                        *(root / "variants").glob("*.py")]):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def sig_at(log: Any, seq: int) -> str | None:
    """The signature the log stores for event ``seq`` (None if there is no such event)."""
    row = log.con.execute("SELECT sig FROM events WHERE seq = ?", [seq]).fetchone()
    return row[0] if row else None


_BUILDERS: dict[type, Any] = {}


def _builder(cls: type) -> Any:
    """A fast constructor of a (frozen) dataclass from its field values, without __init__."""
    build = _BUILDERS.get(cls)
    if build is None:
        names = [f.name for f in dataclasses.fields(cls)]
        args = ", ".join(f"v{i}" for i in range(len(names)))
        lines = [f"def build({args}):", "    new = new_object(CLS)",
                 *(f"    set_attr(new, {n!r}, v{i})" for i, n in enumerate(names)),
                 "    return new"]
        namespace = {"CLS": cls, "new_object": object.__new__, "set_attr": object.__setattr__}
        exec("\n".join(lines), namespace)
        build = _BUILDERS[cls] = namespace["build"], tuple(names)
    return build


def _rebuild(cls: type, values: tuple[Any, ...]) -> Any:
    return _builder(cls)[0](*values)


class _Pickler(pickle.Pickler):
    """Pickles dataclasses as (class, field values): unpickling them is then several times
    faster than dataclasses' own ``__setstate__`` (tens of thousands of round results)."""

    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        if dataclasses.is_dataclass(cls) and not isinstance(obj, type):
            names = _builder(cls)[1]
            return _rebuild, (cls, tuple(getattr(obj, n) for n in names))
        return NotImplemented


def _dumps(value: Any) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


def _mac(key: bytes, body: bytes) -> bytes:
    return hmac.new(key, MAGIC + body, hashlib.sha256).digest()


def save(log_path: Path, seq: int, sig: str, values: dict[str, Any]) -> bool:
    """Write the state after event ``seq`` (whose signature is ``sig``); False if it could not."""
    try:
        body = _dumps((fingerprint(), seq, sig, values))
        target = path_for(log_path)
        temp = target.with_name(target.name + ".tmp")
        temp.write_bytes(MAGIC + _mac(_key(), body) + body)
        os.replace(temp, target)
        return True
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        return False


def load(log_path: Path, sig_at: Any) -> tuple[int, dict[str, Any]] | None:
    """``(seq, values)`` of a valid checkpoint of this log, else None. ``sig_at(seq)`` is the
    log's signature of event ``seq`` (None if there is no such event)."""
    try:
        data = path_for(log_path).read_bytes()
        if not data.startswith(MAGIC):
            return None
        mac, body = data[len(MAGIC):len(MAGIC) + 32], data[len(MAGIC) + 32:]
        if not hmac.compare_digest(mac, _mac(_key(), body)):
            return None
        code, seq, sig, values = pickle.loads(body)  # authenticated: made by this app
    except (OSError, ValueError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        return None
    if code != fingerprint() or sig_at(seq) != sig or set(values) != set(FIELDS):
        return None
    return seq, values
