"""``dealer-assist report FILE.db... [--format text|csv|json|pdf] [--out PATH]``.

Logs are read read-only (the file and its -wal are never changed). Exit status 0 when every
check of every log passes, 1 when any fails (altered or unproven log, unbalanced results, ledger
mismatch, chip-count discrepancy, a log that cannot be replayed), 2 when a file is not a
session log at all.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dealer_assist.errors import EXIT_OK, EXIT_REFUSED, EXIT_UNREADABLE
from dealer_assist.reports.export_csv import to_csv_text, write_csv
from dealer_assist.reports.export_json import to_json
from dealer_assist.reports.pdf import write_pdf
from dealer_assist.reports.reconcile import Reconciliation, reconcile
from dealer_assist.reports.text import to_text
from dealer_assist.session.keys import load_public_key


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", metavar="FILE.db", type=Path,
                        help="session log file(s); several make one report (a card room's tables)")
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


def run(args: argparse.Namespace) -> int:
    rec = reconcile(args.logs, key=load_public_key(args.key) if args.key else None)
    out: Path | None = args.out
    try:
        _write(rec, args.format, out, args.logs[0])
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
