"""Costly actions are confirmed; Correct… mid-round; the keyboard works wherever the focus
is; the players' display never draws a hidden card."""

from __future__ import annotations

import pytest
from gui_driver import GAMES, Driver, demo_session, driver_fixture, window_fixture  # noqa: F401
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from dealer_assist.gui.confirm import ConfirmDialog
from dealer_assist.gui.players_display import PlayersDisplay


def index_of(screen, kind: str, seat: int | None = None) -> int:
    return next(i for i, a in enumerate(screen.actions)
                if a.type == kind and (seat is None or a.seat == seat))


def classic31_in_play(driver: Driver) -> None:
    """31 Classic with every Ante down and the hands dealt (set up through the engine)."""
    driver.window.show_session(demo_session("classic31"))
    session = driver.session
    for seat in range(1, len(session.seats) + 1):
        session.submit({"type": "ante", "seat": seat, "amount": 5})
    session.submit({"type": "deal_hands"})
    driver.screen.refresh()


def test_costly_actions_ask_first_and_name_the_consequence(driver):
    classic31_in_play(driver)
    screen = driver.screen
    for kind, words in (("handled_draw", "forfeited"), ("misdeal", "every wager goes back")):
        button = screen.panel.buttons[index_of(screen, kind)]
        assert button.property("costly") is True  # red and set apart
        assert button.parentWidget() is screen.panel.costly
        before = len(driver.session.entries)
        driver.click(button)
        dialog = screen.dialog
        assert isinstance(dialog, ConfirmDialog) and dialog.isVisible()
        assert words in dialog.text.text()
        driver.click(dialog.cancel_button)  # nothing recorded
        assert len(driver.session.entries) == before
    driver.click(screen.panel.buttons[index_of(screen, "handled_draw", 2)])
    driver.click(screen.dialog.ok_button)
    assert driver.session.round_entries[-1].body == {"type": "handled_draw", "seat": 2}
    driver.click(screen.undo_button)  # undo stays one tap
    assert driver.session.round_entries[-1].body == {"type": "deal_hands"}


def test_cash_out_is_one_button_a_choice_and_a_confirmation(driver):
    driver.window.show_session(demo_session("trianta_ena"))
    screen = driver.screen
    cash = screen.panel.buttons[index_of(screen, "cash_out")]
    assert cash.label_text() == "Cash out…" and cash.property("costly")
    driver.click(cash)
    chooser = screen.dialog
    everything = next(b for b in chooser.buttons if b.text() == "Bea cashes out everything")
    driver.click(everything)
    dialog = screen.dialog
    assert isinstance(dialog, ConfirmDialog) and "Bea cashes out everything" in dialog.text.text()
    driver.click(dialog.ok_button)
    assert driver.session.entries[-1].body == {"type": "cash_out", "seat": 2}


def test_end_session_is_confirmed(driver):
    window = driver.window
    window.show_session(demo_session("greek31"))
    driver.play_round()
    window.end_action.trigger()
    dialog = window.dialog
    assert isinstance(dialog, ConfirmDialog) and "cannot be undone" in dialog.text.text()
    driver.click(dialog.cancel_button)
    assert not driver.session.ended
    window.end_action.trigger()
    driver.qtbot.keyClicks(window.dialog.reason_edit, "players agree")
    driver.click(window.dialog.ok_button)
    assert driver.session.ended


def open_correct(driver, seq: int, value: str, reason: str):
    driver.click(driver.screen.correct_button)
    dialog = driver.screen.dialog
    rows = [dialog.entries.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(dialog.entries.count())]
    dialog.entries.setCurrentRow(rows.index(seq))
    driver.qtbot.keyClicks(dialog.value_edit, value)
    driver.qtbot.keyClicks(dialog.reason_edit, reason)
    driver.click(dialog.ok)
    return dialog


