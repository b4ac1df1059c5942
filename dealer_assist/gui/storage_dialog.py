"""The dialog a storage fault becomes: what happened and what to do (StorageError's own words).

``show_storage_error(parent, exc)`` opens it without blocking and returns it (tests read it).
"""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from dealer_assist.errors import StorageError

WARNING_KINDS = ("disk_full", "read_only", "locked", "exists", "key_missing", "io")


class StorageDialog(QMessageBox):
    """Title, what happened (bold), what to do; one big OK button."""

    def __init__(self, error: StorageError, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.error = error
        self.setObjectName("storageDialog")
        self.setWindowTitle(error.title)
        self.setIcon(QMessageBox.Icon.Warning if error.kind in WARNING_KINDS
                     else QMessageBox.Icon.Critical)
        self.setText(f"<b>{error.title}</b><br><br>{_html(error.what)}")
        self.setInformativeText(f"What to do: {error.todo}")
        ok = self.addButton("OK", QMessageBox.ButtonRole.AcceptRole)
        ok.setObjectName("storageOk")
        ok.setMinimumSize(160, 52)
        self.ok_button = ok


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def show_storage_error(parent: QWidget | None, error: StorageError) -> StorageDialog:
    dialog = StorageDialog(error, parent)
    dialog.open()
    return dialog
