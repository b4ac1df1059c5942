"""The session log: an append-only chain of events in SQLite, each row signed (Ed25519).

Row format (table ``events``, format 2; docs/log.md):

    seq   INTEGER  1, 2, 3... with no gap
    at    TEXT     UTC time it was logged, ISO 8601 with milliseconds
    type  TEXT     the event's type (also inside body)
    body  TEXT     the event as canonical JSON (sorted keys, no spaces, UTF-8)
    prev  TEXT     the previous row's ``sig``; for event 1 the genesis: SHA-256 of the ``meta``
                   table as canonical JSON, so every meta value is covered too
    sig   TEXT     Ed25519 signature (hex) of ``message(seq, type, at, prev, body)``

The session's private key stays in the user's data folder (``session/keys.py``): whoever has
only the file can read and check it, not rewrite it. The *head* of a log, ``N:HASH`` (the
event count and the first 16 hex digits of SHA-256 of the last signature), printed on slips
and reports, proves later that nothing was cut off or rewritten since.

:func:`verify_rows` checks any sequence of rows (a card room's copy, a server) with a public
key; :func:`verify` checks a file, read-only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from dealer_assist import safe_json
from dealer_assist.errors import EXIT_UNREADABLE, InputError, StorageError
from dealer_assist.session import keys
from dealer_assist.session.storage import (
    APPLICATION_ID,
    FORMAT,
    WriterLock,
    classify,
    open_read_only,
    shm_path,
    storage_error,
    wal_path,
)

LOG_FORMAT = "dealer-assist-log/2"
HEAD_DIGITS = 16
SCHEMA = f"""
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = {FORMAT};
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events (seq INTEGER PRIMARY KEY, at TEXT NOT NULL, type TEXT NOT NULL,
                     body TEXT NOT NULL, prev TEXT NOT NULL, sig TEXT NOT NULL);
CREATE TABLE writer (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL,
                     events INTEGER NOT NULL, at TEXT NOT NULL);
"""
INSERT_EVENT = "INSERT INTO events (seq, at, type, body, prev, sig) VALUES (?, ?, ?, ?, ?, ?)"
SET_WRITER = "UPDATE writer SET state = ?, events = ?, at = ? WHERE id = 1"


class Row(NamedTuple):
    """One stored event, as in the ``events`` table."""

    seq: int
    at: str
    type: str
    body: str
    prev: str
    sig: str


def canonical_json(body: Any) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def genesis(meta: Mapping[str, str]) -> str:
    """The ``prev`` of event 1: SHA-256 (hex) of the whole meta table as canonical JSON."""
    return hashlib.sha256(canonical_json(dict(meta)).encode()).hexdigest()


def message(seq: int, kind: str, at: str, prev: str, body: str) -> bytes:
    """The bytes a row's signature covers (a JSON array: unambiguous whatever the texts hold)."""
    return canonical_json([LOG_FORMAT, seq, kind, at, prev, body]).encode()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Head:
    """How far a log goes and what it ends with: ``N:HASH``."""

    events: int
    digest: str

    @classmethod
    def of(cls, events: int, sig: str) -> Head:
        return cls(events, hashlib.sha256(sig.encode()).hexdigest()[:HEAD_DIGITS])

    @classmethod
    def parse(cls, text: str) -> Head:
        count, _, digest = text.strip().partition(":")
        digest = digest.lower()
        if not (count.isdigit() and len(digest) == HEAD_DIGITS
                and all(c in "0123456789abcdef" for c in digest)):
            raise InputError(f"a head is N:HASH with {HEAD_DIGITS} hex digits, not {text!r}")
        return cls(int(count), digest)

    def __str__(self) -> str:
        return f"{self.events}:{self.digest}"

    @property
    def qr_text(self) -> str:
        """What the QR code of a head holds."""
        return f"dealer-assist head {self}"


@dataclass(frozen=True)
class ChainCheck:
    """The result of :func:`verify_rows`: ``events`` rows verified (all of them when ``ok``),
    the ``head`` after the last good row, or the first bad one and why."""

    ok: bool
    events: int
    head: Head | None
    first_bad_seq: int | None = None
    reason: str = ""
    last_sig: str = ""  # to continue checking later rows (``after=``)


