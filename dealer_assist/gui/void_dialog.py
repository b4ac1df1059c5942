"""Void an entry of the round in progress, with a reason for the audit trail."""

from __future__ import annotations

import json

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.session.engine import Entry


def describe(entry: Entry, names: tuple[str, ...]) -> str:
    body = dict(entry.body)
    kind = body.pop("type", "?")
    seat = body.pop("seat", None)
    who = f" {names[seat - 1]}" if isinstance(seat, int) and 1 <= seat <= len(names) else ""
    rest = " ".join(f"{k} {json.dumps(v) if not isinstance(v, str) else v}"
                    for k, v in body.items())
    return f"#{entry.seq}  {kind}{who}  {rest}".rstrip()


class VoidDialog(QDialog):
    """Pick an entry and give a reason; ``target()`` and ``reason()`` build the void event."""

    def __init__(self, entries: list[Entry], names: tuple[str, ...],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("voidDialog")
        self.setWindowTitle("Void an entry")
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Entries of this round (a settled round is final):", self))
        self.entries = QListWidget(self)
        self.entries.setObjectName("voidEntries")
        for entry in entries:
            item = QListWidgetItem(describe(entry, names))
            item.setData(256, entry.seq)
            self.entries.addItem(item)
        if entries:
            self.entries.setCurrentRow(len(entries) - 1)
        layout.addWidget(self.entries, 1)
        layout.addWidget(QLabel("Reason (needed for any entry but the last):", self))
        self.reason_edit = QLineEdit(self)
        self.reason_edit.setObjectName("voidReason")
        self.reason_edit.setMinimumHeight(48)
        layout.addWidget(self.reason_edit)
        buttons = QDialogButtonBox(self)
        self.ok = buttons.addButton("Void entry", QDialogButtonBox.ButtonRole.AcceptRole)
        self.ok.setObjectName("voidOk")
        cancel = buttons.addButton("Cancel", QDialogButtonBox.ButtonRole.RejectRole)
        for button in (self.ok, cancel):
            button.setMinimumSize(150, 52)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(620, 420)

    def target(self) -> int | None:
        item = self.entries.currentItem()
        return None if item is None else int(item.data(256))

    def reason(self) -> str:
        return self.reason_edit.text().strip()
