"""GUI test helpers (imported by the tests: a conftest.py here would shadow tests/conftest.py):
a window on a fresh data folder and a driver that clicks real widgets."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton

from dealer_assist.gui.action_panel import DOUBLE_TAP_S
from dealer_assist.gui.app import MainWindow
from dealer_assist.gui.table_screen import TableScreen
from dealer_assist.session.engine import Session
from dealer_assist.session.store import new_session_path
from dealer_assist.variants import available_games, get_variant

GAMES = available_games()
NAMES = ("Ann", "Bea", "Cy", "Dora", "Eli", "Fay")


class Driver:
    """Plays a table by clicking its buttons, as a dealer would."""

    def __init__(self, qtbot, window: MainWindow) -> None:
        self.qtbot = qtbot
        self.window = window

    @property
    def screen(self) -> TableScreen:
        assert self.window.table is not None
        return self.window.table

    @property
    def session(self) -> Session:
        return self.screen.session

    def click(self, button: QPushButton) -> None:
        assert button.isVisible() and button.isEnabled(), button.objectName()
        self.wait_out_double_tap(button)
        self.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    def wait_out_double_tap(self, button: QPushButton) -> None:
        """A dealer does not tap the place just tapped again before it settles: wait out the
        double-tap guard, as a deliberate second tap would. A deferred relayout (names fitted
        after the panel is shown) can change the place's action during the wait, so the wait
        ends only when the place has been still for the whole guard."""
        table = self.window.table
        if table is None:
            return
        panel = table.panel
        while True:
            QApplication.processEvents()
            place = panel.place_of(button)
            if place is None or place != panel.tapped_place:
                return
            left = DOUBLE_TAP_S - (time.monotonic() - panel.changed_at.get(place, 0.0))
            if left <= 0:
                return
            self.qtbot.wait(int(left * 1000) + 20)

    def action_button(self, index: int) -> QPushButton:
        """The button of ``actions[index]``; where the panel acts for one seat at a time, the
        seat's chip on the "For" row (or, with up to six seats, the seat on the felt) is
        tapped first, as a dealer would."""
        panel = self.screen.panel
        if index not in panel.buttons and panel.chips.one_seat:
            seat = self.screen.actions[index].seat
            if panel.chips.picker:
                assert seat in panel.seat_chips, f"no chip for seat {seat}"
                self.click(panel.seat_chips[seat])
            else:
                self.tap_seat(seat)
        return panel.buttons[index]

    def tap_seat(self, seat: int) -> None:
        """Tap a seat's box on the felt."""
        widget = self.screen.table.seat_widget(seat)
        assert widget.isVisible(), f"seat {seat} is not in view"
        self.qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=widget.rect().center())

    def play_round_seats_in_view(self, steps: int = 150) -> None:
        """Play a round (``step(0)``), asserting after each step, once the layout has settled
        (the scroll area resizes the felt an event later), that the seats do not scroll."""
        table = self.screen.table
        area = table.parentWidget().parentWidget()
        rounds = len(self.session.rounds)
        for _ in range(steps):
            for _ in range(3):
                QApplication.processEvents()
            assert table.height() <= area.viewport().height(), (
                f"the seats scroll: {table.height()} px in {area.viewport().height()}")
            if len(self.session.rounds) > rounds:
                return
            self.step(0)
        raise AssertionError("the round was not settled")

    def usable_cards(self) -> list[QPushButton]:
        grid = self.screen.input.grid
        return [b for b in grid.buttons.values() if b.isEnabled()]

    def type_amount(self, amount: int) -> None:
        keypad = self.screen.input.keypad
        self.click(keypad.findChild(QPushButton, "key_clear"))
        for digit in str(amount):
            self.click(keypad.findChild(QPushButton, f"key_{digit}"))
        self.click(keypad.findChild(QPushButton, "key_ok"))

    def entries(self) -> int:
        return len(self.session.entries)

    def step(self, index: int = 0) -> None:
        """Tap the action ``index`` and give what it asks: the first card the game accepts,
        or the smallest allowed amount. A settlement that opens is confirmed."""
        action = self.screen.actions[index]
        before = self.entries()
        self.click(self.action_button(index))
        if action.asks == "amount":
            self.type_amount(action.minimum or 1)
        elif action.asks == "card":
            for button in self.usable_cards():
                self.click(button)
                self.confirm_costly()
                if self.entries() > before or self.screen.settlement is not None:
                    break
        self.choose_default()
        self.confirm_costly()
        self.confirm_settlement()
        assert self.entries() > before, self.screen.bar.message_text()

    def choose_default(self) -> bool:
        """In a chooser (which card stays hidden), take the default button."""
        from dealer_assist.gui.offer_dialog import ChooserDialog
        dialog = self.screen.dialog
        if not isinstance(dialog, ChooserDialog) or not dialog.isVisible():
            return False
        self.click(next((b for b in dialog.buttons if b.isDefault()), dialog.buttons[-1]))
        return True

    def confirm_costly(self) -> bool:
        """Confirm the dialog a costly action opens (forfeit, misdeal, cash out)."""
        from dealer_assist.gui.confirm import ConfirmDialog
        dialog = self.screen.dialog
        if not isinstance(dialog, ConfirmDialog):
            return False
        assert dialog.isVisible()
        self.click(dialog.ok_button)
        return True

    def confirm_settlement(self) -> bool:
        dialog = self.screen.settlement
        if dialog is None:
            return False
        assert dialog.isVisible()
        self.click(dialog.confirm_button)
        return True

    def play_round(self, limit: int = 80) -> None:
        """Play until the round in progress is settled (first legal action each time)."""
        rounds = len(self.session.rounds)
        for _ in range(limit):
            if len(self.session.rounds) > rounds:
                return
            self.step(0)
        raise AssertionError(f"round not settled after {limit} steps")


@pytest.fixture(name="window")
def window_fixture(qtbot, data_dir) -> Iterator[MainWindow]:
    win = MainWindow("light")
    qtbot.addWidget(win)
    win.resize(1024, 600)
    win.show()
    yield win
    win.close_table()


def demo_session(game: str) -> Session:
    variant = get_variant(game)
    demo = variant.DEMO
    return Session.new(variant.NAME, demo.get("options"), demo["seats"],
                       demo.get("first_dealer"), path=new_session_path(variant.NAME))


@pytest.fixture(name="driver")
def driver_fixture(qtbot, window) -> Driver:
    return Driver(qtbot, window)


def full_table(game: str, names: tuple[str, ...] = NAMES) -> Session:
    """The game's demo table filled up to six seats (five where the game takes five), the
    seats added named from ``names``."""
    variant = get_variant(game)
    demo = variant.DEMO
    seats = [dict(s, name=names[k]) for k, s in enumerate(demo["seats"])]
    most = 5 if game == "sudden_death" else 6
    while len(seats) < most:
        seat = dict(seats[-1], name=names[len(seats)])
        if "age" in seat:
            seat["age"] = len(seats) + 1
        seats.append(seat)
    if "position" in seats[0]:
        for number, seat in enumerate(seats, start=1):
            seat["position"] = number
    return Session.new(variant.NAME, demo.get("options"), seats, demo.get("first_dealer"),
                       path=new_session_path(variant.NAME))
