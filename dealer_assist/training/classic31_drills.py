"""31 Classic drills: per-wager payouts on any pay table (folds with live bonuses included),
the settlement order 6 to 1 and within a position, and irregularities with their remedies.

Every answer is the game module's own: ``classic31.settle_spot`` for a position's wagers (the
function live settlement uses) and the engine's RoundResult after a ``settle``, ``misdeal`` or
``handled_draw`` entry submitted on a copy of the session.
"""

from __future__ import annotations

import random
from typing import Any

from dealer_assist.training.drills import (
    AMOUNT,
    CHOICE,
    ORDER,
    SETTLE_ORDER,
    VARIED_OPTIONS,
    VARIED_SEATS,
    DrillKind,
    Question,
    question,
    register,
    round_end,
    seat_label,
    until_suitable,
)
from dealer_assist.training.render import settlement_lines
from dealer_assist.training.simulate import Table
from dealer_assist.variants import classic31, classic31_tables

GAME = "classic31"
NAMES = ("Ann", "Bea", "Cy", "Dora", "Eli", "Fay")


def _seats(rng: random.Random) -> list[dict[str, Any]]:
    """Two to six players at positions 1-6, the others vacant (C8), with 100-300 each."""
    positions = sorted(rng.sample(range(1, 7), rng.randint(2, 6)))
    return [{"name": NAMES[p - 1], "money": rng.randrange(100, 301, 25), "position": p}
            for p in positions]


VARIED_SEATS[GAME] = _seats
VARIED_OPTIONS[GAME] = {"play_table": tuple(classic31_tables.PLAY_TABLES),
                        "natural_table": tuple(classic31_tables.NATURAL_TABLES),
                        "royal_table": tuple(classic31_tables.ROYAL_TABLES)}


def _tables(table: Table) -> str:
    o = table.session.options
    return f"Play #{o.play_table}, Natural #{o.natural_table}, Royal Family #{o.royal_table}"


def _lines(table: Table, seat: int) -> tuple[Any, ...]:
    """The wagers of ``seat`` as the live settlement settles them (C7, C8)."""
    return classic31.settle_spot(table.session.state.spot(seat), table.session.options)


def _settling(table: Table) -> tuple[dict[str, Any], Any, list[int]]:
    event, result = round_end(table)
    seats = [r.seat for r in result.results if r.outcome not in ("sat out", "misdeal")]
    return event, result, seats


# ---------------------------------------------------------------- per-wager payout


def build_wager_payout(table: Table, rng: random.Random, seed: int) -> Question:
    return until_suitable(table, lambda: _wager_payout(table, rng, seed))


def _wager_payout(table: Table, rng: random.Random, seed: int) -> Question | None:
    event, result, seats = _settling(table)
    if event.get("type") != "settle" or not seats:
        table.submit(event)
        return None
    folded = [s for s in seats if table.session.state.spot(s).status == classic31.FOLDED]
    seat = rng.choice(folded if folded and rng.random() < 0.5 else seats)
    lines = _lines(table, seat)
    line = rng.choice(lines)
    prompt = (f"Pay tables {_tables(table)}. What does {seat_label(table, seat)}'s {line.wager} "
              f"wager of {line.stake} pay (+ win, − loss, 0 push or returned)?")
    explanation = "\n".join([f"{seat_label(table, seat)}:", *(f"  {x.text()}" for x in lines),
                             *settlement_lines(result, table.session.names)])
    return question(table, "wager_payout", seed, prompt, AMOUNT, line.amount, explanation,
                    hint=f"{line.wager}: {line.category}, {line.odds}", entry=event,
                    tags=("folded",) if seat in folded else ())


# ---------------------------------------------------------------- order within a position


def build_wager_order(table: Table, rng: random.Random, seed: int) -> Question:
    return until_suitable(table, lambda: _wager_order(table, rng, seed))


def _wager_order(table: Table, rng: random.Random, seed: int) -> Question | None:
    event, _, seats = _settling(table)
    with_many = [s for s in seats if len(_lines(table, s)) >= 3]
    if event.get("type") != "settle" or not with_many:
        table.submit(event)
        return None
    seat = rng.choice(with_many)
    order = [line.wager for line in _lines(table, seat)]
    shown = order[:]
    rng.shuffle(shown)
    choices = tuple((str(i), w) for i, w in enumerate(shown, start=1))
    answer = tuple(shown.index(w) + 1 for w in order)
    prompt = (f"{seat_label(table, seat)} has {', '.join(shown)}. In what order are these wagers "
              f"settled? Touch each in turn.")
    explanation = "\n".join(f"{x.text()}" for x in _lines(table, seat))
    return question(table, "wager_order", seed, prompt, ORDER, answer, explanation,
                    hint="Within a position: Natural bonus, Ante and Play, Royal Family.",
                    choices=choices, entry=event)


# ---------------------------------------------------------------- irregularities (C9)

