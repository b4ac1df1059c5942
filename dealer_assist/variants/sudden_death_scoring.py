"""Sudden Death 31: hand values, instant wins, the showdown and the pot split (S1, S2, S3, S6).

Pure helpers, read beside ../shared/rules/sudden-death-31.txt:

- S1: Ace = 11, J Q K = 10; a hand's score is its highest single-suit total.
- S2: "31" = three cards of one suit totalling 31; "Blitz" = three cards of one rank.
- S3: the opening bet sets the turns: 1 -> 5, 2 -> 4, 3 -> 3, 4 -> 2, 5 or more -> 1.
- S10: a 31 or a Blitz revealed only at the showdown still wins at once, ahead of every suit
  total; several such hands split the pot.
- S6: ties on the total go to the highest card in the scoring suit, then the second, then the
  third (A K Q J 10 ... 2); a hand with two equal suit totals uses the better one; still tied:
  split, the odd chips one each to the tied players clockwise from the opener's left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer_assist.cards import SUITS, Card

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
# S6: card order for the tie-breakers, A high; the value is only for comparing.
RANK_ORDER = {"A": 14, "K": 13, "Q": 12, "J": 11,
              **{str(n): n for n in range(2, 11)}}
TIE_LEVELS = ("the suit total", "the highest card in the scoring suit",
              "the second highest card", "the third highest card")
INSTANT_31, BLITZ = "31", "Blitz"


def card_value(card: Card) -> int:
    """S1: Ace 11, J Q K 10, others their number."""
    if card.rank == "A":
        return 11
    return card.pips


def turns_for_bet(bet: int) -> int:
    """S3's table: 1 -> 5 turns, 2 -> 4, 3 -> 3, 4 -> 2, 5 or more -> 1."""
    return max(1, 6 - bet)


@dataclass(frozen=True, slots=True)
class Score:
    """A hand's showdown value: its best suit, that suit's total and the tie-break key."""

    suit: str
    total: int
    key: tuple[int, int, int, int]  # total, then the suit's card ranks high to low (0 = none)

    @property
    def label(self) -> str:
        return f"{self.total} in {SUIT_NAMES[self.suit]}"


def suit_score(cards: Sequence[Card], suit: str) -> Score:
    in_suit = [c for c in cards if c.suit == suit]
    total = sum(card_value(c) for c in in_suit)
    ranks = sorted((RANK_ORDER[c.rank] for c in in_suit), reverse=True)[:3]
    ranks += [0] * (3 - len(ranks))
    return Score(suit, total, (total, ranks[0], ranks[1], ranks[2]))


def score(cards: Sequence[Card]) -> Score:
    """S1/S6: the highest single-suit total; of two equal totals, the better for the ties."""
    return max((suit_score(cards, s) for s in SUITS), key=lambda sc: sc.key)


def instant_win(cards: Sequence[Card]) -> str | None:
    """S2: "31" (three cards of one suit totalling 31) or "Blitz" (three of a rank), else None."""
    if len(cards) != 3:
        return None
    if len({c.rank for c in cards}) == 1:
        return BLITZ
    if len({c.suit for c in cards}) == 1 and sum(card_value(c) for c in cards) == 31:
        return INSTANT_31
    return None


def describe(cards: Sequence[Card], as_instant: bool = True) -> str:
    """What a dealer reads out: ``31``/``Blitz`` or ``27 in hearts``, with the cards.

    ``as_instant=False``: the suit total only, for a hand that did not win as an instant win
    (a result's detail never calls a losing hand "Blitz")."""
    shown = " ".join(c.code for c in cards)
    kind = instant_win(cards) if as_instant else None
    if kind == BLITZ:
        return f"Blitz ({shown})"
    if kind == INSTANT_31:
        return f"31 in {SUIT_NAMES[cards[0].suit]} ({shown})"
    return f"{score(cards).label} ({shown})"


def showdown(hands: dict[int, Sequence[Card]]) -> tuple[list[int], str]:
    """S6: the seats with the best hand, and which step decided it (for the notes)."""
    keys = {seat: score(cards).key for seat, cards in hands.items()}
    best = max(keys.values())
    winners = [seat for seat, key in keys.items() if key == best]
    others = [key for key in keys.values() if key != best]
    if len(winners) > 1:
        return winners, "tied on every tie-breaker"
    if not others:
        return winners, ""
    runner_up = max(others)
    level = next(i for i in range(4) if best[i] != runner_up[i])
    return winners, f"decided by {TIE_LEVELS[level]}"


def split_pot(pot: int, winners_in_order: Sequence[int]) -> dict[int, int]:
    """Equal shares; the odd chips one each to the winners in the order given (S6)."""
    share, odd = divmod(pot, len(winners_in_order))
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(winners_in_order)}
