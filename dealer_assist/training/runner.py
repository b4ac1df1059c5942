"""A drill run: a seeded series of questions at one level, timed by an injected clock."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dealer_assist.errors import RuleError
from dealer_assist.training.drills import Question, format_answer, kinds_for, make_question
from dealer_assist.training.grading import Attempt, Summary, summarize
from dealer_assist.training.levels import Level, get_level


@dataclass(frozen=True)
class Feedback:
    correct: bool  # right and in time
    right: bool  # the answer itself was right
    late: bool
    seconds: float
    given: str
    expected: str
    explanation: str


class DrillRun:
    """``count`` questions of ``game`` at ``level``; kinds drawn by the seed (or ``kinds``)."""

    def __init__(self, game: str, level: str = "learning", count: int = 10, seed: int = 0,
                 kinds: list[str] | None = None, options: dict[str, Any] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.level: Level = get_level(level)
        self.game = game
        self.count = count
        self.seed = seed
        self.options = options
        self.clock = clock
        if kinds:
            unknown = [k for k in kinds if k not in kinds_for(game)]
            if unknown:
                raise RuleError(f"no drill {unknown[0]!r} for {game}; "
                                f"drills: {', '.join(kinds_for(game))}")
            self.plain, self.irregular = list(kinds), []
        else:
            self.plain = kinds_for(game, irregular=False)
            self.irregular = kinds_for(game, irregular=True) if self.level.irregular_share else []
        self.rng = random.Random(f"run/{game}/{self.level.name}/{seed}")
        self.attempts: list[Attempt] = []
        self.current: Question | None = None
        self.asked_at = 0.0

    @property
    def done(self) -> bool:
        return len(self.attempts) >= self.count

    def _next_kind(self) -> str:
        if self.irregular and self.rng.random() < self.level.irregular_share:
            return self.rng.choice(self.irregular)
        return self.rng.choice(self.plain)

    def next_question(self) -> Question | None:
        """The next question (its clock starts now), or None when the run is done."""
        if self.done:
            return None
        kind = self._next_kind()
        qseed = self.seed * 1000 + len(self.attempts)
        self.current = make_question(self.game, kind, qseed, self.options)
        self.asked_at = self.clock()
        return self.current

    def answer(self, given: Any) -> Feedback:
        """Check ``given`` (a parsed answer) against the engine's answer and record it."""
        q = self.current
        if q is None:
            raise RuleError("there is no question waiting for an answer")
        seconds = max(0.0, self.clock() - self.asked_at)
        right = q.check(given)
        limit = self.level.time_limit
        late = limit is not None and seconds > limit
        given_text = format_answer(q, given)
        self.attempts.append(Attempt(q.game, q.kind, self.level.name, q.seed, right and not late,
                                     round(seconds, 3), given_text, q.answer_text(), late))
        self.current = None
        return Feedback(right and not late, right, late, seconds, given_text, q.answer_text(),
                        q.explanation)

    def summary(self) -> Summary:
        return summarize(self.attempts, self.level.name)
