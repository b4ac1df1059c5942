"""The project's font-drawn cards (``synth``) are the same whatever the process drew before: until
issue 16's thirty-fourth step OpenCV's ``FontFace`` kept one face per family, so C059-Bold drew
as C059-Roman or the other way round, whichever the process had drawn first (the detector's
training chunks then depended on which chunks a worker had rendered before)."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import numpy as np
import pytest

from dealer_assist.cards import parse_card
from dealer_assist.vision import synth

ROMAN = "/usr/share/fonts/opentype/urw-base35/C059-Roman.otf"
BOLD = "/usr/share/fonts/opentype/urw-base35/C059-Bold.otf"
needs_c059 = pytest.mark.skipif(not (Path(ROMAN).exists() and Path(BOLD).exists()),
                                reason="no URW base35 fonts (fonts-urw-base35)")


def queen(font: str) -> np.ndarray:
    return synth.render_card(parse_card("QS"), font=font)


def queens_after(first: str) -> tuple[np.ndarray, np.ndarray]:
    """The queen of spades in C059 Roman and Bold, drawn in a fresh process after ``first``."""
    queen(first)
    return queen(ROMAN), queen(BOLD)


@needs_c059
def test_two_faces_of_one_family_draw_as_themselves() -> None:
    roman, bold = queen(ROMAN), queen(BOLD)
    assert not np.array_equal(roman, bold)
    assert (bold < 128).sum() > (roman < 128).sum()  # the bold face has more ink


@needs_c059
def test_a_card_does_not_depend_on_what_was_drawn_before() -> None:
    with multiprocessing.get_context("spawn").Pool(1) as fresh:
        after_roman = fresh.apply(queens_after, (ROMAN,))
    with multiprocessing.get_context("spawn").Pool(1) as fresh:
        after_bold = fresh.apply(queens_after, (BOLD,))
    for a, b in zip(after_roman, after_bold, strict=True):
        assert np.array_equal(a, b)
