"""Regenerate docs/screenshots/: each available game's table at 1024×600 and 1920×1080 (with a
round in play, so cards, wagers and values show), each game's settlement, the wizard, dark theme,
a Trianta Ena table with the banker and nine players, the training and reconcile windows.

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
    crowded_table(window, args.out)
    training(window, args.out)
    reconciliation(window, args.out)
    return 0


def crowded_table(window: MainWindow, out: Path) -> None:
    """Trianta Ena with the banker and nine players: chips on more lines, the seats scroll."""
    names = ("Maria", "Nikos", "Eleni", "Giorgos", "Sofia", "Dimitris", "Anna", "Kostas",
             "Katerina", "Yannis")
    seats = [{"name": n, "money": 300 if i == 0 else 100} for i, n in enumerate(names)]
    session = Session.new("trianta_ena", {"min_bet": 5, "bank_multiple": 3}, seats, 1,
                          path=Path(os.environ["DEALER_ASSIST_DATA"]) / "trianta-10.db")
    for seat, card in ((1, "KH"), (2, None), (3, None)):
        session.submit({"type": "deal", "seat": seat, "card": card})
    window.show_session(session)
    for size in SIZES:
        grab(window, size, out / f"trianta_ena_10_seats_{size[0]}x{size[1]}.png")
    window.close_table()


def training(window: MainWindow, out: Path) -> None:
    """The training window: a Greek 31 question with its hint, a 31 Classic irregularity
    answered, a trainee's progress and the overview; at 1024×600 and 1920×1080."""
    from dealer_assist.gui.training_window import open_training
    from dealer_assist.training.drills import kinds_for

    for size in SIZES:
        window.resize(*size)
        tool = open_training(window)
        drill = tool.drill
        grab_widget(tool, size, out / f"training_setup_{size[0]}x{size[1]}.png")
        if "Maria" not in tool.store.trainees():
            drill.new_name.setText("Maria")
            drill.add_trainee()
        drill.level_box.setCurrentIndex(drill.level_box.findData("learning"))
        drill.count_box.setValue(1)
        drill.seed_box.setValue(4)
        drill.start()
        suffix = "" if size == SIZES[0] else f"_{size[0]}x{size[1]}"
        grab_widget(tool, size, out / f"training{suffix}.png")
        drill.submit(drill.run.current.answer)
        drill.next_question()
        drill.game_box.setCurrentIndex(drill.game_box.findData("classic31"))
        drill.kind_box.setCurrentIndex(drill.kind_box.findData(
            kinds_for("classic31", irregular=True)[0]))
        drill.start()
        drill.submit(drill.run.current.answer)
        grab_widget(tool, size, out / f"training-classic31{suffix}.png")
        drill.next_question()
        tool.tabs.setCurrentIndex(1)
        grab_widget(tool, size, out / f"training-progress{suffix}.png")
        tool.tabs.setCurrentIndex(2)
        grab_widget(tool, size, out / f"training-overview{suffix}.png")
        tool.close()


def reconciliation(window: MainWindow, out: Path) -> None:
    """The reconcile window with two logs (the report tests' sessions) at both sizes."""
    sys.path.insert(0, str(ROOT / "tests" / "reports"))
    from report_sessions import greek_session, second_session

    from dealer_assist.gui.reconcile import open_reconcile

    folder = Path(os.environ["DEALER_ASSIST_DATA"])
    logs = [greek_session(folder / "friday-table1.db"),
            second_session(folder / "friday-table2.db")]
    for size in SIZES:
        window.resize(*size)
        tool = open_reconcile(window, logs)
        grab_widget(tool, size, out / f"reconcile_{size[0]}x{size[1]}.png")
        tool.close()


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
