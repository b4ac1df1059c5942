"""The ``dealer-assist`` command. Each subcommand lives in its own module, loaded when used."""

from __future__ import annotations

import argparse
import importlib
import sys
import traceback
from pathlib import Path
from typing import Any

from dealer_assist.errors import (
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_UNREADABLE,
    REPORT_BUGS,
    InputError,
    RuleError,
    StorageError,
)

# subcommand -> (module, one-line help); a module has add_arguments(parser) and run(args) -> int
COMMANDS = {
    "gui": ("dealer_assist.gui.app", "open the dealer's table screen"),
    "demo": ("dealer_assist.gui.demo", "open a table of a chosen game pre-filled with players"),
    "replay": ("dealer_assist.commands.replay", "replay a scenario file, print its rounds as JSON"),
    "verify": ("dealer_assist.commands.verify", "check a session log's signed chain (read-only)"),
    "log": ("dealer_assist.commands.log", "a session log's head (N:HASH, QR) or public key"),
    "sync": ("dealer_assist.cardroom.cli", "ship session logs to the card room's PostgreSQL"),
    "games": ("dealer_assist.commands.games", "list the games and their options"),
    "analyze": ("dealer_assist.analysis.cli", "exact odds and strategy of a game's wagers"),
    "report": ("dealer_assist.reports.cli", "reconcile session logs and export reports"),
    "vision": ("dealer_assist.vision.cli", "read cards from images, adapt to a deck"),
    "train": ("dealer_assist.training.cli", "dealer training drills"),
}


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The parser; only the chosen subcommand's module is imported (start-up stays fast)."""
    parser = argparse.ArgumentParser(prog="dealer-assist", description=__doc__)
    subs = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        sub = subs.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(_module=module_name)
        if name != chosen:
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if not module_name.startswith(str(exc.name)):
                raise
            sub.set_defaults(_missing=True)
            continue
        module.add_arguments(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a name that cannot be encoded is shown escaped
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and not argv[0].startswith("-")):
        argv = ["gui", *argv]  # `dealer-assist` alone (or with a log file) opens the table screen
    chosen = argv[0] if argv[0] in COMMANDS else None
    args = build_parser(chosen).parse_args(argv)
    if getattr(args, "_missing", False):
        print(f"dealer-assist {args.command}: not available in this build", file=sys.stderr)
        return 2
    module = importlib.import_module(args._module)
    return run_command(module, args)


def _say(text: str) -> None:
    print(f"dealer-assist: {text}", file=sys.stderr)


def run_command(module: Any, args: argparse.Namespace) -> int:
    """Run a subcommand; every failure ends in one line and its exit status, never a traceback:
    1 refused (RuleError, most storage faults), 2 unreadable input, 3 internal error."""
    try:
        return int(module.run(args) or 0)
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return EXIT_OK
    except StorageError as exc:
        _say(f"{exc.title}: {exc}")
        return exc.exit_status
    except (InputError, RecursionError) as exc:
        _say(f"unreadable input: {exc if isinstance(exc, InputError) else 'nested too deeply'}")
        return EXIT_UNREADABLE
    except RuleError as exc:
        _say(f"refused: {exc}")
        return EXIT_REFUSED
    except KeyboardInterrupt:
        _say("interrupted")
        return EXIT_REFUSED
    except Exception as exc:  # a bug: say where to report it, not a traceback
        where = traceback.extract_tb(exc.__traceback__)[-1]
        _say(f"internal error ({type(exc).__name__}: {exc} at "
             f"{Path(where.filename).name}:{where.lineno}); {REPORT_BUGS}")
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
