"""Where the seat chips need more than one line (six long names at 1024×600), the action panel
acts for one seat at a time: each kind's wide button acts for the seat chosen, in the same
place. With up to six seats the dealer chooses the seat on the felt (every seat is in view:
the seats never scroll); with more, on the "For" row of seat chips."""

from __future__ import annotations

import pytest
from gui_driver import GAMES, Driver, full_table, window_fixture  # noqa: F401
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from test_seats_fit import LONG, crowded_table


def dealt_classic(qtbot, window) -> Driver:
    window.resize(1024, 600)
    window.show_session(crowded_table("classic31", LONG))
    driver = Driver(qtbot, window)
    for _ in range(40):  # antes and bonuses for every seat, then the deal
        if any(a.type == "fold" for a in driver.screen.actions):
            break
        driver.step(0)
    QApplication.processEvents()
    return driver


def acting_for_on_felt(driver: Driver) -> list[int]:
    return [w.seat_number for w in driver.screen.table.seats if w.property("actingFor")]


def test_six_seats_a_tap_on_the_seat_on_the_felt_makes_the_buttons_act_for_it(qtbot, window):
    driver = dealt_classic(qtbot, window)
    panel = driver.screen.panel
    assert panel.chips.one_seat and not panel.chips.picker
    assert not panel.picker.isVisible() and not panel.seat_chips, "no For row"
    first = panel.focus
    assert acting_for_on_felt(driver) == [first], "the felt frames the seat acted for"
    fold = next(i for i, a in enumerate(driver.screen.actions)
                if a.type == "fold" and a.seat == first)
    place = panel.buttons[fold].mapTo(window, panel.buttons[fold].rect().center())
    driver.tap_seat(5)  # Sofia, out of turn
    assert panel.focus == 5 and acting_for_on_felt(driver) == [5]
    sofia_fold = next(i for i, a in enumerate(driver.screen.actions)
                      if a.type == "fold" and a.seat == 5)
    button = panel.buttons[sofia_fold]
    assert button.mapTo(window, button.rect().center()) == place, "Fold stays in its place"
    assert button.label_text() == "Fold: Sofia", "the button names the seat it acts for"
    entries = driver.entries()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert driver.entries() == entries + 1
    assert driver.session.view().seats[4].status == "folded"
    # after the entry the panel follows the play again: the seat the next entry goes to
    assert driver.screen.focus_seat is None
    assert panel.focus == driver.screen.selected.seat
    assert acting_for_on_felt(driver) == [panel.focus]


def test_a_kind_that_is_not_the_seats_now_is_greyed_in_its_place(qtbot, window):
    driver = dealt_classic(qtbot, window)
    panel = driver.screen.panel
    driver.tap_seat(1)
    play = next(i for i, a in enumerate(driver.screen.actions)
                if a.type == "play" and a.seat == 1)
    place = panel.buttons[play].mapTo(window, panel.buttons[play].rect().center())
    qtbot.mouseClick(panel.buttons[play], Qt.MouseButton.LeftButton)  # Maria plays
    driver.tap_seat(1)
    assert panel.focus == 1
    greyed = [b for b in panel.board.widgets if b.objectName() == "actionNotNow"]
    assert {b.label_text() for b in greyed} == {"Play (Play wager 1)", "Fold"}, "greyed, not gone"
    assert all(not b.isEnabled() for b in greyed)
    spots = {b.mapTo(window, b.rect().center()) for b in greyed}
    assert place in spots, "Play stays where it was, greyed"
    seat_of = {driver.screen.actions[i].seat for i in panel.buttons}
    assert seat_of <= {1, None}, "every live button acts for Maria"


@pytest.mark.parametrize("game", GAMES)
def test_six_long_names_never_scroll_the_seats(qtbot, window, game):
    """Six seats named as at a real table at 1024×600: the panel may act for one seat at a
    time, but the seats stay whole in view through a round (no "For" row takes their room)."""
    window.resize(1024, 600)
    window.show_session(full_table(game, LONG))
    Driver(qtbot, window).play_round_seats_in_view()


def test_more_than_six_seats_choose_on_the_for_row(qtbot, window):
    """Ten seats (Trianta Ena) at 1024×600: the seats scroll, so a "For" row of seat chips
    chooses the seat; a tap on the seat on the felt chooses it too."""
    window.resize(1024, 600)
    window.show_session(crowded_table("trianta_ena", LONG))
    driver = Driver(qtbot, window)
    panel = driver.screen.panel
    QApplication.processEvents()
    assert panel.chips.one_seat and panel.chips.picker and panel.picker.isVisible()
    assert [c.label_text() for c in panel.seat_chips.values()] == list(LONG[:10])
    assert not acting_for_on_felt(driver), "the For row shows the seat acted for"
    enabled = [s for s, chip in panel.seat_chips.items() if chip.isEnabled()]
    other = next(s for s in enabled if s != panel.focus)
    driver.click(panel.seat_chips[other])
    assert panel.focus == other and panel.seat_chips[other].property("focused")
    seat = driver.screen.table.seat_widget(enabled[0])
    driver.screen.table.parentWidget().parentWidget().ensureWidgetVisible(seat)
    qtbot.mouseClick(seat, Qt.MouseButton.LeftButton)
    assert panel.focus == enabled[0] and panel.seat_chips[enabled[0]].property("focused")


def test_a_resize_keeps_acting_for_the_seat_on_turn(qtbot, window):
    """Ten seats (Trianta Ena) are one seat at a time at both sizes; a resize lays the chips
    out again and must keep the seat acted for (it once greyed every button)."""
    window.resize(1024, 600)
    window.show_session(crowded_table("trianta_ena", LONG))
    panel = window.table.panel
    QApplication.processEvents()
    chips = panel.chips
    assert chips.one_seat
    window.resize(1920, 1080)
    qtbot.waitUntil(lambda: panel.chips != chips)
    assert panel.chips.one_seat
    assert panel.focus == window.table.acting_for() is not None
    assert panel.seat_chips[panel.focus].property("focused")
    assert any(b.isEnabled() for b in panel.buttons.values()), "the seat's buttons are live"


def test_a_tap_on_a_seat_with_nothing_to_do_says_so(qtbot, window):
    driver = dealt_classic(qtbot, window)
    panel = driver.screen.panel
    for _ in range(60):  # on to the settlement: some seats have nothing left to do
        idle = [s for s in range(1, 7) if not any(a.seat == s for a in driver.screen.actions)]
        if idle and panel.chips.one_seat:
            break
        driver.step(0)
    assert idle, "no seat was ever idle"
    focus = panel.focus
    driver.tap_seat(idle[0])
    name = driver.session.names[idle[0] - 1]
    assert f"{name} has nothing to do now" in driver.screen.bar.message_text()
    assert panel.focus == focus, "the buttons still act for the seat they did"
