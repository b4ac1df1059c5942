"""Evaluation photos in ../shared/cards-real: third-party data, read in place, skipped if absent."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from dealer_assist.cards import parse_cards
from dealer_assist.vision.recognizer import Recognizer
from dealer_assist.vision.sources import read_image

REAL_CARDS = Path(__file__).resolve().parents[3] / "shared" / "cards-real"

pytestmark = pytest.mark.skipif(not (REAL_CARDS / "labels.csv").exists(),
                                reason="../shared/cards-real is not here")


def test_no_wrong_card_and_most_cards_read(recognizer: Recognizer) -> None:
    with open(REAL_CARDS / "labels.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    right = wrong = total = 0
    for row in rows:
        expected = {c.code for c in parse_cards(row["cards"])}
        read = {p.code for p in recognizer.read(read_image(REAL_CARDS / row["file"]))} - {None}
        right += len(read & expected)
        wrong += len(read - expected)
        total += len(expected)
    assert wrong == 0
    assert right / total >= 0.9
