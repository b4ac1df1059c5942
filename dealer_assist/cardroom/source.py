"""The card room's server as an event source for reports: one source per session on it.

Each session's chain is checked with the public key its tablet registered at the first sync
(``session_keys``), never with the key in the shipped meta alone: a session without a
registered key is reported as not proven.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cached_property

import psycopg

from dealer_assist.cardroom import schema
from dealer_assist.cardroom.chain import Row, verify_rows
from dealer_assist.session.integrity import Integrity, RawRow
from dealer_assist.session.log import ChainCheck

SESSIONS = """
SELECT s.session_id, s.card_table, s.game, s.started_at, max(e.at) AS last_at,
       max(e.synced_at) AS synced_at, max(e.seq) AS head,
       (SELECT count(*) FROM session_meta m WHERE m.session_id = s.session_id) AS meta_rows,
       (SELECT k.public_key FROM session_keys k WHERE k.session_id = s.session_id) AS public_key
FROM sessions s JOIN events e USING (session_id)
WHERE (%(table)s::text IS NULL OR s.card_table = %(table)s)
GROUP BY s.session_id
HAVING (%(since)s::text IS NULL OR max(e.at) >= %(since)s)
ORDER BY s.card_table, s.started_at
"""


@dataclass(frozen=True)
class ServerSession:
    """One session's events as the server holds them (fetched once, when listed)."""

    card_table: str
    session_id: str
    game: str
    started_at: str
    last_at: str
    synced_at: datetime
    raw: tuple[Row, ...]
    meta: tuple[tuple[str, str], ...] = ()  # as shipped (append only: a changed value is kept)
    public_key: str = ""  # hex, as the tablet registered it; empty: none registered
    checked: ChainCheck | None = None  # an intact check of the first rows, made earlier

    @property
    def label(self) -> str:
        return f"{self.card_table}-{self.started_at[:16].replace(':', '')}-{self.session_id[:8]}"

    def integrity(self) -> Integrity:
        if not self.public_key:
            return Integrity(False, 0, reason="no public key is registered for this session on "
                             "the server (its tablet registers it at the first sync), so its "
                             "chain cannot be proven")
        meta = dict(self.meta)
        if len(meta) != len(self.meta):
            changed = sorted({k for k, _ in self.meta if sum(k == m for m, _ in self.meta) > 1})
            return Integrity(False, 0, reason=f"its meta was shipped with two values for "
                             f"{', '.join(changed)}: the log's meta was changed")
        if not self.raw:
            return Integrity(False, 0, reason="the server holds no events of this session")
        report = self.chain
        if report.ok:
            return Integrity(True, report.events, head=str(report.head or ""),
                             proof="signed with the key its tablet registered on the server")
        bad = next((r for r in self.raw if r.get("seq") == report.first_bad_seq), None)
        return Integrity(False, report.events, report.first_bad_seq,
                         str(bad.get("type", "")) if bad else "",
                         str(bad.get("at", "")) if bad else "", report.reason,
                         str(report.head or ""))

    @cached_property
    def chain(self) -> ChainCheck:
        """The signed chain check of ``raw`` under the registered key, continued after
        ``checked`` when an earlier check of the first rows is given (the server is append
        only: rows it held then are the rows it holds now)."""
        key, meta, done = bytes.fromhex(self.public_key), dict(self.meta), self.checked
        if done is None or not done.ok or not 0 < done.events <= len(self.raw):
            return verify_rows(list(self.raw), key, meta)
        rest = verify_rows(list(self.raw[done.events:]), key, meta,
                           after=(done.events, done.last_sig))
        return replace(rest, events=done.events + rest.events, head=rest.head or done.head)

    def rows(self) -> list[RawRow]:
        return [(r["seq"], r["at"], r["type"], r["body"]) for r in self.raw]


