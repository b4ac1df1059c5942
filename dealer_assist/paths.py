"""Where the user's data lives: sessions, adapted decks, trainees.

``$DEALER_ASSIST_DATA`` if set, else ``$XDG_DATA_HOME/dealer-assist``
(``~/.local/share/dealer-assist``).
"""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The user's data folder (created if missing)."""
    explicit = os.environ.get("DEALER_ASSIST_DATA")
    if explicit:
        folder = Path(explicit)
    else:
        base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
        folder = Path(base) / "dealer-assist"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def data_subdir(name: str) -> Path:
    """A folder of the user's data folder, such as ``sessions`` or ``keys`` (created if missing)."""
    folder = data_dir() / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder
