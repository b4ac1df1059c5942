"""Trianta Ena drills: after the settlement, who is offered the bank first (T7, T10).

The answer is the engine's: ``settle`` is submitted on a copy of the session and the game
module's own ``current_offer`` names the first candidate (none: the banker keeps the bank).
"""

from __future__ import annotations

import random
from dataclasses import replace

from dealer_assist.training.drills import (
    MASKS,
    SEAT,
    DrillKind,
    Question,
    question,
    register,
    seat_choices,
)
from dealer_assist.training.render import settlement_lines
from dealer_assist.training.simulate import Table
from dealer_assist.variants import trianta_ena
from dealer_assist.variants.base import RoundResult, SeatResult

GAME = "trianta_ena"


def build_bank_offer(table: Table, rng: random.Random, seed: int) -> Question:
    event = table.play_until(lambda t, e: e.get("type") == "settle")
    copy, result, refusal = table.outcome(event)
    assert not refusal, refusal
    offer = trianta_ena.current_offer(copy.state)
    answer = offer or 0
    names = table.session.names
    settled = result.results if result else copy.state.results
    lines = [*settlement_lines_of(settled, names),
             f"first offered the bank: {names[offer - 1]}" if offer
             else "nobody is richer than the banker: the banker keeps the bank"]
    prompt = ("When this round is settled, who is offered the bank first? (Nobody, if no "
              "player is then richer than the banker.)")
    return question(table, "bank_offer", seed, prompt, SEAT, answer, "\n".join(lines),
                    hint="After settling: players richer than the banker, richest first; "
                    "equal money: nearer the banker's left (T7).",
                    choices=(*seat_choices(table), ("0", "nobody: the banker keeps the bank")),
                    entry=event)


def settlement_lines_of(results: tuple[SeatResult, ...], names: tuple[str, ...]) -> list[str]:
    return settlement_lines(RoundResult(0, None, tuple(results), (), None), names)


# the table projects each standing hand's result ("wins 20"): that is for the trainee to find
MASKS[GAME] = lambda sv: replace(sv, extra="")
register(DrillKind("bank_offer", "Who is offered the bank", build_bank_offer,
                   prefer=lambda q: q.answer != 0, prefer_share=0.35), [GAME])
