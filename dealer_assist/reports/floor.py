"""The floor view's data: every session on the card room's server, its round, house result,
last sync and integrity, reconciled by the same code as the reports.

A ``Floor`` remembers each session's reconciliation until the server's copy of it changes (the
server is append only, so its head, meta and key say when). Of a session that grew, only the new
events are fetched and their signatures checked (the check goes on from the last one); the
session is then reconciled again from its first event (a replay is cheap beside the signature
checks). A new ``Floor`` (the window opened again) reads and checks everything afresh.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from dealer_assist.cardroom.source import (
    Listing,
    ServerSession,
    list_sessions,
    load_sessions,
    snapshot,
)
from dealer_assist.reports.reconcile import reconcile_log

LAST_RUNS = """
SELECT DISTINCT ON (session_id) session_id, ok, problem, at
FROM sync_runs ORDER BY session_id, id DESC
"""


@dataclass(frozen=True)
class FloorRow:
    table: str
    game: str
    session: str
    rounds: int  # settled rounds
    status: str  # "round in progress", "ended", "not ended", "not reconciled"
    house: int  # the house's result (0 where players bank)
    house_banked: bool
    discrepancies: int  # chip counts that differ from the log
    last_sync: datetime
    ok: bool  # server copy intact, reconciled, and the tablet's last sync not refused
    integrity: str

    @property
    def current_round(self) -> str:
        if self.status == "round in progress":
            return f"{self.rounds + 1} (in progress)"
        return f"{self.rounds} played" + (", ended" if self.status == "ended" else "")


class Floor:
    """The floor of one server, refreshed on demand; reconciliations kept per session."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._known: dict[str, tuple[tuple[int, int, str], FloorRow, ServerSession]] = {}
        self.replayed = 0  # sessions fetched and reconciled by the last refresh

    def rows(self, table: str | None = None, since: str | None = None) -> list[FloorRow]:
        """One row per session (psycopg.Error / SchemaError if the server cannot be read)."""
        with snapshot(self.url) as conn:
            listed = list_sessions(conn, table, since)
            changed = {s.session_id: s for s in listed if self._cached(s) is None}
            earlier = {sid: known[2] for sid, known in self._known.items() if sid in changed}
            for session in load_sessions(conn, list(changed.values()), earlier):
                self._known[session.session_id] = (changed[session.session_id].version,
                                                   _reconciled(session), session)
            refused = {sid: problem for sid, ok, problem, _ in conn.execute(LAST_RUNS)
                       if not ok}
        self.replayed = len(changed)
        return [_with_sync(self._known[s.session_id][1], s, refused.get(s.session_id))
                for s in listed]

    def _cached(self, listed: Listing) -> FloorRow | None:
        known = self._known.get(listed.session_id)
        return known[1] if known and known[0] == listed.version else None


def _reconciled(session: ServerSession) -> FloorRow:
    report = reconcile_log(session)
    return FloorRow(session.card_table, report.title or session.game, session.label,
                    len(report.rounds), report.status, report.house_result,
                    report.house_banked, len(report.discrepancies), session.synced_at,
                    report.ok, report.integrity.sentence())


def _with_sync(row: FloorRow, listed: Listing, refusal: str | None) -> FloorRow:
    """The remembered row with this refresh's last sync and the tablet's last refusal."""
    if refusal is None:
        return replace(row, last_sync=listed.synced_at)
    return replace(row, last_sync=listed.synced_at, ok=False,
                   integrity=f"Last sync REFUSED: {refusal}. Server copy: {row.integrity}")

