"""Each game's own drills live in a module of this package, loaded when the game is in the build."""

from __future__ import annotations

import importlib

from dealer_assist.variants import available_games

MODULES = {
    "greek31": "dealer_assist.training.greek31_drills",
    "classic31": "dealer_assist.training.classic31_drills",
    "sudden_death": "dealer_assist.training.sudden_death_drills",
    "one_and_thirty": "dealer_assist.training.one_and_thirty_drills",
    "trianta_ena": "dealer_assist.training.trianta_ena_drills",
}
_loaded: set[str] = set()


def load() -> None:
    """Import the drill module of every available game (each registers its kinds once)."""
    for game in available_games():
        if game in MODULES and game not in _loaded:
            importlib.import_module(MODULES[game])
            _loaded.add(game)
