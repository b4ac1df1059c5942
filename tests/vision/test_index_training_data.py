"""The index reader's training data (issue 16): procedural deck designs drawn with the system's
fonts, the design mix (never a held-out design), crops cut as roughly as the detector cuts them,
and the rule that reads a detected index from its crops together."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.vision import ink_pairs
from dealer_assist.vision.indices import CLASSES, IndexReader

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts import build_index_model as build
from scripts.vision_data import decks, scenes, variants


def ink_at(face: np.ndarray, point, reach: int) -> bool:
    """Whether there is printed ink (darker than the paper) within ``reach`` px of ``point``
    (the middle of a glyph such as Q or 0 is a hole)."""
    x, y = (round(float(v)) for v in point)
    patch = face[max(0, y - reach):y + reach + 1, max(0, x - reach):x + reach + 1, :3].astype(int)
    paper = face[face.shape[0] // 2, 3, :3].astype(int)  # the margin beside the pips
    return bool((paper.sum() - patch.sum(axis=2) > 120).any())


def test_a_procedural_design_is_the_same_every_time_and_designs_differ() -> None:
    first, again = variants.style(3), variants.style(3)
    assert first == again
    assert len({variants.style(k) for k in range(20)}) == 20
    faces, anchors = variants.deck(5)
    assert set(faces) == set(decks.CODES) == set(anchors)
    assert all(face.shape == (variants.FACE_H, variants.FACE_W, 4) for face in faces.values())


def test_the_known_index_anchors_sit_on_the_printed_rank_and_suit() -> None:
    for k in (0, 7, 11):
        faces, anchors = variants.deck(k)
        for code in ("AS", "10H", "QD", "7C"):
            rx, ry, sx, sy = anchors[code]
            reach = int(0.3 * (sy - ry))  # less than half the way to the other glyph
            assert ink_at(faces[code], (rx, ry), reach), (k, code, "rank")
            assert ink_at(faces[code], (sx, sy), reach), (k, code, "suit")
            assert not ink_at(faces[code], (rx + 3 * reach, ry), reach // 2)  # beside: paper
            assert sy > ry  # the suit is under the rank
            assert rx < 0.3 * variants.FACE_W and sy < 0.3 * variants.FACE_H


def pointed_top(glyph: np.ndarray) -> bool:
    """A spade's top is a point: its top tenth of rows is far narrower than the glyph (a club's
    top is a round leaf)."""
    rows = np.nonzero((glyph > 127).any(axis=1))[0]
    top = glyph[rows[0]:rows[0] + max(1, len(rows) // 10)] > 127
    cols = np.nonzero(top.any(axis=0))[0]
    width = np.nonzero((glyph > 127).any(axis=0))[0]
    return bool(cols[-1] - cols[0] + 1 < 0.25 * (width[-1] - width[0] + 1))


def test_every_suit_font_draws_a_spade_as_a_spade_and_a_club_as_a_club() -> None:
    """FreeSerifBold draws U+2660 as a club and U+2663 as a spade: drawn as labelled, the
    networks were taught a spade's shape as a club in its designs."""
    fonts = variants.suit_fonts()
    assert any(f.endswith("FreeSerifBold.ttf") for f in fonts)  # the case this guards
    for font in fonts:
        st = variants.Style(font=variants.text_fonts()[0], suit_font=font, weight=0, width=1,
                            black=(0, 0, 0), red=(0, 0, 200), paper=(255, 255, 255), rank_h=0.1,
                            suit_s=0.06, gap=0.01, x=0.1, y=0.04, frame=0)
        assert pointed_top(variants.suit_glyph("S", 96, st)), font
        assert not pointed_top(variants.suit_glyph("C", 96, st)), font


def test_only_fonts_that_draw_letters_are_used() -> None:
    fonts = variants.text_fonts()
    assert fonts and all(f.endswith((".ttf", ".otf")) for f in fonts)
    assert not any("D050000L" in f or "StandardSymbols" in f for f in fonts)


def test_a_design_is_drawn_the_same_whatever_was_drawn_before() -> None:
    """Glyphs come from Pillow, not OpenCV's FontFace (which keeps state between fonts)."""
    k = 57
    before = variants.deck.__wrapped__(k)[0]["10S"].copy()
    for other in range(0, 200, 7):
        variants.deck.__wrapped__(other)
    assert np.array_equal(variants.deck.__wrapped__(k)[0]["10S"], before)