def greek31_with_bets(driver):
    driver.window.show_session(demo_session("greek31"))
    session = driver.session
    for action in list(session.legal_actions()):
        if action.type == "deal":
            session.submit(action.event(card=("9H", "KS", "4C", "7D")[action.seat - 1]))
    for amount in (5, 4):
        bet = next(a for a in session.legal_actions() if a.type == "bet")
        session.submit(bet.event(amount=amount))
    driver.screen.refresh()
    return session


def test_correct_a_bet_in_the_middle_of_the_round(driver):
    session = greek31_with_bets(driver)
    first_bet = next(e for e in session.round_entries if e.body["type"] == "bet")
    later = session.round_entries[-1].body
    seat = first_bet.body["seat"]
    dialog = open_correct(driver, first_bet.seq, "7", "mis-keyed")
    assert not dialog.isVisible()
    assert dict(session.view().seats[seat - 1].wagers)["bet"] == 7
    assert session.round_entries[-1].body == later  # the later bet is still there
    assert "Corrected" in driver.screen.bar.message_text()


def test_correct_a_card_in_the_middle_of_the_round_and_a_refusal_keeps_the_dialog(driver):
    session = greek31_with_bets(driver)
    card = session.round_entries[0]
    seat, old = card.body["seat"], card.body["card"]
    taken = next(e.body["card"] for e in session.round_entries[1:] if e.body.get("card"))
    dialog = open_correct(driver, card.seq, taken, "misread")  # a card dealt later: refused
    assert dialog.isVisible() and "would then be refused" in dialog.error.text()
    assert session.view().seats[seat - 1].cards == (old,)
    dialog.value_edit.setText("2s")
    driver.click(dialog.ok)
    assert not dialog.isVisible()
    assert session.view().seats[seat - 1].cards == ("2S",)


def focusable(window) -> list[QWidget]:
    return [w for w in window.findChildren(QWidget)
            if w.isVisible() and w.focusPolicy() != Qt.FocusPolicy.NoFocus]


def test_function_keys_work_whatever_has_the_focus(driver, qtbot):
    window = driver.window
    window.show_session(demo_session("greek31"))
    screen = driver.screen
    widgets = [window, *focusable(window)]
    assert screen.input.entry in widgets
    for widget in widgets:
        sit_out = index_of(screen, "sit_out")
        seat = screen.actions[sit_out].seat
        number = screen.panel.key_order.index(sit_out) + 1
        widget.setFocus()
        qtbot.keyClick(QApplication.focusWidget() or window, getattr(Qt.Key, f"Key_F{number}"))
        assert driver.session.round_entries[-1].body == {"type": "sit_out", "seat": seat}, widget
        qtbot.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_Z,
                       Qt.KeyboardModifier.ControlModifier)
        assert not driver.session.round_entries


def test_typing_line_target_seat_prefix_refusal_and_escape(driver, qtbot):
    driver.window.show_session(demo_session("trianta_ena"))
    screen, session = driver.screen, driver.session
    entry = screen.input.entry
    first = screen.selected  # the banker's face-up card
    assert screen.bar.target.text() == f"→ {session.names[first.seat - 1]}"
    qtbot.keyClicks(entry, "5h")
    qtbot.keyClick(entry, Qt.Key.Key_Return)  # goes where the line said
    assert session.view().seats[first.seat - 1].cards == ("5H",)
    qtbot.keyClicks(entry, "zz")
    qtbot.keyClick(entry, Qt.Key.Key_Return)  # refused: selected, so typing replaces it
    assert screen.bar.message.property("error") is True
    assert entry.selectedText() == "zz"
    qtbot.keyClicks(entry, "3 7c")  # a seat prefix sends it to seat 3
    assert entry.text() == "3 7c"
    qtbot.keyClick(entry, Qt.Key.Key_Return)
    body = session.round_entries[-1].body
    assert (body["seat"], body["card"].upper()) == (3, "7C"), screen.bar.message_text()
    qtbot.keyClicks(entry, "1 8c")  # the banker's face-up card is in: nothing for seat 1
    qtbot.keyClick(entry, Qt.Key.Key_Return)
    assert "seat 1" in screen.bar.message_text() and entry.selectedText() == "1 8c"
    qtbot.keyClick(entry, Qt.Key.Key_Escape)
    assert entry.text() == ""


