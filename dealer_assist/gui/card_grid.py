"""The 13×4 touch grid of cards; the cards the shoe cannot deal are greyed out."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QPushButton, QSizePolicy, QWidget

from dealer_assist.cards import RANKS, SUIT_SYMBOLS, SUITS
from dealer_assist.gui.metrics import TOUCH_MM, mm_px, touch_px


class CardGrid(QWidget):
    """One button per card (rows: suits, columns: ranks); a tap emits ``picked(code)``."""

    picked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("cardGrid")
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.buttons: dict[str, QPushButton] = {}
        for row, suit in enumerate(SUITS):
            for col, rank in enumerate(RANKS):
                code = rank + suit
                button = QPushButton(f"{rank}{SUIT_SYMBOLS[suit]}", self)
                button.setObjectName(f"card_{code}")
                button.setProperty("suit", "red" if suit in ("H", "D") else "black")
                button.setMinimumSize(mm_px(TOUCH_MM), touch_px())  # 9 mm wide at least
                button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
                button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
                button.setToolTip(code)
                button.clicked.connect(lambda _=False, c=code: self.picked.emit(c))
                layout.addWidget(button, row, col)
                self.buttons[code] = button

    def resizeEvent(self, event) -> None:
        """Smaller type when the cards are narrower than "10♠" in the theme's type (a row of
        six seats' chips beside takes room): a label is never cut."""
        super().resizeEvent(event)
        sample = self.buttons["10S"]
        if not self.property("compact"):
            self.label_px = sample.fontMetrics().horizontalAdvance(sample.text()) + 10
        compact = sample.width() < getattr(self, "label_px", 0)
        if compact != bool(self.property("compact")):
            self.setProperty("compact", compact)
            for button in self.buttons.values():
                button.style().unpolish(button)
                button.style().polish(button)

    def set_usable(self, codes: tuple[str, ...] | list[str]) -> None:
        """Enable exactly the cards the view says can still be dealt."""
        usable = set(codes)
        for code, button in self.buttons.items():
            button.setEnabled(code in usable)

    def button(self, code: str) -> QPushButton:
        return self.buttons[code]
