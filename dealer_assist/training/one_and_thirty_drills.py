"""One and Thirty drills: who takes the pot, with ties going to the older player (O5-O7).

The answer is the engine's RoundResult after ``settle``; whether the hand was an age tie is
read with the game module's own ``hand_total`` over the hands still in.
"""

from __future__ import annotations

import random
from dataclasses import replace

from dealer_assist.training.drills import (
    MASKS,
    SEAT,
    DrillKind,
    Question,
    pending_text,
    question,
    register,
    round_end,
    seat_choices,
)
from dealer_assist.training.render import settlement_lines
from dealer_assist.training.simulate import Table
from dealer_assist.variants import one_and_thirty

GAME = "one_and_thirty"


def _age_tie(table: Table) -> bool:
    """At the showdown, do two hands still in share the best total?"""
    state = table.session.state
    totals = [one_and_thirty.hand_total(state.hand(s).cards) for s in state.order
              if state.hand(s).status == one_and_thirty.STUCK and state.hand(s).known]
    return len(totals) > 1 and totals.count(max(totals)) > 1


def build_pot_winner(table: Table, rng: random.Random, seed: int) -> Question:
    event, result = round_end(table)
    winner = next(r.seat for r in result.results if r.outcome == "won")
    tie = _age_tie(table)
    prompt = f"{pending_text(table, event)}Who takes the pot?"
    return question(table, "pot_winner", seed, prompt, SEAT, winner,
                    "\n".join(settlement_lines(result, table.session.names)),
                    hint="A 31 wins at once; else the closest to 31 without going over; "
                    "equal totals: the older player (age 1 is the oldest).",
                    choices=seat_choices(table), entry=event, tags=("age tie",) if tie else ())


# the table marks the showdown leader: the trainee is to find that, so it is not shown
MASKS[GAME] = lambda sv: replace(sv, status="in") if sv.status == "wins" else sv
register(DrillKind("pot_winner", "Who takes the pot (age ties)", build_pot_winner,
                   prefer=lambda q: "age tie" in q.tags, prefer_share=0.5), [GAME])
