"""Every game, six seats (or the most it takes), at 1024×600 and 1920×1080: every enabled
action is inside the window, touch-sized, its label not cut; a tap never leaves another kind
of action under the finger (the next player's "Stick" may take the place of this one's)."""

from __future__ import annotations

import pytest
from gui_driver import GAMES, Driver, full_table, window_fixture  # noqa: F401
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel

from dealer_assist.gui.action_panel import ActionButton
from dealer_assist.gui.metrics import TOUCH_MM, mm_px

SIZES = ((1024, 600), (1920, 1080))


def inside(widget, window) -> bool:
    top_left = widget.mapTo(window, QPoint(0, 0))
    return window.rect().contains(QRect(top_left, widget.size()))


def label_fits(label: QLabel) -> bool:
    """Every word fits the width, and the wrapped text fits the height."""
    room = label.contentsRect()
    metrics = label.fontMetrics()
    if any(metrics.horizontalAdvance(word) > room.width() + 1 for word in label.text().split()):
        return False
    return label.heightForWidth(room.width()) <= room.height() + 2 or not label.wordWrap()


def check_fits(window) -> None:
    QApplication.processEvents()
    screen = window.table
    screen.panel.fit_names()
    buttons = [b for b in screen.findChildren(QAbstractButton)
               if b.isVisible() and b.isEnabled()]
    assert buttons
    least = mm_px(TOUCH_MM)
    for button in buttons:
        name = button.objectName() or button.text()
        assert inside(button, window), f"{name} is outside the window"
        assert min(button.width(), button.height()) >= least - 1, f"{name} is too small"
        if isinstance(button, ActionButton):
            assert label_fits(button.label), f"{name}: {button.label_text()!r} is cut off"
            if button.property("seatChip"):  # the player's name, never the seat number
                assert button.label_text() in screen.session.names, (
                    f"{name} shows {button.label_text()!r}, not a player's name")
        elif button.text():
            room = button.contentsRect().width() - 4
            assert button.fontMetrics().horizontalAdvance(button.text()) <= room, name
    for title in screen.panel.findChildren(QLabel, "groupTitle"):
        if title.isVisible():
            assert inside(title, window) and label_fits(title), title.text()


def tap(driver: Driver, index: int) -> None:
    """Tap action ``index`` and give what it asks; check nothing else slid under the finger."""
    screen = driver.screen
    action = screen.actions[index]
    button = driver.action_button(index)  # on the "For" row, its seat first
    centre = button.mapTo(driver.window, button.rect().center())
    driver.step(index)
    QApplication.processEvents()
    under = driver.window.childAt(centre)
    while under is not None and not isinstance(under, ActionButton):
        under = under.parentWidget()
    if under is not None and not under.isEnabled():
        return  # the kind's place, greyed: not for this seat now, and a tap does nothing
    if under is not None:
        now = next(i for i, b in screen.panel.buttons.items() if b is under)
        same = screen.actions[now]
        kind = (same.type, same.asks, same.fixed)  # the same kind, maybe the next player's
        assert kind == (action.type, action.asks, action.fixed), (
            f"after {action.label!r}, {same.label!r} is under the finger")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", GAMES)
def test_a_round_fits_and_stays_put(qtbot, window, game, size):
    window.resize(*size)
    window.show_session(full_table(game))
    play_a_round(Driver(qtbot, window), taps=90)


def play_a_round(driver: Driver, taps: int) -> None:
    """Tap the first action until a round is settled, checking the fit before every tap."""
    rounds = len(driver.session.rounds)
    for _ in range(taps):
        if len(driver.session.rounds) > rounds:
            break
        check_fits(driver.window)
        tap(driver, 0)
    assert len(driver.session.rounds) > rounds, "the round was not settled"
    check_fits(driver.window)
