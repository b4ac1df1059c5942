"""Regenerate docs/screenshots/: each available game's table at 1024×600 and 1920×1080 (with a
round in play, so cards, wagers and values show), each game's settlement, the wizard, dark theme.

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

from PySide6.QtWidgets import QApplication, QWidget

from dealer_assist.errors import RuleError
from dealer_assist.gui.app import MainWindow, application
from dealer_assist.gui.demo import start_demo
from dealer_assist.gui.settlement_dialog import SettlementDialog
from dealer_assist.gui.wizard import SessionWizard
from dealer_assist.session.engine import Session
from dealer_assist.variants import available_games
from dealer_assist.variants.base import RoundResult

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


def pending_settlement(session: Session) -> RoundResult | None:
    """Play on (first legal action) until an action would complete the round; its result."""
    for _ in range(120):
        view = session.view()
        progressed = False
        for action in session.legal_actions():
            values = {}
            if action.asks == "amount":
                values["amount"] = action.minimum or 1
            cards = view.usable_cards if action.asks == "card" else ("",)
            for card in cards:
                if action.asks == "card":
                    values["card"] = card
                try:
                    result = session.preview_round(action.event(**values))
                except RuleError:
                    continue
                if result is not None:
                    return result
                session.submit(action.event(**values))
                progressed = True
                break
            if progressed:
                break
        if not progressed:
            return None
    return None


def keypad_refusal(window: MainWindow) -> None:
    """Choose the first bounded amount action and enter one more than allowed (refused)."""
    screen = window.table
    for index, action in enumerate(screen.actions):
        if action.asks == "amount" and action.maximum is not None:
            screen.trigger(index)
            screen.input.entry.setText(str(action.maximum + 1))
            screen.enter_amount(screen.input.entry.text())
            return


def grab_widget(widget: QWidget, size: tuple[int, int], path: Path) -> None:
    widget.resize(*size)
    widget.show()
    for _ in range(10):  # the seats fit again once the new type sizes are applied
        QApplication.processEvents()
    widget.grab().save(str(path))
    print(path)


def grab(window: MainWindow, size: tuple[int, int], path: Path) -> None:
    window.resize(*size)
    window.show()
    for _ in range(10):  # the seats fit again once the new type sizes are applied
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
    window = MainWindow(args.theme)
    wizard = SessionWizard(window)
    grab_widget(wizard, (1024, 600), args.out / "wizard_game_1024x600.png")
    wizard.next()
    grab_widget(wizard, (1024, 600), args.out / "wizard_options_1024x600.png")
    wizard.next()
    grab_widget(wizard, (1024, 600), args.out / "wizard_players_1024x600.png")
    for game in games:
        session = start_demo(game)
        result = pending_settlement(session)
        if result is not None:
            dialog = SettlementDialog(result, session.names, confirm=True, parent=window)
            grab_widget(dialog, (1024, 600) if game == games[0] else (900, 520),
                        args.out / f"{game}_settlement.png")
    window.close_table()
    grab(window, (1024, 600), args.out / "start_1024x600.png")
    window.show_session(start_demo(games[0]))
    keypad_refusal(window)
    grab(window, (1024, 600), args.out / f"{games[0]}_keypad_1024x600.png")
    window.show_session(start_demo(games[0]))
    window.apply_theme("dark")
    play_some(window.session, args.steps)
    window.table.refresh()
    grab(window, (1024, 600), args.out / f"{games[0]}_dark_1024x600.png")
    window.apply_theme(args.theme)
    players_display(window, args.out)
    confirmation(window, args.out)
    return 0


def players_display(window: MainWindow, out: Path) -> None:
    """The players' display of a Trianta Ena round in play (face-down cards as backs)."""
    session = start_demo("trianta_ena")
    play_some(session, 14)
    window.show_session(session)
    window.open_players_display()
    grab_widget(window.players_display, (1280, 720), out / "players_display.png")
    window.close_table()


def confirmation(window: MainWindow, out: Path) -> None:
    """31 Classic in play: the table, and the confirmation a misdeal asks for."""
    session = start_demo("classic31")
    for seat in range(1, len(session.seats) + 1):
        session.submit({"type": "ante", "seat": seat, "amount": 5})
    session.submit({"type": "deal_hands"})
    window.show_session(session)
    grab(window, (1024, 600), out / "classic31_play_1024x600.png")
    screen = window.table
    screen.trigger(next(i for i, a in enumerate(screen.actions) if a.type == "misdeal"))
    grab_widget(screen.dialog, (560, 260), out / "confirm_misdeal.png")
    screen.dialog.reject()
    window.close_table()


if __name__ == "__main__":
    sys.exit(main())
