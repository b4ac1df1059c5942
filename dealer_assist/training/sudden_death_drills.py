"""Sudden Death 31 drills: who wins the showdown (tie-breaks, S6) and who gets the odd chip.

Answers are the engine's RoundResult after the hand's last entry, and the game module's own
``from_openers_left`` and ``split_pot`` (the functions the live settlement pays with).
"""

from __future__ import annotations

import random

from dealer_assist.training.drills import (
    AMOUNT,
    ORDER,
    DrillKind,
    Question,
    pending_text,
    question,
    register,
    round_end,
    seat_label,
    until_suitable,
)
from dealer_assist.training.render import settlement_lines
from dealer_assist.training.simulate import Table
from dealer_assist.variants import sudden_death
from dealer_assist.variants.sudden_death_scoring import split_pot

GAME = "sudden_death"


def build_showdown(table: Table, rng: random.Random, seed: int) -> Question:
    return until_suitable(table, lambda: _showdown(table, seed))


def _showdown(table: Table, seed: int) -> Question | None:
    event, result = round_end(table)
    note = next((n for n in result.notes if n.startswith("Showdown")), None)
    if note is None:  # an instant win: nothing to compare
        table.submit(event)
        return None
    winners = tuple(r.seat for r in result.results if r.outcome in ("won", "split"))
    names = table.session.names
    prompt = (f"{pending_text(table, event)}Who wins the showdown? Touch the winner (for a "
              f"split pot, every winner, clockwise from the opener's left), then OK.")
    tie = "suit total" not in note
    return question(table, "showdown", seed, prompt, ORDER, winners,
                    "\n".join(settlement_lines(result, names)),
                    hint="Highest suit total; ties: highest card of that suit, then the "
                    "second, then the third (S6).",
                    choices=tuple((str(s), seat_label(table, s))
                                  for s in sudden_death.from_openers_left(table.session.state)),
                    entry=event, tags=("tie",) if tie else ())


def build_odd_chip(table: Table, rng: random.Random, seed: int) -> Question:
    event, _ = round_end(table)
    state = table.session.state
    order = sudden_death.from_openers_left(state)
    tied = sorted(rng.sample(order, rng.choice((2, 3)) if len(order) > 2 else 2))
    shares = split_pot(state.pot, [s for s in order if s in tied])
    ask = rng.choice(tied)
    who = ", ".join(seat_label(table, s) for s in tied)
    prompt = (f"Suppose {who} tie on every tie-breaker and split the pot of {state.pot}. "
              f"How many chips does {seat_label(table, ask)} take from the pot?")
    opener = state.names[state.opener - 1]
    explanation = ("Shares: " + ", ".join(f"{state.names[s - 1]} {shares[s]}" for s in tied)
                   + f" (odd chips one each, clockwise from the left of the opener, {opener})")
    return question(table, "odd_chip", seed, prompt, AMOUNT, shares[ask], explanation,
                    hint=f"{opener} opened; odd chips go clockwise from the opener's left.",
                    entry=event, tags=("odd",) if len(set(shares.values())) > 1 else ())


register(DrillKind("showdown", "Showdown and tie-breaks", build_showdown,
                   prefer=lambda q: "tie" in q.tags, prefer_share=0.5), [GAME])
register(DrillKind("odd_chip", "Split pot: the odd chip", build_odd_chip,
                   prefer=lambda q: "odd" in q.tags, prefer_share=0.9), [GAME])
