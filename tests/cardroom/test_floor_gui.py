"""Tools → Card room (the floor view) and the sync light, on a real server and real widgets."""

from __future__ import annotations

import socket
import threading
import time

import psycopg
from logs import LiveTable, make_log, tamper
from pgfixtures import db, office, pg, tablet  # noqa: F401 (fixtures used by name)
from PySide6.QtCore import Qt

from dealer_assist.cardroom import settings
from dealer_assist.cardroom.chain import read_log, session_id
from dealer_assist.cardroom.sync import sync_log
from dealer_assist.gui.app import MainWindow
from dealer_assist.gui.card_room import CardRoomWindow
from dealer_assist.session.engine import Session


def cells(table, row):
    return [table.item(row, c).text() for c in range(table.columnCount())]


def test_the_floor_view_lists_every_table_from_the_menu(qtbot, data_dir, db, office, tmp_path):
    assert sync_log(make_log(tmp_path / "t1.db", rounds=2), db, "T1").ok
    bad = make_log(tmp_path / "t2.db", rounds=2, seed=2)
    tamper(bad, 30)
    sync_log(bad, db, "T2")
    settings.save(settings.CardRoomSettings(floor_server=office))
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.tool_actions["cardroom"].trigger()
    floor = window.dialog
    assert isinstance(floor, CardRoomWindow)
    qtbot.waitUntil(lambda: floor.table.rowCount() == 2, timeout=10_000)
    first, second = cells(floor.table, 0), cells(floor.table, 1)
    assert first[:3] == ["T1", "Greek 31", "2 played"] and first[3] == "players bank"
    assert first[6].startswith("Intact")
    assert second[0] == "T2" and "Last sync REFUSED" in second[6]
    assert "1 need attention" in floor.status.text()
    floor.close()


def test_an_unreachable_floor_server_is_said_and_nothing_freezes(qtbot, data_dir, pg):
    floor = CardRoomWindow()
    qtbot.addWidget(floor)
    floor.floor_url.setText(pg.url(port=1))
    qtbot.mouseClick(floor.refresh_button, Qt.MouseButton.LeftButton)
    assert floor.status.text() == "Reading the server…"  # the click returned at once
    qtbot.waitUntil(lambda: "Cannot read the server" in floor.status.text(), timeout=10_000)


def test_tablet_settings_are_saved_from_the_window(qtbot, data_dir):
    floor = CardRoomWindow()
    qtbot.addWidget(floor)
    floor.sync_url.setText("postgresql://tablet_t3@host/cardroom")
    floor.sync_table.setText("T3")
    qtbot.mouseClick(floor.findChild(type(floor.refresh_button), "syncSave"),
                     Qt.MouseButton.LeftButton)
    assert settings.load().syncing and settings.load().table == "T3"


def open_table(qtbot, path):
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.show_session(Session.open(path))
    return window


def test_the_light_syncs_the_open_table_in_the_background(qtbot, data_dir, db, tmp_path):
    path = LiveTable(tmp_path / "t1.db").play(2).close()
    settings.save(settings.CardRoomSettings(server=db, table="T1"))
    window = open_table(qtbot, path)
    light = window.sync_light
    assert light.state == "off"  # not ticked yet
    light.tick()
    qtbot.waitUntil(lambda: light.state == "synced", timeout=10_000)
    assert "on the server" in light.toolTip()
    window.session.submit({"type": "deal", "seat": 2, "card": "QS"})  # the table plays on
    light.tick()
    qtbot.waitUntil(lambda: light.state == "synced" and not light.worker.busy, timeout=10_000)
    rows, _ = read_log(path)
    with psycopg.connect(db) as conn:
        count = conn.execute("SELECT count(*) FROM events WHERE session_id = %s",
                             [session_id(rows)]).fetchone()[0]
    assert count == len(rows)
    window.close_table()


def silent_server():
    """A server that accepts a connection, says nothing for a second, then hangs up."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            time.sleep(1)
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    return listener


def test_an_unreachable_server_turns_the_light_amber_and_the_table_goes_on(qtbot, data_dir,
                                                                          tmp_path):
    path = LiveTable(tmp_path / "t1.db").play(1).close()
    listener = silent_server()
    port = listener.getsockname()[1]
    settings.save(settings.CardRoomSettings(server=f"postgresql://x@127.0.0.1:{port}/db",
                                            table="T1"))
    window = open_table(qtbot, path)
    window.sync_light.tick()
    # tick returned while the sync still waits for the server: the table is not blocked
    assert window.sync_light.worker.busy and window.sync_light.state == "syncing"
    window.session.submit({"type": "deal", "seat": 2, "card": "QS"})
    qtbot.waitUntil(lambda: window.sync_light.state == "offline", timeout=15_000)
    assert "The table goes on" in window.sync_light.toolTip()
    window.close_table()
    listener.close()
