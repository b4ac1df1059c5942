"""The card-room preferences of this device: the server to sync to and this tablet's table.

Kept in ``cardroom.json`` in the user's data folder. No server set: no background sync.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from dealer_assist.paths import data_dir

FILE = "cardroom.json"


@dataclass(frozen=True)
class CardRoomSettings:
    server: str = ""  # postgresql://tablet_t1@host/cardroom; empty: this table does not sync
    table: str = ""  # this tablet's card-room table, e.g. "T1"
    floor_server: str = ""  # the back office's login for the floor view (default: server)
    interval: int = 30  # seconds between background syncs

    @property
    def syncing(self) -> bool:
        return bool(self.server and self.table)


def load() -> CardRoomSettings:
    try:
        raw = json.loads((data_dir() / FILE).read_text(encoding="utf-8"))
        known = {k: v for k, v in raw.items() if k in CardRoomSettings.__dataclass_fields__}
        return CardRoomSettings(**known)
    except (OSError, ValueError, TypeError):
        return CardRoomSettings()


def save(settings: CardRoomSettings) -> None:
    (data_dir() / FILE).write_text(json.dumps(asdict(settings), indent=2), encoding="utf-8")
