"""The session log: an append-only, hash-chained table of events in SQLite (sqlite-utils).

Each row stores the hash of the previous row (``prev_hash``) and its own hash over
``prev_hash``, ``seq``, ``at`` and the event body, so any edit of the file is detectable by
:func:`verify`. One event is one transaction; WAL with ``synchronous=FULL`` makes it durable.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils.migrations import Migrations

GENESIS = "0" * 64
INSERT_EVENT = (
    "INSERT INTO events (seq, at, type, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?)"
)
migrations = Migrations("dealer_assist.session_log")


@migrations()
def m001_events(db: sqlite_utils.Database) -> None:
    db["events"].create(
        {"seq": int, "at": str, "type": str, "body": str, "prev_hash": str, "hash": str},
        pk="seq",
        not_null={"at", "type", "body", "prev_hash", "hash"},
    )


@migrations()
def m002_meta(db: sqlite_utils.Database) -> None:
    db["meta"].create({"key": str, "value": str}, pk="key")


def canonical_json(body: dict[str, Any]) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def row_hash(prev_hash: str, seq: int, at: str, body_json: str) -> str:
    data = f"{prev_hash}|{seq}|{at}|{body_json}".encode()
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class VerifyReport:
    """The result of checking a log's hash chain."""

    ok: bool
    events: int
    first_bad_seq: int | None = None
    reason: str = ""

    def __str__(self) -> str:
        if self.ok:
            return f"OK: {self.events} events, hash chain intact"
        return f"BROKEN at event {self.first_bad_seq}: {self.reason}"


class EventLog:
    """An open session log file. Append events; read them back in order."""

    def __init__(self, path: str | Path, *, durable: bool = True) -> None:
        self.path = Path(path)
        self.db = sqlite_utils.Database(self.path)
        self.db.enable_wal()
        self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        migrations.apply(self.db)
        last = self.db.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        self._last_seq, self._last_hash = (last[0], last[1]) if last else (0, GENESIS)

    @property
    def last_seq(self) -> int:
        return self._last_seq

    def append(self, body: dict[str, Any]) -> int:
        """Write one event in its own transaction and return its sequence number."""
        return self.append_many([body])

    def append_many(self, bodies: list[dict[str, Any]]) -> int:
        """Write events in one transaction (all or none); return the last sequence number."""
        seq, prev = self._last_seq, self._last_hash
        rows = []
        for body in bodies:
            seq += 1
            at = datetime.now(UTC).isoformat(timespec="milliseconds")
            body_json = canonical_json(body)
            digest = row_hash(prev, seq, at, body_json)
            rows.append((seq, at, body["type"], body_json, prev, digest))
            prev = digest
        with self.db.atomic():
            self.db.conn.executemany(INSERT_EVENT, rows)
        self._last_seq, self._last_hash = seq, prev
        return seq

    def rows(self) -> Iterator[tuple[int, str, dict[str, Any]]]:
        """``(seq, at, body)`` in order."""
        for seq, at, body in self.db.execute("SELECT seq, at, body FROM events ORDER BY seq"):
            yield seq, at, json.loads(body)

    def events(self) -> list[dict[str, Any]]:
        """Every event body in order (decoded in one pass: replay speed matters)."""
        bodies = [row[0] for row in self.db.execute("SELECT body FROM events ORDER BY seq")]
        return json.loads("[" + ",".join(bodies) + "]")

    def set_meta(self, key: str, value: str) -> None:
        with self.db.atomic():
            self.db["meta"].upsert({"key": key, "value": value}, pk="key")

    def meta(self, key: str, default: str | None = None) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return row[0] if row else default

    def close(self) -> None:
        self.db.close()


def verify(path: str | Path) -> VerifyReport:
    """Walk the chain and report the first event whose row or link does not match."""
    path = Path(path)
    if not path.exists():
        return VerifyReport(False, 0, None, f"no such file: {path}")
    db = sqlite_utils.Database(path)
    try:
        try:
            tables = db.table_names()
        except sqlite3.DatabaseError:
            return VerifyReport(False, 0, None, "not a session log (not an SQLite file)")
        if "events" not in tables:
            return VerifyReport(False, 0, None, "not a session log (no events table)")
        prev, expected_seq, count = GENESIS, 1, 0
        cursor = db.execute("SELECT seq, at, body, prev_hash, hash FROM events ORDER BY seq")
        for seq, at, body, prev_hash, digest in cursor:
            if seq != expected_seq:
                return VerifyReport(False, count, expected_seq, f"event {expected_seq} is missing")
            if prev_hash != prev:
                return VerifyReport(False, count, seq, "its link to the previous event was changed")
            if row_hash(prev_hash, seq, at, body) != digest:
                return VerifyReport(False, count, seq, "its content does not match its hash")
            try:
                json.loads(body)
            except ValueError:
                return VerifyReport(False, count, seq, "its body is not valid JSON")
            prev, expected_seq, count = digest, seq + 1, count + 1
        return VerifyReport(True, count)
    finally:
        db.close()
