"""``dealer-assist replay FILE.json``: replay a scenario and print its rounds as JSON."""

from __future__ import annotations

import argparse
import json
import sys

from dealer_assist.errors import EXIT_UNREADABLE, InputError
from dealer_assist.session.engine import ReplayError
from dealer_assist.session.replay import load_scenario, refusal_json, replay_scenario, session_json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenario", help="scenario file (docs/replay.md)")
    parser.add_argument("--compact", action="store_true", help="one line of JSON")


def run(args: argparse.Namespace) -> int:
    try:
        session = replay_scenario(load_scenario(args.scenario))
    except ReplayError as exc:
        where = "the session set-up" if exc.index < 0 else f"event {exc.index}"
        print(f"replay refused at {where} ({exc.event.get('type', '?')}): {exc.reason}",
              file=sys.stderr)
        print(json.dumps(refusal_json(exc)), file=sys.stderr)
        return 1
    except InputError as exc:  # the file cannot be read as a scenario
        print(f"replay: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    print(json.dumps(session_json(session), indent=None if args.compact else 2,
                     ensure_ascii=False))
    return 0
