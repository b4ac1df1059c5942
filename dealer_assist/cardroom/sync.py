"""Ship a table's session log to the card room's PostgreSQL server.

Append only and idempotent: the server's copy of a session is extended from its last event, in
order, one transaction per batch, so re-sending is harmless and a dropped connection resumes
where the server stands. The log's signed chain is checked with the session's public key from
this data folder (or ``key=``), never with the copy in the log's meta, from the server's last
event on: the events the server holds were checked when they were shipped (and reports check
the server's copy), so a sync every few seconds costs only its new events; ``dealer-assist
verify`` checks a whole file. Only the intact part of a tampered log is shipped and the tamper
is reported. The first sync registers the
session's public key on the server (``session_keys``), where reports check the server's copy
with it; a server that has another key registered for the session refuses. A server copy that
disagrees with the log (another device's log of the same session, or one edited and re-signed
with the session's key) is refused and reported, never overwritten.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from dealer_assist.cardroom import schema
from dealer_assist.cardroom.chain import Row, read_log, session_id, tablet_key, verify_rows
from dealer_assist.session.keys import public_key_hex

# one statement per batch, the rows as one JSON array (COPY is not allowed under row-level
# security, and arrays of JSON text are slow to escape)
INSERT_ROWS = (
    "INSERT INTO events (session_id, card_table, seq, type, at, row) "
    "SELECT %s, %s, (r->>'seq')::bigint, r->>'type', r->>'at', r "
    "FROM jsonb_array_elements(%s::jsonb) AS r"
)
Connect = Callable[[str], psycopg.Connection]


@dataclass(frozen=True)
class SyncResult:
    """What one sync of one log did: ``sent`` events now, ``on_server`` in all."""

    path: Path
    card_table: str
    session_id: str
    sent: int
    on_server: int
    events: int  # rows in the log
    problem: str = ""  # why (part of) the log was refused; empty when all of it is on the server

    @property
    def ok(self) -> bool:
        return not self.problem

    def sentence(self) -> str:
        head = f"{self.path.name} (table {self.card_table}): "
        state = f"{self.sent} event(s) sent, {self.on_server} of {self.events} on the server"
        return head + (f"{state}." if self.ok else f"REFUSED: {self.problem} ({state}).")


class Refused(Exception):
    """The server's copy disagrees with the log, or belongs to another table: nothing written."""


def _lock(conn: psycopg.Connection, sid: str) -> None:
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 17))", [sid])


def _head(conn: psycopg.Connection, sid: str) -> tuple[int, dict[str, Any] | None]:
    row = conn.execute("SELECT seq, row FROM events WHERE session_id = %s "
                       "ORDER BY seq DESC LIMIT 1", [sid]).fetchone()
    return (int(row[0]), row[1]) if row else (0, None)


def _agree(head: int, server_row: dict[str, Any] | None, rows: list[Row]) -> None:
    """Refuse unless the server's last event is, column for column, the log's row there."""
    if head == 0:
        return
    if head > len(rows):
        raise Refused(f"the server holds {head} events of this session, the log only "
                      f"{len(rows)}: the server's copy does not come from this log")
    if server_row != json.loads(json.dumps(rows[head - 1])):
        raise Refused(f"event {head} on the server differs from the log's event {head}: "
                      "the server's copy and this log disagree (nothing was overwritten)")


