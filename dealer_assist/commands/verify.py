"""``dealer-assist verify FILE.db``: check a session log's hash chain."""

from __future__ import annotations

import argparse

from dealer_assist.session.log import verify


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", metavar="FILE.db", help="session log file(s)")


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in args.logs:
        report = verify(path)
        print(f"{path}: {report}")
        status = status or (0 if report.ok else 1)
    return status
