"""Session logs for the card-room tests: seeded Greek 31 deals written through the real log."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dealer_assist.session.engine import Session
from dealer_assist.session.simulate import greek31_events, greek31_start


class LiveTable:
    """A table's tablet playing seeded Greek 31 deals into its own log, event by event."""

    def __init__(self, path: Path, seed: int = 1) -> None:
        start = greek31_start()
        self.path = path
        self.session = Session.new("greek31", start["options"], start["seats"], 1, path=path)
        self._events = greek31_events(10**6, seed=seed)

    def play(self, rounds: int) -> LiveTable:
        target = len(self.session.rounds) + rounds
        while len(self.session.rounds) < target:
            self.session.submit(next(self._events))
        return self

    def close(self) -> Path:
        self.session.close()
        return self.path


def make_log(path: Path, rounds: int, seed: int = 1) -> Path:
    """A closed log of ``rounds`` settled Greek 31 deals."""
    return LiveTable(path, seed).play(rounds).close()


def server_rows(conn, sid: str) -> list[tuple[int, dict]]:
    return conn.execute("SELECT seq, row FROM events WHERE session_id = %s ORDER BY seq",
                        [sid]).fetchall()


def tamper(path: Path, seq: int, old: str = "}", new: str = ',"x":1}') -> None:
    """Edit one event's body in place, without re-signing it (what a careless cheat does)."""
    con = sqlite3.connect(path)
    body = con.execute("SELECT body FROM events WHERE seq = ?", [seq]).fetchone()[0]
    assert old in body
    con.execute("UPDATE events SET body = ? WHERE seq = ?", [body.replace(old, new, 1), seq])
    con.commit()
    con.close()
