"""A session log's raw rows, read read-only, and the one chain check the card room uses.

Rows are shipped as they are in the log's ``events`` table: every column, whatever they are (a
MAC column added to the log later travels without a schema change on the server).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from dealer_assist.session.log import GENESIS, VerifyReport, row_hash

Row = dict[str, Any]


class NotALog(ValueError):
    """The file is missing or is not a session log."""


def read_log(path: str | Path) -> tuple[list[Row], dict[str, str]]:
    """Every event row (all columns, in ``seq`` order) and the meta table, opened read-only."""
    path = Path(path)
    if not path.is_file():
        raise NotALog(f"no such file: {path}")
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise NotALog(f"{path}: cannot open ({exc})") from exc
    con.row_factory = sqlite3.Row
    try:
        rows = [dict(r) for r in con.execute("SELECT * FROM events ORDER BY seq")]
        try:
            meta = {r["key"]: r["value"] for r in con.execute("SELECT key, value FROM meta")}
        except sqlite3.OperationalError:
            meta = {}
    except sqlite3.DatabaseError as exc:
        raise NotALog(f"{path}: not a session log ({exc})") from exc
    finally:
        con.close()
    return rows, meta


def verify_rows(rows: list[Row]) -> VerifyReport:
    """Check the chain of raw rows with the log's own hashing (``session.log.row_hash``).

    THE one place the card room checks a chain, for a table's file before it is shipped and for
    the server's copy in reports. When the log becomes a signed chain, switch this function to the
    log's signed verification; nothing else in the card room needs to change.
    """
    prev, expected = GENESIS, 1
    for count, row in enumerate(rows):
        seq = row["seq"]
        if seq != expected:
            return VerifyReport(False, count, expected, f"event {expected} is missing")
        if row["prev_hash"] != prev:
            return VerifyReport(False, count, seq, "its link to the previous event was changed")
        if row_hash(row["prev_hash"], seq, row["at"], row["body"]) != row["hash"]:
            return VerifyReport(False, count, seq, "its content does not match its hash")
        prev, expected = row["hash"], seq + 1
    return VerifyReport(True, len(rows))


def session_id(rows: list[Row]) -> str:
    """A session's identity on the server: the hash of its first row (its session_start)."""
    return str(rows[0]["hash"])
