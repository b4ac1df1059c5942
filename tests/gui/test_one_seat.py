"""Where the seat chips need more than one line (six long names at 1024×600), the action panel
acts for one seat at a time: a tap on a seat's chip on the "For" row (or on the seat on the
felt) makes each kind's wide button act for that seat, in the same place."""

from __future__ import annotations

from gui_driver import Driver, window_fixture  # noqa: F401
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


def test_a_tap_on_a_seat_chip_makes_the_buttons_act_for_that_seat(qtbot, window):
    driver = dealt_classic(qtbot, window)
    panel = driver.screen.panel
    assert panel.chips.one_seat and set(panel.seat_chips) == set(range(1, 7))
    assert [c.label_text() for c in panel.seat_chips.values()] == list(LONG[:6])
    first = panel.focus
    fold = next(i for i, a in enumerate(driver.screen.actions)
                if a.type == "fold" and a.seat == first)
    place = panel.buttons[fold].mapTo(window, panel.buttons[fold].rect().center())
    driver.click(panel.seat_chips[5])  # Sofia, out of turn
    assert panel.focus == 5 and panel.seat_chips[5].property("focused")
    sofia_fold = next(i for i, a in enumerate(driver.screen.actions)
                      if a.type == "fold" and a.seat == 5)
    button = panel.buttons[sofia_fold]
    assert button.mapTo(window, button.rect().center()) == place, "Fold stays in its place"
    assert button.label_text() == "Fold"
    entries = driver.entries()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert driver.entries() == entries + 1
    assert driver.session.view().seats[4].status == "folded"
    # after the entry the panel follows the play again: the seat the next entry goes to
    assert driver.screen.focus_seat is None
    assert panel.focus == driver.screen.selected.seat


def test_a_kind_that_is_not_the_seats_now_is_greyed_in_its_place(qtbot, window):
    driver = dealt_classic(qtbot, window)
    panel = driver.screen.panel
    driver.click(panel.seat_chips[2])
    fold = next(i for i, a in enumerate(driver.screen.actions)
                if a.type == "fold" and a.seat == 2)
    qtbot.mouseClick(panel.buttons[fold], Qt.MouseButton.LeftButton)  # Nikos folds
    driver.click(panel.seat_chips[1])
    greyed = [b for b in panel.board.widgets if b.objectName() == "actionNotNow"]
    assert all(not b.isEnabled() for b in greyed)
    seat_of = {driver.screen.actions[i].seat for i in panel.buttons}
    assert seat_of <= {1, None}, "every live button acts for Maria"


def test_a_tap_on_a_seat_on_the_felt_chooses_it_too(qtbot, window):
    driver = dealt_classic(qtbot, window)
    seat = driver.screen.table.seat_widget(4)
    driver.screen.table.parentWidget().parentWidget().ensureWidgetVisible(seat)
    qtbot.mouseClick(seat, Qt.MouseButton.LeftButton)
    assert driver.screen.panel.focus == 4
    assert driver.screen.panel.seat_chips[4].property("focused")


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
