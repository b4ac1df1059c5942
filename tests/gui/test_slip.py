"""The settlement slip puts itself away when the dealer goes on, and History shows it again."""

from __future__ import annotations

from gui_driver import demo_session, driver_fixture, window_fixture  # noqa: F401
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QTableWidget


def settle_a_round(driver, window):
    window.show_session(demo_session("greek31"))
    driver.play_round()
    slip = window.slip
    assert slip is not None and slip.isVisible()
    return slip


def test_the_next_tap_puts_the_slip_away_and_history_shows_it_again(driver, window, qtbot):
    slip = settle_a_round(driver, window)
    head = slip.head.label.text()
    entries = driver.entries()
    driver.step(0)  # the first tap of the next round: recorded, and the slip goes
    assert driver.entries() == entries + 1
    assert not slip.isVisible()
    window.table.open_history()
    history = window.table.dialog
    button = history.slip_button
    assert button is not None and button.text() == "Slip: round 1…"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert slip.isVisible() and not history.isVisible()
    assert slip.head.label.text() == head  # the head as it was at the settlement
    driver.step(0)
    assert not slip.isVisible()


def test_typing_the_next_entry_puts_the_slip_away_and_keeps_the_keys(driver, window, qtbot):
    slip = settle_a_round(driver, window)
    entry = window.table.input.entry
    QApplication.processEvents()
    assert QApplication.focusWidget() is entry  # the slip did not take the keyboard
    assert entry.isEnabled(), "the next round asks for a card or an amount first"
    qtbot.keyClicks(entry, "9")
    assert not slip.isVisible()
    assert entry.text() == "9"


def test_history_offers_no_slip_before_a_round_is_settled(driver, window):
    window.show_session(demo_session("greek31"))
    window.table.open_history()
    assert window.table.dialog.slip_button is None


def test_a_tap_on_the_slip_puts_it_away_and_records_nothing(driver, window, qtbot):
    """At 1024×600 the slip covers the card grid: a tap on it, meant for a card below, only
    puts it away. Shown again from History, it stays until closed."""
    window.resize(1024, 600)
    slip = settle_a_round(driver, window)
    entries = driver.entries()
    assert "Tap the slip" in slip.findChild(QLabel, "slipNote").text()
    inside = slip.findChild(QTableWidget) or slip
    qtbot.mouseClick(inside.viewport() if hasattr(inside, "viewport") else inside,
                     Qt.MouseButton.LeftButton)
    assert not slip.isVisible()
    assert driver.entries() == entries
    window.table.open_history()
    qtbot.mouseClick(window.table.dialog.slip_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(slip.head, Qt.MouseButton.LeftButton)
    assert slip.isVisible(), "shown from History, the slip stays until closed"
