"""Costly actions are confirmed in a dialog that names the consequence; Undo stays one tap."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.gui.metrics import touch_px

# what each costly command does, as the rule texts say it (classic31 C9; trianta_ena T9)
CONSEQUENCES = {
    "handled_draw": "{who} touched the Draw card: {who}'s hand and wagers are forfeited "
                    "(a Play wager already placed is returned).",
    "misdeal": "Misdeal: every hand of this round is dead and every wager goes back.",
    "cash_out": "{who} cashes out {amount} and leaves the game.",
}


def consequence(event: dict[str, Any], names: tuple[str, ...]) -> str | None:
    """The sentence naming what a costly command does, or None if it needs no confirmation."""
    text = CONSEQUENCES.get(event.get("type", ""))
    if text is None:
        return None
    seat = event.get("seat")
    who = names[seat - 1] if isinstance(seat, int) and 1 <= seat <= len(names) else "the player"
    amount = event.get("amount")
    return text.format(who=who, amount="everything" if amount is None else str(amount))


class ConfirmDialog(QDialog):
    """'Are you sure' with the consequence spelled out; the red button does it."""

    def __init__(self, title: str, text: str, action: str, parent: QWidget | None = None,
                 reason: str = "") -> None:
        super().__init__(parent)
        self.setObjectName("confirmDialog")
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        heading = QLabel(title, self)
        heading.setObjectName("dialogHeading")
        heading.setWordWrap(True)
        layout.addWidget(heading)
        self.text = QLabel(text, self)
        self.text.setObjectName("confirmText")
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.text, 1)
        self.reason_edit = QLineEdit(self)
        self.reason_edit.setObjectName("confirmReason")
        self.reason_edit.setPlaceholderText(reason)
        self.reason_edit.setMinimumHeight(touch_px())
        self.reason_edit.setVisible(bool(reason))
        layout.addWidget(self.reason_edit)
        row = QHBoxLayout()
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setObjectName("confirmCancel")
        self.ok_button = QPushButton(action, self)
        self.ok_button.setObjectName("confirmOk")
        self.ok_button.setProperty("costly", True)
        for button in (self.cancel_button, self.ok_button):
            button.setMinimumSize(3 * touch_px(), touch_px())
        self.cancel_button.setDefault(True)  # Enter alone never does the costly thing
        row.addWidget(self.cancel_button)
        row.addStretch(1)
        row.addWidget(self.ok_button)
        layout.addLayout(row)
        self.cancel_button.clicked.connect(self.reject)
        self.ok_button.clicked.connect(self.accept)
        self.resize(560, 260)

    def reason(self) -> str:
        return self.reason_edit.text().strip()
