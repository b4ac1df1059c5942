"""The games: one module per rule text in ../shared/rules/, looked up by name."""

from __future__ import annotations

import importlib
from types import ModuleType

from dealer_assist.errors import RuleError

GAME_MODULES = {
    "greek31": "dealer_assist.variants.greek31",
    "trianta_ena": "dealer_assist.variants.trianta_ena",
    "one_and_thirty": "dealer_assist.variants.one_and_thirty",
    "sudden_death": "dealer_assist.variants.sudden_death",
    "classic31": "dealer_assist.variants.classic31",
}
ALIASES = {
    "greek-31": "greek31", "trianta-ena": "trianta_ena", "one-and-thirty": "one_and_thirty",
    "bone-ace": "one_and_thirty", "sudden-death-31": "sudden_death", "sudden-death": "sudden_death",
    "31-classic": "classic31", "classic-31": "classic31",
}


def get_variant(name: str) -> ModuleType:
    """The game module for ``name`` (or one of its aliases); RuleError if there is none."""
    key = ALIASES.get(name, name)
    if key not in GAME_MODULES:
        raise RuleError(f"unknown game {name!r}; games: {', '.join(GAME_MODULES)}")
    try:
        return importlib.import_module(GAME_MODULES[key])
    except ModuleNotFoundError as exc:
        if exc.name == GAME_MODULES[key]:
            raise RuleError(f"game {name!r} is not available in this build") from exc
        raise


def available_games() -> list[str]:
    """Names of the games this build can play."""
    found = []
    for key in GAME_MODULES:
        try:
            get_variant(key)
        except RuleError:
            continue
        found.append(key)
    return found
