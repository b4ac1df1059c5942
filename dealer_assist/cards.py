"""Cards, card codes and the shoe (RULINGS.md, "Everywhere").

A card code is a rank (A 2-10 J Q K, or T for 10) and a suit (S H D C, or ♠ ♥ ♦ ♣, or the hollow
♤ ♡ ♢ ♧), in any case: ``AS``, ``10h``, ``Td``, ``q♣``. Output is always canonical: ``10H``, ``QC``.
Anything else is refused; in particular ``1`` is not a rank (``1H`` is far more often a mistyped
``10H`` than an Ace, and could make a false 31), and neither is ``0``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from dealer_assist.errors import RuleError

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_ALIASES = {**{s: s for s in SUITS}, **{sym: s for s, sym in SUIT_SYMBOLS.items()},
                 "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_RANK_ALIASES = {**{r: r for r in RANKS}, "T": "10"}
FACES = frozenset({"J", "Q", "K"})


class CardError(RuleError):
    """A card code that cannot be read, or a card the shoe cannot deal."""


class _CardFields(NamedTuple):
    rank: str
    suit: str


class Card(_CardFields):
    """One playing card; ``rank`` and ``suit`` are canonical codes.

    A named tuple, so hashing and comparing (every shoe count and hand-value lookup) run in C;
    it orders by (rank, suit) like before.
    """

    __slots__ = ()

    def __new__(cls, rank: str, suit: str) -> Card:
        if rank not in RANKS or suit not in SUITS:
            raise CardError(f"not a card: rank {rank!r}, suit {suit!r}")
        return super().__new__(cls, rank, suit)

    @property
    def code(self) -> str:
        return self.rank + self.suit

    @property
    def pips(self) -> int:
        """Face value with J Q K = 10 and A = 1; games add their own Ace rules."""
        if self.rank == "A":
            return 1
        if self.rank in FACES:
            return 10
        return int(self.rank)

    @property
    def is_face(self) -> bool:
        return self.rank in FACES

    @property
    def label(self) -> str:
        """Human form with the suit symbol, e.g. ``10♥``."""
        return self.rank + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.code


def _build_index() -> dict[str, Card]:
    return {r + s: Card(r, s) for r in RANKS for s in SUITS}


_CANONICAL = _build_index()
FULL_DECK: tuple[Card, ...] = tuple(_CANONICAL.values())


def parse_card(text: str | Card) -> Card:
    """Read a card code in any accepted spelling; CardError says why it is not one."""
    if type(text) is str and text in _CANONICAL:  # the common case: a canonical code
        return _CANONICAL[text]
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardError(f"a card code must be text like 'QS' or '10h', not {text!r}")
    raw = text.strip()
    found = _CANONICAL.get(raw)
    if found is not None:
        return found
    if len(raw) < 2:
        raise CardError(
            f"{text!r} is not a card code (expected a rank and a suit, like 'QS' or '10h')")
    rank_part = raw[:-1].upper()
    suit = _SUIT_ALIASES.get(raw[-1].upper()) or _SUIT_ALIASES.get(raw[-1])
    rank = _RANK_ALIASES.get(rank_part)
    if suit is None:
        raise CardError(f"{text!r}: unknown suit {raw[-1]!r} (use S H D C or ♠ ♥ ♦ ♣)")
    if rank is None:
        hint = " (for a Ten type 10 or T; an Ace is A)" if rank_part in ("1", "0") else ""
        raise CardError(f"{text!r}: {raw[:-1]!r} is not a rank{hint}: use A 2-10 J Q K or T")
    return _CANONICAL[rank + suit]


def parse_cards(texts: Iterable[str | Card] | str) -> tuple[Card, ...]:
    """Read several codes: an iterable, or one string separated by spaces or commas."""
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return tuple(parse_card(t) for t in texts)


_tuple_new = tuple.__new__  # a Shoe from checked values, without the check
_INDEX = {card: i for i, card in enumerate(FULL_DECK)}
_BITS = 4  # copies of one card are counted in 4 bits: up to 15 (the shoe holds at most 8 decks)


class _ShoeFields(NamedTuple):
    decks: int
    counts: int


class Shoe(_ShoeFields):
    """Which cards are in play since the last shuffle or collection, in a shoe of ``decks`` decks.

    ``counts`` packs, for each card of FULL_DECK, how many copies are in play into one integer
    (4 bits a card), so taking a card out is one addition. An (N+1)-th copy is refused.
    A named tuple, so a new count is made in C (a shoe is replaced at every card dealt).
    """

    __slots__ = ()

    def __new__(cls, decks: int = 1, counts: int = 0) -> Shoe:
        if not 1 <= decks <= 8:
            raise RuleError(f"a shoe holds 1 to 8 decks, not {decks}")
        return super().__new__(cls, decks, counts)

    def count(self, card: Card) -> int:
        return (self.counts >> (_BITS * _INDEX[card])) & 15

    @property
    def dealt(self) -> int:
        return sum(self.count(c) for c in FULL_DECK)

    @property
    def remaining(self) -> int:
        return 52 * self.decks - self.dealt

    def can_deal(self, card: Card) -> bool:
        return self.count(card) < self.decks

    def deal(self, card: Card) -> Shoe:
        """The shoe with ``card`` taken out; refuse an (N+1)-th copy with a clear message."""
        shift = _BITS * _INDEX[card]
        if (self.counts >> shift) & 15 >= self.decks:
            copies = "once" if self.decks == 1 else f"{self.decks} times"
            raise CardError(
                f"{card.code} is already in play {copies}: a {self.decks}-deck shoe holds it only "
                f"{copies} until the cards are shuffled or collected"
            )
        return _tuple_new(Shoe, (self.decks, self.counts + (1 << shift)))  # decks: checked

    def deal_all(self, cards: Iterable[Card]) -> Shoe:
        shoe = self
        for card in cards:
            shoe = shoe.deal(card)
        return shoe

    def collect(self) -> Shoe:
        """All cards back (a shuffle, or the cards gathered at the end of a deal)."""
        return Shoe(self.decks)

    def available(self) -> list[Card]:
        """Cards that can still be dealt, for greying out the touch grid."""
        return [c for c in FULL_DECK if self.count(c) < self.decks]
