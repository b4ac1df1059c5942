"""One card drawn as a card: rank and suit on a white face, or a patterned back."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from dealer_assist.cards import SUIT_SYMBOLS

RED_SUITS = ("H", "D")


def split_code(code: str) -> tuple[str, str]:
    """``"10H"`` → ``("10", "H")``: rank and suit of a canonical card code."""
    return code[:-1], code[-1]


class CardFace(QWidget):
    """A card. ``code`` None or ``face_down`` True draws the back (not entered / hidden)."""

    def __init__(self, code: str | None, face_down: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.code = code
        self.face_down = face_down or code is None
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setFixedSize(self.sizeHint())
        tip = "face down" if self.face_down else code
        if code is not None and face_down:
            tip = f"{code} (hidden from the table)"
        self.setToolTip(tip or "")
        self.setAccessibleName(tip or "card")

    def sizeHint(self) -> QSize:
        return QSize(44, 62)

    def set_card_height(self, height: int) -> None:
        self.setFixedSize(round(height * 0.71), height)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(self.rect()).adjusted(1, 1, -1, -1)
        radius = rect.width() * 0.12
        if self.face_down:
            painter.setPen(QPen(QColor("#1b2a4a"), 1.5))
            painter.setBrush(QBrush(QColor("#2f5fa8"), Qt.BrushStyle.SolidPattern))
            painter.drawRoundedRect(rect, radius, radius)
            inner = rect.adjusted(4, 4, -4, -4)
            painter.setBrush(QBrush(QColor("#9db8e6"), Qt.BrushStyle.DiagCrossPattern))
            painter.drawRoundedRect(inner, radius / 2, radius / 2)
            return  # a back is a back: the code stays in the tooltip for the dealer
        rank, suit = split_code(self.code or "")
        colour = QColor("#c8102e") if suit in RED_SUITS else QColor("#111111")
        painter.setPen(QPen(QColor("#555555"), 1))
        painter.setBrush(QColor("white"))
        painter.drawRoundedRect(rect, radius, radius)
        corner = QRectF(rect.left() + 2, rect.top(), rect.width() * 0.45, rect.height() * 0.3)
        self._text(painter, corner, rank, colour, 0.26 if rank == "10" else 0.3,
                   Qt.AlignmentFlag.AlignLeft)
        pip = QRectF(rect.left() + 2, rect.top() + rect.height() * 0.27, rect.width() * 0.45,
                     rect.height() * 0.22)
        self._text(painter, pip, SUIT_SYMBOLS.get(suit, "?"), colour, 0.2,
                   Qt.AlignmentFlag.AlignLeft)
        centre = QRectF(rect.left() + rect.width() * 0.3, rect.top() + rect.height() * 0.4,
                        rect.width() * 0.7, rect.height() * 0.58)
        self._text(painter, centre, SUIT_SYMBOLS.get(suit, "?"), colour, 0.42)

    def _text(self, painter: QPainter, rect: QRectF, text: str, colour: QColor, scale: float,
              align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignCenter) -> None:
        font = QFont(self.font())
        font.setBold(True)
        font.setPixelSize(max(8, round(self.height() * scale)))
        painter.setFont(font)
        painter.setPen(colour)
        painter.drawText(rect, int(align | Qt.AlignmentFlag.AlignVCenter), text)
