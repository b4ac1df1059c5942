"""The start screen (ui/start.ui): new session, open a log, demo, reconcile, and resume."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from dealer_assist.gui.resources import load_form
from dealer_assist.session.store import SessionInfo, unfinished_sessions
from dealer_assist.variants import get_variant


def game_title(game: str) -> str:
    """The game's own title ("Greek 31"), not its module name."""
    try:
        return get_variant(game).TITLE
    except Exception:  # an unknown game in an old or foreign log: show what it says
        return game


def local_time(at: str) -> str:
    """A log's UTC time stamp as the table's local time, to the minute."""
    try:
        return datetime.fromisoformat(at).astimezone().strftime("%a %d %b %H:%M")
    except ValueError:
        return at


def started(info: SessionInfo) -> str:
    """When the session was started (from its file name), so the list keeps its order
    when a session is resumed and played on."""
    match = re.search(r"(\d{8}-\d{6})(?:-(\d+))?\.db$", info.path.name)
    if match is None:
        return ""
    return f"{match.group(1)}-{int(match.group(2) or 0):04d}"


class StartScreen(QWidget):
    """Lists the unfinished sessions of the data folder, newest started first, to resume."""

    new_requested = Signal()
    open_requested = Signal()
    demo_requested = Signal()
    reconcile_requested = Signal()
    resume_requested = Signal(Path)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("startScreenHost")
        self.form = load_form("start.ui", self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.form)
        self.sessions: QListWidget = self.form.findChild(QListWidget, "sessionList")
        self.sessions.itemDoubleClicked.connect(lambda _item: self._resume())
        self.sessions.currentRowChanged.connect(lambda _row: self._update())
        self.button("newButton").clicked.connect(self.new_requested)
        self.button("openButton").clicked.connect(self.open_requested)
        self.button("demoButton").clicked.connect(self.demo_requested)
        self.button("reconcileButton").clicked.connect(self.reconcile_requested)
        self.button("resumeButton").clicked.connect(self._resume)
        self.refresh()

    def button(self, name: str) -> QPushButton:
        return self.form.findChild(QPushButton, name)

    def refresh(self) -> None:
        """Re-read the data folder's unfinished sessions; the newest is selected."""
        self.sessions.clear()
        infos = sorted(unfinished_sessions(), key=lambda i: (started(i), i.path.name),
                       reverse=True)
        for info in infos:
            players = ", ".join(info.players)
            item = QListWidgetItem(f"{game_title(info.game)} — {players} — {info.events} "
                                   f"events, last {local_time(info.last_at)}")
            item.setToolTip(str(info.path))
            item.setData(Qt.ItemDataRole.UserRole, str(info.path))
            item.setSizeHint(QSize(400, 52))
            self.sessions.addItem(item)
        if self.sessions.count():
            self.sessions.setCurrentRow(0)
        else:
            self.sessions.addItem("No unfinished session: start a new one or the demo.")
            self.sessions.item(0).setFlags(Qt.ItemFlag.NoItemFlags)
        self._update()

    def _selected(self) -> Path | None:
        item = self.sessions.currentItem()
        data = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return Path(data) if data else None

    def _update(self) -> None:
        self.button("resumeButton").setEnabled(self._selected() is not None)

    def _resume(self) -> None:
        path = self._selected()
        if path is not None:
            self.resume_requested.emit(path)
