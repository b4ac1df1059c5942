"""The settlement of a round, for the dealer to confirm: each seat's result and what to pay."""

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

from dealer_assist.variants.base import RoundResult

BANK_OUTCOMES = ("dealer", "banker", "bank", "house")
COLUMNS = ("Seat", "Result", "Detail", "Pay / collect", "Money after")


def transfer_text(amount: int) -> str:
    """How the dealer moves a seat's result: a win is paid out, a loss collected."""
    if amount > 0:
        return f"pay {amount}"
    if amount < 0:
        return f"collect {-amount}"
    return "—"


def transfer_cell(seat_result, result: RoundResult) -> str:
    """The dealer's move for one line: pay or collect; the bank's own line is its net."""
    if seat_result.outcome in BANK_OUTCOMES:
        return f"{seat_result.amount:+d} net"
    return transfer_text(seat_result.amount)


def next_dealer_text(result: RoundResult, names: tuple[str, ...], role: str = "dealer",
                     finished: bool = False) -> str:
    """Who deals (or banks: ``role``) next, as the game named them ("" where nobody
    rotates, as when the house banks)."""
    if result.next_dealer is None:
        return f"The game is over: there is no next {role}." if finished else ""
    return f"Next {role}: {names[result.next_dealer - 1]} (seat {result.next_dealer})"


def fill_results(table: QTableWidget, result: RoundResult, names: tuple[str, ...]) -> None:
    """One row per seat result, in the game's settlement order."""
    table.setColumnCount(len(COLUMNS))
    table.setHorizontalHeaderLabels(COLUMNS)
    table.setRowCount(len(result.results) + (1 if result.house else 0))
    for row, seat_result in enumerate(result.results):
        money = (result.bankrolls[seat_result.seat - 1]
                 if seat_result.seat - 1 < len(result.bankrolls) else "")
        transfer = transfer_cell(seat_result, result)
        cells = (f"{seat_result.seat} {names[seat_result.seat - 1]}", seat_result.outcome,
                 seat_result.detail, transfer, str(money))
        for col, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            table.setItem(row, col, item)
    if result.house:
        cells = ("House", "house", "", f"{result.house:+d} net", "")
        for col, text in enumerate(cells):
            table.setItem(len(result.results), col, QTableWidgetItem(text))
    table.verticalHeader().setVisible(False)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
    table.setWordWrap(True)  # a long detail wraps inside its row instead of being cut off
    table.setTextElideMode(Qt.TextElideMode.ElideNone)
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)


def fit_to_window(dialog: QDialog, parent: QWidget | None, width: int, height: int) -> None:
    """As big as asked, but never bigger than the window it belongs to."""
    window = parent.window() if parent is not None else None
    if window is not None and window.width() > 0:
        width = min(width, window.width() - 20)
        height = min(height, window.height() - 20)
    dialog.resize(width, height)


class SettlementDialog(QDialog):
    """Shows a RoundResult computed by the game; Confirm records it, Back leaves the round open."""

    def __init__(self, result: RoundResult, names: tuple[str, ...], confirm: bool = True,
                 parent: QWidget | None = None, role: str = "dealer") -> None:
        super().__init__(parent)
        self.setObjectName("settlementDialog")
        self.setWindowTitle(f"Settlement of round {result.number}")
        layout = QVBoxLayout(self)
        dealer = f" — {role} {names[result.dealer - 1]}" if result.dealer else ""
        heading = QLabel(f"Round {result.number}{dealer}", self)
        heading.setObjectName("dialogHeading")
        layout.addWidget(heading)
        self.table = QTableWidget(self)
        self.table.setObjectName("settlementTable")
        fill_results(self.table, result, names)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        layout.addWidget(self.table, 1)
        for note in result.notes:
            label = QLabel(note, self)
            label.setWordWrap(True)
            layout.addWidget(label)
        self.next_label = QLabel(next_dealer_text(result, names, role), self)
        self.next_label.setObjectName("nextDealer")
        layout.addWidget(self.next_label)
        buttons = QDialogButtonBox(self)
        if confirm:
            self.confirm_button = buttons.addButton("Confirm settlement",
                                                    QDialogButtonBox.ButtonRole.AcceptRole)
            self.back_button = buttons.addButton("Back", QDialogButtonBox.ButtonRole.RejectRole)
        else:
            self.confirm_button = buttons.addButton("Close", QDialogButtonBox.ButtonRole.AcceptRole)
            self.back_button = None
        self.confirm_button.setObjectName("confirmSettlement")
        self.confirm_button.setProperty("costly", confirm)
        self.confirm_button.style().unpolish(self.confirm_button)  # named after it was
        self.confirm_button.style().polish(self.confirm_button)  # polished: style it again
        for button in buttons.buttons():
            button.setMinimumSize(160, 52)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        fit_to_window(self, parent, 900, 560)
