"""Regenerate docs/screenshots/: each available game's table at 1024×600 and 1920×1080 (with a
round in play, so cards, wagers and values show), the wizard and a settlement.

    uv run python scripts/screenshots.py [--out DIR] [--theme light|dark] [GAME ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("DEALER_ASSIST_DATA", tempfile.mkdtemp(prefix="dealer-assist-shots-"))

from PySide6.QtWidgets import QApplication

from dealer_assist.errors import RuleError
from dealer_assist.gui.app import MainWindow, application
from dealer_assist.gui.demo import start_demo
from dealer_assist.session.engine import Session
from dealer_assist.variants import available_games

SIZES = ((1024, 600), (1920, 1080))
ROOT = Path(__file__).resolve().parent.parent


def play_some(session: Session, steps: int) -> None:
    """Advance a demo with the first legal action each time (the lowest amount, the first
    usable card) until about mid-round, stopping before a round would complete."""
    for _ in range(steps):
        actions = session.legal_actions()
        if not actions:
            return
        view = session.view()
        for action in actions:
            values = {}
            if action.asks == "card":
                values["card"] = view.usable_cards[len(session.round_entries) * 7 % 40]
            elif action.asks == "amount":
                values["amount"] = action.minimum or 1
            event = action.event(**values)
            before = session.state.round_result
            try:
                after = session.variant.apply(session.state, event)
            except RuleError:  # try the next legal action
                continue
            if after.round_result is not before:
                return
            session.submit(event)
            break
        else:
            return


def grab(window: MainWindow, size: tuple[int, int], path: Path) -> None:
    window.resize(*size)
    window.show()
    for _ in range(3):
        QApplication.processEvents()
    window.grab().save(str(path))
    print(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--theme", default="light")
    parser.add_argument("--steps", type=int, default=9)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    application()
    games = args.games or available_games()
    for game in games:
        window = MainWindow(args.theme)
        session = start_demo(game)
        play_some(session, args.steps)
        window.show_session(session)
        for size in SIZES:
            grab(window, size, args.out / f"{game}_{size[0]}x{size[1]}.png")
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