def since_text(value: str) -> str:
    """``--since`` as the log's time format (UTC ISO); a time without a zone is taken as UTC."""
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Listing:
    """A session as listed on the server, before its events are fetched. ``version`` changes
    whenever anything a report reads of it changes (the server is append only)."""

    session_id: str
    card_table: str
    game: str
    started_at: str
    last_at: str
    synced_at: datetime
    head: int  # its last event's seq on the server
    meta_rows: int
    public_key: str

    @property
    def version(self) -> tuple[int, int, str]:
        return self.head, self.meta_rows, self.public_key


def list_sessions(conn: psycopg.Connection, table: str | None = None,
                  since: str | None = None) -> list[Listing]:
    """Every session on the server (of one table, active at or after ``since``), without its
    events."""
    schema.check(conn)
    return [Listing(sid, t, g, start, last, synced, int(head), int(meta), key or "")
            for sid, t, g, start, last, synced, head, meta, key in
            conn.execute(SESSIONS, {"table": table, "since": since}).fetchall()]


NEW_ROWS = """
SELECT e.session_id, e.row FROM events e
JOIN unnest(%s::text[], %s::bigint[]) AS k(session_id, after)
  ON e.session_id = k.session_id AND e.seq > k.after
ORDER BY e.session_id, e.seq
"""


def _still_valid(known: ServerSession | None, listed: Listing) -> ServerSession | None:
    """``known`` if the server's copy has only grown since it was read (same key, same meta)."""
    if known is None or known.public_key != listed.public_key:
        return None
    if len(known.meta) != listed.meta_rows or len(known.raw) > listed.head:
        return None
    return known


def load_sessions(conn: psycopg.Connection, listed: list[Listing],
                  known: Mapping[str, ServerSession] | None = None) -> list[ServerSession]:
    """The listed sessions with their events and meta (up to each listing's head). Of a
    session in ``known`` read earlier, only the events after it are fetched, and its chain
    check goes on from there."""
    ids = [s.session_id for s in listed]
    before = {s.session_id: _still_valid((known or {}).get(s.session_id), s) for s in listed}
    rows: dict[str, list[Row]] = {sid: list(k.raw) if k else [] for sid, k in before.items()}
    with conn.cursor() as cur:
        cur.execute(NEW_ROWS, [ids, [len(rows[sid]) for sid in ids]])
        for sid, row in cur:
            rows[sid].append(row)
    metas: dict[str, list[tuple[str, str]]] = {sid: [] for sid in ids}
    for sid, key, value in conn.execute(
            "SELECT session_id, key, value FROM session_meta WHERE session_id = ANY(%s) "
            "ORDER BY session_id, key, value", [ids]):
        metas[sid].append((key, value))
    return [ServerSession(s.card_table, s.session_id, s.game, s.started_at, s.last_at,
                          s.synced_at, tuple(rows[s.session_id]), tuple(metas[s.session_id]),
                          s.public_key, _checked(before[s.session_id]))
            for s in listed]


def _checked(known: ServerSession | None) -> ChainCheck | None:
    """The chain check of a session read earlier, when it had a key to check with."""
    if known is None or not known.public_key or not known.raw:
        return None
    return known.chain


def snapshot(url: str) -> psycopg.Connection:
    """A read-only connection whose first transaction sees one moment of a live card room."""
    conn = psycopg.connect(url, connect_timeout=5)
    conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
    return conn


def server_sessions(url: str, table: str | None = None, since: str | None = None
                    ) -> list[ServerSession]:
    """Every session on the server (of one table, active at or after ``since``), with its rows,
    read in one transaction so that the report sees one moment of a live card room."""
    with snapshot(url) as conn:
        return load_sessions(conn, list_sessions(conn, table, since))


def read_server(url: str, table: str | None, since: str | None) -> list[ServerSession] | str:
    """``server_sessions`` for the report command: a list, or a sentence saying why not."""
    try:
        when = since_text(since) if since else None
    except ValueError:
        return f"--since {since!r} is not a time (use ISO, e.g. 2026-11-23T18:00)"
    try:
        return server_sessions(url, table, when)
    except schema.SchemaError as exc:
        return str(exc)
    except psycopg.Error as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"cannot read the card room's server ({reason})"