def test_training_never_draws_a_held_out_design() -> None:
    rng = np.random.default_rng(0)
    picked = {build.pick_design(rng) for _ in range(2000)}
    assert not picked & set(decks.HELD_OUT)
    assert {p.split(":")[0] for p in picked} >= {"var", "font"}
    assert any(p in decks.training_decks() for p in picked) or not decks.training_decks()


def test_rough_crops_stay_within_the_labelling_tolerance_of_the_index() -> None:
    """The rough (detector-like) cuts of a true index keep its middle near the index and its size
    within the range a proposal is labelled with that card (``scenes.label_candidates``)."""
    rng = np.random.default_rng(1)
    rank, suit = np.array([100.0, 100.0]), np.array([100.0, 130.0])
    sizes, shifts = [], []
    for _ in range(500):
        c = build.jittered(rng, rank, suit, "rough")
        sizes.append(c.size / 30)
        shifts.append(np.linalg.norm(np.subtract(c.centre, (100, 115))) / 30)
    assert min(sizes) > 0.6 and max(sizes) < 1.6
    assert np.median(shifts) < 0.2
    assert np.std(sizes) > 0.1  # rough, not exact


def test_scaled_crops_are_centred_on_the_index_at_any_scale_of_the_range() -> None:
    rng = np.random.default_rng(3)
    rank, suit = np.array([100.0, 100.0]), np.array([100.0, 130.0])
    cuts = [build.jittered(rng, rank, suit, "scaled") for _ in range(500)]
    sizes = np.array([c.size / 30 for c in cuts])
    shifts = [np.linalg.norm(np.subtract(c.centre, (100, 115))) / 30 for c in cuts]
    assert sizes.min() >= 0.7 - 1e-3 and sizes.max() <= 1.4 + 1e-3
    assert sizes.min() < 0.75 and sizes.max() > 1.35  # the whole range
    assert np.median(shifts) < 0.1


def group(reader: IndexReader, probs: list[dict[str, float]], peaks: list[int]):
    """The group readings of crops with these class probabilities, from these detector peaks."""
    p = np.zeros((len(probs), len(CLASSES)), np.float32)
    for i, row in enumerate(probs):
        for code, v in row.items():
            p[i, CLASSES.index(code)] = v
        p[i, 0] += 1 - p[i].sum()
    cand = ink_pairs.candidate(np.array([10, 10], np.float32), np.array([10, 20], np.float32))
    cands = [(cand, 0.95, g) for g in peaks]
    return reader._group_reads(cands, p, p.argmax(axis=1), 1.0)


def test_the_crops_of_one_index_read_together_when_they_agree() -> None:
    reader = IndexReader()
    agree = group(reader, [{"7H": 0.93}, {"7H": 0.92}], [0, 0])
    assert [r.card.code for r in agree] == ["7H"]
    assert abs(agree[0].prob - 0.925) < 1e-3
    # one crop is not a group; crops of different peaks are not pooled
    assert group(reader, [{"7H": 0.93}], [0]) == []
    assert group(reader, [{"7H": 0.93}, {"7H": 0.93}], [0, 1]) == []
    # they must agree: a second crop naming another card, or a weak mean, reads nothing
    assert group(reader, [{"7H": 0.93}, {"7D": 0.9}], [0, 0]) == []
    weak = reader.acceptance.group - 0.01
    assert group(reader, [{"7H": weak}, {"7H": weak}], [0, 0]) == []
    # "not an index" is never read as a card; classical pairs (-1) are never grouped
    assert group(reader, [{}, {}], [0, 0]) == []
    assert group(reader, [{"7H": 0.95}, {"7H": 0.95}], [-1, -1]) == []


def test_an_index_anchor_is_looked_for_near_where_the_deck_has_its_index() -> None:
    faces, anchors = variants.deck(7)
    known = np.array(anchors["7C"], np.float64)
    rank, suit = scenes.find_anchor(faces["7C"], near=known)
    assert scenes._off(np.array([*rank, *suit]), known) <= scenes.ANCHOR_TOLERANCE
    # nowhere near a printed index: unknown, not the nearest pair anyway
    far = known + np.array([120, 200, 120, 200])
    assert scenes.find_anchor(faces["7C"], near=far) is None


# faces whose corner-most rank-over-suit pair is not the index: a big pip beside a small one
# (gm-paris and bonded 5-10 of clubs), a 10's "0" paired with a pip (ancient-egyptians), a mark
# at the card's edge (nicu-ornamental 7H, tigullio's jacks)
MISLEADING = {"gm-paris": "5C 6C 7C 8C 9C 10C", "aisleriot-bonded": "5C 6C 7C 8C 9C 10C",
              "penguins": "10H", "tigullio-international": "JC JH", "nicu-ornamental": "7H",
              "ancient-egyptians": "10S"}


