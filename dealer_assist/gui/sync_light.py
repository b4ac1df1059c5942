"""The background sync of the open table's log to the card room's server, and its status light.

When the card-room settings name a server and this tablet's table, the open session's log is
synced every few seconds in a background thread: the table never waits for the network. The
light in the status bar says how it went: grey off, green on the server, amber syncing or
server unreachable (the table goes on; sync catches up), red refused (an altered log or a
server copy that disagrees: call the floor).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QMainWindow

from dealer_assist.cardroom import settings as card_room_settings
from dealer_assist.gui.background import Background

COLOURS = {"off": "#9e9e9e", "syncing": "#f0a400", "offline": "#f0a400", "synced": "#2e9d47",
           "refused": "#d32f2f"}


def _sync(path: Path, server: str, table: str) -> Any:
    from dealer_assist.cardroom.sync import sync_log  # psycopg only once a server is set

    return sync_log(path, server, table, retries=1)


class SyncLight(QLabel):
    """A coloured dot and a word; its tooltip has the last sync's full sentence."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.setObjectName("syncLight")
        self.window_ = window
        self.worker = Background(self)
        self.worker.done.connect(self._finished)
        self.state = ""
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.tick)
        self.show_state("off", "Card-room sync is off (Tools → Card room to set a server)")
        self.timer.start(card_room_settings.load().interval * 1000)

    def log_path(self) -> Path | None:
        session = getattr(self.window_, "session", None)
        log = getattr(session, "log", None)
        return Path(log.path) if log is not None else None

    def tick(self) -> None:
        """Start a sync if one is due and none is running (never waits)."""
        prefs = card_room_settings.load()
        path = self.log_path()
        if not prefs.syncing:
            self.show_state("off", "Card-room sync is off (Tools → Card room to set a server)")
            return
        if path is None:
            self.show_state("off", "No session open: nothing to sync")
            return
        started = self.worker.run(lambda: _sync(path, prefs.server, prefs.table))
        if started and self.state != "refused":  # a red light stays red until a sync is ok
            self.show_state("syncing", f"Syncing table {prefs.table}…")

    def _finished(self, result: Any) -> None:
        if isinstance(result, Exception):
            reason = str(result).strip().splitlines()[0] if str(result).strip() else \
                type(result).__name__
            self.show_state("offline", f"Server not reached ({reason}). The table goes on; "
                                       "the log will be sent when it is back.")
        elif result.ok:
            self.show_state("synced", result.sentence())
        else:
            self.show_state("refused", result.sentence() + " Call the floor.")

    def show_state(self, state: str, text: str) -> None:
        self.state = state
        words = {"off": "sync off", "syncing": "syncing", "offline": "offline",
                 "synced": "synced", "refused": "REFUSED"}
        self.setText(f"<span style='color:{COLOURS[state]}'>●</span> {words[state]}")
        self.setToolTip(text)
        self.setStatusTip(text)


def install(window: QMainWindow) -> SyncLight:
    """Put the light in the window's status bar; it syncs whatever session the window holds."""
    light = SyncLight(window)
    window.statusBar().addPermanentWidget(light)
    return light