REMEDIES = (
    ("misdeal", "Misdeal: every hand dead, every wager returned"),
    ("handled_draw", "Forfeit that hand and its wagers; return a placed Play wager"),
    ("none", "No irregularity: play on"),
)
SITUATIONS = {
    "misdeal": ("While dealing, the dealer skips {who}.",
                "A card of {who}'s packet is exposed during the deal."),
    "handled_draw": ("{who} picks up and looks at the Draw card.",
                     "{who} touches the Draw card before the dealer turns it."),
    "none": ("{who} looks at the three cards and places a Play wager equal to the Ante.",
             "{who} folds; the dealer takes the Ante and leaves the bonus wagers in place."),
}


def _irregular_point(table: Table, rng: random.Random) -> tuple[str, int] | None:
    """Play into the decisions or settlement phase; pick a seated hand and an irregularity
    the engine accepts there."""
    steps = rng.randint(0, 6)

    def stop(t: Table, e: dict[str, Any]) -> bool:
        nonlocal steps
        if t.session.state.phase == classic31.BETTING or t.completes_round(e):
            return t.completes_round(e)
        steps -= 1
        return steps < 0

    table.play_until(stop)
    state = table.session.state
    if state.phase == classic31.BETTING:
        return None
    in_hand = [s for s in state.deal_order() if state.spot(s).status != classic31.OUT]
    seats = {
        "misdeal": [] if table.outcome({"type": "misdeal"})[2] else in_hand,  # C11
        "handled_draw": [s for s in in_hand
                         if not table.outcome({"type": "handled_draw", "seat": s})[2]],
        "none": [s for s in in_hand if state.spot(s).status == classic31.IN],
    }
    kinds = [k for k, _ in REMEDIES if seats[k]]
    if not kinds:
        return None
    kind = rng.choice(kinds)
    return kind, rng.choice(seats[kind])


def _remedy_event(kind: str, seat: int) -> dict[str, Any] | None:
    if kind == "misdeal":
        return {"type": "misdeal", "reason": "training"}
    if kind == "handled_draw":
        return {"type": "handled_draw", "seat": seat}
    return None


def build_irregularity(table: Table, rng: random.Random, seed: int) -> Question:
    return until_suitable(table, lambda: _irregularity(table, rng, seed))


def _irregularity(table: Table, rng: random.Random, seed: int) -> Question | None:
    point = _irregular_point(table, rng)
    if point is None:
        table.play_round()
        return None
    kind, seat = point
    situation = rng.choice(SITUATIONS[kind]).format(who=seat_label(table, seat))
    event = _remedy_event(kind, seat)
    if event is None:
        explanation = "Nothing irregular: the hand goes on as dealt."
    else:
        copy, _, refusal = table.outcome(event)
        assert not refusal, refusal
        after = copy.rounds[-1] if kind == "misdeal" else None
        explanation = (f"The dealer enters {kind}." + (
            "\n" + "\n".join(settlement_lines(after, table.session.names)) if after else ""))
    return question(table, "irregularity", seed, f"{situation} What is the remedy?", CHOICE,
                    kind, explanation, hint="C9: misdeal, or the Draw card handled.",
                    choices=REMEDIES, entry=event)


def build_irregularity_payout(table: Table, rng: random.Random, seed: int) -> Question:
    return until_suitable(table, lambda: _irregularity_payout(table, rng, seed))


def _irregularity_payout(table: Table, rng: random.Random, seed: int) -> Question | None:
    point = _irregular_point(table, rng)
    if point is None or point[0] == "none":
        table.play_round()
        return None
    kind, seat = point
    event = _remedy_event(kind, seat)
    assert event is not None
    copy, result, refusal = table.outcome(event)
    assert not refusal, refusal
    if result is None:  # handled Draw card: the rest of the round is played out on the copy
        sim = Table(copy, table.rng, table.shoe)
        _, result = round_end(sim)
    situation = ("The dealer calls a misdeal." if kind == "misdeal"
                 else f"{seat_label(table, seat)} handled the Draw card.")
    target = seat if kind == "handled_draw" else rng.choice(
        [r.seat for r in result.results if r.outcome != "sat out"])
    amount = next(r.amount for r in result.results if r.seat == target)
    prompt = (f"{situation} When the round is settled, what does {seat_label(table, target)} win "
              f"(+) or lose (−)?")
    return question(table, "irregularity_payout", seed, prompt, AMOUNT, amount,
                    "\n".join(settlement_lines(result, table.session.names)),
                    hint="C9: a misdeal returns every wager; a handled Draw card forfeits all "
                    "but a placed Play wager.", entry=event)


def _has_folded_bonus(q: Question) -> bool:
    return "folded" in q.tags


register(SETTLE_ORDER, [GAME])
register(DrillKind("wager_payout", "Payout per position and wager", build_wager_payout,
                   prefer=_has_folded_bonus, prefer_share=0.3), [GAME])
register(DrillKind("wager_order", "Settlement order within a position", build_wager_order),
         [GAME])
register(DrillKind("irregularity", "Irregularity: name the remedy", build_irregularity,
                   irregular=True), [GAME])
register(DrillKind("irregularity_payout", "Irregularity: settle it",
                   build_irregularity_payout, irregular=True), [GAME])
