"""One seat at the table: name, role marker, money, wagers, cards, the hand's value, status."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from dealer_assist.gui.card_face import CardFace
from dealer_assist.variants.base import SeatView


def _label(name: str, parent: QWidget) -> QLabel:
    label = QLabel(parent)
    label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


class SeatWidget(QFrame):
    """Shows a SeatView exactly as the game module gives it; a tap emits ``clicked(seat)``."""

    clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("seat")
        self.seat_number = 0
        self.card_height = 56
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.setSpacing(3)
        top = QHBoxLayout()
        top.setSpacing(4)
        self.name = _label("seatName", self)
        self.role = _label("seatRole", self)
        self.role.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.status = _label("seatStatus", self)
        self.status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        top.addWidget(self.name, 1)
        top.addWidget(self.role)
        top.addWidget(self.status)
        layout.addLayout(top)
        self.cards_row = QHBoxLayout()
        self.cards_row.setSpacing(3)
        self.cards_box = QWidget(self)
        self.cards_box.setLayout(self.cards_row)
        self.cards_row.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.cards_box)
        bottom = QHBoxLayout()
        self.money = _label("seatMoney", self)
        self.value = _label("seatValue", self)
        self.value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        bottom.addWidget(self.money, 1)
        bottom.addWidget(self.value)
        layout.addLayout(bottom)
        self.extra = _label("seatExtra", self)
        self.extra.setWordWrap(True)
        layout.addWidget(self.extra)

    def show_seat(self, seat: SeatView, to_act: bool) -> None:
        self.seat_number = seat.seat
        self.name.setText(f"{seat.seat}  {seat.name}")
        self.role.setText(seat.role.upper() if seat.role else ("DEALER" if seat.is_dealer else ""))
        self.role.setVisible(bool(self.role.text()))
        wagers = "".join(f" · {label} {amount}" for label, amount in seat.wagers)
        self.money.setText(f"money {seat.money}{wagers}")
        self.value.setText(seat.value)
        self.value.setToolTip("the hand's value")
        self.status.setText(seat.status)
        self.extra.setText(seat.extra)
        self.extra.setVisible(bool(seat.extra))
        self._show_cards(seat)
        self.setProperty("toAct", to_act)
        self.setProperty("dealer", seat.is_dealer)
        self.setProperty("state", seat.status.split(" ")[0] if seat.status else "")
        self.status.setProperty("state", self.property("state"))
        for widget in (self, self.status):
            widget.style().unpolish(widget)
            widget.style().polish(widget)
        self.setAccessibleName(f"seat {seat.seat} {seat.name}, {seat.status}")

    def set_card_height(self, height: int) -> None:
        self.card_height = height
        for index in range(self.cards_row.count()):
            widget = self.cards_row.itemAt(index).widget()
            if isinstance(widget, CardFace):
                widget.set_card_height(height)
        self.cards_box.setFixedHeight(height)

    def card_codes(self) -> list[str | None]:
        """The cards shown, for tests and accessibility."""
        return [w.code for w in self.findChildren(CardFace)]

    def _show_cards(self, seat: SeatView) -> None:
        while self.cards_row.count():
            item = self.cards_row.takeAt(0)
            widget = item.widget()
            if widget is not None:
                widget.setParent(None)
                widget.deleteLater()
        hidden = seat.hidden + (False,) * (len(seat.cards) - len(seat.hidden))
        for code, face_down in zip(seat.cards, hidden, strict=False):
            card = CardFace(code, face_down, self.cards_box)
            card.set_card_height(self.card_height)
            self.cards_row.addWidget(card)
            card.show()
        self.cards_row.addStretch(1)
        self.cards_box.setFixedHeight(self.card_height)

    def mouseReleaseEvent(self, event) -> None:
        if self.seat_number:
            self.clicked.emit(self.seat_number)
        super().mouseReleaseEvent(event)
