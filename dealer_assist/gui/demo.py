"""``dealer-assist demo [GAME]``: a table of a game pre-filled with the game's demo players."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from dealer_assist.session.engine import Session
from dealer_assist.session.store import new_session_path
from dealer_assist.variants import get_variant


def start_demo(game: str = "greek31", keep: bool = False) -> Session:
    """A new session from the game's DEMO, logged to a temporary file (or the data folder)."""
    variant = get_variant(game)
    demo = variant.DEMO
    if keep:
        path = new_session_path(variant.NAME)
    else:
        path = Path(tempfile.mkdtemp(prefix="dealer-assist-demo-")) / f"{variant.NAME}.db"
    return Session.new(variant.NAME, demo.get("options"), demo["seats"],
                       demo.get("first_dealer"), path=path)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", default="greek31", help="the game (default greek31)")
    parser.add_argument("--keep", action="store_true",
                        help="log to the data folder, so the demo can be resumed later")
    parser.add_argument("--theme", choices=("light", "dark"), default="light")


def run(args: argparse.Namespace) -> int:
    from dealer_assist.gui.app import MainWindow, application

    app = application()
    window = MainWindow(args.theme)
    window.show_session(start_demo(args.game, args.keep))
    window.show()
    return app.exec()
