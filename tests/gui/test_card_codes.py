"""The GUI's typing line reads cards through cards.py: ``1h`` is refused there too (RULINGS
"Everywhere": ``1`` is not a rank)."""

from __future__ import annotations

import pytest
from gui_driver import GAMES, demo_session, driver_fixture, window_fixture  # noqa: F401
from PySide6.QtCore import Qt


@pytest.mark.parametrize("game", GAMES)
def test_typed_one_is_not_an_ace(driver, qtbot, game):
    driver.window.show_session(demo_session(game))
    screen = driver.screen
    for _ in range(60):  # play the first steps until a card is asked
        if any(a.asks == "card" for a in screen.actions):
            break
        driver.step(0)
    index = next(i for i, a in enumerate(screen.actions) if a.asks == "card")
    driver.click(driver.action_button(index))
    entry = screen.input.entry
    before_entries, before_view = driver.entries(), driver.session.view()
    qtbot.keyClicks(entry, "1h")
    qtbot.keyClick(entry, Qt.Key.Key_Return)
    assert driver.entries() == before_entries
    assert driver.session.view() == before_view
    message = screen.bar.message_text()
    assert "is not a rank" in message and "10 or T" in message
    assert screen.bar.message.property("error") is True