@pytest.mark.skipif(not decks.held_out_decks(), reason="no SVG deck (kdegames-card-data-kf5)")
@pytest.mark.parametrize("deck", sorted(MISLEADING))
def test_a_face_whose_corner_pair_is_not_its_index_gets_the_index_of_its_deck(deck: str) -> None:
    if deck not in decks.deck_files():
        pytest.skip(f"{deck} is not installed")
    anchors = scenes.anchors_of(deck, scenes.load_faces(deck))
    # a low card's index, found by the corner-most pair alone
    low = np.array(next(anchors[r + s] for r in "234" for s in "SHDC" if anchors[r + s]))
    for code in MISLEADING[deck].split():
        assert anchors[code], code
        assert scenes._off(np.array(anchors[code]), low) <= scenes.ANCHOR_TOLERANCE, code
    found = [np.array(a) for a in anchors.values() if a]
    usual = scenes.usual_anchor(found)
    assert all(scenes._off(a, usual) <= scenes.ANCHOR_TOLERANCE for a in found)


def face_with_a_suit_on_its_stem() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A clean BGRA face (300×420) whose index is a "4" over a diamond that a long printed line
    runs through, as on ancient-egyptians and jolly-royal; with the rank's and the suit's
    centres as drawn."""
    face = np.full((420, 300, 4), 255, np.uint8)
    cv2.putText(face, "4", (22, 62), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (0, 0, 200, 255), 4)
    suit = np.array([40.0, 86.0])
    diamond = np.array([[40, 70], [55, 86], [40, 102], [25, 86]], np.int32)
    cv2.fillConvexPoly(face, diamond, (0, 0, 200, 255))
    cv2.line(face, (40, 72), (40, 400), (0, 0, 200, 255), 3)  # the stem, through the suit
    ink = np.argwhere(face[:66, :70, 0] < 128)  # the "4" alone
    return face, ink.mean(axis=0)[::-1], suit


def test_an_index_whose_suit_touches_a_printed_line_gets_its_anchor() -> None:
    face, rank, suit = face_with_a_suit_on_its_stem()
    # the suit and its stem are one blob, too large to be a glyph: no rank-over-suit pair
    assert not any(np.hypot(*(c.suit - suit)) < 20 for c in ink_pairs.find_candidates(face[..., :3]))
    found = scenes.find_anchor(face)
    assert found is not None
    step = float(np.hypot(*(suit - rank)))
    # the suit's centre is its body's, not one of the halves the erased line leaves
    assert np.hypot(*(found[0] - rank)) < 0.15 * step
    assert np.hypot(*(found[1] - suit)) < 0.1 * step


@pytest.mark.skipif(not decks.held_out_decks(), reason="no SVG deck (kdegames-card-data-kf5)")
def test_nearly_every_face_of_every_svg_deck_has_its_index_anchor() -> None:
    # until the search with lines erased, ancient-egyptians had 9 of 52, jolly-royal 18, penguins
    # 48: their other faces were neither read in the benchmark nor trained on
    for deck in decks.deck_files():
        anchors = scenes.anchors_of(deck, scenes.load_faces(deck))
        assert sum(bool(a) for a in anchors.values()) >= 51, deck


def test_an_index_whose_suit_is_covered_is_taught_as_naming_no_card() -> None:
    """A fan's next card can hide all of an index's suit but a dot: with ``--covered-glyph`` a crop
    of it is "not an index" (it names no card), not left out of training."""
    faces, anchors = variants.deck(5)
    sc = scenes.make_scene(np.random.default_rng(4), faces, (1280, 960), kind="single",
                           max_tilt=0, mild=True)
    code, rank, suit, _frac, glyph_frac = next(
        m for m in scenes.visible_indices(sc, anchors) if m.frac == 1 and m.legible(12))
    assert glyph_frac == 1
    cand = ink_pairs.candidate(rank.astype(np.float32), suit.astype(np.float32))
    marks = scenes.visible_indices(sc, anchors)
    assert scenes.label_candidates([cand], marks, sc, anchors) == [CLASSES.index(code)]

    step = float(np.linalg.norm(suit - rank))
    cv2.circle(sc.owner, tuple(int(v) for v in suit), int(0.6 * step), -2, -1)  # a chip on it
    covered = next(m for m in scenes.visible_indices(sc, anchors)
                   if m.code == code and np.allclose(m.rank, rank))
    assert 0.4 < covered.frac < 0.97 and covered.glyph_frac < 0.35
    marks = scenes.visible_indices(sc, anchors)
    labels = scenes.label_candidates([cand], marks, sc, anchors)
    assert list(build.labels_near_marks([cand], labels, marks)) == [-1]  # left out, as before
    labels = scenes.label_candidates([cand], marks, sc, anchors, covered_glyph=0.35)
    assert list(build.labels_near_marks([cand], labels, marks, 0.35)) == [0]


def face_with_a_ten(apart: bool) -> tuple[np.ndarray, float]:
    """A clean BGRA face (300×420) whose index is a "10" over a heart, its digits printed apart
    (two blobs, as on ancient-egyptians or the font-drawn decks) or touching (one blob); with the
    middle of the drawn "10"."""
    face = np.full((420, 300, 4), 255, np.uint8)
    red = (0, 0, 200, 255)
    cv2.rectangle(face, (18, 34), (23, 62), red, -1)  # the "1": a stroke, its flag and foot
    cv2.line(face, (19, 35), (12, 42), red, 4)
    cv2.line(face, (13, 61), (28, 61), red, 3)
    cv2.ellipse(face, (42 if apart else 36, 48), (9, 13), 0, 0, 360, red, 4)  # the "0"
    cv2.circle(face, (36, 90), 11, red, -1)  # the heart
    ink = np.argwhere(face[:66, :80, 0] < 128)
    return face, (ink[:, 1].min() + ink[:, 1].max()) / 2


@pytest.mark.parametrize("apart", [True, False])
def test_a_ten_is_anchored_on_its_whole_rank(apart: bool) -> None:
    face, middle = face_with_a_ten(apart)
    found = scenes.find_anchor(face)
    assert found is not None
    anchor = np.array([*found[0], *found[1]])
    step = float(np.hypot(*(anchor[2:] - anchor[:2])))
    ten = scenes.ten_centre(face, anchor)
    assert abs(ten[0] - middle) < 0.1 * step
    assert np.array_equal(ten[2:], anchor[2:])
    if apart:  # the corner-most pair is the "1" and the heart
        assert anchor[0] < middle - 0.15 * step
    else:  # one blob: nothing to join
        assert np.array_equal(ten, anchor)


@pytest.mark.skipif(not decks.held_out_decks(), reason="no SVG deck (kdegames-card-data-kf5)")
def test_every_deck_s_tens_are_anchored_between_their_digits() -> None:
    # until ten_centre, 14 of the 16 SVG and font-drawn training designs had every 10's rank
    # centre on its "1" (0.14-0.39 of a step left of where the deck centres its other ranks)
    for deck in build.training_designs() + decks.held_out_decks():
        anchors = {c: np.array(a) for c, a in
                   scenes.anchors_of(deck, scenes.load_faces(deck)).items() if a}
        low = np.array([a for c, a in anchors.items() if c[0] in "23456789"])
        usual_dx = np.median(low[:, 0] - low[:, 2])
        step = np.median(np.hypot(low[:, 2] - low[:, 0], low[:, 3] - low[:, 1]))
        for code in ("10S", "10H", "10D", "10C"):
            assert code in anchors, (deck, code)
            dx = anchors[code][0] - anchors[code][2] - usual_dx
            assert dx > -0.1 * step, (deck, code, round(dx / step, 2))


def test_reader_cut_teaches_the_crops_the_reader_cuts_from_a_small_frame(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``generate --reader-cut`` (rule CO) cuts a 640-px scene's crops from the reader's
    enlarged work image: an index of 3-6 scene px (6-12 work px, which the reader cuts) is
    taught (cut from the scene as it is, it was not), and only the scene's cards are taught."""
    monkeypatch.setattr(build, "SCENES_PER_CHUNK", 1)
    monkeypatch.setattr(build, "scene_size", lambda rng: (640, 480))
    seed = 28  # a scene with six indices of 3-6 px
    build.make_reader_chunk(0, seed, tmp_path / "reader.npz")
    build.make_chunk(0, seed, tmp_path / "scene.npz")
    # the same scene again, as both drew it
    visible = build.draw_scene(np.random.default_rng([seed, 0]))[2]
    marks = [m for m in visible if m.frac >= 0.97]
    small = {m.code for m in marks if m.step < ink_pairs.MIN_GLYPH <= 2 * m.step}
    assert small  # the case this guards
    with np.load(tmp_path / "reader.npz") as reader, np.load(tmp_path / "scene.npz") as before:
        taught = {CLASSES[y] for y in reader["y"] if y > 0}
        taught_before = {CLASSES[y] for y in before["y"] if y > 0}
        assert reader["x"].shape[1:] == (ink_pairs.CROP_H, ink_pairs.CROP_W, 3)
    assert taught <= {m.code for m in visible}
    assert small <= taught
    assert not small <= taught_before  # cut from the scene as it is, they were not all taught
    # --taught-step (rule CQ): those indices are left out, the larger ones still taught
    build.make_reader_chunk(0, seed, tmp_path / "legible.npz",
                            taught_step=ink_pairs.MIN_GLYPH)
    with np.load(tmp_path / "legible.npz") as legible:
        taught_legible = {CLASSES[y] for y in legible["y"] if y > 0}
    only_small = small - {m.code for m in marks if m.step >= ink_pairs.MIN_GLYPH}
    assert only_small and taught_legible == taught - only_small


