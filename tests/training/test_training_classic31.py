"""31 Classic drills: each answer worked out here from the cards and wagers on the table
(C1-C5, C7-C9) and the printed pay tables, and checked against a fresh replay by the engine."""

import re
from itertools import combinations

import pytest

from dealer_assist.cards import parse_cards
from dealer_assist.session.engine import Session
from dealer_assist.training.drills import kinds_for, make_question
from dealer_assist.variants.classic31_tables import (
    NATURAL_TABLES,
    PLAY_TABLES,
    ROYAL_TABLES,
)

SEEDS = range(10)
VALUE = {"A": 11, "J": 10, "Q": 10, "K": 10}


def value(card):
    return VALUE.get(card.rank) or int(card.rank)


def suit_total(cards):
    return max(sum(value(c) for c in cards if c.suit == s) for s in "SHDC")


def three_card(cards):
    """(mini-royal, trips, best suit total) of three cards (C1)."""
    suits = {c.suit for c in cards}
    ranks = sorted(c.rank for c in cards)
    return (len(suits) == 1 and ranks == ["A", "K", "Q"], len(set(ranks)) == 1,
            suit_total(cards))


def play_category(cards):
    """C2: the highest-paying category of any three of the four cards."""
    ladder = ["under_17", "17", "18-21", "22-26", "27-30", "trips", "31", "mini_royal"]
    best = 0
    for three in combinations(cards, 3):
        royal, trips, total = three_card(three)
        cat = ("mini_royal" if royal else "31" if total == 31 else "trips" if trips else
               "27-30" if total >= 27 else "22-26" if total >= 22 else "18-21" if total >= 18
               else "17" if total == 17 else "under_17")
        best = max(best, ladder.index(cat))
    return ladder[best]


def natural_category(cards):
    royal, trips, total = three_card(cards[:3])
    return ("mini_royal" if royal else "31" if total == 31 else "trips" if trips else
            "29-30" if total >= 29 else "26-28" if total >= 26 else "21-25" if total >= 21
            else "16-20" if total >= 16 else "under_16")


def royal_category(cards):
    suits = {c.suit for c in cards}
    ranks = {c.rank for c in cards}
    total = sum(value(c) for c in cards)
    if len(suits) == 1 and ranks == {"A", "K", "Q", "J"}:
        return "royal_family"
    if len(suits) == 1 and total == 41:
        return "41"
    if len(ranks) == 1:
        return "quads"
    if len(suits) == 1:
        return "40" if total == 40 else "32-39" if total >= 32 else "flush"
    return "rainbow" if len(suits) == 4 else "none"


def wager_amounts(sv, options):
    """Each wager's result for one position, from its cards and wagers (C2-C5, C7)."""
    w = dict(sv.wagers)
    cards = parse_cards([c for c in sv.cards if c])
    out = {}
    if w.get("natural"):
        odds = NATURAL_TABLES[options["natural_table"]].get(natural_category(cards), -1)
        out["Natural"] = w["natural"] * odds
    if sv.status == "folded":
        out["Ante"] = -w["ante"]
    else:
        odds = PLAY_TABLES[options["play_table"]].get(play_category(cards), -1)
        ante = 1 if odds > 0 else odds  # C3: the Ante pays 1 to 1 on a winning Play category
        out["Ante"], out["Play"] = w["ante"] * ante, w["play"] * odds
    if w.get("royal"):
        odds = ROYAL_TABLES[options["royal_table"]].get(royal_category(cards), -1)
        out["Royal Family"] = w["royal"] * odds
    return out


def _seat(q, name):
    return next(sv for sv in q.table.seats if sv.name == name)


def _replayed(q):
    session = Session.from_events(list(q.events))
    session.submit(q.entry)
    return session.rounds[-1]


@pytest.mark.parametrize("seed", SEEDS)
def test_wager_payout(seed):
    q = make_question("classic31", "wager_payout", seed)
    name, wager, stake = re.search(r"What does (\w+) \(position \d\)'s ([\w ]+?) wager of (\d+)",
                                   q.prompt).groups()
    sv = _seat(q, name)
    key = {"Natural": "natural", "Ante": "ante", "Play": "play", "Royal Family": "royal"}[wager]
    assert int(stake) == dict(sv.wagers)[key]
    assert q.answer == wager_amounts(sv, q.options)[wager]
    assert str(q.options["play_table"]) in q.prompt  # the pay table in force is named
    result = _replayed(q)
    assert sum(wager_amounts(sv, q.options).values()) == next(
        r.amount for r in result.results if r.seat == sv.seat)


def test_wager_payout_covers_folds_with_live_bonuses_and_several_pay_tables():
    qs = [make_question("classic31", "wager_payout", s) for s in range(16)]
    assert any("folded" in q.tags for q in qs)
    assert len({q.options["play_table"] for q in qs}) > 1


@pytest.mark.parametrize("seed", SEEDS)
def test_settlement_goes_from_position_6_to_1(seed):
    q = make_question("classic31", "settle_order", seed)
    positions = {sv.seat: int(sv.extra.split()[-1]) for sv in q.table.seats}
    settled = [sv.seat for sv in q.table.seats if sv.status not in ("sat out", "betting")]
    assert q.answer == tuple(sorted(settled, key=positions.get, reverse=True))


@pytest.mark.parametrize("seed", SEEDS)
def test_order_within_a_position(seed):
    q = make_question("classic31", "wager_order", seed)
    labels = dict(q.choices)
    named = [labels[str(i)] for i in q.answer]
    canonical = ["Natural", "Ante", "Play", "Royal Family"]  # C8
    assert named == [w for w in canonical if w in named] and len(named) >= 3


@pytest.mark.parametrize("seed", SEEDS)
def test_irregularity_remedy(seed):
    q = make_question("classic31", "irregularity", seed)
    if q.answer == "none":
        assert q.entry is None
        return
    assert q.entry["type"] == q.answer
    session = Session.from_events(list(q.events))
    session.submit(q.entry)  # the engine accepts the remedy at this point
    if q.answer == "misdeal":
        assert all(r.amount == 0 for r in session.rounds[-1].results)


def test_irregularity_drill_asks_every_remedy():
    answers = {make_question("classic31", "irregularity", s).answer for s in range(15)}
    assert answers == {"misdeal", "handled_draw", "none"}


@pytest.mark.parametrize("seed", SEEDS)
def test_irregularity_payout(seed):
    q = make_question("classic31", "irregularity_payout", seed)
    if q.entry["type"] == "misdeal":
        assert q.answer == 0  # every wager returned (C9)
    else:
        sv = next(sv for sv in q.table.seats if sv.seat == q.entry["seat"])
        w = dict(sv.wagers)
        # everything forfeited but a Play wager already placed, which is returned (C9)
        assert q.answer == -(w.get("ante", 0) + w.get("natural", 0) + w.get("royal", 0))


def test_kinds():
    assert "next_dealer" not in kinds_for("classic31")  # the house deals every round
    assert set(kinds_for("classic31", irregular=True)) == {
        "irregularity", "irregularity_payout", "legal_entry"}
