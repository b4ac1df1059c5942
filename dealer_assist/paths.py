"""Where the user's data lives: sessions, calibrated decks, trainees.

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
