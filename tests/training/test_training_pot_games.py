"""Sudden Death 31 and One and Thirty drills, worked out here from the table (S1, S6, O5-O7)."""

import re

import pytest

from dealer_assist.cards import parse_card
from dealer_assist.session.engine import Session
from dealer_assist.training.drills import make_question
from dealer_assist.variants import available_games

SEEDS = range(8)


def _cards(sv):
    return [parse_card(c) for c in sv.cards if c]


def _clockwise_from_left_of(seat, count):
    return [(seat + k) % count + 1 for k in range(count)]


@pytest.mark.skipif("sudden_death" not in available_games(), reason="game not in this build")
class TestSuddenDeath:
    ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")

    @staticmethod
    def value(card):
        return 11 if card.rank == "A" else 10 if card.rank in "JQK" else int(card.rank)

    def key(self, cards):
        """S1, S6: best suit total, then that suit's cards high to low."""
        best = None
        for suit in "SHDC":
            mine = [c for c in cards if c.suit == suit]
            ranks = sorted((14 - self.ORDER.index(c.rank) for c in mine), reverse=True)
            k = (sum(self.value(c) for c in mine), *ranks, *[0] * (3 - len(ranks)))
            best = k if best is None or k > best else best
        return best

    @pytest.mark.parametrize("seed", SEEDS)
    def test_showdown(self, seed):
        q = make_question("sudden_death", "showdown", seed)
        hands = {sv.seat: _cards(sv) for sv in q.table.seats}
        entry = q.entry
        assert entry["type"] == "discard"
        hands[entry["seat"]].remove(parse_card(entry["card"]))
        keys = {s: self.key(h) for s, h in hands.items()}
        best = max(keys.values())
        opener = next(sv.seat for sv in q.table.seats if sv.role == "opener")
        order = _clockwise_from_left_of(opener, len(hands))
        assert q.answer == tuple(s for s in order if keys[s] == best)

    def test_showdown_drill_includes_ties_on_the_suit_total(self):
        assert any("tie" in make_question("sudden_death", "showdown", s).tags
                   for s in range(8))

    @pytest.mark.parametrize("seed", SEEDS)
    def test_split_share_and_odd_chip(self, seed):
        q = make_question("sudden_death", "odd_chip", seed)
        tied = [int(s) for s in re.findall(r"\(seat (\d+)\)", q.prompt.split("split")[0])]
        asked = int(re.search(r"How many chips does \w+ \(seat (\d+)\)", q.prompt).group(1))
        opener = next(sv.seat for sv in q.table.seats if sv.role == "opener")
        order = [s for s in _clockwise_from_left_of(opener, len(q.table.seats)) if s in tied]
        share, odd = divmod(q.table.pot, len(tied))
        assert q.answer == share + (1 if order.index(asked) < odd else 0)


@pytest.mark.skipif("one_and_thirty" not in available_games(), reason="game not in this build")
@pytest.mark.parametrize("seed", SEEDS)
def test_one_and_thirty_pot_winner(seed):
    q = make_question("one_and_thirty", "pot_winner", seed)
    session = Session.from_events(list(q.events))
    session.submit(q.entry)
    assert q.answer == next(r.seat for r in session.rounds[-1].results if r.outcome == "won")

    def total(sv):
        return sum(1 if c.rank == "A" else 10 if c.rank in ("J", "Q", "K") else int(c.rank)
                   for c in _cards(sv))

    age = {sv.seat: int(sv.extra.split()[-1]) for sv in q.table.seats}
    in_play = [sv for sv in q.table.seats if "out" not in sv.status and sv.cards
               and None not in sv.cards and total(sv) <= 31]
    thirty_one = [sv.seat for sv in in_play if total(sv) == 31]
    if thirty_one:
        assert q.answer == thirty_one[0]  # O5
    elif all(None not in sv.cards for sv in in_play) and in_play:
        best = max(total(sv) for sv in in_play)
        # O7: closest to 31; equal totals: the older player (age 1 = oldest)
        assert q.answer == min((sv.seat for sv in in_play if total(sv) == best), key=age.get)


@pytest.mark.skipif("one_and_thirty" not in available_games(), reason="game not in this build")
def test_one_and_thirty_drill_includes_age_ties():
    qs = [make_question("one_and_thirty", "pot_winner", s) for s in range(8)]
    assert any("age tie" in q.tags for q in qs)
    assert all(sv.status != "wins" for q in qs for sv in q.table.seats)  # not given away


@pytest.mark.skipif("trianta_ena" not in available_games(), reason="game not in this build")
@pytest.mark.parametrize("seed", SEEDS)
def test_trianta_ena_bank_offer(seed):
    q = make_question("trianta_ena", "bank_offer", seed)
    session = Session.from_events(list(q.events))
    banker = q.table.dealer_seat
    before = len(session.rounds)
    session.submit(q.entry)  # settle
    state = session.state
    # the round is complete at settle only when nobody is offered the bank
    money = session.rounds[-1].bankrolls if len(session.rounds) > before else state.money
    players = [s for s in range(1, len(q.table.seats) + 1) if s != banker]
    if money[banker - 1] < q.options["min_bet"]:  # T10: the bank must be given up
        eligible = [s for s in players if money[s - 1] >= q.options["min_bet"]]
    else:  # T7: richer than the banker
        eligible = [s for s in players if money[s - 1] > money[banker - 1]]
    if not eligible:
        assert q.answer == 0
    else:
        # richest first; equal money: nearer the banker's left (clockwise in the ring)
        ring = list(state.ring)
        first = min(eligible, key=lambda s: (-money[s - 1], ring.index(s)))
        assert q.answer == first
    assert all(not sv.extra for sv in q.table.seats)  # projected results are not shown


@pytest.mark.skipif("trianta_ena" not in available_games(), reason="game not in this build")
def test_trianta_ena_bank_offer_asks_both_ways():
    answers = {make_question("trianta_ena", "bank_offer", s).answer for s in SEEDS}
    assert 0 in answers and len(answers) > 1
