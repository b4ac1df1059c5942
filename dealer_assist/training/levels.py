"""Training levels: from learning (hints, untimed) to table-ready (timed, irregularities)."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.errors import RuleError


@dataclass(frozen=True)
class Level:
    name: str
    title: str
    hints: bool  # the hint is shown with the question and the answer can be revealed
    time_limit: float | None  # seconds; a later answer counts as wrong (None: untimed)
    target_seconds: float | None  # median answer time for the A band (None: not graded on time)
    irregular_share: float  # share of questions that are injected irregularities

    @property
    def timed(self) -> bool:
        return self.time_limit is not None


LEVELS: dict[str, Level] = {
    "learning": Level("learning", "Learning", True, None, None, 0.0),
    "practice": Level("practice", "Practice", False, 60.0, 20.0, 0.0),
    "table_ready": Level("table_ready", "Table-ready", False, 30.0, 10.0, 0.35),
}
ALIASES = {"table-ready": "table_ready", "tableready": "table_ready"}


def get_level(name: str) -> Level:
    key = ALIASES.get(name, name)
    if key not in LEVELS:
        raise RuleError(f"unknown level {name!r}; levels: {', '.join(LEVELS)}")
    return LEVELS[key]
