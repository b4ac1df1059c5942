"""A numeric keypad with quick-chip buttons, for wagers and other amounts."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QPushButton, QSizePolicy, QWidget

from dealer_assist.gui.metrics import touch_px

CHIPS = (1, 2, 5, 10, 25, 50, 100, 500)


def _button(text: str, name: str, parent: QWidget) -> QPushButton:
    button = QPushButton(text, parent)
    button.setObjectName(name)
    button.setMinimumSize(touch_px(), touch_px())
    button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    return button


class Keypad(QWidget):
    """Digits, clear, back and OK; chips add to the amount. Emits ``key(text)`` and ``enter``.

    The keypad only edits the amount text; the session checks it (and explains a refusal).
    """

    key = Signal(str)  # a digit, "back" or "clear"
    chip = Signal(int)
    enter = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("keypad")
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        keys = ("7", "8", "9", "4", "5", "6", "1", "2", "3")
        for index, digit in enumerate(keys):
            button = _button(digit, f"key_{digit}", self)
            button.clicked.connect(lambda _=False, d=digit: self.key.emit(d))
            layout.addWidget(button, index // 3, index % 3)
        zero = _button("0", "key_0", self)
        zero.clicked.connect(lambda: self.key.emit("0"))
        layout.addWidget(zero, 3, 1)
        back = _button("⌫", "key_back", self)
        back.setToolTip("Delete the last digit (Backspace)")
        back.clicked.connect(lambda: self.key.emit("back"))
        layout.addWidget(back, 3, 0)
        clear = _button("C", "key_clear", self)
        clear.setToolTip("Clear the amount (Esc)")
        clear.clicked.connect(lambda: self.key.emit("clear"))
        layout.addWidget(clear, 3, 2)
        self.ok = _button("OK", "key_ok", self)
        self.ok.setProperty("primary", True)
        self.ok.setToolTip("Send the amount (Enter)")
        self.ok.clicked.connect(self.enter)
        layout.addWidget(self.ok, 0, 3, 4, 1)
        self.chip_buttons: list[QPushButton] = []
        for index, value in enumerate(CHIPS):
            button = _button(str(value), f"chip_{value}", self)
            button.setProperty("chip", True)
            button.setToolTip(f"Add {value} to the amount")
            button.clicked.connect(lambda _=False, v=value: self.chip.emit(v))
            layout.addWidget(button, index % 4, 4 + index // 4)
            self.chip_buttons.append(button)
        for col in range(6):
            layout.setColumnStretch(col, 1)

    def set_range(self, minimum: int | None, maximum: int | None) -> None:
        """Show only the chips inside the allowed range (any chip if there is no limit)."""
        for button, value in zip(self.chip_buttons, CHIPS, strict=True):
            inside = (minimum is None or value >= minimum) and (maximum is None or value <= maximum)
            button.setVisible(inside)
