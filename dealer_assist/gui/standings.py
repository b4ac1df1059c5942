"""End of session: the final standings, richest first, beside what each seat started with."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.variants.base import TableView


class StandingsDialog(QDialog):
    """The money of each seat as the game's view gives it, listed from most to least."""

    def __init__(self, view: TableView, start_money: tuple[int, ...], reason: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("standingsDialog")
        self.setWindowTitle("Final standings")
        layout = QVBoxLayout(self)
        heading = QLabel(f"{view.title}: session over after round {view.round_number}"
                         + (f" — {reason}" if reason else ""), self)
        heading.setObjectName("dialogHeading")
        heading.setWordWrap(True)
        layout.addWidget(heading)
        self.table = QTableWidget(len(view.seats), 4, self)
        self.table.setObjectName("standingsTable")
        self.table.setHorizontalHeaderLabels(("Place", "Player", "Money", "Started with"))
        ranked = sorted(view.seats, key=lambda s: -s.money)
        for row, seat in enumerate(ranked):
            start = start_money[seat.seat - 1] if seat.seat - 1 < len(start_money) else None
            started = "" if start is None else str(start)
            for col, text in enumerate((str(row + 1), seat.name, str(seat.money), started)):
                item = QTableWidgetItem(text)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                self.table.setItem(row, col, item)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.button(QDialogButtonBox.StandardButton.Close).setMinimumSize(140, 52)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(560, 420)

    def names_in_order(self) -> list[str]:
        return [self.table.item(r, 1).text() for r in range(self.table.rowCount())]
