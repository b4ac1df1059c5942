"""Each game at its most seats (Trianta Ena: the banker and nine players), at 1024×600 and
1920×1080, played through a round by taps: the seats may scroll, the actions never do;
every seat chip stays at least 9 mm and shows its player's whole name (on more lines of
chips where one line has no room)."""

from __future__ import annotations

import pytest
from gui_driver import GAMES, Driver, window_fixture  # noqa: F401
from PySide6.QtWidgets import QApplication, QScrollArea
from test_table_fit import SIZES, play_a_round

from dealer_assist.session.engine import Session
from dealer_assist.session.store import new_session_path
from dealer_assist.variants import get_variant

LONG = ("Maria", "Nikos", "Eleni", "Giorgos", "Sofia", "Dimitris", "Anna", "Kostas",
         "Katerina", "Yannis", "Petros", "Irini")
SHORT = ("Ann", "Bea", "Cy", "Dora", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou")
CASES = [pytest.param(game, size, LONG) for game in GAMES for size in SIZES]
CASES.append(pytest.param("trianta_ena", (1024, 600), SHORT))


def crowded_table(game: str, names: tuple[str, ...] = LONG) -> Session:
    """The game's demo table with as many seats as the game takes, named as at a real table."""
    variant = get_variant(game)
    demo = variant.DEMO
    seats = []
    for number in range(1, variant.MAX_SEATS + 1):
        seat = dict(demo["seats"][min(number, len(demo["seats"])) - 1], name=names[number - 1])
        if "age" in seat:
            seat["age"] = number
        if "position" in seat:
            seat["position"] = number
        seats.append(seat)
    return Session.new(variant.NAME, demo.get("options"), seats, demo.get("first_dealer"),
                       path=new_session_path(variant.NAME))


def in_scroll_area(widget) -> bool:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea):
            return True
        parent = parent.parentWidget()
    return False


def case_id(value) -> str:
    if isinstance(value, tuple) and isinstance(value[0], int):
        return f"{value[0]}x{value[1]}"
    return "long-names" if value == LONG else "short-names" if value == SHORT else str(value)


@pytest.mark.parametrize(("game", "size", "names"), CASES, ids=case_id)
def test_the_most_seats_fit(qtbot, window, game, size, names):
    window.resize(*size)
    session = crowded_table(game, names)
    window.show_session(session)
    driver = Driver(qtbot, window)
    screen = driver.screen
    QApplication.processEvents()
    assert window.width() <= size[0] and window.height() <= size[1], "the window grew"
    assert not in_scroll_area(screen.panel), "the actions must never scroll"
    assert in_scroll_area(screen.table), "the seats scroll when there are many"
    play_a_round(driver, taps=150)
