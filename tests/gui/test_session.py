"""Start-up, the wizard, resume of an interrupted session, settlement, history and the end."""

from __future__ import annotations

import argparse

import pytest
from gui_driver import GAMES, Driver, demo_session, driver_fixture, window_fixture  # noqa: F401
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QPushButton, QWizard

from dealer_assist.gui import app as app_module
from dealer_assist.gui import demo
from dealer_assist.gui.app import MainWindow
from dealer_assist.gui.card_face import CardFace
from dealer_assist.gui.wizard import SessionWizard
from dealer_assist.session.engine import Session
from dealer_assist.session.store import new_session_path
from dealer_assist.variants import get_variant
from dealer_assist.variants.base import option_specs


@pytest.mark.parametrize("game", GAMES)
def test_resume_an_interrupted_session_exactly_where_it_stood(qtbot, data_dir, game):
    first = MainWindow()
    qtbot.addWidget(first)
    first.show()
    session = demo_session(game)
    path = session.log.path
    first.show_session(session)
    driver = Driver(qtbot, first)
    for _ in range(5):
        driver.step(0)
    view, entries = session.view(), len(session.entries)
    cards = [w.card_codes() for w in first.table.table.seats]
    first.close()  # the tablet restarts mid-round
    first.close_table()

    second = MainWindow()
    qtbot.addWidget(second)
    second.show()
    listed = second.start.sessions
    assert listed.count() == 1 and get_variant(game).TITLE in listed.item(0).text()
    button = second.start.button("resumeButton")
    assert button.isEnabled()
    Driver(qtbot, second).click(button)
    resumed = second.session
    assert resumed is not None and resumed.view() == view
    assert len(resumed.entries) == entries
    assert [w.card_codes() for w in second.table.table.seats] == cards
    assert second.table.bar.prompt.text() == view.prompt
    assert resumed.log.path == path
    # and it goes on from there
    Driver(qtbot, second).step(0)
    assert len(resumed.entries) == entries + 1
    second.close_table()


def test_settlement_back_leaves_the_round_open(driver):
    driver.window.show_session(demo_session("greek31"))
    rounds = 0
    for _ in range(80):
        action = driver.screen.actions[0]
        before = driver.entries()
        driver.click(driver.action_button(0))
        if action.asks == "amount":
            driver.type_amount(action.minimum or 1)
        elif action.asks == "card":
            for button in driver.usable_cards():
                driver.click(button)
                if driver.entries() > before or driver.screen.settlement:
                    break
        if driver.screen.settlement is not None:
            break
    dialog = driver.screen.settlement
    assert dialog is not None and dialog.isVisible()
    table = dialog.table
    assert table.rowCount() >= len(driver.session.names) - 1
    entries = driver.entries()
    driver.click(dialog.back_button)
    assert driver.entries() == entries and len(driver.session.rounds) == rounds
    assert "not recorded" in driver.screen.bar.message_text()
    # the same action again, confirmed this time
    driver.click(driver.action_button(0))
    assert driver.screen.settlement is not None
    pending = driver.screen.settlement
    texts = [pending.table.item(r, 3).text() for r in range(pending.table.rowCount())]
    assert all(t.startswith(("pay", "collect", "—")) or t.endswith("net") for t in texts)
    driver.confirm_settlement()
    assert len(driver.session.rounds) == 1
    result = driver.session.rounds[0]
    assert [pending.table.item(r, 0).text().split(" ")[0] for r in range(len(result.results))] \
        == [str(r.seat) for r in result.results]  # the game's settlement order


@pytest.mark.parametrize("game", GAMES)
def test_history_lists_the_rounds(driver, game):
    driver.window.show_session(demo_session(game))
    driver.play_round()
    driver.click(driver.screen.history_button)
    dialog = driver.screen.dialog
    assert dialog.isVisible() and dialog.round_count() == 1
    top = dialog.tree.topLevelItem(0)
    assert top.text(0) == "Round 1"
    assert top.childCount() == len(driver.session.rounds[0].results)
    dialog.close()


