"""A session log's raw rows, read read-only, and the one chain check the card room uses.

Rows are shipped as they are in the log's ``events`` table: every column, whatever they are
(the signed chain's ``prev`` and ``sig`` travel without a schema change on the server). The
check is the log's own signed-chain check (``session.log.verify_rows``), with a public key that
never comes from the shipped meta alone: the tablet's data folder (or ``--key``) before a sync,
the key the tablet registered on the server for a report (docs/card-room.md).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from dealer_assist.errors import StorageError
from dealer_assist.session import keys
from dealer_assist.session import log as session_log
from dealer_assist.session.log import ChainCheck, genesis
from dealer_assist.session.storage import FORMAT, classify, open_read_only

Row = dict[str, Any]
COLUMNS = ("seq", "at", "type", "body", "prev", "sig")  # what session.log.verify_rows reads


class NotALog(ValueError):
    """The file is missing or is not a session log (of the signed format)."""


def read_log(path: str | Path) -> tuple[list[Row], dict[str, str]]:
    """Every event row (all columns, in ``seq`` order) and the meta table, read without
    changing the file or its -wal."""
    path = Path(path)
    try:
        with open_read_only(path) as (con, _note):
            if classify(con, path) != FORMAT:
                raise NotALog(f"{path}: an unsigned log of an earlier version; its hashes can "
                              "be recomputed by anyone, so the card room does not take it")
            con.row_factory = sqlite3.Row
            rows = [dict(r) for r in con.execute("SELECT * FROM events ORDER BY seq")]
            meta = {str(r["key"]): str(r["value"])
                    for r in con.execute("SELECT key, value FROM meta")}
    except StorageError as exc:
        raise NotALog(f"{path}: {exc.what.rstrip('.')}") from None
    except sqlite3.Error as exc:
        raise NotALog(f"{path}: not a session log ({exc})") from None
    return rows, meta


def tablet_key(meta: Mapping[str, str], given: Ed25519PublicKey | None = None
               ) -> Ed25519PublicKey | None:
    """The key a tablet checks its own log with before shipping it: ``given`` (``--key``), else
    the session's public key kept in this data folder (never the copy in the log's meta)."""
    return given or session_log.trusted_key(meta)


def verify_rows(rows: list[Row], public_key: Ed25519PublicKey | bytes,
                meta: Mapping[str, str], *, after: tuple[int, str] | None = None) -> ChainCheck:
    """Check raw rows with the log's signed chain under a trusted ``public_key``.

    THE one place the card room checks a chain: a table's file before it is shipped and the
    server's copy in reports. The meta must name that same key (a log re-signed with another
    key is refused even if it is consistent), and event 1 must link to this meta.
    """
    if isinstance(public_key, bytes):
        public_key = Ed25519PublicKey.from_public_bytes(public_key)
    if meta.get("public_key") != keys.public_key_hex(public_key):
        return ChainCheck(False, 0, None, 1 if rows else None,
                          "it is signed with another key than this session's: the log was "
                          "re-signed (rewritten)")
    return session_log.verify_rows((tuple(r.get(c) for c in COLUMNS) for r in rows),
                                   public_key, genesis(meta), after=after)


def session_id(rows: list[Row]) -> str:
    """A session's identity on the server: the signature of its first row (its session_start,
    which links to the meta: the session id, its public key, its creation time)."""
    return str(rows[0]["sig"])
