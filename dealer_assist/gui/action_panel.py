"""Big buttons for exactly the legal actions of the moment, plus undo, void and history."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.gui.input_panel import range_text
from dealer_assist.variants.base import Action

COLUMNS = 2
SHORTCUT_KEYS = tuple(f"F{n}" for n in range(1, 13))


def same_action(a: Action | None, b: Action | None) -> bool:
    """The same command (type, seat, fixed fields), whatever its limits are now."""
    if a is None or b is None:
        return False
    return (a.type, a.seat, a.fixed, a.asks) == (b.type, b.seat, b.fixed, b.asks)


def big_button(text: str, name: str, parent: QWidget) -> QPushButton:
    button = QPushButton(text, parent)
    button.setObjectName(name)
    button.setMinimumHeight(52)
    button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    return button


class WrapButton(QPushButton):
    """A big button whose label wraps onto two lines instead of being clipped."""

    def __init__(self, text: str, name: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.setFixedHeight(58)
        self.setMinimumWidth(120)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.label = QLabel(text, self)
        self.label.setObjectName("actionLabel")
        self.label.setWordWrap(True)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        layout.addWidget(self.label)
        self.setAccessibleName(text)

    def label_text(self) -> str:
        return self.label.text()


class ActionPanel(QWidget):
    """``triggered(index)`` when the dealer taps the button of ``actions[index]``."""

    triggered = Signal(int)
    undo = Signal()
    void = Signal()
    history = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("actionPanel")
        self.actions_list: list[Action] = []
        self.buttons: list[WrapButton] = []
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(6)
        self.scroll = QScrollArea(self)
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        holder = QWidget(self.scroll)
        holder.setObjectName("actionHolder")
        self.grid = QGridLayout(holder)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(6)
        self.grid.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.scroll.setWidget(holder)
        outer.addWidget(self.scroll, 1)
        row = QHBoxLayout()
        row.setSpacing(6)
        self.undo_button = big_button("Undo", "undoButton", self)
        self.undo_button.setToolTip("Withdraw the last entry of this round (Ctrl+Z)")
        self.undo_button.clicked.connect(self.undo)
        self.void_button = big_button("Void…", "voidButton", self)
        self.void_button.setToolTip("Void an earlier entry of this round, with a reason (Ctrl+D)")
        self.void_button.clicked.connect(self.void)
        self.history_button = big_button("History", "historyButton", self)
        self.history_button.setToolTip("The rounds so far and their settlements (Ctrl+H)")
        self.history_button.clicked.connect(self.history)
        for button in (self.undo_button, self.void_button, self.history_button):
            row.addWidget(button)
        outer.addLayout(row)

    def set_actions(self, actions: list[Action], selected: Action | None) -> None:
        for button in self.buttons:
            self.grid.removeWidget(button)
            button.hide()
            button.deleteLater()
        self.buttons = []
        self.actions_list = list(actions)
        for index, action in enumerate(actions):
            key = SHORTCUT_KEYS[index] if index < len(SHORTCUT_KEYS) else ""
            text = action.label
            if action.asks == "amount":
                text += f" ({range_text(action)})"
            button = WrapButton(text, f"action_{index}", self.grid.parentWidget())
            button.setProperty("asks", action.asks or "")
            button.setProperty("selected", same_action(action, selected))
            tip = {"card": "then tap a card or type its code",
                   "amount": "then enter the amount"}.get(action.asks or "", "")
            button.setToolTip(f"{action.label} ({key}){': ' + tip if tip else ''}")
            button.clicked.connect(lambda _=False, i=index: self.triggered.emit(i))
            self.grid.addWidget(button, index // COLUMNS, index % COLUMNS)
            button.show()
            self.buttons.append(button)

    def set_history_enabled(self, undo: bool, void: bool) -> None:
        self.undo_button.setEnabled(undo)
        self.void_button.setEnabled(void)

    def button_for(self, label: str) -> WrapButton:
        """The button of the first action with this label (tests, camera)."""
        for action, button in zip(self.actions_list, self.buttons, strict=True):
            if action.label == label:
                return button
        raise LookupError(f"no action {label!r}; actions: "
                          f"{', '.join(a.label for a in self.actions_list)}")