def test_context_cuts_the_same_crops_showing_what_surrounds_each_index(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``generate --context K`` (rule DC) labels the same crops and cuts each from its quad grown
    K times: the plain crop is the middle of the grown one, K times smaller."""
    import cv2

    monkeypatch.setattr(build, "SCENES_PER_CHUNK", 1)
    build.make_chunk(0, 5, tmp_path / "plain.npz")
    build.make_chunk(0, 5, tmp_path / "context.npz", context=2.0)
    with np.load(tmp_path / "plain.npz") as plain, np.load(tmp_path / "context.npz") as wide:
        assert np.array_equal(plain["y"], wide["y"]) and (plain["y"] > 0).any()
        h, w = ink_pairs.CROP_H, ink_pairs.CROP_W
        middle = wide["x"][:, h // 4:h - h // 4, w // 4:w - w // 4].astype(np.float32)
        shrunk = np.stack([cv2.resize(x, (w - 2 * (w // 4), h - 2 * (h // 4)),
                                      interpolation=cv2.INTER_AREA) for x in plain["x"]])
        same = np.abs(middle - shrunk).mean()
        other = np.abs(middle - np.roll(shrunk, 1, axis=0)).mean()
        assert same < 0.5 * other


def test_an_index_partly_covered_is_taught_as_its_card_with_partly_visible() -> None:
    """``generate --partly-visible F`` (sixty-first step): an index at least F visible, each
    half too, is taught as its card; without it, left out as before; one whose suit is mostly
    hidden stays left out."""
    faces, anchors = variants.deck(5)
    sc = scenes.make_scene(np.random.default_rng(4), faces, (1280, 960), kind="single",
                           max_tilt=0, mild=True)
    code, rank, suit, _frac, _glyph = next(
        m for m in scenes.visible_indices(sc, anchors) if m.frac == 1 and m.legible(12))
    cand = ink_pairs.candidate(rank.astype(np.float32), suit.astype(np.float32))
    step = float(np.linalg.norm(suit - rank))
    side = np.array([suit[1] - rank[1], rank[0] - suit[0]]) / step  # across the index
    edge = (rank + suit) / 2 + side * 0.75 * step  # a chip over one side of both glyphs
    cv2.circle(sc.owner, tuple(int(v) for v in edge), int(0.45 * step), -2, -1)
    marks = scenes.visible_indices(sc, anchors)
    covered = next(m for m in marks if m.code == code and np.allclose(m.rank, rank))
    assert 0.6 <= covered.frac < 0.97 and covered.glyph_frac >= 0.6
    assert scenes.label_candidates([cand], marks, sc, anchors) == [-1]
    assert scenes.label_candidates([cand], marks, sc, anchors, partly=0.6) == [CLASSES.index(code)]
    cv2.circle(sc.owner, tuple(int(v) for v in suit), int(0.6 * step), -2, -1)  # and the suit
    marks = scenes.visible_indices(sc, anchors)
    assert scenes.label_candidates([cand], marks, sc, anchors, partly=0.6) == [-1]


def test_partly_visible_adds_crops_to_a_chunk_and_leaves_the_default_alone(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(build, "SCENES_PER_CHUNK", 1)
    seed = 20  # a scene with nine partly covered indices
    build.make_chunk(0, seed, tmp_path / "plain.npz")
    build.make_chunk(0, seed, tmp_path / "again.npz", partly=None)
    build.make_chunk(0, seed, tmp_path / "partly.npz", partly=0.6)
    with (np.load(tmp_path / "plain.npz") as plain, np.load(tmp_path / "again.npz") as again,
          np.load(tmp_path / "partly.npz") as partly):
        assert np.array_equal(plain["y"], again["y"]) and np.array_equal(plain["x"], again["x"])
        assert (partly["y"] > 0).sum() > (plain["y"] > 0).sum()
