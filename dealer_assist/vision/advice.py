"""Advice to the dealer about the camera: cards too small in the frame to be read surely.

Small corner indices are what the reader loses first (issue 16, twenty-ninth step, measured
with ``bench_vision.py``'s ``by_size``): on the held-out designs, indices whose rank-to-suit
step is 16 px or more in a 1280-px frame read as well blurred (σ 1.5) as sharp (153 cards
against 154), under 16 px 46 against 80 (58 %); the training designs show the same. The step
is about a ninth of a card's height (more or less by design): a 16-px step is on a card about
140 px tall in a 1280-px frame. So when most of the
indices read in the last frames are smaller than that, the panel asks the dealer to bring the
camera closer: the remedy is at the table, not in the reader.

Steps are measured in the pixels the reader sees: a frame over the reader's work size is
scaled down to it first, and a smaller frame's enlargement adds no detail.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import numpy as np

from dealer_assist.vision.indices import WORK_LONG_SIDE
from dealer_assist.vision.proposal import Proposal

SMALL_STEP = 16.0  # px, as the reader sees them: a median step under this is "small"
WINDOW = 10  # frames whose index steps are pooled (about a second of a live camera)
MIN_READINGS = 3  # fewer readings than this in the window: too little to advise on
MOVE_CLOSER = "Cards look small to the camera: bring it closer or zoom in for surer readings."


def reader_steps(proposals: Iterable[Proposal], frame_size: tuple[int, int]) -> list[float]:
    """The rank-to-suit steps of the indices behind ``proposals``, in reader pixels (a frame
    of ``frame_size`` (width, height) over WORK_LONG_SIDE is scaled down to it)."""
    shrink = min(1.0, WORK_LONG_SIDE / max(frame_size))
    return [p.step * shrink for p in proposals if p.step is not None]


def too_small(steps: list[float]) -> bool:
    """Are the cards these index steps (reader pixels) belong to too small to read surely?"""
    return len(steps) >= MIN_READINGS and float(np.median(steps)) < SMALL_STEP


class SizeAdvice:
    """Watches the index steps of the last WINDOW frames and says when to move closer."""

    def __init__(self, window: int = WINDOW) -> None:
        self.frames: deque[list[float]] = deque(maxlen=window)

    def update(self, proposals: Iterable[Proposal], frame_size: tuple[int, int]) -> str | None:
        """Add a frame's proposals; the advice to show now (None: nothing to say)."""
        self.frames.append(reader_steps(proposals, frame_size))
        pooled = [s for steps in self.frames for s in steps]
        return MOVE_CLOSER if too_small(pooled) else None

    def reset(self) -> None:
        self.frames.clear()