def verify_rows(rows: Iterable[Row | tuple], public_key: Ed25519PublicKey | bytes, first_prev: str,
                *, after: tuple[int, str] | None = None) -> ChainCheck:
    """Check rows in order: consecutive seq, each ``prev`` the previous ``sig``, each signature
    valid under ``public_key`` (an Ed25519 key or its 32 raw bytes), each body readable JSON
    whose type is the row's type. ``first_prev`` is the genesis (:func:`genesis` of the meta);
    ``after=(seq, sig)`` continues from a row already checked. Stops at the first bad row.
    """
    if isinstance(public_key, bytes):
        public_key = Ed25519PublicKey.from_public_bytes(public_key)
    expected, prev = (1, first_prev) if after is None else (after[0] + 1, after[1])
    count, head, last_sig = 0, None, prev

    def bad(seq: Any, reason: str) -> ChainCheck:
        return ChainCheck(False, count, head, seq if isinstance(seq, int) else expected, reason,
                          last_sig)

    for raw in rows:
        if len(raw) != 6:
            return bad(expected, "its row does not have the six columns of the format")
        seq, at, kind, body, link, sig = raw
        if seq != expected:
            if isinstance(seq, int) and seq > expected:
                return bad(expected, f"event {expected} is missing")
            return bad(expected, f"the row in place of event {expected} has seq {seq!r}")
        if not all(isinstance(v, str) for v in (at, kind, body, link, sig)):
            return bad(seq, "its row has an empty or non-text column")
        if link != prev:
            return bad(seq, "its link to the previous event was changed")
        try:
            public_key.verify(bytes.fromhex(sig), message(seq, kind, at, prev, body))
        except (InvalidSignature, ValueError):
            return bad(seq, "its signature does not match (its content, type or time was "
                            "changed, or it was signed with another key)")
        try:
            value = safe_json.loads(body)
        except InputError as exc:
            return bad(seq, f"its body cannot be read: {exc}")
        if not isinstance(value, dict) or value.get("type") != kind:
            return bad(seq, "its type column does not match its body")
        count, expected, prev, last_sig = count + 1, seq + 1, sig, sig
        head = Head.of(seq, sig)
    return ChainCheck(True, count, head, last_sig=last_sig)


# ---------------------------------------------------------------- writing


