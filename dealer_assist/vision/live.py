"""Live reading: frames from a source, recognised, voted over, assigned to seats, drawn.

The GUI only shows a :class:`LiveUpdate` and reports the dealer's confirm/reject back; everything
computed (what the card is, which seat, whether to auto-accept) is decided here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from dealer_assist.vision.advice import SizeAdvice
from dealer_assist.vision.draw import annotate
from dealer_assist.vision.proposal import Proposal
from dealer_assist.vision.recognizer import Recognizer
from dealer_assist.vision.sources import FrameSource
from dealer_assist.vision.voting import Voter, card_apart
from dealer_assist.vision.zones import ZoneMap


@dataclass(frozen=True)
class LiveSettings:
    """Reading options a session or the settings dialog chooses."""

    auto_accept: bool = False
    auto_accept_threshold: float = 0.9  # voted confidence at or above which a card needs no click
    window: int = 5
    min_votes: int = 3


# Frames a handled card is remembered while unseen (about two seconds of a camera): a card the
# reader loses for a few frames (its track ends after Voter.max_missed) is not asked about again
# when it is read again there, nor when its other corner index is read
FORGET_HANDLED = 60


@dataclass
class Handled:
    """A card the dealer confirmed or rejected: as it was last seen, and how many frames ago."""

    seen: Proposal
    unseen: int = 0


@dataclass(frozen=True)
class LiveUpdate:
    """One processed frame: what to show and what to propose to the dealer."""

    frame: np.ndarray = field(repr=False)  # annotated BGR frame
    proposals: tuple[Proposal, ...]
    pending: Proposal | None  # the card waiting for confirm/reject, if any
    seat: int | None  # the seat whose zone holds the pending card (None: no zones or outside)
    auto_accept: bool  # the pending card is sure enough to be taken without a click
    advice: str | None = None  # what the dealer could change at the table (advice.py)


class LiveReader:
    """Turns frames into :class:`LiveUpdate` s; remembers which cards the dealer has handled."""

    def __init__(self, source: FrameSource | None = None, recognizer: Recognizer | None = None,
                 zones: ZoneMap | None = None, settings: LiveSettings | None = None) -> None:
        self.settings = settings or LiveSettings()
        self.source = source
        self.recognizer = recognizer or Recognizer()
        self.zones = zones
        self.voter = Voter(self.settings.window, self.settings.min_votes)
        self.handled: dict[int, Handled] = {}  # by track
        self.advice = SizeAdvice()
        self.last_frame: np.ndarray | None = None  # the latest frame as the camera gave it
        self._frames: Iterator[np.ndarray] | None = None
        self._pending: Proposal | None = None  # the card last shown to the dealer

    def step(self) -> LiveUpdate | None:
        """Read and process the source's next frame; None when the source has ended."""
        if self.source is None:
            return None
        if self._frames is None:
            self._frames = iter(self.source)
        frame = next(self._frames, None)
        return None if frame is None else self.process(frame)

    def use(self, recognizer: Recognizer) -> None:
        """Read with ``recognizer`` from now on (another deck); what the old one voted for is
        forgotten."""
        self.recognizer = recognizer
        self.voter = Voter(self.settings.window, self.settings.min_votes)
        self.handled = {}
        self._pending = None
        self.advice.reset()

    def process(self, frame: np.ndarray) -> LiveUpdate:
        self.last_frame = frame
        proposals = self.recognizer.read(frame)
        voted = self.voter.update(proposals)
        self._remember_handled()
        waiting = [p for p in voted if p.card is not None and not self._handled(p)]
        pending = self._still_pending() or max(waiting, key=lambda p: p.confidence, default=None)
        self._pending = pending
        h, w = frame.shape[:2]
        advice = self.advice.update(proposals, (w, h))
        seat = None
        if pending is not None and self.zones is not None:
            seat = self.zones.seat_at(pending.centre, (w, h))
        auto = (pending is not None and self.settings.auto_accept
                and pending.confidence >= self.settings.auto_accept_threshold)
        image = annotate(frame, voted, self.zones, None if pending is None else pending.track)
        return LiveUpdate(image, tuple(voted), pending, seat, auto, advice)

    def _still_pending(self) -> Proposal | None:
        """The card shown to the dealer last frame, as long as its track lasts, still reads it
        and is not handled: what the dealer reads does not change under their finger when
        another card reads surer in the next frame."""
        last = self._pending
        track = None if last is None else self.voter.tracks.get(last.track)
        if last is None or track is None:
            return None
        now = self.voter.vote(track)
        return now if now.card == last.card and not self._handled(now) else None

    def _remember_handled(self) -> None:
        """Follow the handled cards: where each was seen this frame, or one more frame unseen
        (forgotten after FORGET_HANDLED)."""
        for tid, handled in list(self.handled.items()):
            track = self.voter.tracks.get(tid)
            if (track is not None and not track.missed
                    and track.readings[-1].card == handled.seen.card):
                handled.seen, handled.unseen = self.voter.vote(track), 0
            else:
                handled.unseen += 1
                if handled.unseen > FORGET_HANDLED:
                    del self.handled[tid]

    def _handled(self, p: Proposal) -> bool:
        """Has the dealer handled ``p``'s card: its track, or a handled card of the same card
        within a card's diagonal that this frame did not see (lost for a few frames, or read now
        by its other corner index: a new track)? Two copies of a card seen together stay two."""
        if p.track in self.handled:
            return True
        return any(h.unseen and card_apart(p, h.seen.card, h.seen.centre, [h.seen.step])
                   is not None for h in self.handled.values())

    def mark_handled(self, proposal: Proposal) -> None:
        """The dealer confirmed or rejected this card: do not propose it again while it stays."""
        if proposal.track is not None:
            self.handled[proposal.track] = Handled(proposal)

    def close(self) -> None:
        if self.source is not None:
            self.source.close()
