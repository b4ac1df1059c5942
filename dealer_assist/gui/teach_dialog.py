"""Teach a deck from the camera: four captures, one suit each, then a name.

The dialog shows the camera's latest frame, says which suit to lay out, and passes each capture
and the final save to :class:`~dealer_assist.vision.teach.DeckTeacher`, which decides; a refused
capture or a failed save is shown and nothing is lost (the captures stay until the dialog
closes). ``deck_saved(name)`` is emitted when the deck is saved.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.cards import parse_card
from dealer_assist.errors import RuleError, StorageError
from dealer_assist.gui.background import Background
from dealer_assist.gui.camera_panel import show_bgr
from dealer_assist.gui.storage_dialog import show_storage_error
from dealer_assist.vision.calibration import list_decks
from dealer_assist.vision.teach import STEPS, DeckTeacher

BUTTON_HEIGHT = 56
PREVIEW = (400, 300)


class TeachDialog(QDialog):
    """Capture the four suits of a deck, name it, save it."""

    deck_saved = Signal(str)

    def __init__(self, latest_frame: Callable[[], np.ndarray | None],
                 teacher: DeckTeacher | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("teachDialog")
        self.setWindowTitle("Teach a deck")
        self.latest_frame = latest_frame
        self.teacher = teacher or DeckTeacher()
        self.background = Background(self)
        self.background.done.connect(self._saved)

        self.step_label = QLabel()
        self.step_label.setObjectName("teachStep")
        self.step_label.setStyleSheet("font-size: 18pt; font-weight: bold;")
        self.prompt_label = QLabel()
        self.prompt_label.setWordWrap(True)
        self.prompt_label.setStyleSheet("font-size: 13pt;")
        self.preview = QLabel("no camera picture yet")
        self.preview.setObjectName("teachPreview")
        self.preview.setFixedSize(*PREVIEW)
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.preview.setStyleSheet("background: #202020; color: #aaaaaa;")
        self.status_label = QLabel()
        self.status_label.setObjectName("teachStatus")
        self.status_label.setWordWrap(True)

        self.capture_button = self._button("Capture", "teachCapture", self.capture)
        self.retake_button = self._button("Retake last", "teachRetake", self.retake)
        self.cancel_button = self._button("Cancel", "teachCancel", self.reject)
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("deckName")
        self.name_edit.setPlaceholderText("name, e.g. home")
        self.name_edit.setMinimumHeight(BUTTON_HEIGHT)
        self.name_edit.setStyleSheet("font-size: 14pt;")
        self.name_edit.textChanged.connect(lambda _text: self._refresh())
        self.name_edit.returnPressed.connect(self.save)
        self.save_button = self._button("Save deck", "teachSave", self.save)

        buttons = QHBoxLayout()
        for button in (self.capture_button, self.retake_button, self.cancel_button):
            buttons.addWidget(button)
        name_row = QHBoxLayout()
        name_row.addWidget(self.name_edit, 1)
        name_row.addWidget(self.save_button)
        side = QVBoxLayout()
        side.addWidget(self.step_label)
        side.addWidget(self.prompt_label)
        side.addWidget(self.status_label)
        side.addStretch(1)
        side.addLayout(name_row)
        top = QHBoxLayout()
        top.addWidget(self.preview)
        top.addLayout(side, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(buttons)
        self.setMinimumWidth(760)

        self._timer = QTimer(self)
        self._timer.setInterval(200)
        self._timer.timeout.connect(self._show_latest)
        self._timer.start()
        self._show_latest()
        self._refresh()

    def _button(self, text: str, name: str, slot: Callable[[], None]) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.setMinimumHeight(BUTTON_HEIGHT)
        button.setStyleSheet("font-size: 14pt;")
        button.setAutoDefault(False)
        button.clicked.connect(slot)
        return button

    # -- the dealer's steps --------------------------------------------------------------------
    def capture(self) -> None:
        try:
            captured = self.teacher.capture(self.latest_frame())
        except RuleError as exc:
            self._say(str(exc), error=True)
            return
        after = self.teacher.step
        labels = " ".join(parse_card(code).label for code in captured.missing)
        missing = (f" Not found: {labels} (Retake last if they were not "
                   "in view)." if captured.missing else "")
        self._say(f"{captured.step.name.capitalize()}: indices of {captured.cards_seen} of the 13 "
                  f"cards found.{missing} " + (f"Now the {after.name}." if after else
                                              "All four suits taken: name the deck and save it."))
        self._refresh()

    def retake(self) -> None:
        step = self.teacher.retake()
        if step is not None:
            self._say(f"The {step.name} photo was dropped: capture it again.")
        self._refresh()

    def save(self) -> None:
        if not self.teacher.done or self.background.busy:
            return
        name = self.name_edit.text().strip()
        self._say("Learning the deck…")
        self._refresh(busy=True)
        self.background.run(lambda: (name, self.teacher.save(name)))

    def _saved(self, result: object) -> None:
        self._refresh()
        if isinstance(result, StorageError):
            self._say(str(result.what), error=True)
            show_storage_error(self, result)
            return
        if isinstance(result, (RuleError, ValueError)):
            self._say(str(result), error=True)
            return
        if isinstance(result, BaseException):  # a bug: say so rather than lose the captures
            self._say(f"The deck could not be learned ({result}); please report it.", error=True)
            return
        name, (_deck, report) = result
        self._say(f"Deck {name!r} saved: {len(report['cards'])} cards learned.")
        self.deck_saved.emit(name)
        self.accept()

    # -- display -------------------------------------------------------------------------------
    def _say(self, text: str, error: bool = False) -> None:
        self.status_label.setStyleSheet(f"color: {'#c62828' if error else '#1b5e20'}; "
                                        "font-size: 13pt;")
        self.status_label.setText(text[:1].upper() + text[1:])

    def _refresh(self, busy: bool = False) -> None:
        step = self.teacher.step
        taken = len(self.teacher.frames)
        if step is None:
            self.step_label.setText("All four suits taken")
            self.prompt_label.setText("Name the deck and save it; the camera then reads with it.")
        else:
            self.step_label.setText(f"Photo {taken + 1} of {len(STEPS)}: {step.name}")
            self.prompt_label.setText(step.prompt)
        name = self.name_edit.text().strip()
        self.save_button.setText("Replace deck" if name in list_decks() else "Save deck")
        self.capture_button.setEnabled(step is not None and not busy)
        self.retake_button.setEnabled(taken > 0 and not busy)
        self.cancel_button.setEnabled(not busy)
        self.name_edit.setEnabled(step is None and not busy)
        self.save_button.setEnabled(step is None and bool(name) and not busy)

    def _show_latest(self) -> None:
        frame = self.latest_frame()
        if frame is not None:
            show_bgr(self.preview, frame)

    def done(self, result: int) -> None:
        """Close (QDialog's), the preview stopped."""
        self._timer.stop()
        super().done(result)