def _open_session(conn: psycopg.Connection, sid: str, card_table: str, rows: list[Row],
                  meta: dict[str, str], key_hex: str) -> None:
    start = json.loads(rows[0]["body"]) if rows else {}
    conn.execute("INSERT INTO sessions (session_id, card_table, game, started_at) "
                 "VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                 [sid, card_table, str(start.get("game", "")), rows[0]["at"]])
    owner = conn.execute("SELECT card_table FROM sessions WHERE session_id = %s",
                         [sid]).fetchone()
    if owner is None or owner[0] != card_table:
        other = f"table {owner[0]}" if owner else "another table"
        raise Refused(f"this session is already on the server for {other}")
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO session_meta (session_id, card_table, key, value) "
                        "VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                        [(sid, card_table, k, v) for k, v in sorted(meta.items())])
    conn.execute("INSERT INTO session_keys (session_id, card_table, public_key) "
                 "VALUES (%s, %s, %s) ON CONFLICT DO NOTHING", [sid, card_table, key_hex])
    registered = conn.execute("SELECT public_key FROM session_keys WHERE session_id = %s",
                              [sid]).fetchone()
    if registered is None or registered[0] != key_hex:
        raise Refused("the server has another public key registered for this session: this "
                      "log is not the one the server's copy came from")


def _send_batch(conn: psycopg.Connection, sid: str, card_table: str, rows: list[Row],
                limit: int, batch: int) -> tuple[int, int]:
    """One transaction: extend the server's copy by up to ``batch`` rows; return its new head
    and how many rows this call inserted (another tablet may have sent some meanwhile)."""
    with conn.transaction():
        _lock(conn, sid)
        head, server_row = _head(conn, sid)
        _agree(head, server_row, rows)
        chunk = rows[head:min(limit, head + batch)]
        if not chunk:
            return head, 0
        conn.execute(INSERT_ROWS, [sid, card_table, json.dumps(chunk, ensure_ascii=False)])
        return head + len(chunk), len(chunk)


def _record(conn: psycopg.Connection, result: SyncResult) -> None:
    conn.execute("INSERT INTO sync_runs (session_id, card_table, ok, events, problem) "
                 "VALUES (%s, %s, %s, %s, %s)",
                 [result.session_id, result.card_table, result.ok, result.on_server,
                  result.problem])


def _check_after(rows: list[Row], trusted: Ed25519PublicKey, meta: dict[str, str],
                 start: int) -> tuple[int, str]:
    """How many rows are intact, checking the signed chain only after the server's ``start``
    (the rows before it are on the server, checked when they were shipped; ``_agree`` has
    matched the row at ``start``); and the tamper found, if any."""
    after = (start, rows[start - 1]["sig"]) if start else None
    report = verify_rows(rows[start:], trusted, meta, after=after)
    if report.ok:
        return len(rows), ""
    intact = start + report.events
    return intact, (f"the log is altered at event {report.first_bad_seq}: {report.reason}; "
                    f"only the {intact} intact event(s) before it can be shipped")


def _ship(conn: psycopg.Connection, path: Path, card_table: str, rows: list[Row],
          meta: dict[str, str], trusted: Ed25519PublicKey, batch: int,
          sent: list[int]) -> SyncResult:
    """Ship over one connection; ``sent[0]`` counts the rows inserted (kept across retries)."""
    schema.check(conn)
    sid = session_id(rows)
    try:
        with conn.transaction():
            _lock(conn, sid)
            _open_session(conn, sid, card_table, rows, meta, public_key_hex(trusted))
            start, server_row = _head(conn, sid)
            _agree(start, server_row, rows)
        intact, tamper = _check_after(rows, trusted, meta, start)
        head = start
        while head < intact:
            head, inserted = _send_batch(conn, sid, card_table, rows, intact, batch)
            sent[0] += inserted
        problem = tamper
        if head > intact and not problem:
            problem = "the server holds events past the log's intact part"
    except psycopg.errors.InsufficientPrivilege:
        return SyncResult(path, card_table, sid, 0, 0, len(rows),
                          f"this login may not write table {card_table}'s events")
    except Refused as exc:
        head, problem = _head(conn, sid)[0], str(exc)
    result = SyncResult(path, card_table, sid, sent[0], head, len(rows), problem)
    if result.sent or result.problem:
        with conn.transaction():
            _record(conn, result)
    return result


def sync_log(path: str | Path, url: str, card_table: str, *, batch: int = 1000,
             retries: int = 5, connect: Connect | None = None,
             key: Ed25519PublicKey | None = None) -> SyncResult:
    """Ship one log to the server at ``url`` as table ``card_table``, checked with the session's
    public key from this data folder (or ``key``, the one ``dealer-assist log export-key`` wrote).

    Raises ``chain.NotALog`` for a file that is not a session log, ``schema.SchemaError`` for a
    server without this version's schema and ``psycopg.OperationalError`` when the server stays
    unreachable after ``retries`` reconnections (each resumes from the server's last event).
    """
    path = Path(path)
    rows, meta = read_log(path)
    if not rows:
        return SyncResult(path, card_table, "", 0, 0, 0, "the log has no events")
    trusted = tablet_key(meta, key)
    if trusted is None:
        return SyncResult(path, card_table, "", 0, 0, len(rows),
                          "this session's public key is not in this data folder (the session "
                          "was started on another computer): give --key with the key that "
                          "`dealer-assist log export-key` wrote there")
    first, tamper = _check_after(rows[:1], trusted, meta, 0)  # the key and event 1
    if not first:
        return SyncResult(path, card_table, "", 0, 0, len(rows), tamper)
    connect = connect or (lambda u: psycopg.connect(u, connect_timeout=5, autocommit=True))
    sent = [0]
    for attempt in range(retries + 1):
        try:
            with connect(url) as conn:
                return _ship(conn, path, card_table, rows, meta, trusted, batch, sent)
        except psycopg.OperationalError:
            if attempt == retries:
                raise
            time.sleep(min(2.0, 0.1 * 2 ** attempt))
    raise AssertionError("unreachable")
