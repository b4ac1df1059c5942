"""``dealer-assist sync FILE.db... --to postgresql://... --table T [--key PUBLIC.pem] [--migrate]``.

Ships each session log to the card room's server. Exit status: 0 every log is on the server in
full; 1 a log or the server refused (altered log, no trusted public key, disagreeing server
copy or registered key, another table's session, server unreachable or without the schema);
2 a file is not a session log. Errors the command does not expect end as issue 14's
``cli.run_command`` maps them (3: internal error).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import psycopg

from dealer_assist.cardroom import schema
from dealer_assist.cardroom.chain import NotALog, read_log
from dealer_assist.cardroom.sync import sync_log
from dealer_assist.session.keys import load_public_key


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="*", metavar="FILE.db", help="session log file(s)")
    parser.add_argument("--to", required=True, metavar="URL",
                        help="the card room's server, postgresql://user@host/db")
    parser.add_argument("--table", metavar="T",
                        help="this tablet's card-room table (default: the log's 'table' meta, "
                             "else the file's name)")
    parser.add_argument("--migrate", action="store_true",
                        help="create or upgrade the card-room schema first (database owner)")
    parser.add_argument("--key", metavar="PUBLIC.pem",
                        help="the session's public key, when it is not in this data folder "
                             "(dealer-assist log export-key)")
    parser.add_argument("--batch", type=int, default=1000, metavar="N",
                        help="events per transaction (default 1000)")


def _table_of(path: str, given: str | None) -> str:
    if given:
        return given
    _, meta = read_log(path)
    return meta.get("table") or Path(path).stem


def run(args: argparse.Namespace) -> int:
    try:
        if args.migrate:
            with psycopg.connect(args.to, connect_timeout=5, autocommit=True) as conn:
                print(f"card-room schema at version {schema.migrate(conn)}")
        key = load_public_key(args.key) if args.key else None
        status = 0
        for path in args.logs:
            try:
                result = sync_log(path, args.to, _table_of(path, args.table), batch=args.batch,
                                  key=key)
            except NotALog as exc:
                print(f"{path}: {exc}", file=sys.stderr)
                status = max(status, 2)
                continue
            print(result.sentence(), file=sys.stdout if result.ok else sys.stderr)
            if not result.ok:
                status = max(status, 1)
        return status
    except schema.SchemaError as exc:
        print(f"sync refused: {exc}", file=sys.stderr)
    except psycopg.OperationalError as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"sync: cannot reach the server ({reason}); the logs are unchanged, run sync "
              "again when the network is back", file=sys.stderr)
    except psycopg.Error as exc:
        print(f"sync refused by the server: {str(exc).strip()}", file=sys.stderr)
    return 1
