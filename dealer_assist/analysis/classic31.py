"""31 Classic: exact odds of every wager and the optimal Ante + Play strategy.

Every deal for one position from one 52-card deck is counted: three cards and the Draw card,
22,100 × 49 = 1,082,900 deals. Hands that differ only by a renaming of suits have the same
categories, so one hand of each kind is evaluated (1,755 kinds of three cards, 16,432 kinds of
four) and weighted by how many hands it stands for. The categories come from the live game's
``facts`` and ladders and the payouts from its pay tables (``variants.classic31_tables``).

Numbers are exact fractions. Ties: a starting hand whose Play has exactly the value of a fold
(-1 ante) is shown as "either" and counted as a fold in the share of hands played.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from math import factorial, perm

from dealer_assist.cards import RANKS, SUITS, Card
from dealer_assist.errors import RuleError
from dealer_assist.variants.classic31_tables import (
    NATURAL_CATEGORIES,
    NATURAL_TABLES,
    PLAY_CATEGORIES,
    PLAY_TABLES,
    ROYAL_CATEGORIES,
    ROYAL_TABLES,
    VALUES,
    ante_play_pays,
    facts,
    natural_category_of,
    natural_pays,
    odds_text,
    play_category_of,
    royal_category_of,
    royal_pays,
)

CARDS = tuple(Card(RANKS[i >> 2], SUITS[i & 3]) for i in range(52))  # card id: rank * 4 + suit
THREE_CARD_HANDS, FOUR_CARD_HANDS, DRAWS = 22100, 270725, 49
DEALS = THREE_CARD_HANDS * DRAWS

# ---------------------------------------------------------------- kinds of hands (suit symmetry


def _shapes(n: int, largest: int | None = None) -> list[tuple[int, ...]]:
    """Ways to split n cards into at most four suit groups, largest group first."""
    largest = n if largest is None else largest
    if n == 0:
        return [()]
    return [(size, *rest) for size in range(min(n, largest), 0, -1)
            for rest in _shapes(n - size, size) if len(rest) < 4]


def _groupings(shape: tuple[int, ...]) -> list[tuple[tuple[int, ...], ...]]:
    """Rank sets per suit group; equal-size groups in rising order, so each kind comes once."""
    found: list[tuple[tuple[int, ...], ...]] = [()]
    for size in sorted(set(shape), reverse=True):
        run = combinations_with_replacement(combinations(range(13), size), shape.count(size))
        found = [(*done, *groups) for groups in list(run) for done in found]
    return found


def suit_kinds(n: int) -> list[tuple[tuple[int, ...], int]]:
    """One hand (sorted card ids) of every kind of n-card hand, and how many hands it stands for.

    A kind with g suit groups stands for 4!/(4-g)! suit assignments, divided by m! for every
    rank set that appears m times (those groups can swap suits without changing the hand).
    """
    kinds = []
    for shape in _shapes(n):
        for groups in _groupings(shape):
            weight = perm(4, len(groups))
            for m in Counter(groups).values():
                weight //= factorial(m)
            ids = sorted(rank * 4 + suit for suit, ranks in enumerate(groups) for rank in ranks)
            kinds.append((tuple(ids), weight))
    return kinds


def kind_key(ids: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """What a hand (sorted card ids) keeps under any renaming of suits: its rank sets per suit."""
    groups: dict[int, list[int]] = {}
    for i in ids:
        if i & 3 in groups:
            groups[i & 3].append(i >> 2)
        else:
            groups[i & 3] = [i >> 2]
    return tuple(sorted(map(tuple, groups.values())))


@dataclass(frozen=True, slots=True)
class Start:
    """A kind of starting hand (three cards): its categories over the 49 possible Draw cards."""

    cards: tuple[Card, ...]
    hands: int  # how many three-card hands are of this kind
    natural: str  # Natural 31 Bonus category
    draws: tuple[int, ...]  # per PLAY_CATEGORIES: how many of the 49 Draw cards give it


@dataclass(frozen=True, slots=True)
class Deals:
    """Every deal counted by category; independent of the pay tables."""

    starts: tuple[Start, ...]
    royal: tuple[int, ...]  # per ROYAL_CATEGORIES: how many of the 270,725 four-card hands


@lru_cache(maxsize=1)
def count_deals() -> Deals:
    """Evaluate one hand of every kind with the live game's functions and weight the counts."""
    kinds3 = suit_kinds(3)
    kind_of_key = {kind_key(ids): k for k, (ids, _) in enumerate(kinds3)}
    kind_of = {ids: kind_of_key[kind_key(ids)] for ids in combinations(range(52), 3)}
    play_index = {c: i for i, c in enumerate(PLAY_CATEGORIES)}
    royal_index = {c: i for i, c in enumerate(ROYAL_CATEGORIES)}
    play = [[0] * len(PLAY_CATEGORIES) for _ in kinds3]
    royal = [0] * len(ROYAL_CATEGORIES)
    for ids, weight in suit_kinds(4):
        f = facts([CARDS[i] for i in ids])
        royal[royal_index[royal_category_of(f)]] += weight
        p = play_index[play_category_of(f)]
        a, b, c, d = ids
        for three in ((b, c, d), (a, c, d), (a, b, d), (a, b, c)):  # the fourth is the Draw
            play[kind_of[three]][p] += weight
    starts = []
    for (ids, hands), counts in zip(kinds3, play, strict=True):
        cards = tuple(CARDS[i] for i in ids)
        assert all(n % hands == 0 for n in counts) and sum(counts) == hands * DRAWS
        starts.append(Start(cards, hands, natural_category_of(facts(cards)),
                            tuple(n // hands for n in counts)))
    return Deals(tuple(starts), tuple(royal))


# ---------------------------------------------------------------- the odds of each wager


@dataclass(frozen=True, slots=True)
class Line:
    """One category of a wager: what it pays, how often, and its result per unit staked."""

    category: str
    pays: str
    count: int
    probability: Fraction
    result: int  # per unit of the wager (Ante + Play: per unit of Ante)


@dataclass(frozen=True, slots=True)
class WagerOdds:
    title: str
    space: str  # what was counted, e.g. "22,100 three-card hands"
    lines: tuple[Line, ...]
    ret: Fraction  # expected result per unit staked (negative: the house wins)

    @property
    def edge(self) -> Fraction:
        return -self.ret


@dataclass(frozen=True, slots=True)
class Decision:
    """The best choice for a kind of starting hand."""

    cards: tuple[Card, ...]
    hands: int
    play_value: Fraction  # expected Ante + Play result per unit of Ante when playing
    choice: str  # "play", "fold" or "either" (equal value)


@dataclass(frozen=True, slots=True)
class AntePlayOdds(WagerOdds):
    played_share: Fraction = Fraction(0)
    either_share: Fraction = Fraction(0)
    always_play_return: Fraction = Fraction(0)
    decisions: tuple[Decision, ...] = ()

    @property
    def element_of_risk(self) -> Fraction:
        """The house edge per unit of all money wagered (the Ante, and the Play when played)."""
        return self.edge / (1 + self.played_share)


@dataclass(frozen=True, slots=True)
class Analysis:
    tables: tuple[int, int, int]  # Play, Natural, Royal Family pay table numbers
    natural: WagerOdds
    royal: WagerOdds
    ante_play: AntePlayOdds


def _lines(categories: tuple[str, ...], counts: list[int], total: int, pays: dict[str, int],
           ) -> tuple[Line, ...]:
    return tuple(
        Line(c, odds_text(pays[c]) if c in pays else "loses", n, Fraction(n, total),
             pays.get(c, -1))
        for c, n in zip(categories, counts, strict=True))


def natural_odds(deals: Deals, table: int) -> WagerOdds:
    counts = [sum(s.hands for s in deals.starts if s.natural == c) for c in NATURAL_CATEGORIES]
    lines = _lines(NATURAL_CATEGORIES, counts, THREE_CARD_HANDS, NATURAL_TABLES[table])
    ret = Fraction(sum(n * natural_pays(c, table) for c, n in
                       zip(NATURAL_CATEGORIES, counts, strict=True)), THREE_CARD_HANDS)
    return WagerOdds(f"Natural 31 Bonus (pay table #{table})", "22,100 three-card hands",
                     lines, ret)


def royal_odds(deals: Deals, table: int) -> WagerOdds:
    counts = list(deals.royal)
    lines = _lines(ROYAL_CATEGORIES, counts, FOUR_CARD_HANDS, ROYAL_TABLES[table])
    ret = Fraction(sum(n * royal_pays(c, table) for c, n in
                       zip(ROYAL_CATEGORIES, counts, strict=True)), FOUR_CARD_HANDS)
    return WagerOdds(f"4 Card Royal Family Bonus (pay table #{table})",
                     "270,725 four-card hands", lines, ret)


def ante_play_odds(deals: Deals, table: int) -> AntePlayOdds:
    """The best play/fold choice for every starting hand, and what it returns per Ante."""
    per_category = [sum(ante_play_pays(c, table)) for c in PLAY_CATEGORIES]
    counts = [0] * len(PLAY_CATEGORIES)
    folded = played = either = 0
    total = always = 0  # in units of Ante / 49
    decisions = []
    for s in deals.starts:
        value = sum(n * r for n, r in zip(s.draws, per_category, strict=True))  # 49 × per ante
        always += s.hands * value
        choice = "play" if value > -DRAWS else "fold" if value < -DRAWS else "either"
        decisions.append(Decision(s.cards, s.hands, Fraction(value, DRAWS), choice))
        if choice == "play":
            played += s.hands
            total += s.hands * value
            counts = [a + s.hands * n for a, n in zip(counts, s.draws, strict=True)]
        else:
            either += s.hands if choice == "either" else 0
            folded += s.hands * DRAWS
            total -= s.hands * DRAWS
    pays = PLAY_TABLES[table]
    lines = tuple(
        Line(c, _ante_play_text(pays.get(c)), n, Fraction(n, DEALS), r)
        for c, n, r in zip(PLAY_CATEGORIES, counts, per_category, strict=True)
    ) + (Line("fold", "Ante lost", folded, Fraction(folded, DEALS), -1),)
    return AntePlayOdds(
        f"Ante + Play (Play pay table #{table})", "1,082,900 deals (three cards + the Draw card)",
        lines, Fraction(total, DEALS), played_share=Fraction(played, THREE_CARD_HANDS),
        either_share=Fraction(either, THREE_CARD_HANDS),
        always_play_return=Fraction(always, DEALS), decisions=tuple(decisions))


def _ante_play_text(odds: int | None) -> str:
    if odds is None:
        return "both lose"
    if odds == 0:
        return "both push"
    return f"Ante 1-1, Play {odds}-1"


def check_tables(play: int, natural: int, royal: int) -> None:
    for name, number, tables in (("Play", play, PLAY_TABLES), ("Natural", natural,
                                 NATURAL_TABLES), ("Royal Family", royal, ROYAL_TABLES)):
        if number not in tables:
            raise RuleError(f"there is no {name} pay table #{number} "
                            f"(the manual has #1 to #{max(tables)})")


def analyze(play: int = 1, natural: int = 1, royal: int = 1) -> Analysis:
    """The whole analysis for one choice of pay tables."""
    check_tables(play, natural, royal)
    deals = count_deals()
    return Analysis((play, natural, royal), natural_odds(deals, natural),
                    royal_odds(deals, royal), ante_play_odds(deals, play))


# ---------------------------------------------------------------- the strategy card

VALUE_COLUMNS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
SYMBOL = {"play": "P", "fold": ".", "either": "="}


def value_name(value: int) -> str:
    return {10: "T", 11: "A"}.get(value, str(value))


def card_cell(cards: tuple[Card, ...]) -> tuple[str, tuple[int, ...], int | None]:
    """Where a starting hand sits on the strategy card: (section, row, column)."""
    ranks = {c.rank for c in cards}
    if len(ranks) == 1:
        return "trips", (), None
    suits = [c.suit for c in cards]
    if len(set(suits)) == 1:
        return "one suit", (sum(VALUES[c.rank] for c in cards),), None
    if len(set(suits)) == 2:
        pair = [c for c in cards if suits.count(c.suit) == 2]
        odd = next(c for c in cards if suits.count(c.suit) == 1)
        row = tuple(sorted((VALUES[c.rank] for c in pair), reverse=True))
        return "two suits", row, VALUES[odd.rank]
    high, middle, low = sorted((VALUES[c.rank] for c in cards), reverse=True)
    return "three suits", (high, middle), low


def card_cells(decisions: tuple[Decision, ...]) -> dict[tuple[str, tuple[int, ...], int | None],
                                                       str]:
    """Each cell's choice: "play", "fold", "either", or "mixed" if its hands differ."""
    cells: dict[tuple[str, tuple[int, ...], int | None], str] = {}
    for d in decisions:
        cell = card_cell(d.cards)
        cells[cell] = d.choice if cells.get(cell, d.choice) == d.choice else "mixed"
    return cells


def _runs(values: list[int]) -> str:
    runs: list[list[int]] = []
    for v in sorted(values):
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def strategy_card(analysis: Analysis) -> str:
    """A dealer's or player's card: which starting hands to play, by card values."""
    cells = card_cells(analysis.ante_play.decisions)
    out = [f"STRATEGY CARD - 31 Classic, Play pay table #{analysis.tables[0]}",
           "Values: A = 11, T = 10, J, Q or K (any 10-value card); 2-9 as marked.",
           "P = play (Play wager = Ante), . = fold, = = either (same value)"]
    trips = cells[("trips", (), None)]
    out.append(f"Trips (three of a rank): {trips}.")
    totals = {row[0]: c for (section, row, _), c in cells.items() if section == "one suit"}
    for choice in ("play", "either", "fold", "mixed"):
        chosen = [t for t, c in totals.items() if c == choice]
        if chosen:
            out.append(f"All three of one suit, total {_runs(chosen)}: {choice}.")
    out += _grid(cells, "two suits", "Two of one suit + one other: row = the two suited cards, "
                 "column = the other card")
    out += _grid(cells, "three suits", "Three different suits: row = the two highest values, "
                 "column = the lowest")
    if "mixed" in cells.values():
        out.append("* = depends on the exact ranks: see --hands")
    return "\n".join(out)


def _grid(cells: dict[tuple[str, tuple[int, ...], int | None], str], section: str,
          title: str) -> list[str]:
    """Rows that are all play or all fold in one line each; the other rows as a grid."""
    rows = sorted({row for (s, row, _) in cells if s == section}, reverse=True)
    marks = {row: [cells.get((section, row, v)) for v in VALUE_COLUMNS] for row in rows}
    def name(row: tuple[int, ...]) -> str:
        return "-".join(value_name(v) for v in row)
    uniform = {r: next(iter(set(marks[r]) - {None})) for r in rows
               if len(set(marks[r]) - {None}) == 1}
    out = [title + ":"]
    played = [name(r) for r in rows if uniform.get(r) == "play"]
    if played:
        out.append(f"  play always: {' '.join(played)}")
    grid = [r for r in rows if uniform.get(r) not in ("play", "fold")]
    if grid:
        out.append("        " + " ".join(value_name(v) for v in VALUE_COLUMNS))
        for row in grid:
            line = " ".join(" " if m is None else SYMBOL.get(m, "*") for m in marks[row])
            out.append(f"  {name(row):<5} {line}".rstrip())
    if any(uniform.get(r) == "fold" for r in rows):
        out.append("  fold always: every other row")
    return out
