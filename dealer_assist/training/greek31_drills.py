"""Greek 31 drills: the generic ones, plus the order in which the dealer settles (G4, G5)."""

from __future__ import annotations

from dealer_assist.training.drills import SETTLE_ORDER, register

register(SETTLE_ORDER, ["greek31"])
