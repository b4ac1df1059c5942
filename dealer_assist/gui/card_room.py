"""Tools → Card room: the floor view of every table on the card room's server, and this
tablet's sync settings. Everything shown comes from ``reports.floor`` (the same reconciliation
as the reports); the server is read in the background, so the window never freezes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.cardroom import settings as card_room_settings
from dealer_assist.gui.background import Background

COLUMNS = ("Table", "Game", "Round", "House", "Chip counts", "Last sync", "Integrity")
REFRESH_MS = 30_000


SHIFT = timedelta(hours=24)  # the floor shows sessions active this long ago or since


def _read_floor(floor: Any) -> Any:
    """A refresh of ``floor`` (a ``reports.floor.Floor``), in the background thread."""
    since = (datetime.now(UTC) - SHIFT).isoformat(timespec="milliseconds")
    return floor.rows(since=since)


class CardRoomWindow(QDialog):
    """The floor view (refreshed every 30 s while open) and this tablet's settings."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("cardRoomWindow")
        self.setWindowTitle("Card room")
        prefs = card_room_settings.load()
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(QLabel("Back-office server:", self))
        self.floor_url = QLineEdit(prefs.floor_server or prefs.server, self)
        self.floor_url.setObjectName("floorServer")
        self.floor_url.setPlaceholderText("postgresql://office@host/cardroom")
        top.addWidget(self.floor_url, 1)
        self.refresh_button = QPushButton("Refresh", self)
        self.refresh_button.setObjectName("floorRefresh")
        self.refresh_button.clicked.connect(self.refresh)
        top.addWidget(self.refresh_button)
        layout.addLayout(top)
        self.status = QLabel("", self)
        self.status.setObjectName("floorStatus")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("floorTable")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)
        layout.addWidget(self._tablet_box(prefs))
        self.floor: Any = None
        self.worker = Background(self)
        self.worker.done.connect(self._show)
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.refresh)
        self.timer.start(REFRESH_MS)
        self.resize(1000, 560)
        if self.floor_url.text().strip():
            self.refresh()
        else:
            self.status.setText("Enter the back office's server to see every table.")

    def _tablet_box(self, prefs: card_room_settings.CardRoomSettings) -> QGroupBox:
        box = QGroupBox("This tablet (background sync of the open table's log)", self)
        form = QFormLayout(box)
        self.sync_url = QLineEdit(prefs.server, box)
        self.sync_url.setObjectName("syncServer")
        self.sync_url.setPlaceholderText("postgresql://tablet_t1@host/cardroom (empty: no sync)")
        self.sync_table = QLineEdit(prefs.table, box)
        self.sync_table.setObjectName("syncTable")
        self.sync_table.setPlaceholderText("T1")
        save = QPushButton("Save", box)
        save.setObjectName("syncSave")
        save.clicked.connect(self.save_settings)
        form.addRow("Server", self.sync_url)
        form.addRow("Table", self.sync_table)
        form.addRow("", save)
        return box

    def save_settings(self) -> None:
        prefs = card_room_settings.load()
        card_room_settings.save(card_room_settings.CardRoomSettings(
            server=self.sync_url.text().strip(), table=self.sync_table.text().strip(),
            floor_server=self.floor_url.text().strip(), interval=prefs.interval))
        self.status.setText("Saved. The table's log is synced in the background when a server "
                            "and a table are set.")

    def refresh(self) -> None:
        url = self.floor_url.text().strip()
        if not url:
            return
        if self.floor is None or self.floor.url != url:
            from dealer_assist.reports.floor import Floor  # psycopg only when asked

            self.floor = Floor(url)  # remembers each session until its server copy grows
        floor = self.floor
        if self.worker.run(lambda: _read_floor(floor)):
            self.status.setText("Reading the server…")

    def _show(self, result: Any) -> None:
        if isinstance(result, Exception):
            reason = str(result).strip().splitlines()[0] if str(result).strip() else \
                type(result).__name__
            self.status.setText(f"Cannot read the server: {reason}. Check the address and the "
                                "network; the tables keep their own logs meanwhile.")
            return
        self.table.setRowCount(len(result))
        for row, r in enumerate(result):
            chips = "match" if not r.discrepancies else f"{r.discrepancies} differ"
            house = f"{r.house:+d}" if r.house_banked else "players bank"
            values = (r.table, r.game, r.current_round, house, chips,
                      r.last_sync.strftime("%H:%M:%S"), r.integrity)
            for col, text in enumerate(values):
                item = QTableWidgetItem(text)
                if col == len(values) - 1:
                    item.setForeground(QColor("#2e9d47" if r.ok else "#d32f2f"))
                    item.setToolTip(text)  # the whole sentence, however narrow the column
                if col in (2, 3):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(row, col, item)
        bad = sum(not r.ok for r in result)
        self.status.setText(f"{len(result)} session(s) active in the last 24 hours"
                            + (f"; {bad} need attention." if bad else "; all intact."))


def open_card_room(parent: QWidget | None) -> CardRoomWindow:
    window = CardRoomWindow(parent)
    window.show()
    return window
