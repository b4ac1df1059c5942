"""A seeded table: play a game through the engine by choosing legal actions at random.

Every drill is built on this: the same seed gives the same shoe, the same choices and so the
same table. Cards come from a shoe shuffled by the seed; the engine refuses any card it cannot
take (already in play), and the simulator then tries the next card of the shoe.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dealer_assist.cards import FULL_DECK
from dealer_assist.errors import RuleError
from dealer_assist.session.engine import Session
from dealer_assist.variants import get_variant
from dealer_assist.variants.base import Action, RoundResult

# actions a simulated table never takes on its own: money in or out, corrections, cards left
# unentered, and irregularities (drills inject those on purpose)
SKIPPED = frozenset({"buy_in", "cash_out", "void", "end_session", "chip_count",
                     "deal_face_down", "misdeal", "handled_draw"})
# actions that draw a card and actions that stop drawing, for the stand-or-draw policy
DRAWS = frozenset({"deal", "hit", "draw", "have"})
STANDS = frozenset({"stand", "stick", "knock"})
# how often an action is chosen against 1.0 for any other: players fold or sit out now and
# then, and the hands are dealt only once most wagers are down
WEIGHTS = {"sit_out": 0.25, "fold": 0.25, "bank_decline": 0.5, "deal_hands": 0.15}


class SimulationError(RuntimeError):
    """The simulated table did not reach the question point (a bug, not a player error)."""


@dataclass
class SeededShoe:
    """A shoe shuffled once by the seed; a dealt card goes to the bottom (as in Greek 31)."""

    rng: random.Random
    decks: int = 1
    order: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.order = [c.code for c in FULL_DECK] * self.decks
        self.rng.shuffle(self.order)

    def candidates(self) -> list[str]:
        """The cards from the top of the shoe down."""
        return list(self.order)

    def taken(self, code: str) -> None:
        """The engine accepted ``code``: it goes to the bottom."""
        self.order.remove(code)
        self.order.append(code)


def _numeric(value: str) -> int | None:
    found = re.findall(r"\d+", value or "")
    return int(found[-1]) if found else None


@dataclass
class Table:
    """A simulated session: the engine's session, the seeded shoe and the seeded choices."""

    session: Session
    rng: random.Random
    shoe: SeededShoe
    targets: dict[int, int] = field(default_factory=dict)  # seat -> total it stands on

    @classmethod
    def new(cls, game: str, seed: int, options: dict[str, Any] | None = None,
            seats: list[dict[str, Any]] | None = None,
            first_dealer: int | None = None) -> Table:
        variant = get_variant(game)
        demo = variant.DEMO
        opts = {**demo.get("options", {}), **(options or {})}
        session = Session.new(variant.NAME, opts, seats or demo["seats"],
                              first_dealer if first_dealer is not None
                              else demo.get("first_dealer"))
        rng = random.Random(seed)
        decks = getattr(session.options, "decks", 1)
        return cls(session, rng, SeededShoe(random.Random(rng.random()), decks))

    # ------------------------------------------------------------ choosing

    def actions(self) -> list[Action]:
        return [a for a in self.session.legal_actions() if a.type not in SKIPPED]

    def choose(self) -> Action:
        """A seeded choice among the legal actions, drawing to a seeded target total."""
        acts = self.actions()
        if not acts:
            raise SimulationError("no legal action: the simulated table is stuck")
        seats = {a.seat for a in acts}
        draws = [a for a in acts if a.type in DRAWS]
        stands = [a for a in acts if a.type in STANDS]
        if draws and stands and len(seats) == 1:
            seat = stands[0].seat
            target = self.targets.setdefault(seat, self.rng.randint(17, 29))  # type: ignore[arg-type]
            value = self._value(seat)
            return stands[0] if value is not None and value >= target else draws[0]
        weights = [WEIGHTS.get(a.type, 1.0) for a in acts]
        return self.rng.choices(acts, weights=weights)[0]

    def _value(self, seat: int | None) -> int | None:
        for sv in self.session.view().seats:
            if sv.seat == seat:
                return _numeric(sv.value)
        return None

    def event_for(self, action: Action) -> dict[str, Any]:
        """The event of ``action`` with a seeded amount or the next card of the shoe."""
        if action.asks == "amount":
            low = action.minimum if action.minimum is not None else 1
            high = action.maximum if action.maximum is not None else low + 10
            high = max(low, high)  # small bets more often than large ones, as at a table
            return action.event(amount=min(high, int(self.rng.triangular(low, high + 1, low))))
        if action.asks == "card":
            return action.event(card=self._card_for(action))
        return action.event()

    def _card_for(self, action: Action) -> str:
        usable = set(self.session.view().usable_cards)
        for code in self.shoe.candidates():
            if usable and code not in usable:
                continue
            try:
                self.session.variant.apply(self.session.state, action.event(card=code))
            except RuleError:
                continue
            return code
        raise SimulationError("no card of the shoe is accepted")

    # ------------------------------------------------------------ playing

    def submit(self, event: dict[str, Any]) -> None:
        self.session.submit(event)
        if "card" in event and event["card"] is not None:
            self.shoe.taken(event["card"])
        if self.session.state.between_rounds:
            self.targets.clear()

    def completes_round(self, event: dict[str, Any]) -> bool:
        """Would ``event`` finish the round in progress? (Asked of the game, nothing changes.)"""
        return self.session.preview_round(event) is not None

    def play_round(self, max_steps: int = 400) -> RoundResult:
        """Play one whole round."""
        count = len(self.session.rounds)
        for _ in range(max_steps):
            self.submit(self.event_for(self.choose()))
            if len(self.session.rounds) > count:
                return self.session.rounds[-1]
        raise SimulationError("the round did not finish")

    def play_until(self, stop: Callable[[Table, dict[str, Any]], bool],
                   max_steps: int = 400) -> dict[str, Any]:
        """Play until the next chosen event satisfies ``stop``; return it, not submitted."""
        for _ in range(max_steps):
            event = self.event_for(self.choose())
            if stop(self, event):
                return event
            self.submit(event)
        raise SimulationError("the question point was not reached")

    def play_steps(self, steps: int) -> dict[str, Any]:
        """Play up to ``steps`` entries, stopping before one that would finish the round;
        return the next entry, not submitted (a question point inside a round)."""
        left = steps

        def stop(table: Table, event: dict[str, Any]) -> bool:
            nonlocal left
            left -= 1
            return left <= 0 or table.completes_round(event)

        return self.play_until(stop)

    def copy(self) -> Session:
        """An in-memory copy of the session, replayed from its events by the engine."""
        return Session.from_events([e.body for e in self.session.entries])

    def outcome(self, event: dict[str, Any]) -> tuple[Session, RoundResult | None, str]:
        """Submit ``event`` on a copy: the copy, the round it completed (if any), or the
        engine's reason for refusing it."""
        copy = self.copy()
        count = len(copy.rounds)
        try:
            copy.submit(event)
        except RuleError as exc:
            return copy, None, str(exc)
        return copy, copy.rounds[-1] if len(copy.rounds) > count else None, ""
