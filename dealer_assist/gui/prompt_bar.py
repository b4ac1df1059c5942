"""The strip under the table: the game's prompt, the last message, and the typing line."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

LINES = 2  # the bar keeps its height: a long prompt gets smaller type, not more lines
SMALLEST = 11


def fit_type(label: QLabel, base_px: int) -> None:
    """The largest type, up to ``base_px``, at which the label's text fits in LINES lines."""
    width = max(50, label.width())
    font = QFont(label.font())
    font.setPixelSize(base_px)
    limit = QFontMetrics(font).lineSpacing() * LINES
    for px in range(base_px, SMALLEST - 1, -1):
        font.setPixelSize(px)
        box = QFontMetrics(font).boundingRect(QRect(0, 0, width, 10000),
                                              int(Qt.TextFlag.TextWordWrap), label.text())
        if box.height() <= limit:
            break
    label.setStyleSheet(f"font-size: {px}px;" if px != base_px else "")


class PromptBar(QWidget):
    """``prompt`` is the view's sentence; ``message`` a refusal (error) or an announcement."""

    def __init__(self, entry: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("promptBar")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 2, 8, 2)
        layout.setSpacing(12)
        self.prompt = QLabel(self)
        self.prompt.setObjectName("prompt")
        self.prompt.setTextFormat(Qt.TextFormat.PlainText)
        self.prompt.setWordWrap(True)
        self.message = QLabel(self)
        self.message.setObjectName("message")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        layout.addWidget(self.prompt, 4)
        layout.addWidget(self.message, 3)
        self.target = QLabel(self)
        self.target.setObjectName("entryTarget")
        self.target.setTextFormat(Qt.TextFormat.PlainText)
        self.target.setToolTip("where a typed card or amount goes; type '3 7c' for seat 3")
        layout.addWidget(self.target)
        layout.addWidget(entry)
        self.info = ""
        self.show_message("")

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit()

    def fit(self) -> None:
        """Prompt and message in at most two lines each, in smaller type if need be."""
        for label in (self.prompt, self.message):
            label.setStyleSheet("")
            label.ensurePolished()
            fit_type(label, label.font().pixelSize() if label.font().pixelSize() > 0 else 16)

    def show_prompt(self, text: str, info: tuple[str, ...] = ()) -> None:
        """The prompt; the game's notes show where the message goes when there is none."""
        self.prompt.setText(text)
        self.info = " · ".join(info)
        if not self.message.property("shown"):
            self._show(self.info, False, note=True)
        self.fit()

    def show_target(self, text: str) -> None:
        """Where the next typed card or amount goes: ``→ Maria``."""
        self.target.setText(text)
        self.target.setVisible(bool(text))

    def show_message(self, text: str, error: bool = False) -> None:
        self.message.setProperty("shown", bool(text))
        self._show(text or self.info, error, note=not text)

    def _show(self, text: str, error: bool, note: bool) -> None:
        self.message.setText(text)
        self.message.setProperty("error", error)
        self.message.setProperty("note", note)
        self.message.setVisible(bool(text))
        self.message.style().unpolish(self.message)
        self.message.style().polish(self.message)
        self.fit()

    def message_text(self) -> str:
        """The message shown now ("" when only the game's notes show)."""
        return self.message.text() if self.message.property("shown") else ""
