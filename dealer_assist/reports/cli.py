"""``dealer-assist report FILE.db... [--format text|csv|json|pdf] [--out PATH]``.

Exit status 0 when every check of every log passes, 1 when any fails (altered log, unbalanced
results, ledger mismatch, chip-count discrepancy, unreadable log).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from dealer_assist.reports.export_csv import to_csv_text, write_csv
from dealer_assist.reports.export_json import to_json
from dealer_assist.reports.pdf import write_pdf
from dealer_assist.reports.reconcile import reconcile
from dealer_assist.reports.text import to_text


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


def run(args: argparse.Namespace) -> int:
    rec = reconcile(args.logs)
    out: Path | None = args.out
    if args.format == "pdf":
        path = write_pdf(rec, out or Path(f"{args.logs[0].stem}-report.pdf"))
        print(f"wrote {path}")
    elif args.format == "csv" and out is not None:
        for path in write_csv(rec, out):
            print(f"wrote {path}")
    else:
        text = {"text": to_text, "json": to_json, "csv": to_csv_text}[args.format](rec)
        if out is None:
            print(text)
        else:
            out.write_text(text + "\n", encoding="utf-8")
            print(f"wrote {out}")
    return 0 if rec.ok else 1
