"""The settlement slip: a settled round with the log head after it (a QR to photograph).

Opened without blocking the table after the dealer confirms a settlement, and without taking
the keyboard: the dealer's next tap, key or typed character on the table puts it away
(``TableScreen.went_on``), so it costs no Close tap. History shows it again; the next slip
replaces it.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QWidget

from dealer_assist.gui.head_widget import add_head, session_head
from dealer_assist.gui.settlement_dialog import SettlementDialog
from dealer_assist.session.engine import Session
from dealer_assist.variants.base import RoundResult


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