class EventLog:
    """A session log open for writing (one writer: the file is locked while open).

    ``EventLog(path)`` opens an existing log, or creates one (with a new key) if the file does
    not exist or is empty; :meth:`create` makes a log and its first event in one transaction.
    """

    def __init__(self, path: str | Path, *, durable: bool = True,
                 _first: dict[str, Any] | None = None) -> None:
        self.path = Path(path)
        self._lock: WriterLock | None = None
        self.con: sqlite3.Connection | None = None
        self.durable = durable
        new = not self.path.exists() or self.path.stat().st_size == 0
        if new:
            self._create(_first)
        else:
            if _first is not None:
                raise StorageError("exists", f"{self.path} already exists.",
                                   "Open it to resume, or choose a new file.")
            self._open()

    @classmethod
    def create(cls, path: str | Path, first: dict[str, Any], *, durable: bool = True) -> EventLog:
        """A new log whose event 1 is ``first``; StorageError if the file exists."""
        return cls(path, durable=durable, _first=first)

    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute(f"PRAGMA synchronous={'FULL' if self.durable else 'NORMAL'}")
        return con

    def _create(self, first: dict[str, Any] | None) -> None:
        existed = self.path.exists()
        session_id = uuid.uuid4().hex
        try:
            signer = keys.Signer.create(session_id)
            self.con = self._connect()
            self._lock = WriterLock(self.path)
            self.meta_values = {"format": LOG_FORMAT, "session_id": session_id,
                                "public_key": keys.public_key_hex(signer.public),
                                "created": _now()}
            if first is not None and isinstance(first.get("game"), str):
                self.meta_values["game"] = first["game"]
            self.con.execute("BEGIN IMMEDIATE")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.con.execute(statement)
            self.con.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                                 sorted(self.meta_values.items()))
            self.con.execute("INSERT INTO writer (id, state, events, at) VALUES (1, 'open', 0, ?)",
                             [_now()])
            self.signer, self._last_seq = signer, 0
            self._last_sig = genesis(self.meta_values)
            self._insert([first] if first is not None else [])
            self.con.execute("COMMIT")
            self._last_seq, self._last_sig = self._pending
            self.con.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the file alone is a log
        except (sqlite3.Error, OSError) as exc:
            self._abandon(existed, session_id)
            raise self._error(exc, "creating the session file") from None
        except BaseException:
            self._abandon(existed, session_id)
            raise

    def _abandon(self, existed: bool, session_id: str) -> None:
        """Undo a creation that failed: no half-made file or orphan key is left behind."""
        self.close(mark=False)
        paths = [keys.private_key_path(session_id), keys.trusted_key_path(session_id)]
        if not existed:
            paths += [self.path, wal_path(self.path), shm_path(self.path)]
        for path in paths:
            with contextlib.suppress(OSError):  # gone already, or a read-only folder
                path.unlink(missing_ok=True)

    def _open(self) -> None:
        with open_read_only(self.path) as (probe, _):
            if classify(probe, self.path) == 1:
                raise StorageError(
                    "older", f"{self.path.name} was written by an earlier version, without "
                    "signatures: it can be read (dealer-assist report / verify) but not continued.",
                    "Start a new session for further rounds.")
        self._lock = WriterLock(self.path)
        try:
            self.con = self._connect()
            if classify(self.con, self.path) != FORMAT:  # the file changed in between
                raise StorageError("foreign", f"{self.path.name} changed while opening.",
                                   "Try again.")
            self.meta_values = dict(self.con.execute("SELECT key, value FROM meta"))
            self.signer = keys.Signer.load(self.meta_values.get("session_id", "?"))
            if keys.public_key_hex(self.signer.public) != self.meta_values.get("public_key"):
                raise StorageError("damaged", f"{self.path.name} is not signed with this "
                                   "session's key: it was altered.",
                                   "Run dealer-assist verify on it; do not continue it.")
            last = self.con.execute(
                "SELECT seq, sig FROM events ORDER BY seq DESC LIMIT 1").fetchone()
            self._last_seq, self._last_sig = (last[0], last[1]) if last else (
                0, genesis(self.meta_values))
            self.con.execute(SET_WRITER, ["open", self._last_seq, _now()])
            # the file itself (not only its -wal) records that a writer has it open: a copy
            # taken without the -wal is then recognised as one (verify)
            self.con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except (sqlite3.Error, OSError) as exc:
            self.close(mark=False)
            raise self._error(exc, "opening the session") from None
        except BaseException:
            self.close(mark=False)
            raise

    def _error(self, exc: BaseException, doing: str) -> StorageError:
        error = storage_error(exc, self.path, doing)
        if error.kind == "io" and not os.access(self.path.parent, os.W_OK):
            return storage_error(PermissionError(13, "read-only folder"), self.path, doing)
        return error

    # ------------------------------------------------------------ appending

    @property
    def last_seq(self) -> int:
        return self._last_seq

    @property
    def head(self) -> Head | None:
        return Head.of(self._last_seq, self._last_sig) if self._last_seq else None

    def _insert(self, bodies: list[dict[str, Any]]) -> None:
        seq, prev, sign = self._last_seq, self._last_sig, self.signer.sign
        rows = []
        for body in bodies:
            seq += 1
            at = _now()
            body_json = canonical_json(body)
            kind = body["type"]
            sig = sign(message(seq, kind, at, prev, body_json)).hex()
            rows.append((seq, at, kind, body_json, prev, sig))
            prev = sig
        self.con.executemany(INSERT_EVENT, rows)  # type: ignore[union-attr]
        self._pending = (seq, prev)

    def append(self, body: dict[str, Any]) -> int:
        """Write one event in its own transaction and return its sequence number."""
        return self.append_many([body])

    def append_many(self, bodies: list[dict[str, Any]]) -> int:
        """Write events in one transaction (all or none); return the last sequence number.
        StorageError (full disk, read-only...) leaves the log and this object as they were."""
        if self.con is None:
            raise StorageError("io", f"{self.path.name} is closed.", "Open the session again.")
        try:
            self.con.execute("BEGIN IMMEDIATE")
            try:
                self._insert(bodies)
                self.con.execute("COMMIT")
            except BaseException:
                if self.con.in_transaction:
                    self.con.execute("ROLLBACK")
                raise
        except (sqlite3.Error, OSError, UnicodeEncodeError) as exc:
            if isinstance(exc, UnicodeEncodeError):
                raise InputError("the event holds text that cannot be stored") from None
            raise self._error(exc, "the last entry") from None
        self._last_seq, self._last_sig = self._pending
        return self._last_seq

    # ------------------------------------------------------------ reading

    def rows(self) -> Iterator[tuple[int, str, dict[str, Any]]]:
        """``(seq, at, body)`` in order."""
        for seq, at, body in self.con.execute(  # type: ignore[union-attr]
                "SELECT seq, at, body FROM events ORDER BY seq"):
            yield seq, at, json.loads(body)

    def events(self) -> list[dict[str, Any]]:
        """Every event body in order, each its own dict (its nested values, if any, shared
        with identical events). A long session repeats a few hundred distinct events, so each
        distinct body is decoded once and copied: twice as fast for a replay."""
        try:
            return decode_bodies(row[0] for row in self.con.execute(  # type: ignore[union-attr]
                "SELECT body FROM events ORDER BY seq"))
        except (sqlite3.Error, TypeError, ValueError, RecursionError):
            raise StorageError("damaged", f"{self.path.name} has an event that cannot be read.",
                               "Run dealer-assist verify on it to see which; use a backup "
                               "copy.") from None

    def meta(self, key: str, default: str | None = None) -> str | None:
        return self.meta_values.get(key, default)

    def close(self, *, mark: bool = True) -> None:
        """Record a clean close in the file, close it and release the lock."""
        if self.con is not None:
            if mark:
                # on a full or read-only disk the -wal and the lock still say enough
                with contextlib.suppress(sqlite3.Error):
                    self.con.execute(SET_WRITER, ["closed", self._last_seq, _now()])
            self.con.close()
            self.con = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __del__(self) -> None:
        if getattr(self, "_lock", None) is not None or getattr(self, "con", None) is not None:
            self.close()


