"""``dealer-assist report FILE.db... [--format text|csv|json|pdf] [--out PATH]``, or
``dealer-assist report --from postgresql://... [--table T] [--since TIME]`` (the card room's
server: the same reconciliation, from the events synced there).

Logs are read read-only (the file and its -wal are never changed). Exit status 0 when every
check of every log passes, 1 when any fails (altered or unproven log, unbalanced results, ledger
mismatch, chip-count discrepancy, a log that cannot be replayed, no session on the server
matches), 2 when a file is not a session log at all or the server cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dealer_assist.errors import EXIT_OK, EXIT_REFUSED, EXIT_UNREADABLE
from dealer_assist.reports.export_csv import to_csv_text, write_csv
from dealer_assist.reports.export_json import to_json
from dealer_assist.reports.pdf import write_pdf
from dealer_assist.reports.reconcile import LogFile, Reconciliation, reconcile
from dealer_assist.reports.source import EventSource
from dealer_assist.reports.text import to_text
from dealer_assist.session.keys import load_public_key


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="*", metavar="FILE.db", type=Path,
                        help="session log file(s); several make one report (a card room's tables)")
    parser.add_argument("--from", dest="server", metavar="URL",
                        help="read the sessions synced to the card room's server instead")
    parser.add_argument("--table", metavar="T", help="with --from: only this table's sessions")
    parser.add_argument("--since", metavar="TIME",
                        help="with --from: only sessions with an event at or after TIME "
                             "(ISO, e.g. 2026-11-23T18:00; UTC unless a zone is given)")
    parser.add_argument("--format", choices=("text", "csv", "json", "pdf"), default="text",
                        help="text (default), csv, json or pdf")
    parser.add_argument("--out", type=Path, metavar="PATH",
                        help="write here instead of printing; for csv a folder (rounds.csv, "
                             "wagers.csv, wager_settlements.csv, settlements.csv, "
                             "transfers.csv); pdf default: <first log>-report.pdf in the "
                             "current folder")
    parser.add_argument("--key", metavar="PUBLIC.pem",
                        help="the sessions' public key, when it is not in this data folder "
                             "(dealer-assist log export-key)")


def _sources(args: argparse.Namespace) -> list[EventSource] | str:
    """The sessions to report on, or why they cannot be read."""
    if not args.server:
        if args.table or args.since:
            return "--table and --since choose sessions on a server: use them with --from"
        if not args.logs:
            return "give session log file(s) or --from a card-room server"
        key = load_public_key(args.key) if args.key else None
        return [LogFile(p, key) for p in args.logs]
    if args.logs:
        return "give either log files or --from a server, not both"
    if args.key:
        return ("--key is for log files: a server's sessions are checked with the public keys "
                "their tablets registered (see docs/card-room.md)")
    from dealer_assist.cardroom.source import read_server  # only when asked: needs psycopg

    return read_server(args.server, args.table, args.since)


def run(args: argparse.Namespace) -> int:
    sources = _sources(args)
    if isinstance(sources, str):
        print(f"report: {sources}", file=sys.stderr)
        return EXIT_UNREADABLE
    if not sources:
        print("report: no session on the server matches", file=sys.stderr)
        return EXIT_REFUSED
    rec = reconcile(sources)
    out: Path | None = args.out
    try:
        _write(rec, args.format, out, Path(sources[0].label))
    except OSError as exc:
        print(f"report: cannot write {exc.filename or out}: {exc.strerror}", file=sys.stderr)
        return EXIT_REFUSED
    if any(t.unreadable for t in rec.tables):
        return EXIT_UNREADABLE
    return EXIT_OK if rec.ok else EXIT_REFUSED


def _write(rec: Reconciliation, fmt: str, out: Path | None, first: Path) -> None:
    if fmt == "pdf":
        path = write_pdf(rec, out or Path(f"{first.stem}-report.pdf"))
        print(f"wrote {path}")
    elif fmt == "csv" and out is not None:
        for path in write_csv(rec, out):
            print(f"wrote {path}")
    else:
        text = {"text": to_text, "json": to_json, "csv": to_csv_text}[fmt](rec)
        if out is None:
            print(text)
        else:
            out.write_text(text + "\n", encoding="utf-8")
            print(f"wrote {out}")
