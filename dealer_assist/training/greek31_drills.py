"""Greek 31 drills: the generic ones, the settlement order (G4, G5), and what a hand is worth
(G1 Aces, G2 the pair of Twos), read with the game module's own ``evaluate``."""

from __future__ import annotations

import random
from dataclasses import replace

from dealer_assist.cards import parse_cards
from dealer_assist.training.drills import (
    AMOUNT,
    SETTLE_ORDER,
    DrillKind,
    Question,
    question,
    register,
    seat_label,
    until_suitable,
)
from dealer_assist.training.simulate import Table
from dealer_assist.variants import greek31

GAME = "greek31"


def build_hand_value(table: Table, rng: random.Random, seed: int) -> Question:
    return until_suitable(table, lambda: _hand_value(table, rng, seed))


def _hand_value(table: Table, rng: random.Random, seed: int) -> Question | None:
    event = table.play_steps(rng.randint(4, 30))
    heath = table.session.options.heath
    hands = {sv.seat: parse_cards(sv.cards) for sv in table.session.view().seats
             if len(sv.cards) >= 2 and None not in sv.cards and not any(sv.hidden)}
    if not hands:
        table.submit(event)
        return None
    aces = [s for s, cards in hands.items() if any(c.rank in ("A", "2") for c in cards)]
    seat = rng.choice(aces if aces and rng.random() < 0.7 else list(hands))
    value = greek31.evaluate(hands[seat], heath)
    prompt = (f"What is {seat_label(table, seat)}'s hand worth? (A bust hand: its lowest "
              f"total.)")
    rule = ("Heath: Aces alternate 1 and 11; a pair of Twos beats 14 (G6)" if heath else
            "Aces 1 or 11, at least one 11 with two or more; two Twos alone are 14 (G1, G2)")
    q = question(table, "hand_value", seed, prompt, AMOUNT, value.total,
                 f"{' '.join(c.label for c in hands[seat])}: {value.label}", hint=rule,
                 entry=event, tags=("aces",) if seat in aces else ())
    # the table shows every hand's value and "31" or "bust": not for the one asked about
    seats = tuple(replace(sv, value="?", status="in hand") if sv.seat == seat else sv
                  for sv in q.table.seats)
    return replace(q, table=replace(q.table, seats=seats))


register(SETTLE_ORDER, [GAME])
register(DrillKind("hand_value", "What is the hand worth", build_hand_value), [GAME])