# ---------------------------------------------------------------- checking a file


@dataclass(frozen=True)
class VerifyReport:
    """The result of checking a log file.

    ``ok`` only when the chain is intact *and* proven: by the session's trusted public key
    (from the data folder or ``key=``) or by a matching ``expect_head``. ``proof`` says which.
    """

    ok: bool
    events: int
    first_bad_seq: int | None = None
    reason: str = ""
    head: Head | None = None
    proof: str = ""
    first_bad_type: str = ""
    first_bad_at: str = ""
    notes: tuple[str, ...] = ()
    unreadable: bool = False  # not a session log at all (missing, not SQLite, foreign...)
    unproven: bool = False  # consistent, but no trusted key or head to prove it against

    def __str__(self) -> str:
        if self.ok:
            return f"OK: {self.events} events, signed chain intact, head {self.head} ({self.proof})"
        if self.unproven:
            return f"NOT PROVEN: {self.events} events, {self.reason}"
        if self.first_bad_seq is None:
            return f"BROKEN: {self.reason}"
        return f"BROKEN at event {self.first_bad_seq}: {self.reason}"


@dataclass(frozen=True)
class LogContents:
    """A log file read read-only: its format, meta, rows, and how it was read."""

    format: int
    meta: dict[str, str]
    rows: list[tuple]
    writer: tuple[str, int] | None  # (state, events) the writer last recorded in the file
    wal_missing: bool
    note: str = ""


def read_log(path: str | Path) -> LogContents:
    """Every row of a log file, read without changing it or its -wal (StorageError if the
    file is not a session log)."""
    path = Path(path)
    with open_read_only(path) as (con, note):
        fmt = classify(con, path)
        try:
            meta = {str(k): str(v) for k, v in con.execute("SELECT key, value FROM meta")}
            if fmt == 1:
                rows = con.execute("SELECT seq, at, type, body, prev_hash, hash FROM events "
                                   "ORDER BY seq").fetchall()
                writer = None
            else:
                rows = con.execute("SELECT seq, at, type, body, prev, sig FROM events "
                                   "ORDER BY seq").fetchall()
                writer = con.execute("SELECT state, events FROM writer WHERE id = 1").fetchone()
        except sqlite3.Error as exc:
            raise storage_error(exc, path, "reading it") from None
    missing = bool(writer and writer[0] == "open" and not wal_path(path).exists())
    return LogContents(fmt, meta, rows, tuple(writer) if writer else None, missing, note)


def trusted_key(meta: Mapping[str, str]) -> Ed25519PublicKey | None:
    """The session's public key from this data folder (kept outside the log), if it is here."""
    try:
        path = keys.trusted_key_path(meta.get("session_id", ""))
    except StorageError:
        return None
    return keys.load_public_key(path) if path.exists() else None


