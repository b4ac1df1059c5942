"""Blank rows in the action panel: the row tapped last stays blank when its kind goes (nothing
slides under the finger), but blanks do not pile up within a round."""

from __future__ import annotations

import pytest
from gui_driver import GAMES, Driver, full_table, window_fixture  # noqa: F401
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QWidget

from dealer_assist.gui.action_panel import ActionPanel, SlotRows
from dealer_assist.variants.base import Action


def test_blanks_close_up_except_the_row_tapped_last_and_those_above_it():
    slots = SlotRows(limit=10)
    assert slots.place(["a", "b", "c", "d"]) == ["a", "b", "c", "d"]
    slots.last_row = 1  # the dealer tapped "b"
    assert slots.place(["a", "b", "d"]) == ["a", "b", "d"]  # "c" went: "d" moves up
    assert slots.place(["a", "d"]) == ["a", None, "d"]  # the tapped row stays blank
    assert slots.place(["a", "d", "e"]) == ["a", None, "d", "e"]  # never into the tapped row
    slots.last_row = 3  # then "e" is tapped and "a" goes: the blank above it stays
    assert slots.place(["d", "e"]) == [None, None, "d", "e"]
    assert slots.place(["d", "e", "f"]) == ["f", None, "d", "e"]  # a new kind fills it
    slots.last_row = 0  # "f" tapped: every blank below it closes
    assert slots.place(["f", "e"]) == ["f", "e"]
    slots.last_row = None  # typed entries only: no finger on the panel
    assert slots.place(["e"]) == ["e"]


def blank_rows(window) -> list[int]:
    """The window y of each blank row (a bare spacer) shown in the action board."""
    panel = window if isinstance(window, ActionPanel) else window.table.panel
    return sorted(w.mapTo(window, QPoint(0, 0)).y() for w in panel.board.widgets
                  if type(w) is QWidget and w.isVisible())


@pytest.mark.parametrize("game", GAMES)
def test_blank_rows_do_not_pile_up_in_a_round_at_1920x1080(qtbot, window, game):
    window.resize(1920, 1080)
    window.show_session(full_table(game))
    driver = Driver(qtbot, window)
    rounds = len(driver.session.rounds)
    panel = window.table.panel
    for _ in range(90):
        if len(driver.session.rounds) > rounds:
            break
        button = panel.buttons[0]
        tapped_y = button.mapTo(window, QPoint(0, 0)).y()
        in_board = button in panel.board.widgets
        driver.step(0)
        QApplication.processEvents()
        blanks = blank_rows(window)
        if in_board:  # only the row tapped, or rows above it, may be blank
            assert all(y <= tapped_y for y in blanks), (blanks, tapped_y)
        else:  # a tap elsewhere (the costly actions): no blank row is under a finger
            assert blanks == []
    assert len(driver.session.rounds) > rounds, "the round was not settled"


def test_the_tapped_blank_closes_once_the_dealer_enters_elsewhere(qtbot):
    """The row tapped stays blank through the entry the tap asked for; a further entry made
    away from the panel (typed, or on the card grid) lets it close."""
    panel = ActionPanel()
    qtbot.addWidget(panel)
    panel.resize(600, 400)
    panel.show()
    names = ("Ann", "Bea")
    deal = Action("deal", "Deal the hands")
    card = Action("deal", "Dealer draws", 1, asks="card")
    stand = Action("stand", "Dealer stands", 1)
    panel.set_actions([deal, card, stand], None, names, round_key=1)
    panel.set_actions([card, stand], card, names, round_key=1, tapped=0)  # "Deal" tapped
    assert len(blank_rows(panel)) == 1  # its row stays blank under the finger
    panel.set_actions([card, stand], card, names, round_key=1)  # a card typed
    assert len(blank_rows(panel)) == 1
    panel.set_actions([card, stand], card, names, round_key=1)  # and another
    assert blank_rows(panel) == []
