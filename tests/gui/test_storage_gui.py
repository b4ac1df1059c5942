"""Storage faults reach the dealer as a dialog saying what happened and what to do; the
settlement slip and the history show the log head with its QR code."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest
from gui_driver import Driver, demo_session, driver_fixture, window_fixture  # noqa: F401

from dealer_assist.gui.storage_dialog import StorageDialog
from dealer_assist.session.log import verify

HOLD = """
import sys, time
from dealer_assist.session.engine import Session
session = Session.open(sys.argv[1])
print("open", flush=True)
time.sleep(60)
"""


def test_a_session_open_in_another_instance_is_refused_with_a_dialog(window, data_dir):
    session = demo_session("greek31")
    path = session.log.path
    session.close()
    other = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE,
                             text=True)
    try:
        assert other.stdout.readline().strip() == "open"
        before = path.read_bytes()
        assert not window.open_path(path)
        dialog = window.dialog
        assert isinstance(dialog, StorageDialog) and dialog.isVisible()
        assert dialog.windowTitle() == "The session is open in another window"
        assert f"process {other.pid}" in dialog.text()
        assert "Only one window can run a table" in dialog.informativeText()
        assert window.session is None and path.read_bytes() == before
    finally:
        other.kill()
        other.wait()
    assert window.open_path(path)  # the other one is gone: it opens


def test_a_foreign_sqlite_file_gets_a_dialog_and_is_not_changed(window, tmp_path, qtbot):
    (tmp_path / "other").mkdir()
    path = tmp_path / "other" / "recipes.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE recipes (name TEXT)")
    con.commit()
    con.close()
    before = path.read_bytes()
    assert not window.open_path(path)
    assert window.dialog.windowTitle() == "Not a session log of this app"
    assert "another program" in window.dialog.text()
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir()] == ["recipes.db"]  # no -wal, no -shm
    Driver(qtbot, window).click(window.dialog.ok_button)
    assert not window.dialog.isVisible()


class FullDisk:
    """The session's SQLite connection, failing every write the way SQLite does on a full
    disk (the storage boundary's own exception), until ``free()``."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con, self.full = con, True

    def execute(self, sql, *args):
        if self.full and sql.startswith("BEGIN"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.con.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.con, name)


def test_full_disk_during_play_shows_a_dialog_and_the_table_stays_usable(driver, window):
    window.show_session(demo_session("greek31"))
    driver.step(0)
    session = window.session
    entries, state = len(session.entries), session.state
    session.log.con = FullDisk(session.log.con)
    driver.click(driver.action_button(0))
    action = driver.screen.actions[0]
    if action.asks == "card":
        driver.click(driver.usable_cards()[0])
    elif action.asks == "amount":
        driver.type_amount(action.minimum or 1)
    dialog = driver.screen.dialog
    assert isinstance(dialog, StorageDialog) and dialog.isVisible()
    assert dialog.windowTitle() == "The disk is full"
    assert "Free some space, then enter it again" in dialog.informativeText()
    assert "Not recorded" in driver.screen.bar.message_text()
    assert len(session.entries) == entries and session.state == state
    session.log.con.full = False  # space freed: the same entry goes in
    driver.step(0)
    assert len(session.entries) == entries + 1
    path = session.log.path
    window.close_table()
    assert verify(path).ok


def test_slip_and_history_show_the_log_head_with_a_qr(driver, window):
    window.show_session(demo_session("greek31"))
    driver.play_round()
    slip = window.slip
    head = window.session.log.head
    assert slip.isVisible() and slip.objectName() == "settlementSlip"
    assert f"Log head {head}" in slip.head.label.text()
    assert not slip.head.qr.pixmap().isNull() and slip.head.qr.pixmap().width() > 50
    window.table.open_history()
    history = window.table.dialog
    assert f"Log head {head}" in history.head.label.text()
    assert not history.head.qr.pixmap().isNull()
    window.close_table()
    assert not slip.isVisible()


@pytest.mark.parametrize("kind, title", [("newer", "Made by a newer version"),
                                         ("text", "Not a session log")])
def test_newer_or_not_sqlite_files_get_their_dialog(window, tmp_path, kind, title):
    if kind == "newer":
        session = demo_session("greek31")
        path = session.log.path
        session.close()
        con = sqlite3.connect(path)
        con.execute("PRAGMA user_version = 3")
        con.commit()
        con.close()
    else:
        path = tmp_path / "notes.db"
        path.write_text("not a database")
    assert not window.open_path(path)
    assert window.dialog.windowTitle() == title
