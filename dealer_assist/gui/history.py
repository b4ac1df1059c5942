"""The rounds so far, each with its settlement, newest last."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.gui.settlement_dialog import fit_to_window, next_dealer_text, transfer_cell
from dealer_assist.variants.base import RoundResult


class HistoryDialog(QDialog):
    """A tree: one item per round (dealer, next dealer), its seat results as children;
    ``slip``, the last round's slip, gets a button that shows it again."""

    def __init__(self, rounds: list[RoundResult], names: tuple[str, ...],
                 parent: QWidget | None = None, role: str = "dealer",
                 slip: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("historyDialog")
        self.setWindowTitle("Rounds so far")
        layout = QVBoxLayout(self)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("historyTree")
        self.tree.setHeaderLabels(("Round / seat", "Result", "Detail", "Pay / collect", "Money"))
        for result in rounds:
            dealer = names[result.dealer - 1] if result.dealer else "—"
            item = QTreeWidgetItem(
                (f"Round {result.number}", f"{role} {dealer}", "; ".join(result.notes),
                 next_dealer_text(result, names, role), ""))
            for seat_result in result.results:
                money = (str(result.bankrolls[seat_result.seat - 1])
                         if seat_result.seat - 1 < len(result.bankrolls) else "")
                QTreeWidgetItem(item, (
                    f"{seat_result.seat} {names[seat_result.seat - 1]}", seat_result.outcome,
                    seat_result.detail, transfer_cell(seat_result, result), money))
            self.tree.addTopLevelItem(item)
            item.setExpanded(True)
        if not rounds:
            self.tree.addTopLevelItem(QTreeWidgetItem(("No round settled yet",)))
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.tree.setSelectionMode(QTreeWidget.SelectionMode.NoSelection)
        self.tree.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        layout.addWidget(self.tree)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Close).setMinimumSize(140, 52)
        self.slip_button = None
        if slip is not None:
            self.slip_button = buttons.addButton(f"{slip.windowTitle()}…",
                                                 QDialogButtonBox.ButtonRole.ActionRole)
            self.slip_button.setObjectName("slipButton")
            self.slip_button.setMinimumSize(160, 52)
            self.slip_button.clicked.connect(lambda: self._show_slip(slip))
        layout.addWidget(buttons)
        self.tree.setWordWrap(True)
        fit_to_window(self, parent, 900, 560)

    def _show_slip(self, slip: QWidget) -> None:
        """The slip again, kept until it is closed (a tap on it no longer puts it away)."""
        self.accept()
        slip.setProperty("tapAway", False)
        slip.show()
        slip.raise_()

    def round_count(self) -> int:
        return sum(1 for i in range(self.tree.topLevelItemCount())
                   if self.tree.topLevelItem(i).childCount())
