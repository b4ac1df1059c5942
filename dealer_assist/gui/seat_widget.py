"""One seat at the table: name, role marker, money, wagers, cards, the hand's value, status."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.gui.card_face import CardFace
from dealer_assist.variants.base import SeatView

WIDE = 220  # from this width on, the cards sit to the right of the seat's details
INFO_WIDTH = 200
OVERLAP = 0.42  # part of each card left showing when a long hand is fanned
CARD_RATIO = 0.71
COMPACT_CARD = 48  # the tallest a card is in a compact seat (its details get the width)


def _label(name: str, parent: QWidget) -> QLabel:
    label = QLabel(parent)
    label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setMinimumWidth(1)  # clip in a narrow seat rather than push the cards out
    return label


class SeatWidget(QFrame):
    """Shows a SeatView exactly as the game module gives it; a tap emits ``clicked(seat)``."""

    clicked = Signal(int)
    needs_room = Signal()  # its details need more height than the seat has

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("seat")
        self.seat_number = 0
        self.role_text = ""
        self._fit_pending = False
        self.wagers_text = ""
        self.money_suffix = ""
        self.money_amount = 0
        self.value_text = ""
        self.extra_text = ""
        self.compact = False  # smaller type, fewer lines: see set_compact
        self.max_card_height = 56
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.outer = QVBoxLayout(self)  # the details beside the cards; a compact seat's value
        self.outer.setContentsMargins(8, 4, 8, 4)  # below both, the whole width
        self.outer.setSpacing(2)
        self.box = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.box.setSpacing(6)
        self.outer.addLayout(self.box, 1)
        self.info = QWidget(self)
        column = QVBoxLayout(self.info)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        top = QHBoxLayout()
        top.setSpacing(4)
        self.name = _label("seatName", self.info)
        self.role = _label("seatRole", self.info)
        self.role.setAlignment(Qt.AlignmentFlag.AlignCenter)
        top.addWidget(self.name, 1)
        top.addWidget(self.role)
        column.addLayout(top)
        self.top = top
        self.status = _label("seatStatus", self.info)
        self.status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        top.addWidget(self.status)
        self.status_line = QHBoxLayout()  # the status, when the name leaves it no room beside
        self.status_line.addStretch(1)
        column.addLayout(self.status_line)
        self.money = _label("seatMoney", self.info)
        self.money.setWordWrap(True)  # a compact seat's money line carries its wagers
        column.addWidget(self.money)
        self.wagers = _label("seatWagers", self.info)
        self.wagers.setWordWrap(True)
        column.addWidget(self.wagers)
        self.value = _label("seatValue", self.info)
        self.value.setToolTip("the hand's value, as the game counts it")
        self.value.setWordWrap(True)  # "natural 9 (under 16); best 9" wraps, never cut
        column.addWidget(self.value)
        self.column = column
        self.extra = _label("seatExtra", self.info)
        self.extra.setWordWrap(True)
        column.addWidget(self.extra)
        column.addStretch(1)
        self.cards_box = QWidget(self)
        self.cards_box.setObjectName("seatCards")
        self.card_faces: list[CardFace] = []
        self.box.addWidget(self.info)
        self.box.addWidget(self.cards_box, 1)

    def show_seat(self, seat: SeatView, to_act: bool) -> None:
        self.seat_number = seat.seat
        self.name.setText(f"{seat.seat}  {seat.name}")
        role = seat.role or ("dealer" if seat.is_dealer else "")
        self.role_text = role.upper()
        self.role.setToolTip(role)
        self.role.setVisible(bool(role))
        wagers = [f"{label} {amount}" for label, amount in seat.wagers]
        self.wagers_text = " · ".join(wagers)
        self.money_amount = seat.money
        self.money.setToolTip(f"money {seat.money}")
        self.value_text = seat.value
        self.extra_text = seat.extra
        self._show_texts()
        self.status.setText(seat.status)
        self._show_cards(seat)
        self.fit_later()
        self.setProperty("toAct", to_act)
        self.setProperty("dealer", seat.is_dealer)
        self.setProperty("state", seat.status.split(" ")[0] if seat.status else "")
        self.status.setProperty("state", self.property("state"))
        for widget in (self, self.status):
            widget.style().unpolish(widget)
            widget.style().polish(widget)
        self.setAccessibleName(f"seat {seat.seat} {seat.name}, {seat.status}")

    def set_compact(self, compact: bool) -> None:
        """Compact where the felt is too short for the full layout: smaller type, the wagers
        and the extra line (31 Classic's position) run on after the money, the value's parts
        run on instead of a line each, smaller cards. Nothing is cut or left out."""
        if compact == self.compact:
            return
        self.compact = compact
        self.setProperty("compact", compact)
        self.outer.setContentsMargins(*((6, 2, 6, 2) if compact else (8, 4, 8, 4)))
        (self.column if compact else self.outer).removeWidget(self.value)
        if compact:
            self.outer.addWidget(self.value)
        else:
            self.column.insertWidget(self.column.indexOf(self.extra), self.value)
        for label in (self, *self.info.findChildren(QLabel)):
            label.style().unpolish(label)
            label.style().polish(label)
        self._show_texts()
        self.column.activate()  # the new type sizes are measured now, not an event later
        self._fit()

    def _show_texts(self) -> None:
        """The money, wagers, value and extra lines, in the layout in use."""
        wagers = self.wagers_text
        several = " · " in wagers
        if self.compact:
            self.money_suffix = "".join(f" · {part}" for part in (wagers, self.extra_text)
                                        if part)
        else:  # one wager sits on the money line; several get their own (wrapped) line
            self.money_suffix = f" · {wagers}" if wagers and not several else ""
        self.wagers.setText(wagers if several and not self.compact else "")
        self.wagers.setVisible(bool(self.wagers.text()))
        join = " · " if self.compact else "\n"  # else a line per part of the value
        self.value.setText(self.value_text.replace("; ", join))
        self.value.setVisible(bool(self.value_text))  # an empty line would take its height
        self.extra.setText("" if self.compact else self.extra_text)
        self.extra.setVisible(bool(self.extra.text()))
        self._compact_texts()

    def set_card_height(self, height: int) -> None:
        """The tallest a card may be; cards shrink to fit the seat's width."""
        self.max_card_height = height
        self._fit()

    def needed_height(self) -> int:
        """The height this seat needs to show all its details at its present width (wrapped
        lines included; a narrow seat stacks its cards below, at their least)."""
        layout = self.info.layout()
        width = self.info.width()
        text = (layout.totalHeightForWidth(width) if layout.hasHeightForWidth()
                else layout.totalSizeHint().height())
        margins = self.outer.contentsMargins()
        frame = self.height() - self.contentsRect().height()
        if self.box.direction() == QBoxLayout.Direction.TopToBottom:  # cards below, empty or not
            text += 24 + self.box.spacing()
        elif self.card_faces:
            text = max(text, self.cards_box.height())
        if self.compact and self.value.isVisibleTo(self):
            whole = self.contentsRect().width() - margins.left() - margins.right()
            text += self.outer.spacing() + self.value.heightForWidth(whole)
        return text + margins.top() + margins.bottom() + frame

    def card_codes(self) -> list[str | None]:
        """The cards shown, for tests and accessibility."""
        return [w.code for w in self.card_faces]

    def _show_cards(self, seat: SeatView) -> None:
        for card in self.card_faces:
            card.hide()
            card.deleteLater()
        hidden = seat.hidden + (False,) * (len(seat.cards) - len(seat.hidden))
        self.card_faces = [CardFace(code, face_down, self.cards_box)
                           for code, face_down in zip(seat.cards, hidden, strict=False)]
        for card in self.card_faces:
            card.show()
        self._fit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()
        self.fit_later()

    def fit_later(self) -> None:
        """Fit again once the style (type sizes) has been applied to the new texts."""
        if not self._fit_pending:
            self._fit_pending = True
            QTimer.singleShot(0, self, self._fit_deferred)

    def _fit_deferred(self) -> None:
        self._fit_pending = False
        self._fit()
        if self.needed_height() > self.height():
            self.needs_room.emit()

    def _compact_texts(self) -> None:
        """In a narrow or compact seat the role badge shrinks to its initial and the money
        loses its word."""
        narrow = self.width() < 240 or self.compact
        self.role.setText(self.role_text[:1] if narrow else self.role_text)
        word = "" if narrow else "money "
        self.money.setText(f"{word}{self.money_amount}{self.money_suffix}")

    def _fit(self) -> None:
        """Cards as tall as the seat allows; overlapped like a fan when the row is short."""
        self._compact_texts()
        wide = self.width() >= WIDE
        self.box.setDirection(QBoxLayout.Direction.LeftToRight if wide
                              else QBoxLayout.Direction.TopToBottom)
        margins = self.outer.contentsMargins()
        frame = self.contentsRect()  # inside the frame's border
        inner_w = frame.width() - margins.left() - margins.right() - 2
        inner_h = frame.height() - margins.top() - margins.bottom()
        if self.compact and self.value.isVisibleTo(self):  # the value's lines below
            inner_h -= self.outer.spacing() + self.value.heightForWidth(inner_w + 2)
        count = len(self.card_faces)
        if wide:
            height = min(self.max_card_height + 40, inner_h)
            if self.compact:  # small cards, fanned: the details take the width they leave
                height = min(height, COMPACT_CARD)
                info = int(inner_w * 0.7)
            else:
                needed = (height * CARD_RATIO + 3) * max(count, 2)  # side by side, if it fits
                content = max(self.info.sizeHint().width(), self._top_line_width(),
                              self._value_width())  # the cards fan closer first
                info = int(min(inner_w * 0.7, max(INFO_WIDTH, content,
                                                  inner_w - needed - self.box.spacing())))
            self.info.setFixedWidth(info)
            self._place_status(info)
            room = inner_w - info - self.box.spacing()
        else:
            self.info.setMinimumWidth(0)
            self.info.setMaximumWidth(16777215)
            self._place_status(inner_w)
            room = inner_w
            column = self.column.totalHeightForWidth(inner_w + 2)  # its wrapped lines too
            height = min(self.max_card_height, inner_h - column - self.box.spacing())
        if count:
            shown = 1 + OVERLAP * (count - 1)  # card widths needed when overlapped
            height = min(height, int(room / shown / CARD_RATIO))
        height = max(24, height)
        width = round(height * CARD_RATIO)
        step = min(width + 3, (room - width) / (count - 1)) if count > 1 else 0
        for index, card in enumerate(self.card_faces):
            card.set_card_height(height)
            card.move(round(index * step), 0)
            card.raise_()
        self.cards_box.setFixedHeight(height)
        self.outer.activate()  # the details take their new size now, not an event later
        self.column.activate()

    def _value_width(self) -> int:
        """The width the value's longest line needs unwrapped."""
        metrics = self.value.fontMetrics()
        beside = self.value.isVisibleTo(self) and not self.compact  # else it is below
        lines = self.value.text().splitlines() if beside else []
        return max((metrics.horizontalAdvance(line) + 4 for line in lines), default=0)

    def _top_line_width(self) -> int:
        """The width the name needs with its badges beside it."""
        need = self.name.fontMetrics().horizontalAdvance(self.name.text()) + 4
        for badge in (self.role, self.status):
            if badge.isVisibleTo(self) and badge.text():
                need += badge.sizeHint().width() + self.top.spacing()
        return need

    def _place_status(self, width: int) -> None:
        """The status beside the name if both fit the width whole (the role badge shrinking
        to its initial first), else on a line below."""
        if self._top_line_width() > width and len(self.role.text()) > 1:
            self.role.setText(self.role_text[:1])
        below = self._top_line_width() > width
        line = self.status_line if below else self.top
        if line.indexOf(self.status) < 0:
            (self.top if below else self.status_line).removeWidget(self.status)
            line.insertWidget(0 if below else line.count(), self.status)

    def mouseReleaseEvent(self, event) -> None:
        if self.seat_number:
            self.clicked.emit(self.seat_number)
        super().mouseReleaseEvent(event)