def verify(path: str | Path, *, key: Ed25519PublicKey | None = None,
           expect_head: Head | None = None) -> VerifyReport:
    """Check a log file read-only: format, meta, every row's signature and link, no gap, not
    empty, the writer's last record, and (if given) the head from a slip."""
    try:
        log = read_log(path)
    except StorageError as exc:
        return VerifyReport(False, 0, None, exc.what.rstrip("."),
                            unreadable=exc.exit_status == EXIT_UNREADABLE)
    return verify_contents(log, key=key, expect_head=expect_head)


def _named(log: LogContents, seq: int | None) -> tuple[str, str]:
    for row in log.rows:
        if row[0] == seq:
            return str(row[2]), str(row[1])
    return "", ""


def verify_contents(log: LogContents, *, key: Ed25519PublicKey | None = None,
                    expect_head: Head | None = None) -> VerifyReport:
    if log.format == 1:
        return VerifyReport(False, 0, None, "an unsigned log of an earlier version: anyone can "
                            "recompute its hashes, so it proves nothing")
    meta_key_hex = log.meta.get("public_key", "")
    try:
        meta_key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(meta_key_hex))
    except ValueError:
        return VerifyReport(False, 0, None, "its meta table has no valid public key")
    trusted = key or trusted_key(log.meta)
    notes = [log.note] if log.note else []
    if trusted is not None and keys.public_key_hex(trusted) != meta_key_hex:
        return VerifyReport(False, 0, None, "it is signed with another key than this "
                            "session's: the log was re-signed (rewritten)")
    check = verify_rows(log.rows, trusted or meta_key, genesis(log.meta))
    if not check.ok:
        kind, at = _named(log, check.first_bad_seq)
        reason = check.reason
        if check.first_bad_seq == 1 and "link" in reason:
            reason = "the meta table was changed (event 1 no longer links to it)"
        elif check.first_bad_seq == 1 and "signature" in reason:
            reason += " (or the meta table was changed)"
        return VerifyReport(False, check.events, check.first_bad_seq, reason, check.head, "",
                            kind, at, tuple(notes))
    head = check.head
    if check.events == 0:
        return VerifyReport(False, 0, None, "the log has no events (a session log starts with "
                            "its session_start)")
    if log.wal_missing:
        return VerifyReport(False, check.events, None,
                            f"its -wal file is missing: this is a copy taken while the session "
                            f"was open (or the -wal was lost); it holds only the {check.events} "
                            "events written to the main file. Copy FILE.db-wal with it",
                            head)
    if log.writer and log.writer[0] == "closed" and log.writer[1] != check.events:
        return VerifyReport(False, check.events, None,
                            f"the session was closed with {log.writer[1]} events but the file "
                            f"has {check.events}: events were cut off", head)
    proof = "signed with this session's key" if trusted else ""
    if expect_head is not None:
        if check.events < expect_head.events:
            return VerifyReport(False, check.events, None,
                                f"head mismatch: the slip shows {expect_head} but the log has "
                                f"only {check.events} events: it was cut off", head)
        sig = log.rows[expect_head.events - 1][5]
        if Head.of(expect_head.events, sig) != expect_head:
            kind, at = _named(log, expect_head.events)
            return VerifyReport(False, check.events, None,
                                f"head mismatch: event {expect_head.events} is not the one "
                                f"on the slip ({expect_head}): the log was rewritten", head,
                                "", kind, at)
        proof = (proof + "; " if proof else "") + f"matches the head {expect_head}"
    if not proof:
        return VerifyReport(False, check.events, None,
                            "the chain is consistent, but this session's public key is not in "
                            "this data folder, so a forger's re-signed copy would look the same: "
                            "give --key (the exported public key) or --expect-head N:HASH",
                            head, unproven=True)
    return VerifyReport(True, check.events, None, "", head, proof, notes=tuple(notes))


def decode_bodies(bodies: Iterable[str]) -> list[Any]:
    """Event bodies decoded, each its own dict (nested values shared with identical events):
    each distinct body is decoded once and copied (ValueError if one is not JSON)."""
    decoded: dict[str, Any] = {}
    events = []
    for body in bodies:
        value = decoded.get(body)
        if value is None:
            value = decoded[body] = json.loads(body)
        events.append(value.copy() if isinstance(value, dict) else value)
    return events


def read_events(path: str | Path) -> list[dict[str, Any]]:
    """Every event body of a log file, read-only (no lock: the session may be open)."""
    return decode_bodies(row[3] for row in read_log(path).rows)
