"""The card room's server as an event source for reports: one source per session on it.

Each session's chain is checked with the public key its tablet registered at the first sync
(``session_keys``), never with the key in the shipped meta alone: a session without a
registered key is reported as not proven.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import psycopg

from dealer_assist.cardroom import schema
from dealer_assist.cardroom.chain import Row, verify_rows
from dealer_assist.reports.reconcile import Integrity
from dealer_assist.reports.source import RawRow

SESSIONS = """
SELECT s.session_id, s.card_table, s.game, s.started_at, max(e.at) AS last_at,
       max(e.synced_at) AS synced_at
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
        report = verify_rows(list(self.raw), bytes.fromhex(self.public_key), meta)
        if report.ok:
            return Integrity(True, report.events, head=str(report.head or ""),
                             proof="signed with the key its tablet registered on the server")
        bad = next((r for r in self.raw if r.get("seq") == report.first_bad_seq), None)
        return Integrity(False, report.events, report.first_bad_seq,
                         str(bad.get("type", "")) if bad else "",
                         str(bad.get("at", "")) if bad else "", report.reason,
                         str(report.head or ""))

    def rows(self) -> list[RawRow]:
        return [(r["seq"], r["at"], r["type"], r["body"]) for r in self.raw]


def since_text(value: str) -> str:
    """``--since`` as the log's time format (UTC ISO); a time without a zone is taken as UTC."""
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def server_sessions(url: str, table: str | None = None, since: str | None = None
                    ) -> list[ServerSession]:
    """Every session on the server (of one table, active at or after ``since``), with its rows,
    read in one transaction so that the report sees one moment of a live card room."""
    with psycopg.connect(url, connect_timeout=5) as conn:
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        schema.check(conn)
        found = conn.execute(SESSIONS, {"table": table, "since": since}).fetchall()
        ids = [f[0] for f in found]
        rows: dict[str, list[Row]] = {sid: [] for sid in ids}
        with conn.cursor() as cur:
            cur.execute("SELECT session_id, row FROM events WHERE session_id = ANY(%s) "
                        "ORDER BY session_id, seq", [ids])
            for sid, row in cur:
                rows[sid].append(row)
        metas: dict[str, list[tuple[str, str]]] = {sid: [] for sid in ids}
        for sid, key, value in conn.execute(
                "SELECT session_id, key, value FROM session_meta WHERE session_id = ANY(%s) "
                "ORDER BY session_id, key, value", [ids]):
            metas[sid].append((key, value))
        keys = dict(conn.execute("SELECT session_id, public_key FROM session_keys "
                                 "WHERE session_id = ANY(%s)", [ids]).fetchall())
    return [ServerSession(t, sid, g, start, last, synced, tuple(rows[sid]), tuple(metas[sid]),
                          keys.get(sid, ""))
            for sid, t, g, start, last, synced in found]


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
