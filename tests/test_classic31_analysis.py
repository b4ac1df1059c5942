"""The 31 Classic analyser against a slow, independent brute force over every deal.

The brute force below shares nothing with the game or the analyser: its own card values, its
own categories (the best three of four taken literally, over the four three-card subsets) and
the pay tables copied from the manual's PAY TABLE OPTIONS. It walks all 270,725 four-card hands
and each of their four ways to be three cards + the Draw card: all 1,082,900 deals.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from dealer_assist.analysis import classic31 as analyser
from dealer_assist.analysis.cli import fraction_text
from dealer_assist.cards import Card
from dealer_assist.cli import main

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [(r, s) for r in RANKS for s in "SHDC"]
VALUE = {r: 11 if r == "A" else 10 if r in "JQK10" else int(r) for r in RANKS}

# the manual's PAY TABLE OPTIONS: odds to 1; None = push
PLAY = {1: [20, 10, 5, 4, 2, 1, None], 2: [25, 11, 5, 4, 2, 1, None],
        3: [25, 10, 5, 4, 2, 1, None], 4: [20, 9, 5, 4, 2, 1, None],
        5: [15, 9, 5, 4, 2, 1, None]}  # Mini-Royal, 31, Trips, 27-30, 22-26, 18-21, 17
NATURAL = {1: [100, 50, 25, 15, 10, 4, 1], 2: [100, 50, 30, 15, 10, 4, 1],
           3: [100, 50, 25, 12, 10, 4, 1]}  # Mini-Royal, 31, Trips, 29-30, 26-28, 21-25, 16-20
ROYAL = {1: [1000, 500, 400, 200, 30, 15, 4], 2: [1000, 500, 400, 300, 40, 12, 4],
         3: [1000, 500, 400, 200, 30, 12, 4]}  # Royal, 41, Quads, 40, 32-39, Flush, Rainbow


def three_card(hand) -> tuple[int, bool, bool]:
    """(best single-suit total, trips, Mini-Royal) of three cards."""
    total = max(sum(VALUE[r] for r, s in hand if s == suit) for _, suit in hand)
    trips = len({r for r, _ in hand}) == 1
    mini = len({s for _, s in hand}) == 1 and {r for r, _ in hand} == {"A", "K", "Q"}
    return total, trips, mini


def play_index(hand) -> int:
    """C2 as an index into PLAY (0 best); 7 = under 17."""
    total, trips, mini = three_card(hand)
    if mini:
        return 0
    if total == 31:
        return 1
    if trips:
        return 2
    for i, low in ((3, 27), (4, 22), (5, 18), (6, 17)):
        if total >= low:
            return i
    return 7


def natural_index(hand) -> int:
    total, trips, mini = three_card(hand)
    if mini:
        return 0
    if total == 31:
        return 1
    if trips:
        return 2
    for i, low in ((3, 29), (4, 26), (5, 21), (6, 16)):
        if total >= low:
            return i
    return 7


def royal_index(hand) -> int:
    suits = {s for _, s in hand}
    ranks = [r for r, _ in hand]
    total = sum(VALUE[r] for r in ranks)
    if len(suits) == 1 and set(ranks) == {"A", "K", "Q", "J"}:
        return 0
    if len(suits) == 1 and total == 41:
        return 1
    if len(set(ranks)) == 1:
        return 2
    if len(suits) == 1 and total == 40:
        return 3
    if len(suits) == 1 and total >= 32:
        return 4
    if len(suits) == 1:
        return 5
    return 6 if len(suits) == 4 else 7


@pytest.fixture(scope="module")
def brute():
    """Per three-card hand: Natural index and the Play index for each of its 49 Draw cards."""
    natural = {t: natural_index([DECK[i] for i in t]) for t in combinations(range(52), 3)}
    best3 = {t: play_index([DECK[i] for i in t]) for t in combinations(range(52), 3)}
    draws = {t: [0] * 8 for t in natural}
    royal = Counter()
    for quad in combinations(range(52), 4):
        royal[royal_index([DECK[i] for i in quad])] += 1
        threes = list(combinations(quad, 3))
        best = min(best3[t] for t in threes)
        for t in threes:
            draws[t][best] += 1
    return natural, draws, royal


def per_ante(table: int) -> list[int]:
    """Ante + Play result per unit of Ante for each Play index (C3)."""
    return [1 + odds for odds in PLAY[table][:6]] + [0, -2]


def brute_ante_play(draws, table: int):
    values = per_ante(table)
    total = played = either = always = 0
    choice = {}
    for t, counts in draws.items():
        v = sum(n * x for n, x in zip(counts, values, strict=True))
        always += v
        if v > -49:
            total, played, choice[t] = total + v, played + 1, "play"
        else:
            total -= 49
            either += v == -49
            choice[t] = "either" if v == -49 else "fold"
    deals = 22100 * 49
    return (Fraction(total, deals), Fraction(played, 22100), Fraction(either, 22100),
            Fraction(always, deals), choice)


def test_kinds_cover_every_hand_once():
    for n in (3, 4):
        kinds = analyser.suit_kinds(n)
        assert sum(w for _, w in kinds) == comb(52, n)
        assert len({analyser.kind_key(ids) for ids, _ in kinds}) == len(kinds)
    assert (len(analyser.suit_kinds(3)), len(analyser.suit_kinds(4))) == (1755, 16432)


def test_natural_and_royal_counts_match_the_brute_force(brute):
    natural, _, royal = brute
    analysis = analyser.analyze()
    assert [ln.count for ln in analysis.natural.lines] == [
        Counter(natural.values())[i] for i in range(8)]
    assert [ln.count for ln in analysis.royal.lines] == [royal[i] for i in range(8)]


def test_counts_read_by_hand():
    """Counts anyone can check: 4 Mini-Royals; 5 other 31s per suit; 52 trips; 13 quads..."""
    analysis = analyser.analyze()
    natural = {ln.category: ln.count for ln in analysis.natural.lines}
    assert (natural["mini_royal"], natural["31"], natural["trips"]) == (4, 20, 52)
    royal = {ln.category: ln.count for ln in analysis.royal.lines}
    # 41: A + three of 10 J Q K but not Royal Family (3 per suit); 40: 10 J Q K, or A 9 + two
    assert (royal["royal_family"], royal["41"], royal["quads"], royal["40"]) == (4, 12, 13, 28)


@pytest.mark.parametrize(("play", "natural", "royal"),
                         [(1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 1, 2), (5, 2, 3)])
def test_every_number_matches_the_brute_force(brute, play, natural, royal):
    nat, draws, royal_counts = brute
    analysis = analyser.analyze(play, natural, royal)
    nat_counts = Counter(nat.values())
    nat_return = Fraction(sum(nat_counts[i] * NATURAL[natural][i] for i in range(7))
                          - nat_counts[7], 22100)
    assert analysis.natural.ret == nat_return
    royal_return = Fraction(sum(royal_counts[i] * ROYAL[royal][i] for i in range(7))
                            - royal_counts[7], comb(52, 4))
    assert analysis.royal.ret == royal_return
    ret, played, either, always, choice = brute_ante_play(draws, play)
    ap = analysis.ante_play
    assert (ap.ret, ap.played_share, ap.either_share, ap.always_play_return) == (
        ret, played, either, always)
    assert ap.element_of_risk == -ret / (1 + played)
    # the strategy card gives the brute force's choice for every one of the 22,100 hands
    cells = analyser.card_cells(ap.decisions)
    for t, best in choice.items():
        cards = tuple(Card(*DECK[i]) for i in t)
        assert cells[analyser.card_cell(cards)] == best, cards
    # under the best strategy, deals by category (folded deals last)
    counts = [0] * 8
    folded = 0
    for t, c in draws.items():
        if choice[t] == "play":
            counts = [a + b for a, b in zip(counts, c, strict=True)]
        else:
            folded += 49
    assert [ln.count for ln in ap.lines] == [*counts, folded]


def test_strategy_card_table_1_reads_as_expected():
    card = analyser.strategy_card(analyser.analyze())
    assert "All three of one suit, total 17-31: play." in card
    assert "All three of one suit, total 9-16: fold." in card
    assert "Trips (three of a rank): play." in card
    assert "*" not in card  # card values alone decide every hand


def test_cli_json_has_exact_fractions_with_floats(capsys):
    assert main(["analyze", "31-classic", "--play", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    analysis = analyser.analyze(2, 1, 1)
    for path, value in ((("natural", "edge"), analysis.natural.edge),
                        (("royal", "edge"), analysis.royal.edge),
                        (("ante_play", "edge"), analysis.ante_play.edge),
                        (("ante_play", "played_share"), analysis.ante_play.played_share)):
        node = data[path[0]]
        assert node[path[1]] == fraction_text(value)
        assert node[path[1] + "_float"] == pytest.approx(float(value))
        p, q = map(int, node[path[1]].split("/"))
        assert Fraction(p, q) == value
    assert data["pay_tables"] == {"play": 2, "natural": 1, "royal": 1}
    assert len(data["ante_play"]["decisions"]) == 1755


def test_cli_text_and_refusals(capsys):
    assert main(["analyze", "31-classic", "--royal", "4"]) == 2
    assert "no Royal Family pay table #4" in capsys.readouterr().err
    assert main(["analyze", "greek-31"]) == 2
    assert main(["analyze", "classic31", "--natural", "3"]) == 0
    out = capsys.readouterr().out
    assert "Natural 31 Bonus (pay table #3)" in out and "STRATEGY CARD" in out
