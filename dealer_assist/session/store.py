"""Where sessions and user data live, and which sessions can be resumed.

The data folder is ``$DEALER_ASSIST_DATA`` if set, else ``$XDG_DATA_HOME/dealer-assist``
(``~/.local/share/dealer-assist``). Session logs are ``sessions/<game>-<timestamp>.db``.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from dealer_assist import safe_json
from dealer_assist.errors import InputError, StorageError
from dealer_assist.paths import data_dir, data_subdir
from dealer_assist.session.storage import FORMAT, classify, open_read_only

__all__ = ["SessionInfo", "data_dir", "list_sessions", "new_session_path", "unfinished_sessions"]


def sessions_dir() -> Path:
    return data_subdir("sessions")


def new_session_path(game: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = sessions_dir() / f"{game}-{stamp}.db"
    n = 2
    while path.exists():
        path = sessions_dir() / f"{game}-{stamp}-{n}.db"
        n += 1
    return path


@dataclass(frozen=True)
class SessionInfo:
    """A session log found on disk, read without replaying it."""

    path: Path
    game: str
    players: tuple[str, ...]
    events: int
    last_at: str
    ended: bool


def read_info(path: Path) -> SessionInfo | None:
    """Summary of a session log (read-only, never changed), or None if the file is not one."""
    try:
        with open_read_only(path) as (con, _):
            if classify(con, path) != FORMAT:
                return None
            first = con.execute("SELECT body FROM events ORDER BY seq LIMIT 1").fetchone()
            last = con.execute(
                "SELECT seq, at, type FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        start = safe_json.loads(first[0]) if first else None
    except (StorageError, InputError, sqlite3.Error):
        return None
    if not isinstance(start, dict) or not last:
        return None
    seats = start.get("seats") if isinstance(start.get("seats"), list) else []
    players = tuple(str(s.get("name", "?")) if isinstance(s, dict) else "?" for s in seats)
    return SessionInfo(path, str(start.get("game", "?")), players, last[0], str(last[1]),
                       last[2] == "end_session")


def list_sessions(folder: Path | None = None) -> list[SessionInfo]:
    """Session logs in the data folder, newest activity first."""
    folder = folder or sessions_dir()
    infos = [i for p in folder.glob("*.db") if (i := read_info(p)) is not None]
    return sorted(infos, key=lambda i: i.last_at, reverse=True)


def unfinished_sessions(folder: Path | None = None) -> list[SessionInfo]:
    """Sessions that were not ended: the ones to offer to resume at start-up."""
    return [i for i in list_sessions(folder) if not i.ended]
