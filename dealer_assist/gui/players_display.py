"""The players' display: a second window for a TV or a second screen, in big type.

Each seat's cards as far as the table has seen them, its wagers and money, the last round's
results, and who deals or banks next. It is built from the game's ``TableView`` with every
face-down or hidden card replaced by a card back *before* anything is drawn, so a hidden card
never reaches this window; a hand with a hidden card shows no value.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from dealer_assist.gui.card_face import CardFace
from dealer_assist.gui.settlement_dialog import next_dealer_text
from dealer_assist.session.engine import Session
from dealer_assist.variants.base import SeatView

STYLE = """
#playersDisplay { background: #0f3d2a; }
#playersDisplay QLabel { color: #f7fafc; font-size: 28px; }
#playersDisplay #pdTitle { font-size: 34px; font-weight: 700; }
#playersDisplay #pdSeat { background: #14543a; border: 3px solid #2f7a55; border-radius: 14px; }
#playersDisplay #pdSeat[toAct="true"] { border-color: #fde68a; }
#playersDisplay #pdName { font-size: 34px; font-weight: 700; }
#playersDisplay #pdRole { color: #fde68a; font-size: 24px; font-weight: 700; }
#playersDisplay #pdResult { color: #fde68a; }
"""


def public_cards(seat: SeatView) -> tuple[str | None, ...]:
    """The seat's cards as the players may see them: a hidden card is just a back."""
    hidden = seat.hidden + (False,) * (len(seat.cards) - len(seat.hidden))
    return tuple(None if face_down else code
                 for code, face_down in zip(seat.cards, hidden, strict=False))


def public_value(seat: SeatView) -> str:
    """The hand's value only when every card of it is face up."""
    cards = public_cards(seat)
    return seat.value if cards and None not in cards else ""


class PlayersDisplay(QWidget):
    """Follows a session: call ``show_session`` after every change."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window | Qt.WindowType.WindowDoesNotAcceptFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)  # the dealer's keys
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # stay with the table screen
        self.setObjectName("playersDisplay")
        self.setWindowTitle("31 — players' display")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(STYLE)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        self.title = QLabel(self)
        self.title.setObjectName("pdTitle")
        self.title.setWordWrap(True)
        layout.addWidget(self.title)
        self.seats_box = QWidget(self)
        self.grid = QGridLayout(self.seats_box)
        self.grid.setSpacing(12)
        layout.addWidget(self.seats_box, 1)
        self.footer = QLabel(self)
        self.footer.setObjectName("pdResult")
        self.footer.setWordWrap(True)
        layout.addWidget(self.footer)
        self.cards: list[CardFace] = []  # every card drawn now (tests)
        self.card_height = 96

    def show_session(self, session: Session) -> None:
        view = session.view()
        for child in self.seats_box.findChildren(QFrame, "pdSeat"):
            self.grid.removeWidget(child)
            child.deleteLater()
        self.cards = []
        self.title.setText(f"{view.title} — round {view.round_number}"
                           + (f" — pot {view.pot}" if view.pot is not None else ""))
        columns = 3 if len(view.seats) > 4 else 2
        rows = (len(view.seats) + columns - 1) // columns
        self.card_height = max(96, self.height() // (rows * 3))
        last = session.rounds[-1] if session.rounds else None
        results = {r.seat: r for r in last.results} if last else {}
        for index, seat in enumerate(view.seats):
            frame = self._seat(seat, seat.seat == view.to_act, results.get(seat.seat))
            self.grid.addWidget(frame, index // columns, index % columns)
        lines = []
        if last is not None:
            lines.append(f"Round {last.number} settled.")
            nxt = next_dealer_text(last, session.names, _role(view),
                                   session.state.finished)
            if nxt:
                lines.append(nxt)
        self.footer.setText("  ".join(lines))

    def _seat(self, seat: SeatView, to_act: bool, result) -> QFrame:
        frame = QFrame(self.seats_box)
        frame.setObjectName("pdSeat")
        frame.setProperty("toAct", to_act)
        frame.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        box = QVBoxLayout(frame)
        top = QHBoxLayout()
        name = QLabel(f"{seat.seat}  {seat.name}", frame)
        name.setObjectName("pdName")
        top.addWidget(name, 1)
        if seat.role:
            role = QLabel(seat.role.upper(), frame)
            role.setObjectName("pdRole")
            top.addWidget(role)
        box.addLayout(top)
        wagers = " · ".join(f"{label} {amount}" for label, amount in seat.wagers)
        money = QLabel(f"{seat.money}" + (f"  ·  {wagers}" if wagers else ""), frame)
        money.setWordWrap(True)
        box.addWidget(money)
        row = QHBoxLayout()
        row.setSpacing(6)
        for code in public_cards(seat):
            card = CardFace(code, code is None, frame)
            card.set_card_height(self.card_height)
            row.addWidget(card)
            self.cards.append(card)
        row.addStretch(1)
        box.addLayout(row)
        status = " · ".join(p for p in (public_value(seat), seat.status) if p)
        box.addWidget(QLabel(status, frame))
        if result is not None:
            amount = f"{result.amount:+d}" if result.amount else "±0"
            last = QLabel(f"last round: {result.outcome} {amount}", frame)
            last.setObjectName("pdResult")
            last.setWordWrap(True)
            box.addWidget(last)
        box.addStretch(1)
        return frame


def _role(view) -> str:
    roles = [s.role for s in view.seats if s.seat == view.dealer_seat and s.role]
    return roles[0] if roles else "dealer"