def test_a_tap_on_the_felt_leaves_the_keys_on_the_typing_line(driver, qtbot):
    """The dealer taps the felt (a seat, the table) and types a card: it must reach the
    typing line (found in a real window: the seats' scroll area took the keys)."""
    driver.window.show_session(demo_session("greek31"))
    screen, session = driver.screen, driver.session
    entry = screen.input.entry
    entry.setFocus()
    felt = screen.table
    qtbot.mouseClick(felt, Qt.MouseButton.LeftButton, pos=felt.rect().center())
    for parent in (felt.parentWidget(), felt.parentWidget().parentWidget()):
        qtbot.mouseClick(parent, Qt.MouseButton.LeftButton, pos=parent.rect().center())
    assert QApplication.focusWidget() is entry
    seat = screen.selected.seat
    qtbot.keyClicks(QApplication.focusWidget(), "9h")
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert session.view().seats[seat - 1].cards == ("9H",)


def hidden_codes(session) -> set[str]:
    codes = set()
    for seat in session.view().seats:
        hidden = seat.hidden + (False,) * (len(seat.cards) - len(seat.hidden))
        codes |= {c for c, h in zip(seat.cards, hidden, strict=False) if h and c}
    return codes


def hiding_step(driver) -> int:
    """The action that hides a known card, if any (an entered face-down card, a dealer who
    stands on two cards), else the first."""
    view = driver.session.view()
    for index, action in enumerate(driver.screen.actions):
        if action.label.endswith("entered"):
            return index
        if (action.type == "stand" and action.seat == view.dealer_seat
                and len(view.seats[action.seat - 1].cards) >= 2):
            return index
    return 0


@pytest.mark.parametrize("game", GAMES)
def test_players_display_never_draws_a_hidden_card(driver, game):
    window = driver.window
    window.show_session(demo_session(game))
    window.players_action.trigger()
    display = window.players_display
    assert isinstance(display, PlayersDisplay) and display.isVisible()
    seen_hidden = False
    for _ in range(40):
        if driver.session.rounds:
            break
        driver.step(hiding_step(driver))
        secret = hidden_codes(driver.session)
        seen_hidden |= bool(secret)
        drawn = {card.code for card in display.cards} - {None}
        texts = " ".join(label.text() for label in display.findChildren(QLabel))
        assert not secret & drawn
        assert not any(code in texts for code in secret)
        shown = sum(len(s.cards) for s in driver.session.view().seats)
        assert len(display.cards) == shown  # every card is there, hidden ones as backs
    if game == "greek31":  # the dealer's concealed card: known to the dealer, hidden here
        assert seen_hidden


def test_the_greek_dealer_chooses_which_card_stays_hidden(driver):
    driver.window.show_session(demo_session("greek31"))
    session, screen = driver.session, driver.screen
    for action in list(session.legal_actions()):
        if action.type == "deal":
            session.submit(action.event(card=("9H", "KS", "4C", "7D")[action.seat - 1]))
    while any(a.type == "bet" for a in session.legal_actions()):
        session.submit(next(a for a in session.legal_actions() if a.type == "bet").event(amount=1))
    dealer = session.view().dealer_seat
    for code in ("2C", "3D"):
        session.submit({"type": "deal", "seat": dealer, "card": code})
    screen.refresh()
    driver.click(screen.panel.buttons[index_of(screen, "stand")])
    chooser = screen.dialog
    assert [b.text() for b in chooser.buttons] == ["Keep 2C hidden", "Keep 3D hidden"]
    driver.click(chooser.buttons[0])
    seat = session.view().seats[dealer - 1]
    assert seat.cards == ("2C", "3D") and seat.hidden == (True, False)
