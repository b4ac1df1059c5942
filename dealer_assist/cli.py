"""The ``dealer-assist`` command. Each subcommand lives in its own module, loaded when used."""

from __future__ import annotations

import argparse
import importlib
import sys

# subcommand -> (module, one-line help); a module has add_arguments(parser) and run(args) -> int
COMMANDS = {
    "gui": ("dealer_assist.gui.app", "open the dealer's table screen"),
    "demo": ("dealer_assist.gui.demo", "open a table of a chosen game pre-filled with players"),
    "replay": ("dealer_assist.commands.replay", "replay a scenario file, print its rounds as JSON"),
    "verify": ("dealer_assist.commands.verify", "check the hash chain of a session log"),
    "sync": ("dealer_assist.cardroom.cli", "ship session logs to the card room's PostgreSQL"),
    "games": ("dealer_assist.commands.games", "list the games and their options"),
    "analyze": ("dealer_assist.analysis.cli", "exact odds and strategy of a game's wagers"),
    "report": ("dealer_assist.reports.cli", "reconcile session logs and export reports"),
    "vision": ("dealer_assist.vision.cli", "read cards from images, calibrate a deck"),
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
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and not argv[0].startswith("-")):
        argv = ["gui", *argv]  # `dealer-assist` alone (or with a log file) opens the table screen
    chosen = argv[0] if argv[0] in COMMANDS else None
    args = build_parser(chosen).parse_args(argv)
    if getattr(args, "_missing", False):
        print(f"dealer-assist {args.command}: not available in this build", file=sys.stderr)
        return 2
    module = importlib.import_module(args._module)
    try:
        return int(module.run(args) or 0)
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
