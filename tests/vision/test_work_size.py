"""The index reader's work size: large frames scaled down to 1280 px, small ones enlarged (cubic,
at most ENLARGE_MOST times), so its glyph sizes and ink thresholds mean the same pixels."""

from __future__ import annotations

import numpy as np
import pytest

from dealer_assist.vision.indices import ENLARGE_MOST, WORK_LONG_SIDE, IndexReader, work_size


@pytest.mark.parametrize(("shape", "expected", "scale"), [
    ((960, 1280), (960, 1280), 1.0),
    ((1920, 2560), (960, 1280), 0.5),
    ((480, 640), (960, 1280), 2.0),  # a webcam's frame: the work size exactly (rule AX)
    ((360, 480), (720, 960), ENLARGE_MOST),
    ((600, 800), (960, 1280), 1.6),
    ((960, 1000), (1229, 1280), 1.28),
    ((1, 1), (2, 2), ENLARGE_MOST),
])
def test_work_size(shape: tuple[int, int], expected: tuple[int, int], scale: float) -> None:
    small, f = work_size(np.zeros((*shape, 3), np.uint8))
    assert small.shape[:2] == expected and f == pytest.approx(scale)
    assert max(small.shape[:2]) <= WORK_LONG_SIDE


def test_readings_of_an_enlarged_frame_are_in_the_frame_s_pixels() -> None:
    """A card read in a 640-px frame is placed in that frame, not in the enlarged one."""
    from dealer_assist.cards import parse_card
    from dealer_assist.vision import synth

    card = synth.render_card(parse_card("7H"))
    frame = synth.place(synth.table((640, 480), seed=3), card, synth.card_quad((320, 240), 300, 5))
    reads = IndexReader().read(frame)
    assert reads and {r.card.code for r in reads} == {"7H"}
    for r in reads:
        x, y = r.candidate.centre
        assert 0 <= x < 640 and 0 <= y < 480
