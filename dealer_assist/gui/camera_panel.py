"""Camera panel: the live table view with what was read, the proposed card and seat, and big
Confirm / Reject buttons. It computes nothing: a :class:`~dealer_assist.vision.live.LiveReader`
decides the card, the seat and auto-accept; the panel shows it and reports the dealer's answer.

A confirmed card is emitted as ``card_confirmed(seat, code)`` (and passed to ``on_confirm`` if
given); the session turns it into ``{"type": "deal", "seat": seat, "card": code}``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont, QImage, QPixmap
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.cards import parse_card
from dealer_assist.vision.live import LiveReader, LiveUpdate
from dealer_assist.vision.proposal import Proposal

TOUCH_HEIGHT = 88  # px: a finger-sized button


def _font(size: int, bold: bool = False) -> QFont:
    font = QFont()
    font.setPointSize(size)
    font.setBold(bold)
    return font


class CameraPanel(QWidget):
    """Live view + proposal + Confirm/Reject. Feed it with :meth:`start` or :meth:`show_update`."""

    card_confirmed = Signal(int, str)
    card_rejected = Signal(int, str)

    def __init__(self, reader: LiveReader | None = None,
                 on_confirm: Callable[[int, str], None] | None = None, seats: int = 7,
                 interval_ms: int = 66, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.reader = reader
        self._on_confirm = on_confirm
        self._pending: Proposal | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._tick)

        self.view = QLabel("no camera")
        self.view.setObjectName("cameraView")
        self.view.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.view.setMinimumSize(480, 360)
        self.view.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.view.setStyleSheet("background: #202020; color: #aaaaaa;")

        self.card_label = QLabel("–")
        self.card_label.setObjectName("proposedCard")
        self.card_label.setFont(_font(40, bold=True))
        self.card_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.card_label.setMinimumWidth(200)
        self.detail_label = QLabel("waiting for a card")
        self.detail_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.detail_label.setFont(_font(13))
        self.detail_label.setWordWrap(True)

        seat_title = QLabel("Seat")
        seat_title.setFont(_font(16, bold=True))
        self.seat_box = QSpinBox()
        self.seat_box.setObjectName("seat")
        self.seat_box.setRange(1, seats)
        self.seat_box.setFont(_font(26, bold=True))
        self.seat_box.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.seat_box.setMinimumHeight(TOUCH_HEIGHT * 3 // 4)
        self.seat_box.setButtonSymbols(QSpinBox.ButtonSymbols.NoButtons)
        self.seat_down = QPushButton("−")
        self.seat_up = QPushButton("+")
        for button, step in ((self.seat_down, -1), (self.seat_up, 1)):
            button.setFont(_font(24, bold=True))
            button.setFixedSize(TOUCH_HEIGHT * 3 // 4, TOUCH_HEIGHT * 3 // 4)
            button.clicked.connect(lambda _=False, s=step: self.seat_box.stepBy(s))
        seat_row = QHBoxLayout()
        seat_row.addWidget(self.seat_down)
        seat_row.addWidget(self.seat_box, 1)
        seat_row.addWidget(self.seat_up)

        self.confirm_button = QPushButton("Confirm")
        self.reject_button = QPushButton("Reject")
        for button, colour in ((self.confirm_button, "#2e7d32"), (self.reject_button, "#c62828")):
            button.setFont(_font(20, bold=True))
            button.setMinimumHeight(TOUCH_HEIGHT)
            button.setMinimumWidth(200)
            button.setStyleSheet(
                f"QPushButton {{ background: {colour}; color: white; border-radius: 10px; }}"
                "QPushButton:disabled { background: #9e9e9e; color: #eeeeee; }")
        self.confirm_button.clicked.connect(self.confirm)
        self.reject_button.clicked.connect(self.reject)

        title = QLabel("Proposed card")
        title.setFont(_font(16, bold=True))
        side = QVBoxLayout()
        side.addWidget(title, alignment=Qt.AlignmentFlag.AlignHCenter)
        side.addWidget(self.card_label)
        side.addWidget(self.detail_label)
        side.addSpacing(12)
        side.addWidget(seat_title, alignment=Qt.AlignmentFlag.AlignHCenter)
        side.addLayout(seat_row)
        side.addStretch(1)
        side.addWidget(self.confirm_button)
        side.addWidget(self.reject_button)

        layout = QHBoxLayout(self)
        layout.addWidget(self.view, 1)
        layout.addLayout(side)
        self._refresh_buttons()

    # -- feeding -----------------------------------------------------------------------------
    def start(self) -> None:
        """Pull frames from the reader on a timer until its source ends."""
        if self.reader is not None:
            self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _tick(self) -> None:
        update = self.reader.step() if self.reader is not None else None
        if update is None:
            self.stop()
            return
        self.show_update(update)

    def show_update(self, update: LiveUpdate) -> None:
        """Show a processed frame and its pending card; take it at once if auto-accepted."""
        self.show_frame(update.frame)
        self.set_proposal(update.pending, update.seat)
        if update.auto_accept and update.pending is not None:
            self.confirm()

    def show_frame(self, bgr: np.ndarray) -> None:
        """Display a BGR frame, scaled to the view."""
        frame = np.ascontiguousarray(bgr)
        h, w = frame.shape[:2]
        image = QImage(frame.data, w, h, frame.strides[0], QImage.Format.Format_BGR888).copy()
        pixmap = QPixmap.fromImage(image).scaled(self.view.size(),
                                                 Qt.AspectRatioMode.KeepAspectRatio,
                                                 Qt.TransformationMode.SmoothTransformation)
        self.view.setPixmap(pixmap)

    def set_proposal(self, proposal: Proposal | None, seat: int | None = None) -> None:
        """Show ``proposal`` (None clears it); ``seat`` from the zones, else the seat box stays."""
        self._pending = proposal if proposal is not None and proposal.card is not None else None
        if self._pending is None:
            self.card_label.setText("–")
            self.detail_label.setText("waiting for a card")
        else:
            card = self._pending.card
            assert card is not None
            colour = "#c62828" if card.suit in "HD" else "#111111"
            self.card_label.setText(card.label)
            self.card_label.setStyleSheet(f"color: {colour};")
            how = "barcode" if self._pending.source == "barcode" else "camera"
            self.detail_label.setText(f"{card.code} · {how} · {self._pending.confidence:.0%} sure")
        if seat is not None:
            self.seat_box.setValue(seat)
        self._refresh_buttons()

    def set_seat(self, seat: int) -> None:
        """The seat a card goes to when no zone says otherwise (e.g. the next seat in turn)."""
        self.seat_box.setValue(seat)

    @property
    def pending_code(self) -> str | None:
        return None if self._pending is None else self._pending.code

    # -- the dealer's answer -----------------------------------------------------------------
    def confirm(self) -> None:
        code, seat = self.pending_code, self.seat_box.value()
        if code is None:
            return
        self._finish()
        self.card_confirmed.emit(seat, parse_card(code).code)
        if self._on_confirm is not None:
            self._on_confirm(seat, code)

    def reject(self) -> None:
        code, seat = self.pending_code, self.seat_box.value()
        if code is None:
            return
        self._finish()
        self.card_rejected.emit(seat, code)

    def _finish(self) -> None:
        if self.reader is not None and self._pending is not None:
            self.reader.mark_handled(self._pending)
        self.set_proposal(None)

    def _refresh_buttons(self) -> None:
        has = self._pending is not None
        self.confirm_button.setEnabled(has)
        self.reject_button.setEnabled(has)