def test_end_of_session_shows_final_standings(driver):
    window = driver.window
    window.show_session(demo_session("greek31"))
    driver.play_round()
    assert window.end_action.isEnabled()
    assert window.table.end_session("players agree to stop")
    assert driver.session.ended
    standings = window.dialog
    assert standings.isVisible()
    view = driver.session.view()
    richest = sorted(view.seats, key=lambda s: -s.money)
    assert standings.names_in_order() == [s.name for s in richest]
    assert not window.end_action.isEnabled()
    assert driver.screen.actions == []  # nothing more can be entered
    assert driver.screen.panel.buttons == {}


def test_end_session_refused_mid_round(driver):
    driver.window.show_session(demo_session("greek31"))
    driver.step(0)
    assert not driver.screen.end_session()
    assert "finish" in driver.screen.bar.message_text()
    assert not driver.session.ended


def test_wizard_starts_a_session(qtbot, data_dir):
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    driver = Driver(qtbot, window)
    driver.click(window.start.button("newButton"))
    wizard = window.dialog
    assert isinstance(wizard, SessionWizard) and wizard.isVisible()
    assert wizard.game() == "greek31"
    driver.click(wizard.button(QWizard.WizardButton.NextButton))
    specs = option_specs(get_variant("greek31").Options)
    assert [e.spec["name"] for e in wizard.options_page.editors] == [s["name"] for s in specs]
    assert wizard.options()["max_bet"] == 10  # the rule's default
    wizard.options_page.editors[1].widget.setValue(20)
    driver.click(wizard.button(QWizard.WizardButton.NextButton))
    players = wizard.players_page
    assert len(players.rows) == len(get_variant("greek31").DEMO["seats"])
    players.rows[1].name.setText(players.rows[0].name.text())  # a duplicate name is refused
    driver.click(wizard.button(QWizard.WizardButton.FinishButton))
    assert "already taken" in players.error.text()
    assert window.session is None
    players.rows[1].name.setText("Zoe")
    driver.click(players.rows[1].findChildren(QPushButton)[0])  # ▲: Zoe to seat 1
    players.dealer.setCurrentIndex(2)  # seat 2 deals first
    driver.click(wizard.button(QWizard.WizardButton.FinishButton))
    session = window.session
    assert session is not None
    assert session.names[0] == "Zoe" and session.options.max_bet == 20
    assert session.view().dealer_seat == 2
    window.close_table()


def test_start_screen_offers_nothing_to_resume_when_all_ended(qtbot, data_dir):
    session = demo_session("greek31")
    session.submit({"type": "end_session"})
    session.close()
    window = MainWindow()
    qtbot.addWidget(window)
    assert not window.start.button("resumeButton").isEnabled()


def test_demo_opens_a_filled_table(qtbot, data_dir):
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    Driver(qtbot, window).click(window.start.button("demoButton"))
    chooser = window.dialog  # which game?
    Driver(qtbot, window).click(next(b for b in chooser.buttons if b.text() == "Greek 31"))
    assert window.session is not None
    names = [s["name"] for s in get_variant("greek31").DEMO["seats"]]
    assert [w.name.text().split("  ")[1] for w in window.table.table.seats] == names
    window.close_table()
    session = demo.start_demo("greek31", keep=True)
    assert session.log is not None and data_dir in session.log.path.parents
    session.close()


