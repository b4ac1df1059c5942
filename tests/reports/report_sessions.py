"""Golden sessions for the report tests, written to real log files; numbers hand-checked below."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_assist.session.engine import Session


def write_session(path: Path, game: str, options: dict[str, Any], seats: list[dict[str, Any]],
                  first_dealer: int | None, events: list[dict[str, Any]]) -> Path:
    session = Session.new(game, options, seats, first_dealer, path=path)
    for event in events:
        session.submit(event)
    session.close()
    return path


def _deal(seat: int, *cards: str) -> list[dict[str, Any]]:
    return [{"type": "deal", "seat": seat, "card": c} for c in cards]


# Greek 31: Ann 50 (deals first), Bea 30, Cy 20; buy-ins allowed. Player order is anticlockwise
# from the dealer's right: with Ann dealing, Cy (3) then Bea (2).
#
# Deal 1 (Ann): Cy 10S bets 5, Bea 9H bets 10; Ann KD 7C = 17 and stands.
#   Cy 10S 10C = 20 stands: 20 > 17 wins 5.  Bea 9H 8H 5D = 22 stands: wins 10.
#   Ann -15, Bea +10, Cy +5 -> 35 40 25.
# Deal 2 (Ann): Cy 5S bets 4, Bea JH bets 6; Ann 9D 9S QS = 28 stands.
#   Cy 5S 6S KS = 21 stands: loses 4.  Bea JH AH QH = 31: paid 6 at once.
#   Ann -2, Bea +6, Cy -4 -> 33 46 21.
# Cy buys in 10 -> 31.
# Deal 3 (Ann): Cy 2C bets 10, Bea sits out; Ann 8C 7D 9C KH = 34 bust: pays Cy 10.
#   Ann -10, Bea 0, Cy +10 -> 23 46 41. Ann was bust after 3 deals: the deal passes to Cy.
# End; chips counted: Ann 23, Bea 45 (one short), Cy 41.
#
# Session: Ann -27, Bea +16, Cy +11 (sum 0). Transfers: Ann pays Bea 16, Ann pays Cy 11.
GREEK_SEATS = [{"name": "Ann", "money": 50}, {"name": "Bea", "money": 30},
               {"name": "Cy", "money": 20}]
GREEK_OPTIONS = {"min_bet": 1, "max_bet": 10, "buy_ins": True}
GREEK_EVENTS: list[dict[str, Any]] = [
    *_deal(3, "10S"), {"type": "bet", "seat": 3, "amount": 5},
    *_deal(2, "9H"), {"type": "bet", "seat": 2, "amount": 10},
    *_deal(1, "KD", "7C"), {"type": "stand", "seat": 1},
    *_deal(3, "10C"), {"type": "stand", "seat": 3},
    *_deal(2, "8H", "5D"), {"type": "stand", "seat": 2},
    {"type": "settle"},
    *_deal(3, "5S"), {"type": "bet", "seat": 3, "amount": 4},
    *_deal(2, "JH"), {"type": "bet", "seat": 2, "amount": 6},
    *_deal(1, "9D", "9S", "QS"), {"type": "stand", "seat": 1},
    *_deal(3, "6S", "KS"), {"type": "stand", "seat": 3},
    *_deal(2, "AH", "QH"),
    {"type": "settle"},
    {"type": "buy_in", "seat": 3, "amount": 10},
    *_deal(3, "2C"), {"type": "bet", "seat": 3, "amount": 10},
    {"type": "sit_out", "seat": 2},
    *_deal(1, "8C", "7D", "9C", "KH"),
    {"type": "settle"},
    {"type": "end_session"},
    {"type": "chip_count", "counts": {"1": 23, "2": 45, "3": 41}},
]


def greek_session(path: Path) -> Path:
    return write_session(path, "greek31", GREEK_OPTIONS, GREEK_SEATS, 1, GREEK_EVENTS)


# A second Greek 31 table: Dee 20 deals, "ann" (the same person as Ann, other case) has 10.
# ann 10H bets 5; Dee 9S 8S = 17 stands; ann draws AC: 10 + 11 = 21 stands and wins 5.
# Dee -5, ann +5 -> 15 15.
SECOND_SEATS = [{"name": "Dee", "money": 20}, {"name": "ann", "money": 10}]
SECOND_EVENTS: list[dict[str, Any]] = [
    *_deal(2, "10H"), {"type": "bet", "seat": 2, "amount": 5},
    *_deal(1, "9S", "8S"), {"type": "stand", "seat": 1},
    *_deal(2, "AC"), {"type": "stand", "seat": 2},
    {"type": "settle"}, {"type": "end_session"},
]


def second_session(path: Path) -> Path:
    return write_session(path, "greek31", {"min_bet": 1, "max_bet": 10}, SECOND_SEATS, 1,
                         SECOND_EVENTS)


# Trianta Ena (T9 cash-outs): Ann 300 banks; Bea, Cy, Dora 100 each; table minimum 10.
# Round 1: Ann 9S 9H 9D = 27 stands (T4). Bea 10H 8S + 10S = 28 beats 27: +20.
#   Cy 5H 5D 5C + 5S = 20: -20. Dora folds. Ann +20 -20 = 0 -> 300 120 80 100.
# Between rounds Bea cashes out 50 (-> 70) and Cy everything (no amount: 80 -> 0).
# Round 2: Bea and Dora fold: nothing moves. Chips counted: Ann 300, Bea 70, Dora 95 (5 short).
# Session: Ann 0, Bea +20, Cy -20, Dora 0. Transfers: Cy pays Bea 20.
TRIANTA_SEATS = [{"name": "Ann", "money": 300}, {"name": "Bea", "money": 100},
                 {"name": "Cy", "money": 100}, {"name": "Dora", "money": 100}]
TRIANTA_EVENTS: list[dict[str, Any]] = [
    {"type": "deal", "seat": 1, "card": "9S"}, {"type": "deal", "seat": 2, "card": None},
    {"type": "deal", "seat": 3, "card": None}, {"type": "deal", "seat": 4, "card": None},
    {"type": "bet", "seat": 2, "amount": 20}, {"type": "bet", "seat": 3, "amount": 20},
    {"type": "fold", "seat": 4},
    *_deal(2, "10H", "8S"), *_deal(3, "5H", "5D"), {"type": "deal", "seat": 1, "card": None},
    {"type": "stand", "seat": 2}, *_deal(3, "5C"), {"type": "stand", "seat": 3},
    {"type": "reveal", "seat": 1, "card": "9H"}, *_deal(1, "9D"),
    {"type": "reveal", "seat": 2, "card": "10S"}, {"type": "reveal", "seat": 3, "card": "5S"},
    {"type": "settle"},
    {"type": "cash_out", "seat": 2, "amount": 50}, {"type": "cash_out", "seat": 3},
    {"type": "deal", "seat": 1, "card": "2S"}, {"type": "deal", "seat": 2, "card": None},
    {"type": "deal", "seat": 4, "card": None}, {"type": "fold", "seat": 2},
    {"type": "fold", "seat": 4}, {"type": "settle"},
    {"type": "chip_count", "counts": {"1": 300, "2": 70, "4": 95}},
]


def trianta_session(path: Path) -> Path:
    return write_session(path, "trianta_ena", {"min_bet": 10}, TRIANTA_SEATS, 1, TRIANTA_EVENTS)


# 31 Classic (house-banked), positions Ann 2, Bea 5, Cy 4; pay tables #1.
# Round 1: a misdeal (position 4 skipped): every wager returned, nothing moves (C9).
# Round 2: Ann antes 10 + Royal 5, plays 10, then handles her Draw card: Ante -10 and Royal -5
#   forfeited, Play returned (0): -15. Bea antes 10 + Royal 5, folds (Ante -10) with a live
#   Royal bonus: 2S 3H 4D + 5C is a Rainbow, 4-1 on 5 = +20: +10. Cy antes 10 + Natural 5 and
#   handles the Draw card: -5 -10 = -15. House: -(-15 + 10 - 15) = +20.
# Chips counted: Ann 85, Bea 110, Cy 80 (5 short).
# Session: Ann -15, Bea +10, Cy -15, House +20; each player settles with the house.
CLASSIC_SEATS = [{"name": "Ann", "money": 100, "position": 2},
                 {"name": "Bea", "money": 100, "position": 5},
                 {"name": "Cy", "money": 100, "position": 4}]
CLASSIC_EVENTS: list[dict[str, Any]] = [
    {"type": "ante", "seat": 1, "amount": 10}, {"type": "natural", "seat": 1, "amount": 5},
    {"type": "ante", "seat": 2, "amount": 10}, {"type": "ante", "seat": 3, "amount": 10},
    {"type": "royal", "seat": 3, "amount": 5}, {"type": "deal_hands"},
    *_deal(1, "AS", "KS", "QS"),  # C11: called before anyone plays or folds
    {"type": "misdeal", "reason": "dealer skipped position 4"},
    {"type": "ante", "seat": 1, "amount": 10}, {"type": "royal", "seat": 1, "amount": 5},
    {"type": "ante", "seat": 2, "amount": 10}, {"type": "royal", "seat": 2, "amount": 5},
    {"type": "ante", "seat": 3, "amount": 10}, {"type": "natural", "seat": 3, "amount": 5},
    {"type": "deal_hands"}, {"type": "play", "seat": 1}, {"type": "handled_draw", "seat": 1},
    {"type": "handled_draw", "seat": 3}, *_deal(2, "2S", "3H", "4D"), {"type": "fold", "seat": 2},
    *_deal(2, "5C"), {"type": "settle"},
    {"type": "chip_count", "counts": {"1": 85, "2": 110, "3": 80}},
]


def classic_session(path: Path) -> Path:
    return write_session(path, "classic31", {}, CLASSIC_SEATS, None, CLASSIC_EVENTS)
