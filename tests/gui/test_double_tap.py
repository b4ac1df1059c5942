"""A double tap on "Stick" sticks one player, not the next one too: the next player's Stick
takes the same place, so a second tap right after the place changed is ignored; the keyboard
is never held back."""

from __future__ import annotations

from gui_driver import demo_session, driver_fixture, window_fixture  # noqa: F401
from PySide6.QtCore import Qt

from dealer_assist.gui.action_panel import DOUBLE_TAP_S


def up_to_stick(driver, window):
    window.show_session(demo_session("one_and_thirty"))
    for _ in range(40):
        if any(a.type == "stick" for a in driver.screen.actions):
            return driver.screen.actions.index(
                next(a for a in driver.screen.actions if a.type == "stick"))
        driver.step(0)
    raise AssertionError("no Stick in the first round")


def to_act(driver):
    return driver.session.view().to_act


def test_a_double_tap_on_stick_sticks_one_player(driver, window, qtbot):
    index = up_to_stick(driver, window)
    first = to_act(driver)
    button = driver.screen.panel.buttons[index]
    place = driver.screen.panel.place_of(button)
    entries = driver.entries()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert driver.entries() == entries + 1 and to_act(driver) != first
    second = to_act(driver)
    index = next(i for i, a in enumerate(driver.screen.actions) if a.type == "stick")
    again = driver.screen.panel.buttons[index]
    assert driver.screen.panel.place_of(again) == place  # the same place, the next player
    qtbot.mouseClick(again, Qt.MouseButton.LeftButton)  # the finger bounces
    assert driver.entries() == entries + 1 and to_act(driver) == second
    assert "Second tap ignored" in driver.screen.bar.message_text()
    qtbot.wait(int(DOUBLE_TAP_S * 1000) + 100)  # a deliberate tap a moment later counts
    qtbot.mouseClick(again, Qt.MouseButton.LeftButton)
    assert driver.entries() == entries + 2 and to_act(driver) != second


def test_the_keyboard_is_not_held_back(driver, window, qtbot):
    up_to_stick(driver, window)
    entries = driver.entries()
    key = driver.screen.panel.key_order.index(
        next(i for i, a in enumerate(driver.screen.actions) if a.type == "stick")) + 1
    focus = driver.screen.input.entry
    qtbot.keyClick(focus, getattr(Qt.Key, f"Key_F{key}"))
    key = driver.screen.panel.key_order.index(
        next(i for i, a in enumerate(driver.screen.actions) if a.type == "stick")) + 1
    qtbot.keyClick(focus, getattr(Qt.Key, f"Key_F{key}"))
    assert driver.entries() == entries + 2  # two sticks, as two keys were meant
