"""The seat boxes on the felt show every detail whole: the name beside its badges, the money,
the wagers, the hand's value (31 Classic's "natural …; best …; royal …" is long) and the extra
line, at 1024×600 and 1920×1080, the most seats the game takes with names of up to eight
letters, through a whole round. A box grows (the seats then scroll) rather than cut a line."""

from __future__ import annotations

import pytest
from gui_driver import GAMES, Driver, full_table, window_fixture  # noqa: F401
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QLabel
from test_seats_fit import LONG, crowded_table
from test_table_fit import SIZES, label_fits

from dealer_assist.gui.seat_widget import SeatWidget


def cut_texts(seat: SeatWidget) -> list[str]:
    """The texts of ``seat`` that do not show whole inside its box."""
    cut = []
    for label in seat.info.findChildren(QLabel):
        if not label.isVisible() or not label.text():
            continue
        top_left = label.mapTo(seat, QPoint(0, 0))
        inside = seat.contentsRect().contains(top_left) and (
            top_left.y() + label.height() <= seat.contentsRect().bottom() + 2)
        if label.wordWrap():
            whole = label_fits(label)
        else:
            whole = label.fontMetrics().horizontalAdvance(label.text()) <= label.width() + 1
        if not (inside and whole):
            cut.append(f"{label.text()} ({label.width()}x{label.height()} at {top_left.x()},{top_left.y()}; needs {label.fontMetrics().horizontalAdvance(label.text())}; seat {seat.width()}x{seat.height()} {inside})")
    return cut


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", GAMES)
def test_no_seat_detail_is_cut_in_a_round(qtbot, window, game, size):
    window.resize(*size)
    window.show_session(crowded_table(game, LONG))
    driver = Driver(qtbot, window)
    rounds = len(driver.session.rounds)
    for _ in range(150):
        QApplication.processEvents()
        for seat in driver.screen.table.seats:
            assert not cut_texts(seat), f"seat {seat.seat_number}: {cut_texts(seat)} cut off"
        if len(driver.session.rounds) > rounds:
            break
        driver.step(0)
    assert len(driver.session.rounds) > rounds, "the round was not settled"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", GAMES)
def test_six_seats_show_whole_without_scrolling(qtbot, window, game, size):
    """Up to six seats never scroll; where the full seat boxes need more height than the
    felt has (31 Classic at 1024×600: four wagers and a three-part value), they go compact."""
    window.resize(*size)
    window.show_session(full_table(game))
    Driver(qtbot, window).play_round_seats_in_view()


def test_compact_seats_leave_nothing_out(qtbot, window):
    """31 Classic, six seats at 1024×600: the seats go compact, yet every wager, the position
    and every part of the value are still on the seat; at 1920×1080 the full boxes fit."""
    window.resize(1024, 600)
    window.show_session(full_table("classic31"))
    driver = Driver(qtbot, window)
    rounds = len(driver.session.rounds)
    seen_compact = False
    while len(driver.session.rounds) == rounds:
        QApplication.processEvents()
        views = {seat.seat: seat for seat in driver.session.view().seats}
        for widget in driver.screen.table.seats:
            if not widget.compact:
                continue
            seen_compact = True
            seat = views[widget.seat_number]
            shown = " · ".join(label.text() for label in widget.info.findChildren(QLabel)
                               if label.isVisible()) + " · " + widget.value.text()
            expected = [f"{label} {amount}" for label, amount in seat.wagers]
            expected += [seat.extra, *seat.value.split("; ")]
            missing = [part for part in expected if part and part not in shown]
            assert not missing, f"seat {seat.seat} does not show {missing}"
        driver.step(0)
    assert seen_compact, "the seats never went compact at 1024×600"
    window.resize(1920, 1080)
    QApplication.processEvents()
    assert not any(widget.compact for widget in driver.screen.table.seats)
