"""The table: seats around an oval felt, with the game, the round and the pot inside."""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from dealer_assist.gui.seat_widget import SeatWidget
from dealer_assist.variants.base import TableView

LEAST_HEIGHT = 180


class TableWidget(QWidget):
    """Lays out one SeatWidget per seat around an oval; seat 1 bottom left, then clockwise."""

    seat_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("table")
        self.seats: list[SeatWidget] = []
        self.centre = QWidget(self)
        self.centre.setObjectName("tableCentre")
        box = QVBoxLayout(self.centre)
        box.setContentsMargins(4, 4, 4, 4)
        box.setSpacing(2)
        self.title = self._centre_label("tableTitle", box)
        self.pot = self._centre_label("tablePot", box)
        self.setMinimumSize(480, LEAST_HEIGHT)
        self.need = 0  # the height the seats' details need (the table grows and scrolls)
        self.compact_at: tuple[int, int, int] | None = None  # (width, height, seats)

    def _centre_label(self, name: str, box: QVBoxLayout) -> QLabel:
        label = QLabel(self.centre)
        label.setObjectName(name)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        box.addWidget(label)
        return label

    def show_view(self, view: TableView) -> None:
        while len(self.seats) < len(view.seats):
            seat = SeatWidget(self)
            seat.clicked.connect(self.seat_clicked)
            seat.needs_room.connect(self._place)
            seat.show()
            self.seats.append(seat)
        while len(self.seats) > len(view.seats):
            self.seats.pop().deleteLater()
        for widget, seat in zip(self.seats, view.seats, strict=True):
            widget.show_seat(seat, seat.seat == view.to_act)
        self.title.setText(f"{view.title} — round {view.round_number}")
        self.pot.setText("" if view.pot is None else f"Pot {view.pot}")
        self.pot.setVisible(view.pot is not None)
        self.centre.setToolTip("\n".join(view.info))
        self._place()

    def relayout(self) -> None:
        self._place()
        for seat in self.seats:
            seat.set_card_height(seat.max_card_height)

    def mark_acting_for(self, seat: int | None) -> None:
        """Frame the seat the panel's buttons act for (one seat at a time, chosen here)."""
        for widget in self.seats:
            mark = widget.seat_number == seat
            if bool(widget.property("actingFor")) != mark:
                widget.setProperty("actingFor", mark)
                widget.style().unpolish(widget)
                widget.style().polish(widget)

    def seat_widget(self, seat: int) -> SeatWidget:
        return self.seats[seat - 1]

    # ------------------------------------------------------------ layout

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._place()

    @staticmethod
    def arrangement(n: int) -> tuple[list[int], list[int], list[int]]:
        """Seat indexes of the bottom row and top row (left to right) and the ends (left,
        right): seat 1 bottom left, then clockwise: up the left, along the top, down the right."""
        ends = 0  # rows only: ends cost more width than they save (kept for layout hints)
        rows = n - ends
        top_count = (rows + 1) // 2
        order = list(range(n))
        first, rest = order[0], order[1:]
        left = rest[:ends // 2]
        rest = rest[ends // 2:]
        top, rest = rest[:top_count], rest[top_count:]
        right = rest[:ends // 2]
        bottom = [first, *reversed(rest[ends // 2:])]
        return bottom, top, left + right

    def _place(self) -> None:
        n = len(self.seats)
        if not n:
            return
        bottom, top, ends = self.arrangement(n)
        gap = 8
        centre_h = self.centre.sizeHint().height()
        extra = 18 if any(s.extra.text() for s in self.seats) else 0
        levels = 3 if ends else 2
        spare = (self.height() - centre_h - gap * 2) if not ends else self.height() - gap * 2
        height = max(88 + extra, min(132 + 80 + extra, spare // levels))
        height = max(height, self.need)  # no detail of a seat cut off
        if not ends:  # the two rows never overlap (one seat would hide the other's name)
            height = min(height, (self.height() - gap) // 2)
        card = min(132, height - 62 - extra - (16 if height > 170 else 0))
        end_w = min(300, self.width() // 5) if ends else 0
        span = self.width() - (2 * (end_w + gap) if ends else 0)
        per_row = max(len(top), len(bottom), 1)
        width = min(560, (span - gap * (per_row + 1)) // per_row)
        left0 = end_w + gap if ends else 0
        places = [(index, QRect(round(left0 + span / len(row) * (k + 0.5) - width / 2), y,
                                width, height))
                  for row, y in ((top, 0), (bottom, self.height() - height))
                  for k, index in enumerate(row)]
        places += [(index, QRect(0 if k == 0 else self.width() - end_w,
                                 (self.height() - height) // 2, end_w, height))
                   for k, index in enumerate(ends)]
        size = (self.width(), self.height(), n)
        # compact seats only where the full ones do not fit; then they stay compact at this
        # size (the seats do not change style from one tap to the next)
        for compact in (True,) if self.compact_at == size else (False, True):
            for seat in self.seats:
                seat.set_compact(compact)
            for index, rect in places:
                self._put(index, rect, card)
            need = max(seat.needed_height() for seat in self.seats)
            if need <= height:
                break
        self.compact_at = size if compact else None
        room = self.height() - 2 * height  # between the top and bottom rows
        self.title.setVisible(room >= self.title.sizeHint().height() + (
            self.pot.sizeHint().height() if self.pot.text() else 0))
        centre_h = self.centre.sizeHint().height()
        self.centre.setVisible(room >= centre_h)  # never half under a seat; the prompt
        inner_w = min(560, max(220, span - 2 * gap)) if not ends else max(200, span - 2 * gap)
        self.centre.setGeometry(QRect(round(self.width() / 2 - inner_w / 2),
                                      round(self.height() / 2 - centre_h / 2),
                                      inner_w, centre_h))
        self.centre.lower()  # bar shows the pot too
        self._grow_to(need)

    def _grow_to(self, need: int) -> None:
        """Taller than the room where a seat's details need it (the seats then scroll)."""
        if need != self.need:
            self.need = need
            self.setMinimumHeight(max(LEAST_HEIGHT, 2 * need + 8))

    def _put(self, index: int, rect: QRect, card: int) -> None:
        seat = self.seats[index]
        seat.set_card_height(card)
        seat.setGeometry(rect)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        felt = QColor(self.property("felt") or "#1f6b45")
        rim = QColor(self.property("rim") or "#5a3b1e")
        margin_x = min(60, self.width() * 0.05)
        margin_y = min(50, self.height() * 0.12)
        rect = QRectF(self.rect()).adjusted(margin_x, margin_y, -margin_x, -margin_y)
        painter.setPen(QPen(rim, 10))
        painter.setBrush(felt)
        painter.drawRoundedRect(rect, rect.height() / 2, rect.height() / 2)
