"""Where a card or an amount is entered: the touch grid or the keypad, and a typing line."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.gui.card_grid import CardGrid
from dealer_assist.gui.keypad import Keypad
from dealer_assist.variants.base import Action


class EntryLine(QLineEdit):
    """The typing line; the table's Ctrl shortcuts (undo, void, history) win over its own."""

    KEEP = (Qt.Key.Key_A, Qt.Key.Key_C, Qt.Key.Key_V, Qt.Key.Key_X)

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape:  # Esc clears the line, whatever was refused
            self.clear()
            return
        super().keyPressEvent(event)

    def event(self, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.ShortcutOverride
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier
                and event.key() not in self.KEEP):
            event.ignore()
            return False
        return super().event(event)


def range_text(action: Action) -> str:
    """The allowed range exactly as the game gives it."""
    low, high = action.minimum, action.maximum
    if low is not None and high is not None:
        return f"{low} to {high}" if low != high else f"exactly {low}"
    if low is not None:
        return f"at least {low}"
    if high is not None:
        return f"at most {high}"
    return "any amount"


class InputPanel(QWidget):
    """Emits ``card(code_text)`` or ``amount(text)``; the session checks what was entered."""

    card = Signal(str)
    amount = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inputPanel")
        self.mode: str | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        # the typing line lives in the prompt bar (see TableScreen); the panel owns it
        self.entry = EntryLine()
        self.entry.setObjectName("entry")
        self.entry.setMinimumHeight(44)
        self.entry.setFixedWidth(220)
        self.entry.setClearButtonEnabled(False)  # Esc and the keypad C clear it
        self.entry.returnPressed.connect(self._enter)
        self.stack = QStackedWidget(self)
        self.idle = QLabel("Cards and amounts are entered here once an action asks for one.",
                           self.stack)
        self.idle.setObjectName("inputIdle")
        self.idle.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.idle.setWordWrap(True)
        self.grid = CardGrid(self.stack)
        self.grid.picked.connect(self.card)
        self.keypad = Keypad(self.stack)
        self.keypad.key.connect(self._key)
        self.keypad.chip.connect(self._chip)
        self.keypad.enter.connect(self._enter)
        for widget in (self.idle, self.grid, self.keypad):
            self.stack.addWidget(widget)
        layout.addWidget(self.stack, 1)

    def set_action(self, action: Action | None, usable_cards: tuple[str, ...]) -> None:
        """Show the grid for a card, the keypad for an amount, or nothing."""
        mode = action.asks if action is not None else None
        if mode != self.mode:
            self.entry.clear()
        self.mode = mode
        self.grid.set_usable(usable_cards)
        if action is not None and mode == "card":
            self.entry.setPlaceholderText("card: qs, 10h ⏎")
            self.entry.setToolTip(f"{action.label}: tap a card, or type its code and Enter")
            self.stack.setCurrentWidget(self.grid)
        elif action is not None and mode == "amount":
            self.entry.setPlaceholderText(f"amount {range_text(action)}")
            self.entry.setToolTip(f"{action.label}: {range_text(action)}; keypad or keys, Enter")
            self.keypad.set_range(action.minimum, action.maximum)
            self.stack.setCurrentWidget(self.keypad)
        else:
            self.entry.setPlaceholderText("")
            self.entry.setToolTip("")
            self.stack.setCurrentWidget(self.idle)
        self.entry.setEnabled(mode is not None)

    def _chip(self, value: int) -> None:
        """A chip adds its value to the amount (5 then 5 is 10)."""
        text = self.entry.text().strip()
        if self.entry.hasSelectedText() and self.entry.selectedText() == self.entry.text():
            text = ""  # a refused amount is replaced, not added to
        self.entry.setText(str((int(text) if text.isdigit() else 0) + value))

    def _key(self, key: str) -> None:
        if key == "clear":
            self.entry.clear()
        elif key == "back":
            self.entry.backspace()
        else:
            self.entry.insert(key)

    def _enter(self) -> None:
        text = self.entry.text().strip()
        if self.mode == "card":
            self.card.emit(text)
        elif self.mode == "amount":
            self.amount.emit(text)
