"""31 Classic hand values, categories and pay tables (../shared/rules/31-classic-washington.txt).

Pure and shared: live settlement (``classic31``) and the odds analyser (``analysis.classic31``)
both use these functions and tables, so the analyser's numbers are the numbers the table pays.

- C1 values: A = 11, J Q K = 10, others their pips. A hand's total is its best single-suit
  total (of at most three cards). Trips is the only unsuited hand. Mini-Royal = A K Q suited.
- C2 Play wager: best three of the four cards, one category, highest first.
- C4 Natural 31 Bonus: the first three cards only.
- C5 4 Card Royal Family Bonus: all four cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from dealer_assist.cards import Card

VALUES = {"A": 11, "J": 10, "Q": 10, "K": 10, **{str(n): n for n in range(2, 11)}}

# ---------------------------------------------------------------- categories, best first

# C2: Mini-Royal > 31 > Trips > 27-30 > 22-26 > 18-21 > 17 (push) > under 17 (lose)
PLAY_CATEGORIES = ("mini_royal", "31", "trips", "27-30", "22-26", "18-21", "17", "under_17")
# C4: Mini-Royal > 31 > Trips > 29-30 > 26-28 > 21-25 > 16-20 (under 16 loses)
NATURAL_CATEGORIES = ("mini_royal", "31", "trips", "29-30", "26-28", "21-25", "16-20",
                      "under_16")
# C5: Royal Family > 41 > Quads > 40 > 32-39 > 4-card flush > Rainbow (anything else loses)
ROYAL_CATEGORIES = ("royal_family", "41", "quads", "40", "32-39", "flush", "rainbow", "none")

LABELS = {
    "mini_royal": "Mini-Royal (AKQ)", "31": "31", "trips": "Trips", "royal_family":
    "Royal Family (AKQJ)", "41": "41", "quads": "Quads", "40": "40", "32-39": "32-39",
    "flush": "4 Card Flush", "rainbow": "Rainbow", "none": "no win", "under_17": "under 17",
    "under_16": "under 16",
    **{k: k for k in ("27-30", "22-26", "18-21", "17", "29-30", "26-28", "21-25", "16-20")},
}

# ---------------------------------------------------------------- pay tables (odds to 1)
# PAY TABLE OPTIONS of the manual; #1 is the suggested (default) table of each wager (C6).
# A category missing from a table loses; the Play table's "17" pushes (odds 0).

PLAY_TABLES: dict[int, dict[str, int]] = {
    n: {"mini_royal": royal, "31": p31, "trips": 5, "27-30": 4, "22-26": 2, "18-21": 1, "17": 0}
    for n, (p31, royal) in {1: (10, 20), 2: (11, 25), 3: (10, 25), 4: (9, 20),
                            5: (9, 15)}.items()
}
NATURAL_TABLES: dict[int, dict[str, int]] = {
    n: {"mini_royal": 100, "31": 50, "trips": trips, "29-30": p29, "26-28": 10, "21-25": 4,
        "16-20": 1}
    for n, (p29, trips) in {1: (15, 25), 2: (15, 30), 3: (12, 25)}.items()
}
ROYAL_TABLES: dict[int, dict[str, int]] = {
    n: {"royal_family": 1000, "41": 500, "quads": 400, "40": p40, "32-39": p32, "flush": flush,
        "rainbow": 4}
    for n, (flush, p32, p40) in {1: (15, 30, 200), 2: (12, 40, 300), 3: (12, 30, 200)}.items()
}

ANTE_ODDS = 1  # C3: the Ante pushes on 17 and pays 1 to 1 on every winning Play category


def odds_text(odds: int) -> str:
    return "push" if odds == 0 else f"{odds}-1"


# ---------------------------------------------------------------- hand facts


class Facts(NamedTuple):
    """What the categories are read from; ``total`` is the best three-card single-suit total."""

    total: int
    trips: bool  # three cards of a rank
    mini_royal: bool  # A K Q of one suit
    flush_total: int  # four cards of one suit: their total; otherwise 0
    quads: bool
    royal_family: bool  # A K Q J of one suit
    rainbow: bool  # one card of each suit


def facts(cards: Sequence[Card]) -> Facts:
    """Read three or four cards once; every category below is a ladder over these facts."""
    by_suit: dict[str, list[str]] = {}
    for card in cards:
        if card.suit in by_suit:
            by_suit[card.suit].append(card.rank)
        else:
            by_suit[card.suit] = [card.rank]
    total, mini_royal, flush_total, royal_family = 0, False, 0, False
    for ranks in by_suit.values():
        values = [VALUES[r] for r in ranks]
        suit_total = sum(values)
        if len(ranks) == 4:  # four of one suit: the best three leave out the lowest
            flush_total = suit_total
            suit_total -= min(values)
        if len(ranks) >= 3 and "A" in ranks and "K" in ranks and "Q" in ranks:
            mini_royal = True
            royal_family = "J" in ranks
        total = max(total, suit_total)
    ranks = [card.rank for card in cards]
    most = max(map(ranks.count, ranks))
    return Facts(total, most >= 3, mini_royal, flush_total, most == 4, royal_family,
                 len(by_suit) == 4)


def play_category_of(f: Facts) -> str:
    """C2 over the facts of the four cards (or of three)."""
    if f.mini_royal:
        return "mini_royal"
    if f.total == 31:
        return "31"
    if f.trips:
        return "trips"
    t = f.total
    if t >= 27:
        return "27-30"
    if t >= 22:
        return "22-26"
    if t >= 18:
        return "18-21"
    return "17" if t == 17 else "under_17"


def natural_category_of(f: Facts) -> str:
    """C4 over the facts of the first three cards."""
    if f.mini_royal:
        return "mini_royal"
    if f.total == 31:
        return "31"
    if f.trips:
        return "trips"
    t = f.total
    if t >= 29:
        return "29-30"
    if t >= 26:
        return "26-28"
    if t >= 21:
        return "21-25"
    return "16-20" if t >= 16 else "under_16"


def royal_category_of(f: Facts) -> str:
    """C5 over the facts of all four cards."""
    if f.royal_family:
        return "royal_family"
    if f.flush_total == 41:
        return "41"
    if f.quads:
        return "quads"
    if f.flush_total == 40:
        return "40"
    if f.flush_total >= 32:
        return "32-39"
    if f.flush_total:
        return "flush"
    return "rainbow" if f.rainbow else "none"


def _check(cards: Sequence[Card], count: int, what: str) -> None:
    if len(cards) != count or len(set(cards)) != count:
        raise ValueError(f"{what} needs {count} different cards, got {len(cards)}")


def hand_total(cards: Sequence[Card]) -> int:
    """The best single-suit total of three cards (of the best three, for four)."""
    return facts(cards).total


def natural_category(cards: Sequence[Card]) -> str:
    _check(cards, 3, "the Natural 31 Bonus")
    return natural_category_of(facts(cards))


def play_category(cards: Sequence[Card]) -> str:
    _check(cards, 4, "the Play wager")
    return play_category_of(facts(cards))


def royal_category(cards: Sequence[Card]) -> str:
    _check(cards, 4, "the 4 Card Royal Family Bonus")
    return royal_category_of(facts(cards))


# ---------------------------------------------------------------- payouts per unit staked


def natural_pays(category: str, table: int) -> int:
    """What one unit on the Natural 31 Bonus wins (+odds) or loses (-1)."""
    return NATURAL_TABLES[table].get(category, -1)


def royal_pays(category: str, table: int) -> int:
    """What one unit on the 4 Card Royal Family Bonus wins (+odds) or loses (-1)."""
    return ROYAL_TABLES[table].get(category, -1)


def ante_play_pays(category: str, table: int) -> tuple[int, int]:
    """(Ante, Play) results per unit of Ante for a played hand (C2, C3): 17 pushes both."""
    odds = PLAY_TABLES[table].get(category)
    if odds is None:
        return -1, -1
    if odds == 0:
        return 0, 0
    return ANTE_ODDS, odds
