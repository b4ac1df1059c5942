"""A decision put to one player, such as the bank offer of Trianta Ena, asked in a dialog."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.gui.input_panel import range_text
from dealer_assist.gui.metrics import touch_px
from dealer_assist.variants.base import Action

# action types the table asks as a dialog (they stay in the action panel too)
OFFER_TYPES = frozenset({"bank_accept", "bank_decline", "bank_offer"})


def offer_actions(actions: list[Action]) -> list[Action]:
    return [a for a in actions if a.type in OFFER_TYPES and not a.asks]


class OfferDialog(QDialog):
    """The game's prompt and one big button per answer; ``chosen(action)`` on a tap."""

    chosen = Signal(object)

    def __init__(self, prompt: str, actions: list[Action], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("offerDialog")
        self.setWindowTitle("Offer")
        self.actions = actions
        layout = QVBoxLayout(self)
        heading = QLabel(prompt, self)
        heading.setObjectName("dialogHeading")
        heading.setWordWrap(True)
        heading.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(heading)
        row = QHBoxLayout()
        self.buttons: list[QPushButton] = []
        for index, action in enumerate(actions):
            button = QPushButton(action.label, self)
            button.setObjectName(f"offer_{index}")
            button.setMinimumSize(220, 64)
            button.clicked.connect(lambda _=False, a=action: self._choose(a))
            row.addWidget(button)
            self.buttons.append(button)
        layout.addLayout(row)
        self.resize(560, 200)

    def _choose(self, action: Action) -> None:
        self.accept()
        self.chosen.emit(action)


class ChooserDialog(QDialog):
    """One button stands for many actions (Cash out…): one big button per action here."""

    chosen = Signal(object)

    def __init__(self, title: str, text: str, actions: list[Action],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("offerDialog")
        self.setWindowTitle(title)
        self.actions = actions
        layout = QVBoxLayout(self)
        heading = QLabel(text, self)
        heading.setObjectName("dialogHeading")
        heading.setWordWrap(True)
        layout.addWidget(heading)
        grid = QGridLayout()
        self.buttons: list[QPushButton] = []
        for index, action in enumerate(actions):
            label = action.label
            if action.asks == "amount":
                label += f" ({range_text(action)})…"
            button = QPushButton(label, self)
            button.setObjectName(f"choice_{index}")
            button.setMinimumHeight(touch_px())
            button.clicked.connect(lambda _=False, a=action: self._choose(a))
            grid.addWidget(button, index // 2, index % 2)
            self.buttons.append(button)
        layout.addLayout(grid)
        cancel = QPushButton("Cancel", self)
        cancel.setMinimumHeight(touch_px())
        cancel.clicked.connect(self.reject)
        layout.addWidget(cancel)
        self.resize(640, 120 + 56 * ((len(actions) + 1) // 2))

    def _choose(self, action: Action) -> None:
        self.accept()
        self.chosen.emit(action)
