"""The settlement slip: a settled round with the log head after it (a QR to photograph).

Opened without blocking the table after the dealer confirms a settlement, and without taking
the keyboard: the dealer's next tap, key or typed character on the table puts it away
(``TableScreen.went_on``), so it costs no Close tap. On a small screen it covers the card
grid: a tap on the slip itself puts it away and does nothing else (it says so), so a tap meant
for a card under it is never taken for another. History shows it again (then it stays until
closed); the next slip replaces it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtWidgets import QLabel, QWidget

from dealer_assist.gui.head_widget import add_head, session_head
from dealer_assist.gui.settlement_dialog import SettlementDialog
from dealer_assist.session.engine import Session
from dealer_assist.variants.base import RoundResult


class TapAway(QObject):
    """Puts the slip away at a tap anywhere on it, while its ``tapAway`` property is set."""

    def __init__(self, slip: QWidget) -> None:
        super().__init__(slip)
        self.slip = slip
        for widget in (slip, *slip.findChildren(QWidget)):
            widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.MouseButtonPress and self.slip.property("tapAway"):
            self.slip.hide()
            return True  # the tap does nothing else
        return False


def open_slip(session: Session, result: RoundResult, parent: QWidget | None = None,
              role: str = "dealer", beside: QWidget | None = None) -> SettlementDialog:
    """The slip of ``result``; ``beside`` (the action panel) stays uncovered on its left,
    so the dealer's next tap lands on the table, not on the slip."""
    slip = SettlementDialog(result, session.names, confirm=False, parent=parent, role=role)
    slip.setObjectName("settlementSlip")
    slip.setWindowTitle(f"Slip: round {result.number}")
    slip.setModal(False)
    slip.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)  # the keys stay on the table
    add_head(slip, session_head(session))
    note = QLabel("Tap the slip or go on at the table to put it away; History shows it again.")
    note.setObjectName("slipNote")
    note.setWordWrap(True)
    slip.layout().insertWidget(0, note)
    slip.setProperty("tapAway", True)
    TapAway(slip)
    slip.resize(760, 560)  # the results table keeps its room above the head
    if beside is not None:
        area = beside.window().geometry()
        left = beside.mapToGlobal(QPoint(beside.width(), 0)).x() + 8
        slip.setGeometry(left, area.top() + 8, min(1100, area.right() - left - 8),
                         min(900, area.height() - 16))  # all the room there is
    slip.show()
    if parent is not None:  # where the platform activated it anyway, the table takes it back
        parent.window().activateWindow()
    return slip
