"""Grades by bands, streaks and weak spots, from recorded attempts (answer times are data).

A band needs both the accuracy and, at timed levels, a median answer time within a multiple
of the level's target:

| grade | accuracy | median time (timed levels) |
|---|---|---|
| A | ≥ 95 % | ≤ 1.0 × target |
| B | ≥ 85 % | ≤ 1.5 × target |
| C | ≥ 70 % | ≤ 2.0 × target |
| D | ≥ 50 % | any |
| F | below 50 % | any |

A grade is given from ``MIN_FOR_GRADE`` attempts on; fewer show "—".
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from dealer_assist.training.levels import get_level

BANDS: tuple[tuple[str, float, float | None], ...] = (
    ("A", 0.95, 1.0), ("B", 0.85, 1.5), ("C", 0.70, 2.0), ("D", 0.50, None))
MIN_FOR_GRADE = 5
WEAK_ACCURACY = 0.8  # a question type answered right less often than this is a weak spot
WEAK_MIN_ATTEMPTS = 3


@dataclass(frozen=True)
class Attempt:
    """One answered question."""

    game: str
    kind: str
    level: str
    seed: int
    correct: bool  # right and in time
    seconds: float
    given: str = ""
    expected: str = ""
    late: bool = False
    at: str = ""


def grade(accuracy: float, median_seconds: float | None, level: str, count: int) -> str:
    """The band for this accuracy (0-1) and median answer time at ``level``."""
    if count < MIN_FOR_GRADE:
        return "—"
    target = get_level(level).target_seconds
    for name, least, time_factor in BANDS:
        if accuracy < least:
            continue
        if target is None or time_factor is None or median_seconds is None:
            return name
        if median_seconds <= target * time_factor:
            return name
    return "F"


def streaks(results: Sequence[bool]) -> tuple[int, int]:
    """(current, best) runs of right answers, oldest result first."""
    best = run = 0
    for ok in results:
        run = run + 1 if ok else 0
        best = max(best, run)
    return run, best


@dataclass(frozen=True)
class KindStats:
    kind: str
    count: int
    correct: int
    median_seconds: float | None

    @property
    def accuracy(self) -> float:
        return self.correct / self.count if self.count else 0.0


@dataclass(frozen=True)
class Summary:
    count: int
    correct: int
    median_seconds: float | None
    grade: str
    streak: int
    best_streak: int
    kinds: tuple[KindStats, ...] = field(default_factory=tuple)
    weak_spots: tuple[str, ...] = ()

    @property
    def accuracy(self) -> float:
        return self.correct / self.count if self.count else 0.0


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def kind_stats(attempts: Sequence[Attempt]) -> tuple[KindStats, ...]:
    kinds: dict[str, list[Attempt]] = {}
    for a in attempts:
        kinds.setdefault(a.kind, []).append(a)
    return tuple(
        KindStats(k, len(group), sum(a.correct for a in group),
                  _median([a.seconds for a in group]))
        for k, group in sorted(kinds.items()))


def weak_spots(attempts: Sequence[Attempt]) -> tuple[str, ...]:
    """Question types with at least WEAK_MIN_ATTEMPTS tries and accuracy under WEAK_ACCURACY,
    weakest first."""
    weak = [s for s in kind_stats(attempts)
            if s.count >= WEAK_MIN_ATTEMPTS and s.accuracy < WEAK_ACCURACY]
    return tuple(s.kind for s in sorted(weak, key=lambda s: (s.accuracy, s.kind)))


def summarize(attempts: Sequence[Attempt], level: str) -> Summary:
    """Accuracy, median time, grade, streaks and weak spots of attempts at one level."""
    count = len(attempts)
    correct = sum(a.correct for a in attempts)
    median = _median([a.seconds for a in attempts])
    current, best = streaks([a.correct for a in attempts])
    accuracy = correct / count if count else 0.0
    return Summary(count, correct, median, grade(accuracy, median, level, count), current, best,
                   kind_stats(attempts), weak_spots(attempts))
