"""``dealer-assist log head|export-key FILE.db``: a session log's anchors for an auditor.

- ``head``: the log's head ``N:HASH`` (event count and short hash of the last signature) and
  its QR code in the terminal; written on a slip, it later proves nothing was cut off or
  rewritten (``dealer-assist verify FILE.db --expect-head N:HASH``).
- ``export-key``: the session's public key (PEM) from this data folder, for a card room to
  keep; ``verify --key`` checks the log with it on any computer. It cannot sign anything.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import segno

from dealer_assist.errors import EXIT_OK, EXIT_REFUSED
from dealer_assist.session import keys
from dealer_assist.session.log import read_log, verify_contents


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("head", "export-key"))
    parser.add_argument("log", metavar="FILE.db", type=Path, help="a session log")
    parser.add_argument("--out", type=Path, metavar="PATH",
                        help="export-key: write the key here (default: print it)")
    parser.add_argument("--no-qr", action="store_true", help="head: no QR code")


def run(args: argparse.Namespace) -> int:
    log = read_log(args.log)  # StorageError: not a log (exit 2) and the like
    if args.action == "export-key":
        session_id = log.meta.get("session_id", "")
        path = keys.trusted_key_path(session_id)  # StorageError for an id the app never made
        if not path.exists():
            print(f"log: the public key of {args.log.name} is not in this data folder "
                  f"({keys.keys_dir()}); export it on the computer that ran the session",
                  file=sys.stderr)
            return EXIT_REFUSED
        pem = keys.public_key_pem(keys.load_public_key(path))
        if args.out:
            args.out.write_bytes(pem)
            print(f"wrote {args.out} (public key of session {session_id})")
        else:
            sys.stdout.write(pem.decode())
        return EXIT_OK
    report = verify_contents(log)
    if report.head is None:
        print(f"log: {args.log.name} has no head: {report.reason}", file=sys.stderr)
        return EXIT_REFUSED
    print(f"head {report.head}")
    if not report.ok:
        print(f"warning: {report.reason}", file=sys.stderr)
    if not args.no_qr:
        segno.make(report.head.qr_text, error="m").terminal(compact=True)
    return EXIT_OK if report.ok else EXIT_REFUSED
