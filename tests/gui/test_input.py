"""Wagers, cards by keyboard, undo, void, shortcuts: refused input changes nothing."""

from __future__ import annotations

import pytest
from gui_driver import GAMES, demo_session, driver_fixture, window_fixture  # noqa: F401
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton


def first_amount_action(driver, limit: int = 12):
    """Play the first actions until one asks for an amount with a maximum; its index."""
    for _ in range(limit):
        for index, action in enumerate(driver.screen.actions):
            if (action.asks == "amount" and action.maximum is not None
                    and action.type != "cash_out"):
                return index
        driver.step(0)
    return None


@pytest.mark.parametrize("game", GAMES)
def test_refused_wager_is_explained_and_changes_nothing(driver, game):
    driver.window.show_session(demo_session(game))
    index = first_amount_action(driver)
    if index is None:
        pytest.skip(f"{game} asks no bounded amount early")
    action = driver.screen.actions[index]
    driver.click(driver.action_button(index))
    shown = driver.screen.input.entry.placeholderText()
    assert f"{action.minimum} to {action.maximum}" in shown  # the allowed range is shown
    before_entries, before_view = driver.entries(), driver.session.view()
    driver.type_amount(action.maximum + 1)
    message = driver.screen.bar.message_text()
    assert "refused" in message or str(action.maximum) in message
    assert driver.screen.bar.message.property("error") is True
    assert driver.entries() == before_entries
    assert driver.session.view() == before_view
    # an allowed amount then goes through
    driver.type_amount(action.maximum)
    assert driver.entries() == before_entries + 1
    assert driver.screen.bar.message_text() == ""


@pytest.mark.parametrize("game", GAMES)
def test_undo_withdraws_the_last_entry(driver, game):
    driver.window.show_session(demo_session(game))
    driver.step(0)
    before_view = driver.session.view()
    assert not driver.screen.undo_button.isEnabled() or driver.session.round_entries
    driver.step(0)
    assert driver.session.view() != before_view
    entries = len(driver.session.round_entries)
    driver.click(driver.screen.undo_button)
    assert len(driver.session.round_entries) == entries - 1
    assert driver.session.view() == before_view
    assert driver.screen.bar.message_text().startswith("Undone")
    assert driver.session.entries[-1].body == {"type": "void"}


def test_void_of_an_earlier_entry_needs_a_reason(driver, qtbot):
    driver.window.show_session(demo_session("greek31"))
    for _ in range(3):
        driver.step(0)
    first = driver.session.round_entries[0]
    driver.click(driver.screen.void_button)
    dialog = driver.screen.dialog
    assert dialog.isVisible()
    dialog.entries.setCurrentRow(0)
    driver.click(dialog.ok)  # no reason: refused with the engine's sentence, in the dialog
    assert "reason" in dialog.error.text() and dialog.isVisible()
    assert first in driver.session.round_entries
    assert dialog.target() == first.seq  # the choice is kept
    qtbot.keyClicks(dialog.reason_edit, "wrong seat")
    driver.click(dialog.ok)
    assert first not in driver.session.round_entries
    assert driver.session.voided[first.seq] == "wrong seat"
    assert "wrong seat" in driver.screen.bar.message_text()


def test_typed_card_code_and_refused_code(driver, qtbot):
    driver.window.show_session(demo_session("greek31"))
    screen = driver.screen
    card_index = next(i for i, a in enumerate(screen.actions) if a.asks == "card")
    action = screen.actions[card_index]
    driver.click(driver.action_button(card_index))
    entry = screen.input.entry
    before = driver.entries()
    qtbot.keyClicks(entry, "zz")
    qtbot.keyClick(entry, Qt.Key.Key_Return)
    assert driver.entries() == before
    assert screen.bar.message_text()  # the card parser's sentence
    entry.clear()
    qtbot.keyClicks(entry, "10h")
    qtbot.keyClick(entry, Qt.Key.Key_Return)
    assert driver.entries() == before + 1
    seat = driver.session.view().seats[action.seat - 1]
    assert seat.cards == ("10H",)
    assert not screen.input.grid.button("10H").isEnabled()  # dealt: greyed out
    assert entry.text() == ""


def test_function_keys_trigger_actions(driver, qtbot):
    driver.window.show_session(demo_session("greek31"))
    screen = driver.screen
    sit_out = next(i for i, a in enumerate(screen.actions) if a.type == "sit_out")
    seat = screen.actions[sit_out].seat
    number = screen.panel.key_order.index(sit_out) + 1
    assert screen.panel.buttons[sit_out].property("key") == f"F{number}"
    qtbot.keyClick(screen.input.entry, getattr(Qt.Key, f"Key_F{number}"))
    assert driver.session.round_entries[-1].body == {"type": "sit_out", "seat": seat}
    qtbot.keyClick(screen.input.entry, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not driver.session.round_entries


def test_tapping_a_seat_chooses_its_card(driver):
    driver.window.show_session(demo_session("greek31"))
    screen = driver.screen
    targets = [a.seat for a in screen.actions if a.asks == "card"]
    seat = targets[-1]
    driver.qtbot.mouseClick(screen.table.seat_widget(seat), Qt.MouseButton.LeftButton)
    assert screen.selected.seat == seat and screen.selected.asks == "card"
    driver.click(screen.input.grid.button("KD"))
    assert driver.session.view().seats[seat - 1].cards == ("KD",)


def test_quick_chips_add_up(driver):
    driver.window.show_session(demo_session("greek31"))
    screen = driver.screen
    index = next(i for i, a in enumerate(screen.actions) if a.asks == "amount")
    action = screen.actions[index]
    driver.click(driver.action_button(index))
    keypad = screen.input.keypad
    chip = keypad.findChild(QPushButton, "chip_5")
    assert chip.isVisible()  # 5 is inside 1 to 10
    assert not keypad.findChild(QPushButton, "chip_25").isVisible()
    driver.click(chip)
    driver.click(chip)  # 5 and 5 make 10
    assert screen.input.entry.text() == "10"
    driver.click(keypad.findChild(QPushButton, "key_ok"))
    assert driver.session.round_entries[-1].body == {"type": "bet", "seat": action.seat,
                                                      "amount": 10}


def test_camera_card_goes_to_the_seat_asked(driver):
    driver.window.show_session(demo_session("greek31"))
    screen = driver.screen
    seat = next(a.seat for a in screen.actions if a.asks == "card")
    screen.deal_from_camera(seat, "QS")
    assert driver.session.round_entries[-1].body == {"type": "deal", "seat": seat, "card": "QS"}


def test_a_long_session_does_not_exhaust_none(driver):
    """PySide6 6.12.0 on Python 3.11 drops a reference to None on each void Qt call and to
    True on each signal emit (None starts near 5000): without the guard this aborts."""
    driver.window.show_session(demo_session("greek31"))
    for _ in range(300):
        driver.screen.refresh()
        driver.screen.changed.emit()
    view = driver.session.view()
    assert driver.screen.bar.prompt.text() == view.prompt