def test_theme_toggle_and_cards_drawn(qtbot, data_dir):
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.show_session(demo_session("greek31"))
    window.dark_action.trigger()
    assert window.theme == "dark" and window.dark_action.isChecked()
    assert "#161b22" in window.styleSheet() + app_module.QApplication.instance().styleSheet()
    card = CardFace("10H")
    assert not card.grab().isNull()
    # the table screen paints the dark background itself (its labels are light text)
    at = window.table.mapTo(window, QPoint(2, window.table.height() // 2))
    shot = window.grab().toImage()
    assert shot.pixelColor(at).lightness() < 60
    # and round the felt (the seats' scroll area), and the status bar
    felt = window.table.table
    assert shot.pixelColor(felt.mapTo(window, QPoint(2, 2))).lightness() < 60
    bar = window.statusBar()
    assert shot.pixelColor(bar.mapTo(window, QPoint(4, bar.height() // 2))).lightness() < 60
    window.close_table()


def test_command_line_arguments(data_dir):
    parser = argparse.ArgumentParser()
    app_module.add_arguments(parser)
    args = parser.parse_args(["some.db", "--theme", "dark"])
    assert args.file.name == "some.db" and args.theme == "dark"
    parser = argparse.ArgumentParser()
    demo.add_arguments(parser)
    assert parser.parse_args([]).game == "greek31"


def test_opening_a_missing_file_is_refused(qtbot, data_dir):
    window = MainWindow()
    qtbot.addWidget(window)
    assert not window.open_path(data_dir / "nothing.db")
    assert "no session log" in window.dialog.text() and window.session is None


def test_other_screens_in_the_menu_follow_their_modules(qtbot, data_dir):
    window = MainWindow()
    qtbot.addWidget(window)
    for key, (module, _text) in app_module.TOOLS.items():
        action = window.tool_actions[key]
        present = app_module.module_available(module)
        if key == "camera":  # needs an open table too
            assert not action.isEnabled()
        else:
            assert action.isEnabled() == present
        if not present:
            assert "not available" in action.toolTip()
    window.show_session(demo_session("greek31"))
    camera = window.tool_actions["camera"]
    assert camera.isEnabled() == app_module.module_available(app_module.TOOLS["camera"][0])
    window.close_table()


OFFER_GAMES = [g for g in GAMES if "bank_accept" in getattr(get_variant(g), "HANDLERS", {})]


@pytest.mark.parametrize("game", OFFER_GAMES)
def test_bank_offer_is_asked_in_a_dialog(driver, game):
    """Trianta Ena offers the bank to a player richer than the banker after a round (T7):
    the offer is asked in a dialog, and the answer tapped there is recorded."""
    seats = [{"name": "Ann", "money": 100}, {"name": "Bea", "money": 400},
             {"name": "Cy", "money": 100}]
    session = Session.new(game, {"bank_multiple": 0}, seats, 1,
                          path=new_session_path(game))
    driver.window.show_session(session)
    for _ in range(80):
        if driver.screen.offer is not None:
            break
        driver.step(0)
    dialog = driver.screen.offer
    assert dialog is not None and dialog.isVisible()
    assert [b.text() for b in dialog.buttons] == [a.label for a in dialog.actions]
    assert {a.type for a in dialog.actions} == {"bank_accept", "bank_decline"}
    answer = next(a for a in dialog.actions if a.type == "bank_decline")
    entries = driver.entries()
    driver.click(dialog.buttons[dialog.actions.index(answer)])
    driver.confirm_settlement()  # the answer completes the round: its settlement is confirmed
    assert driver.entries() == entries + 1
    assert driver.session.entries[-1].body == answer.event()
    assert driver.screen.offer is None or driver.screen.offer.actions != dialog.actions


def test_camera_panel_deals_the_confirmed_card(driver):
    """The camera panel (Tools → Camera…) follows the seat asked for; a card the dealer
    confirms there is dealt to it."""
    if not app_module.module_available(app_module.TOOLS["camera"][0]):
        pytest.skip("the camera panel is not in this build")
    window = driver.window
    window.show_session(demo_session("greek31"))
    window.tool_actions["camera"].trigger()
    panel = window.camera.widget()
    seat = driver.screen.selected.seat
    assert panel.seat_box.value() == seat
    panel.card_confirmed.emit(seat, "QS")
    assert driver.session.round_entries[-1].body == {"type": "deal", "seat": seat, "card": "QS"}
    assert driver.session.view().seats[seat - 1].cards == ("QS",)
