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
from PySide6.QtGui import QFont, QHideEvent, QImage, QPixmap, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.cards import parse_card
from dealer_assist.errors import InputError, StorageError
from dealer_assist.gui.storage_dialog import show_storage_error
from dealer_assist.vision.calibration import (
    chosen_deck,
    deck_recognizer,
    list_decks,
    remember_deck,
)
from dealer_assist.vision.live import LiveReader, LiveUpdate
from dealer_assist.vision.proposal import Proposal

TOUCH_HEIGHT = 88  # px: a finger-sized button
STANDARD_DECK = "Standard deck"


def show_bgr(label: QLabel, bgr: np.ndarray) -> None:
    """Show a BGR frame in ``label``, scaled to fit it with its aspect kept."""
    frame = np.ascontiguousarray(bgr)
    h, w = frame.shape[:2]
    image = QImage(frame.data, w, h, frame.strides[0], QImage.Format.Format_BGR888).copy()
    label.setPixmap(QPixmap.fromImage(image).scaled(label.size(),
                                                    Qt.AspectRatioMode.KeepAspectRatio,
                                                    Qt.TransformationMode.SmoothTransformation))


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
        self._running = False

        self.view = QLabel("no camera")
        self.view.setObjectName("cameraView")
        self.view.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.view.setMinimumSize(320, 240)  # a floating panel on a 1024×600 tablet
        self.view.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.view.setStyleSheet("background: #202020; color: #aaaaaa;")
        # what the dealer could change at the table (vision/advice.py), hidden when nothing
        self.advice_label = QLabel()
        self.advice_label.setObjectName("cameraAdvice")
        self.advice_label.setFont(_font(14, bold=True))
        self.advice_label.setWordWrap(True)
        self.advice_label.setStyleSheet(
            "background: #ffe082; color: #3e2723; padding: 6px; border-radius: 6px;")
        self.advice_label.hide()

        self.card_label = QLabel("–")
        self.card_label.setObjectName("proposedCard")
        self.card_label.setFont(_font(40, bold=True))
        self.card_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.card_label.setMinimumWidth(200)
        self.detail_label = QLabel("waiting for a card")
        self.detail_label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.detail_label.setFont(_font(13))
        self.detail_label.setWordWrap(True)
        # two lines kept for it, so that a detail that wraps ("10H · camera · 78% sure" on a
        # small tablet) does not push the seat buttons down under the dealer's finger
        self.detail_label.setMinimumHeight(2 * self.detail_label.fontMetrics().lineSpacing())

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

        # the deck the camera reads with: the shipped networks, or a deck taught to it
        self.deck_box = QComboBox()
        self.deck_box.setObjectName("deckChoice")
        self.deck_box.setMinimumHeight(TOUCH_HEIGHT // 2 + 8)
        self.deck_box.setFont(_font(14))
        self.teach_button = QPushButton("Teach a deck…")
        self.teach_button.setObjectName("teachDeck")
        self.teach_button.setMinimumHeight(TOUCH_HEIGHT // 2 + 8)
        self.teach_button.setFont(_font(14))
        self.teach_button.clicked.connect(self.teach_deck)
        self.teach_dialog = None
        self._deck: str | None = None
        self.fill_decks()
        self.deck_box.activated.connect(self._deck_activated)
        deck_row = QHBoxLayout()
        deck_title = QLabel("Deck")
        deck_title.setFont(_font(14, bold=True))
        deck_row.addWidget(deck_title)
        deck_row.addWidget(self.deck_box, 1)
        deck_row.addWidget(self.teach_button)
        if self.reader is None:
            for widget in (self.deck_box, self.teach_button):
                widget.setEnabled(False)
                widget.setToolTip("needs a camera")
        left = QVBoxLayout()
        left.addWidget(self.view, 1)
        left.addWidget(self.advice_label)
        left.addLayout(deck_row)

        layout = QHBoxLayout(self)
        layout.addLayout(left, 1)
        layout.addLayout(side)
        self._refresh_buttons()
        if self.reader is not None and (last := chosen_deck()) is not None:
            # the deck of last time (a tablet restarts: nothing lost), already remembered
            self.use_deck(last, remember=False)

    # -- the deck ------------------------------------------------------------------------------
    def fill_decks(self) -> None:
        """List the standard deck and the decks taught so far; the current one selected."""
        self.deck_box.clear()
        self.deck_box.addItem(STANDARD_DECK, None)
        for name in list_decks():
            self.deck_box.addItem(name, name)
        self.deck_box.setCurrentIndex(max(0, self.deck_box.findData(self._deck)))

    def use_deck(self, name: str | None, remember: bool = True) -> bool:
        """Read with deck ``name`` (None: the standard deck), and next time too (``remember``);
        a deck that cannot be used is shown in a dialog and the camera keeps the deck it had. A
        choice that cannot be remembered is shown in a dialog too, and the deck is used."""
        if self.reader is None:
            return False
        try:
            recognizer = deck_recognizer(name)
        except (OSError, InputError, ValueError) as exc:
            show_storage_error(self, StorageError(
                "damaged", f"The deck {name!r} cannot be used: {exc}",
                "Teach the deck again (Teach a deck…), or choose another deck.",
                title="This deck cannot be used"))
            self.fill_decks()
            return False
        self.reader.use(recognizer)
        self._deck = name
        self.fill_decks()
        self.set_proposal(None)
        if remember:
            try:
                remember_deck(name)
            except StorageError as error:  # used now, only not remembered for next time
                show_storage_error(self, error)
        return True

    def _deck_activated(self, index: int) -> None:
        name = self.deck_box.itemData(index)
        if name != self._deck:
            self.use_deck(name)

    def teach_deck(self) -> None:
        """Open the dialog that teaches a deck from this camera's frames."""
        if self.reader is None:
            return
        from dealer_assist.gui.teach_dialog import TeachDialog

        reader = self.reader
        self.teach_dialog = TeachDialog(lambda: reader.last_frame, parent=self)
        self.teach_dialog.deck_saved.connect(self.use_deck)
        self.teach_dialog.open()

    # -- feeding -----------------------------------------------------------------------------
    def start(self) -> None:
        """Pull frames from the reader on a timer until its source ends (paused while the panel
        is hidden: a closed dock reads nothing)."""
        self._running = self.reader is not None
        if self._running:
            self._timer.start()

    def stop(self) -> None:
        self._running = False
        self._timer.stop()

    def shutdown(self) -> None:
        """Stop reading and let the camera go (the table closed)."""
        self.stop()
        if self.reader is not None:
            self.reader.close()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._running:
            self._timer.start()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self._timer.stop()  # the dock was closed or the window minimised: no reading

    def _tick(self) -> None:
        update = self.reader.step() if self.reader is not None else None
        if update is None:
            self.stop()
            return
        self.show_update(update)

    def show_update(self, update: LiveUpdate) -> None:
        """Show a processed frame and its pending card; take it at once if auto-accepted. While
        a deck is being taught the cards in view are the deck's, not a deal: none is proposed."""
        self.show_frame(update.frame)
        self.show_advice(update.advice)
        if self.teaching:
            self.set_proposal(None)
            self.detail_label.setText("teaching a deck: no card is proposed")
            return
        self.set_proposal(update.pending, update.seat)
        if update.auto_accept and update.pending is not None:
            self.confirm()

    @property
    def teaching(self) -> bool:
        """The Teach a deck dialog is open."""
        return self.teach_dialog is not None and self.teach_dialog.isVisible()

    def show_advice(self, advice: str | None) -> None:
        """Show the reader's advice under the view (None hides it)."""
        self.advice_label.setText(advice or "")
        self.advice_label.setVisible(advice is not None)

    def show_frame(self, bgr: np.ndarray) -> None:
        """Display a BGR frame, scaled to the view."""
        show_bgr(self.view, bgr)

    def set_proposal(self, proposal: Proposal | None, seat: int | None = None) -> None:
        """Show ``proposal`` (None clears it); ``seat`` from the zones, else the seat box stays."""
        self._pending = proposal if proposal is not None and proposal.card is not None else None
        if self._pending is None:
            self.card_label.setText("–")
            self.card_label.setStyleSheet("")  # not the last card's red
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
