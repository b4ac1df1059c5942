"""Seeded Greek 31 sessions for benchmarks and soak tests: a plausible dealer and players."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.variants import greek31
from dealer_assist.variants.base import SeatSpec

PLAYERS = 4
RICH = 10**9  # nobody goes broke, so every deal is a full one


def greek31_start() -> dict[str, Any]:
    seats = [{"name": f"P{i}", "money": RICH} for i in range(1, PLAYERS + 1)]
    return {"type": "session_start", "game": "greek31",
            "options": {"min_bet": 1, "max_bet": 10}, "seats": seats, "first_dealer": 1}


def greek31_events(rounds: int, seed: int = 1) -> Iterator[dict[str, Any]]:
    """Events (after session_start) of ``rounds`` Greek 31 deals with four players."""
    rng = random.Random(seed)
    seats = tuple(SeatSpec(f"P{i}", RICH) for i in range(1, PLAYERS + 1))
    state = greek31.start(greek31.Options(max_bet=10), seats, 1)
    for _ in range(rounds):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        for event in _one_deal(state.order, state.dealer, deck, rng):
            state = greek31.apply(state, event)
            yield event


def _stands(cards: list[Card], threshold: int) -> bool | None:
    """None when the hand is finished (bust or 31), else whether to stand."""
    value = greek31.evaluate(tuple(cards))
    if value.bust or value.rank == greek31.RANK_31:
        return None
    return value.rank >= threshold


def _one_deal(order: tuple[int, ...], dealer: int, deck: list[Card], rng: random.Random
              ) -> Iterator[dict[str, Any]]:
    hands: dict[int, list[Card]] = {}
    for seat in order:
        hands[seat] = [deck.pop()]
        yield {"type": "deal", "seat": seat, "card": hands[seat][0].code}
        yield {"type": "bet", "seat": seat, "amount": rng.randint(1, 10)}
    dealer_cards: list[Card] = []
    players_play = False
    while True:
        dealer_cards.append(deck.pop())
        yield {"type": "deal", "seat": dealer, "card": dealer_cards[-1].code}
        decision = _stands(dealer_cards, 24)
        if decision is None:
            players_play = not greek31.evaluate(tuple(dealer_cards)).bust
            if players_play:  # the dealer holds 31: standing ends the deal
                yield {"type": "stand", "seat": dealer}
                players_play = False
            break
        if decision:
            yield {"type": "stand", "seat": dealer}
            players_play = True
            break
    if players_play:
        for seat in order:
            while (decision := _stands(hands[seat], 23)) is False:
                hands[seat].append(deck.pop())
                yield {"type": "deal", "seat": seat, "card": hands[seat][-1].code}
            if decision:
                yield {"type": "stand", "seat": seat}
    yield {"type": "settle"}
