"""A whole round of each game, played by tapping the table's real buttons."""

from __future__ import annotations

import pytest
from gui_driver import GAMES, demo_session, driver_fixture, window_fixture  # noqa: F401

from dealer_assist.gui.card_face import CardFace


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_round_by_clicking(driver, game):
    driver.window.show_session(demo_session(game))
    screen = driver.screen
    assert screen.bar.prompt.text() == driver.session.view().prompt
    driver.play_round()
    result = driver.session.rounds[-1]
    assert result.number == 1
    # the settlement confirmed is the game's, recorded once; the table now shows round 2's state
    view = driver.session.view()
    assert [s.money for s in view.seats] == list(result.bankrolls)
    for widget, seat in zip(screen.table.seats, view.seats, strict=True):
        money = widget.money.text().split(" · ")[0]  # "money 97", or "97" in a compact seat
        assert money.removeprefix("money ") == str(seat.money)
    assert "settled" in screen.bar.message_text()
    names = driver.session.names
    if result.next_dealer is not None:
        assert names[result.next_dealer - 1] in screen.bar.message_text()


@pytest.mark.parametrize("game", GAMES)
def test_seats_show_the_view(driver, game):
    driver.window.show_session(demo_session(game))
    for _ in range(4):
        driver.step(0)
    view = driver.session.view()
    for widget, seat in zip(driver.screen.table.seats, view.seats, strict=True):
        assert widget.name.text().endswith(seat.name)
        assert widget.status.text() == seat.status
        assert widget.value.text() == seat.value
        faces = [f for f in widget.cards_box.findChildren(CardFace) if f.isVisible()]
        assert [f.code for f in faces] == widget.card_codes() == list(seat.cards)
    # exactly the legal actions of the moment, each with its button (or chip) on the panel
    actions = driver.session.legal_actions()
    assert sorted(driver.screen.panel.buttons) == list(range(len(actions)))
    for index, action in enumerate(actions):
        button = driver.screen.panel.buttons[index]
        assert action.label in button.toolTip() or button.label_text() in action.label
    # cards that cannot be dealt are greyed out
    usable = set(view.usable_cards)
    grid = driver.screen.input.grid
    if driver.screen.input.mode == "card":
        assert {c for c, b in grid.buttons.items() if b.isEnabled()} == usable
