"""The floor view's data: every session on the server, its round, house result, last sync and
integrity, reconciled by the same code as the reports."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import psycopg

from dealer_assist.cardroom.source import server_sessions
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


def floor_rows(url: str, table: str | None = None, since: str | None = None) -> list[FloorRow]:
    """One row per session on the server (psycopg.Error / SchemaError if it cannot be read)."""
    sessions = server_sessions(url, table, since)
    with psycopg.connect(url, connect_timeout=5) as conn:
        refused = {sid: problem for sid, ok, problem, _ in conn.execute(LAST_RUNS) if not ok}
    rows = []
    for s in sessions:
        report = reconcile_log(s)
        integrity = report.integrity.sentence()
        if s.session_id in refused:
            integrity = f"Last sync REFUSED: {refused[s.session_id]}. Server copy: {integrity}"
        ok = report.ok and s.session_id not in refused
        rows.append(FloorRow(s.card_table, report.title or s.game, s.label, len(report.rounds),
                             report.status, report.house_result, report.house_banked,
                             len(report.discrepancies), s.synced_at, ok, integrity))
    return rows
