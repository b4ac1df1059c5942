"""Issue 16's sixty-seventh step (rule FF, shipped): a card outline that the detector's crops
read as one card in two corners, at its own index's scale, is explained, and the index reader
looks no further inside it (``explained.py``, ``IndexReader(skip_explained=True)``)."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.vision import indices
from dealer_assist.vision.detect import find_cards, order_quad
from dealer_assist.vision.explained import (
    EXPLAINED_STEPS,
    corner_of,
    explained,
    inside,
    long_side,
    without,
)
from dealer_assist.vision.indices import IndexReader
from dealer_assist.vision.recognizer import Recognizer

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.vision_data import decks, scenes

# a held-out design whose court cards find_cards outlines on plain felt (gm-paris's and penguins'
# are not: a printed border line and the picture split their white)
DECK = "tigullio-international"
needs_decks = pytest.mark.skipif(DECK not in decks.held_out_decks(),
                                 reason="no SVG deck installed (kdegames-card-data-kf5)")

# a card 300 x 420 px, turned 30 degrees about (500, 400)
TURNED = cv2.boxPoints(((500.0, 400.0), (300.0, 420.0), 30.0)).astype(np.float32)


@pytest.mark.parametrize("quad", [TURNED, TURNED[::-1]], ids=["one way", "the other way"])
def test_inside_a_turned_quad_whichever_way_its_corners_go(quad: np.ndarray) -> None:
    centre = np.array([500, 400])
    near_corner, near_edge = (centre + 0.99 * (p - centre) for p in (TURNED[0], (TURNED[0] + TURNED[1]) / 2))
    points = np.array([centre, near_corner, near_edge, [500, 100], [900, 400],
                       TURNED[0] + 0.03 * (TURNED[0] - centre)])
    assert inside(points, [quad]).tolist() == [True, True, True, False, False, False]
    assert not inside(points, []).any()


def card_point(u: float, v: float) -> np.ndarray:
    """The point of TURNED at (u, v) across its width and along its height (0-1)."""
    to_card = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), CARD)
    return cv2.perspectiveTransform(np.float32([[[u, v]]]), to_card)[0, 0]


CARD = order_quad(TURNED)
TOP_LEFT, BOTTOM_RIGHT, MIDDLE = card_point(0.1, 0.08), card_point(0.9, 0.92), card_point(0.5, 0.5)


def test_corners_are_where_a_cards_indices_are_printed() -> None:
    points = np.array([TOP_LEFT, card_point(0.9, 0.08), BOTTOM_RIGHT, card_point(0.1, 0.92),
                       MIDDLE, card_point(0.1, 0.5), card_point(0.5, 0.08)])
    assert corner_of(points, CARD).tolist() == [0, 1, 2, 3, -1, -1, -1]
    assert corner_of(np.zeros((0, 2)), CARD).shape == (0,)


def test_a_card_is_explained_by_one_card_read_in_two_corners_at_its_index_scale() -> None:
    assert long_side(CARD) == pytest.approx(420, rel=1e-4)
    two = np.array([TOP_LEFT, BOTTOM_RIGHT])
    found = explained([CARD], two, np.array([45.0, 45.0]), ["KH", "KH"])  # 420 / 45: an index
    assert len(found) == 1 and np.array_equal(found[0], CARD)
    # one corner read: one card of two overlapping in a card-shaped outline, perhaps
    assert explained([CARD], two[:1], np.array([45.0]), ["KH"]) == []
    assert explained([CARD], np.array([TOP_LEFT, MIDDLE]), np.array([45.0, 45.0]),
                     ["KH", "KH"]) == []
    # two cards read inside: a pile or a fan seen as one outline
    assert explained([CARD], np.vstack([two, [MIDDLE]]), np.array([45.0, 45.0, 45.0]),
                     ["KH", "KH", "7C"]) == []
    # readings at a scale the outline is no card of (a white cloth around a small card, or an
    # index too big for it), or outside it, explain nothing
    for step in (420 / EXPLAINED_STEPS[1] * 0.9, 420 / EXPLAINED_STEPS[0] * 1.1):
        assert explained([CARD], two, np.array([step, step]), ["KH", "KH"]) == []
    assert explained([CARD], two + 600, np.array([45.0, 45.0]), ["KH", "KH"]) == []


def test_without_clears_the_quads_and_nothing_else() -> None:
    mask = np.full((800, 1000), 255, np.uint8)
    cleared = without(mask, [TURNED])
    assert cleared[400, 500] == 0 and cleared[50, 50] == 255 and cleared[750, 950] == 255
    assert mask.min() == 255  # the mask given is left as it was
    assert np.array_equal(without(mask, []), mask)


def court_card_on_felt(deck: str, code: str) -> np.ndarray:
    """A lone court card of ``deck``, 600 px tall and a little turned, on green felt."""
    face = scenes.on_white(scenes.load_faces(deck)[code])
    h, w = face.shape[:2]
    table = np.full((960, 1280, 3), (40, 110, 30), np.uint8)
    quad = cv2.boxPoints(((640.0, 480.0), (600.0 * w / h, 600.0), 8.0)).astype(np.float32)
    corners = np.float32([[0, h], [0, 0], [w, 0], [w, h]])  # boxPoints' order
    m = cv2.getPerspectiveTransform(corners, quad)
    card = cv2.warpPerspective(face, m, (1280, 960))
    inked = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, (1280, 960)) > 0
    table[inked] = card[inked]
    return table


@needs_decks
def test_a_read_court_card_gets_no_whole_frame_pairs_and_fewer_crops(monkeypatch) -> None:
    frame = court_card_on_felt(DECK, "JD")
    outlines = find_cards(frame).quads
    assert len(outlines) == 1
    crops, whole_frame = {}, {}

    def spy(reader: IndexReader, name: str) -> None:
        classify, pairs = reader.classify, reader._whole_frame_candidates
        crops[name] = whole_frame[name] = 0

        def counted(found, *args, **kwargs):
            crops[name] += len(found)
            return classify(found, *args, **kwargs)

        def proposed(*args, **kwargs):
            out = pairs(*args, **kwargs)
            whole_frame[name] += int(inside(np.array([c.centre for c, _n, _g in out] or
                                                     np.zeros((0, 2))),
                                            [q * 1.0 for q in outlines]).sum())
            return out

        monkeypatch.setattr(reader, "classify", counted)
        monkeypatch.setattr(reader, "_whole_frame_candidates", proposed)

    readers = {"before": IndexReader(skip_explained=False), "FF": IndexReader()}
    for name, reader in readers.items():
        spy(reader, name)
        assert "JD" in {p.code for p in Recognizer(index_reader=reader).read(frame)}
    assert whole_frame["before"] > 0 and whole_frame["FF"] == 0  # (1280-px frame: scale 1)
    assert crops["FF"] < crops["before"]


def test_the_shipped_reader_skips_explained_outlines_and_the_reader_before_does_not() -> None:
    assert indices.SHIPPED_SKIP_EXPLAINED is True
    assert IndexReader().skip_explained is True
    assert IndexReader(skip_explained=False).skip_explained is False
