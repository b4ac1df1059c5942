"""``dealer-assist verify FILE.db... [--key PUBLIC.pem] [--expect-head N:HASH]``.

Checks each log read-only (the file and its -wal are never changed): every row's Ed25519
signature and link, no gap, not empty, meta unchanged, nothing cut off. A log is proven by
this session's public key (in the data folder, or ``--key``: the key a card room keeps) or by
the head printed on a slip (``--expect-head``). Exit 0 when every log is intact and proven,
1 when one is altered, cut off or not proven (NOT PROVEN: no trusted key and no head), 2 when
one is not a session log at all.
"""

from __future__ import annotations

import argparse

from dealer_assist.errors import EXIT_OK, EXIT_REFUSED, EXIT_UNREADABLE
from dealer_assist.session.keys import load_public_key
from dealer_assist.session.log import Head, VerifyReport, verify


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", metavar="FILE.db", help="session log file(s)")
    parser.add_argument("--key", metavar="PUBLIC.pem",
                        help="the session's public key (dealer-assist log export-key)")
    parser.add_argument("--expect-head", metavar="N:HASH", type=Head.parse,
                        help="the head shown on a settlement slip or report: proves the first N "
                             "events are the ones the slip was printed from")


def describe(report: VerifyReport) -> str:
    if report.ok or report.unproven:
        return str(report)
    if report.first_bad_seq is None:
        return f"BROKEN: {report.reason}"
    line = f"BROKEN at event {report.first_bad_seq}"
    if report.first_bad_type:
        line += f" ({report.first_bad_type}, logged {report.first_bad_at})"
    return f"{line}: {report.reason}; the {report.events} events before it are intact"


def run(args: argparse.Namespace) -> int:
    key = load_public_key(args.key) if args.key else None
    status = EXIT_OK
    for path in args.logs:
        report = verify(path, key=key, expect_head=args.expect_head)
        print(f"{path}: {describe(report)}")
        for note in report.notes:
            print(f"  ({note})")
        code = EXIT_OK if report.ok else EXIT_UNREADABLE if report.unreadable else EXIT_REFUSED
        status = max(status, code)
    return status
