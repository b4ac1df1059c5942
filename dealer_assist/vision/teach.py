"""Teach the recogniser a deck from the camera: four photos, one suit each (issue 16).

The dealer lays the 13 cards of one suit face up, side by side, and captures a frame; then the
next suit. The four frames, each labelled with the 13 cards it shows, are what
``dealer-assist vision adapt`` reads from a folder of labelled photos (``calibration.adapt_deck``):
the shipped network's embeddings of the indices become the deck's per-card prototypes.

:class:`DeckTeacher` keeps the captured frames in memory until :meth:`DeckTeacher.save`, so a
refused capture or a failed save loses nothing and changes no saved deck.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dealer_assist.cards import RANKS, SUITS, parse_card
from dealer_assist.errors import RuleError
from dealer_assist.vision.adapt import Embedder
from dealer_assist.vision.calibration import Deck, adapt_deck, deck_dir

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
# a capture whose sure readings are mostly cards of other suits shows the wrong cards
WRONG_CARDS_AT_LEAST = 3


@dataclass(frozen=True)
class TeachStep:
    """One photo to take: the 13 cards of ``suit``."""

    suit: str

    @property
    def name(self) -> str:
        return SUIT_NAMES[self.suit]

    @property
    def cards(self) -> frozenset[str]:
        return frozenset(rank + self.suit for rank in RANKS)

    @property
    def prompt(self) -> str:
        return (f"Lay the 13 {self.name} face up, side by side, not overlapping, all in view "
                "of the camera; then Capture.")


STEPS = tuple(TeachStep(suit) for suit in SUITS)


def _card_order(code: str) -> tuple[int, int]:
    return SUITS.index(code[-1]), RANKS.index(code[:-1])


@dataclass(frozen=True)
class Captured:
    """What one capture found: the step, and how many of its 13 cards have an index crop (the
    network's likeliest card of the 13 on some crop); ``missing``: the others."""

    step: TeachStep
    cards_seen: int
    missing: tuple[str, ...] = ()


class DeckTeacher:
    """The four captures of a deck, then :meth:`save`."""

    def __init__(self, embedder: Embedder | None = None) -> None:
        self._embedder = embedder
        self.frames: list[np.ndarray] = []

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = Embedder()
        return self._embedder

    @property
    def step(self) -> TeachStep | None:
        """The photo to take next; None when all four are taken."""
        return STEPS[len(self.frames)] if len(self.frames) < len(STEPS) else None

    @property
    def done(self) -> bool:
        return self.step is None

    def capture(self, frame: np.ndarray | None) -> Captured:
        """Take ``frame`` as the current step's photo. RuleError (nothing kept) when there is
        no frame, no card index in it, or it mostly shows cards of another suit."""
        step = self.step
        if step is None:
            raise RuleError("all four suits are captured: save the deck, or retake one")
        if frame is None or frame.size == 0:
            raise RuleError("no camera picture yet: wait for the camera, then capture again")
        samples = self.embedder.samples(frame, set(step.cards))
        if not samples:
            raise RuleError(f"no card index was found in this picture: lay the 13 {step.name} "
                            "face up in good light, closer to the camera, and capture again")
        sure = [s.read_as for s in samples if s.read_as]
        other = sorted({code for code in sure if code not in step.cards}, key=_card_order)
        if len(other) >= WRONG_CARDS_AT_LEAST and len(other) > len(set(sure) - set(other)):
            shown = " ".join(parse_card(code).label for code in other[:5])
            raise RuleError(f"this picture seems to show other cards ({shown}"
                            f"{' …' if len(other) > 5 else ''}), not the {step.name}: lay out "
                            f"the 13 {step.name} and capture again")
        self.frames.append(frame.copy())
        seen = {s.code for s in samples}
        return Captured(step, len(seen), tuple(sorted(step.cards - seen, key=_card_order)))

    def retake(self) -> TeachStep | None:
        """Drop the last capture (its step is next again); the step to take, or None if none
        was captured."""
        if not self.frames:
            return None
        self.frames.pop()
        return self.step

    def save(self, name: str) -> tuple[Deck, dict]:
        """Adapt to the four captures and save the deck as ``name`` (replacing a deck of that
        name). ValueError for a bad name, RuleError before all four are captured, StorageError
        when it cannot be written; in every case no saved deck changes."""
        deck_dir(name)  # the name's check, before any work
        if not self.done:
            raise RuleError(f"capture the {self.step.name} first: a deck needs all four suits")
        return adapt_deck([(f, set(step.cards)) for f, step in zip(self.frames, STEPS,
                                                                     strict=True)], name)
