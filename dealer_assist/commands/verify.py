"""``dealer-assist verify FILE.db``: check a session log's hash chain.

A broken chain is reported with the first altered event's number, type and logging time.
"""

from __future__ import annotations

import argparse

from dealer_assist.reports.reconcile import check_integrity


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", metavar="FILE.db", help="session log file(s)")


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in args.logs:
        report = check_integrity(path)
        if report.ok:
            line = f"OK: {report.events} events, hash chain intact"
        elif report.first_bad_seq is None:
            line = f"BROKEN: {report.reason}"
        else:
            line = f"BROKEN at event {report.first_bad_seq}"
            if report.first_bad_type:
                line += f" ({report.first_bad_type}, logged {report.first_bad_at})"
            line += f": {report.reason}; the {report.events} events before it are intact"
        print(f"{path}: {line}")
        status = status or (0 if report.ok else 1)
    return status
