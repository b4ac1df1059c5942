"""The log's head as an anchor outside the file: ``N:HASH`` and its QR code (segno), for a
player to photograph. ``dealer-assist verify FILE.db --expect-head N:HASH`` later proves the
first N events are unchanged and nothing was cut off. Shown on the settlement slip and in the
history; the PDF report prints the same head and QR on its signature page."""

from __future__ import annotations

import io

import segno
from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from dealer_assist.session.engine import Session
from dealer_assist.session.log import Head


def session_head(session: Session | None) -> Head | None:
    """The head of a logged session (None for a session without a log file)."""
    log = getattr(session, "log", None)
    return log.head if log is not None else None


def qr_png(head: Head, scale: int = 4) -> bytes:
    out = io.BytesIO()
    segno.make(head.qr_text, error="m").save(out, kind="png", scale=scale, border=2)
    return out.getvalue()


class HeadWidget(QWidget):
    """``Log head 12:0123456789abcdef`` beside its QR code; hidden when there is no head."""

    def __init__(self, head: Head | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("logHead")
        self.head = head
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        self.qr = QLabel(self)
        self.qr.setObjectName("logHeadQr")
        text = QVBoxLayout()
        self.label = QLabel(self)
        self.label.setObjectName("logHeadText")
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        hint = QLabel("Photograph this: it proves later that the log was not changed "
                      "(dealer-assist verify --expect-head).", self)
        hint.setWordWrap(True)
        text.addWidget(self.label)
        text.addWidget(hint)
        text.addStretch(1)
        layout.addWidget(self.qr)
        layout.addLayout(text, 1)
        if head is None:
            self.hide()
            return
        self.label.setText(f"<b>Log head {head}</b> ({head.events} events)")
        pixmap = QPixmap()
        pixmap.loadFromData(qr_png(head))
        self.qr.setPixmap(pixmap)


def add_head(dialog: QWidget, head: Head | None) -> HeadWidget:
    """Put the head above a dialog's buttons (its layout's last item)."""
    widget = HeadWidget(head, dialog)
    layout = dialog.layout()
    layout.insertWidget(max(0, layout.count() - 1), widget)
    dialog.head = widget  # type: ignore[attr-defined]
    return widget
