"""Recognition of rendered frames with known cards."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dealer_assist.cards import FULL_DECK, Card, parse_card, parse_cards
from dealer_assist.vision import synth
from dealer_assist.vision.detect import find_card_quads, order_quad
from dealer_assist.vision.live import LiveSettings
from dealer_assist.vision.recognizer import Recognizer

C = parse_card


def one_card(card: Card, angle: float = 0.0, tilt: float = 0.0, height: float = 420,
             font: str = synth.BUILTIN_FONT, **degrade) -> np.ndarray:
    quad = synth.card_quad((640, 480), height, angle, tilt)
    return synth.scene([card], [quad], font=font, **degrade)


@pytest.mark.parametrize("card", FULL_DECK[::3], ids=lambda c: c.code)
def test_reads_upright_card(card: Card, read_codes) -> None:
    assert read_codes(one_card(card)) == [card.code]


@pytest.mark.parametrize("card", parse_cards("QS 10H 7C AD KD 4S"), ids=str)
@pytest.mark.parametrize("angle", [-35, 17, 90, 160, 200])
def test_reads_rotated_card(card: Card, angle: float, read_codes) -> None:
    assert read_codes(one_card(card, angle=angle)) == [card.code]


@pytest.mark.parametrize(("tilt", "blur", "noise", "light"), [
    (0.2, 0.0, 0.0, 0.0),
    (0.0, 1.5, 0.0, 0.0),
    (0.0, 0.0, 12.0, 0.0),
    (0.0, 0.0, 0.0, 0.5),
    (0.15, 1.0, 6.0, 0.3),
])
def test_reads_degraded_card(tilt: float, blur: float, noise: float, light: float,
                             read_codes) -> None:
    for card in parse_cards("9S JH 3C"):
        frame = one_card(card, angle=12, tilt=tilt, blur=blur, noise=noise, light=light)
        assert read_codes(frame) == [card.code]


def test_reads_system_serif_font(read_codes) -> None:
    if len(synth.FONTS) < 2:
        pytest.skip("no system serif font installed")
    assert read_codes(one_card(C("KH"), angle=-8, font=synth.FONTS[1])) == ["KH"]


def test_reads_several_cards(recognizer: Recognizer) -> None:
    cards = parse_cards("QS 10H 7C AD 2S")
    quads = [synth.card_quad((160 + i * 240, 300 + (i % 2) * 330), 300, a)
             for i, a in enumerate([0, 30, -20, 95, 180])]
    proposals = recognizer.read(synth.scene(cards, quads))
    assert sorted(p.code for p in proposals) == sorted(c.code for c in cards)
    for p in proposals:  # each reading sits on its own card
        expected = quads[[c.code for c in cards].index(p.code)].mean(axis=0)
        assert np.linalg.norm(np.asarray(p.centre) - expected) < 20


def test_fan_of_overlapping_cards_reads_corner_indices(recognizer: Recognizer) -> None:
    cards = parse_cards("10H QS AC")
    quads = [synth.card_quad((420 + 130 * i, 480), 420, -10 + 12 * i) for i in range(3)]
    proposals = recognizer.read(synth.scene(cards, quads))
    read = [p.code for p in proposals if p.code is not None]
    assert set(read) <= {"10H", "QS", "AC"}  # never a card that is not there
    assert {"10H", "QS"} <= set(read)  # the two covered cards by their corner index
    fan = [p for p in proposals if p.code in ("10H", "QS")]
    assert all(p.confidence < 0.9 for p in fan)  # lower confidence than a whole card


def test_random_fans_never_name_a_card_that_is_not_there(recognizer: Recognizer) -> None:
    rng = np.random.default_rng(7)  # scripts/bench_vision.py --synthetic drawn-fans --seed 7
    read = total = 0
    for trial in range(12):
        frame, cards = synth.random_fan(rng, trial)
        found = {p.code for p in recognizer.read(frame)} - {None}
        assert found <= {c.code for c in cards}
        read += len(found)
        total += len(cards)
    assert read >= total / 2  # most indices in a fan are visible and read


def test_blank_card_and_empty_table_read_nothing(recognizer: Recognizer) -> None:
    table = synth.table((1280, 960))
    assert recognizer.read(table) == []
    blank = synth.place(table, np.full((420, 300, 3), 245, np.uint8),
                        synth.card_quad((640, 480), 420, 10))
    proposals = recognizer.read(blank)
    assert [p.card for p in proposals] == [None]


def test_index_disagreeing_with_pips_is_left_to_the_dealer(recognizer: Recognizer) -> None:
    """A 7 index on a card with four pips (a misprint, or pips hidden or added by other cards):
    the index is proposed, but below auto-accept, so the dealer decides."""
    img = synth.render_card(C("7S"))
    four = synth.render_card(C("4S"))
    img[:, 60:240] = four[:, 60:240]  # keep the 7 indices, take the 4's pips
    frame = synth.place(synth.table((1280, 960)), img, synth.card_quad((640, 480), 420, 5))
    (proposal,) = recognizer.read(frame)
    assert proposal.code == "7S"
    assert proposal.confidence < LiveSettings().auto_accept_threshold


def test_order_quad_starts_with_short_edge_clockwise() -> None:
    pts = np.array([[300, 100], [100, 100], [100, 380], [300, 380]], np.float32)  # portrait
    q = order_quad(pts[[2, 0, 3, 1]])
    assert np.linalg.norm(q[1] - q[0]) < np.linalg.norm(q[2] - q[1])
    (ax, ay), (bx, by) = q[1] - q[0], q[2] - q[1]
    assert ax * by - ay * bx > 0  # clockwise on screen (y down)


def test_detects_card_outline() -> None:
    quad = synth.card_quad((500, 400), 400, 25, 0.1)
    found = find_card_quads(synth.scene([C("5D")], [quad]))
    assert len(found) == 1
    assert np.abs(np.sort(found[0], axis=0) - np.sort(quad, axis=0)).max() < 8


def checked_cloth(size: tuple[int, int], square: int = 80) -> np.ndarray:
    """A pink and navy checked tablecloth (BGR) seen a little turned and soft, as a camera
    sees it (its squares then part at their corners)."""
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w]
    light = ((xs // square + ys // square) % 2 == 0)[..., None]
    cloth = np.where(light, np.uint8([150, 130, 215]), np.uint8([90, 20, 20]))
    noise = np.random.default_rng(3).normal(0, 6, cloth.shape)
    cloth = np.clip(cloth + noise, 0, 255).astype(np.uint8)
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), 7, 1.15)
    return cv2.GaussianBlur(cv2.warpAffine(cloth, turn, (w, h), borderMode=cv2.BORDER_REFLECT),
                            (0, 0), 1.2)


def test_a_checked_cloth_is_not_taken_for_card_outlines(recognizer: Recognizer) -> None:
    """Its squares are card-shaped regions between edges (a tilted card can look square), but
    dark squares are not card faces, and dozens of alike regions are a pattern, not cards."""
    cloth = checked_cloth((1280, 960))
    assert find_card_quads(cloth) == []
    quad = synth.card_quad((500, 420), 380, 20)
    frame = synth.place(cloth, synth.render_card(C("9H")), quad)
    assert len(find_card_quads(frame)) <= 2
    assert {p.code for p in recognizer.read(frame)} == {"9H"}


def test_a_card_in_dim_light_is_still_outlined() -> None:
    """Under 35 % light no pixel is bright enough for the card-white mask; the edges still
    outline the card, as the brightest thing on the table."""
    quad = synth.card_quad((640, 480), 420, 12)
    frame = synth.place(synth.table((1280, 960)), synth.render_card(C("6D")), quad)
    dim = (frame * 0.35).astype(np.uint8)
    found = find_card_quads(dim)
    assert len(found) == 1
    assert np.linalg.norm(found[0].mean(axis=0) - np.mean(quad, axis=0)) < 15
    area = cv2.contourArea(np.float32(quad))
    assert 0.75 * area < cv2.contourArea(found[0]) < 1.1 * area  # edges lie a little inside
