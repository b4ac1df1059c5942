"""Void or correct an entry of the round in progress, with a reason for the audit trail.

A refusal is shown inside the dialog, which stays open with the entry and reason as they were.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.gui.metrics import touch_px
from dealer_assist.session.engine import Entry

SKIP = ("type", "seat")


def entry_words(body: dict, names: tuple[str, ...]) -> str:
    """An entry as a dealer says it: ``bet Bea 10``, ``deal Ann 7C``, ``handled draw Bea``."""
    kind = str(body.get("type", "?")).replace("_", " ")
    seat = body.get("seat")
    who = names[seat - 1] if isinstance(seat, int) and 1 <= seat <= len(names) else ""
    rest = []
    for key, value in body.items():
        if key in SKIP:
            continue
        if key == "card" and value is None:
            rest.append("face down")
        elif key in ("card", "amount"):
            rest.append(str(value))
        else:
            rest.append(f"{key.replace('_', ' ')} {value}")
    return " ".join(p for p in (kind, who, *rest) if p)


def describe(entry: Entry, names: tuple[str, ...]) -> str:
    return f"#{entry.seq}  {entry_words(entry.body, names)}"


def correctable(entry: Entry) -> str | None:
    """What a correction of this entry changes: its card or its amount (else None)."""
    if entry.body.get("card") is not None:
        return "card"
    if isinstance(entry.body.get("amount"), int):
        return "amount"
    return None


class EntryDialog(QDialog):
    """Pick an entry of the round, give a reason (and a new value when correcting).

    ``apply(seq, reason, value)`` is called on OK: it returns None when done (the dialog
    closes) or the refusal, shown here while the dialog stays open.
    """

    def __init__(self, entries: list[Entry], names: tuple[str, ...],
                 apply: Callable[[int, str, str], str | None], correcting: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.correcting = correcting
        self.apply = apply
        self.setObjectName("correctDialog" if correcting else "voidDialog")
        self.setWindowTitle("Correct an entry" if correcting else "Void an entry")
        layout = QVBoxLayout(self)
        layout.setSpacing(4)
        text = ("Replace a card or an amount; the later entries are entered again after it."
                if correcting else
                "The entry is withdrawn and the later ones re-applied; the log keeps it, "
                "with your reason.")
        intro = QLabel(text, self)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.entries = QListWidget(self)
        self.entries.setObjectName("voidEntries")
        for entry in entries:
            item = QListWidgetItem(describe(entry, names))
            item.setData(Qt.ItemDataRole.UserRole, entry.seq)
            item.setData(Qt.ItemDataRole.UserRole + 1, correctable(entry) or "")
            if correcting and not correctable(entry):
                item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.entries.addItem(item)
        rows = [i for i in range(self.entries.count())
                if self.entries.item(i).flags() & Qt.ItemFlag.ItemIsEnabled]
        if rows:
            self.entries.setCurrentRow(rows[-1])
        layout.addWidget(self.entries, 1)
        form = QHBoxLayout()
        self.value_edit = QLineEdit(self)
        self.value_edit.setObjectName("correctValue")
        self.value_edit.setPlaceholderText("new card (qs, 10h) or amount")
        self.value_edit.setMinimumHeight(touch_px())
        self.value_edit.setVisible(correcting)
        form.addWidget(self.value_edit, 1)
        self.reason_edit = QLineEdit(self)
        self.reason_edit.setObjectName("voidReason")
        self.reason_edit.setPlaceholderText("reason (needed for any entry but the last)"
                                            if not correcting else "reason")
        self.reason_edit.setMinimumHeight(touch_px())
        form.addWidget(self.reason_edit, 2)
        layout.addLayout(form)
        self.error = QLabel(self)
        self.error.setObjectName("dialogError")
        self.error.setWordWrap(True)
        self.error.setVisible(False)
        layout.addWidget(self.error)
        row = QHBoxLayout()
        cancel = QPushButton("Cancel", self)
        self.ok = QPushButton("Correct entry" if correcting else "Void entry", self)
        self.ok.setObjectName("voidOk")
        self.ok.setProperty("costly", True)
        for button in (cancel, self.ok):
            button.setMinimumSize(3 * touch_px(), touch_px())
        cancel.clicked.connect(self.reject)
        self.ok.clicked.connect(self._ok)
        row.addWidget(cancel)
        row.addStretch(1)
        row.addWidget(self.ok)
        layout.addLayout(row)
        self.entries.currentRowChanged.connect(lambda _row: self._hint())
        self._hint()
        self.resize(640, 400)

    def _hint(self) -> None:
        item = self.entries.currentItem()
        kind = item.data(Qt.ItemDataRole.UserRole + 1) if item is not None else ""
        self.value_edit.setPlaceholderText({"card": "new card: qs, 10h",
                                            "amount": "new amount"}.get(kind, "new value"))

    def target(self) -> int | None:
        item = self.entries.currentItem()
        return None if item is None else int(item.data(Qt.ItemDataRole.UserRole))

    def reason(self) -> str:
        return self.reason_edit.text().strip()

    def value(self) -> str:
        return self.value_edit.text().strip()

    def _ok(self) -> None:
        target = self.target()
        if target is None:
            self.show_error("Choose an entry first.")
            return
        error = self.apply(target, self.reason(), self.value())
        if error:
            self.show_error(error)
        else:
            self.accept()

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(True)

