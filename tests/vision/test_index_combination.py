"""How corner-index readings combine with the card outlines around them (recognizer._with_indices)
and where the whole-frame ink-blob pairs look (ink_pairs.find_candidates, IndexReader.candidates)."""

from __future__ import annotations

import numpy as np

from dealer_assist.cards import parse_card
from dealer_assist.vision import indices, ink_pairs
from dealer_assist.vision.indices import IndexRead
from dealer_assist.vision.ink_pairs import candidate
from dealer_assist.vision.live import LiveSettings
from dealer_assist.vision.proposal import Proposal
from dealer_assist.vision.recognizer import PICTURE, _with_indices

# an outline 240 x 336 px, upright, its top-left corner at (100, 100)
OUTLINE = np.float32([[100, 100], [340, 100], [340, 436], [100, 436]])


def reading(code: str, x: float, y: float, prob: float = 0.999, step: float = 16.0,
            upside_down: bool = False) -> IndexRead:
    """An index read at (x, y): rank over suit, ``step`` px apart (the other way up: as a
    card's far corner prints it)."""
    half = -step / 2 if upside_down else step / 2
    rank, suit = np.float32([x, y - half]), np.float32([x, y + half])
    return IndexRead(parse_card(code), prob, candidate(rank, suit))


def combine(reads: list[IndexRead], pips: str | None) -> list[Proposal]:
    unknown = Proposal(None, 0.0, OUTLINE, "visual")
    return _with_indices([unknown], reads, {id(unknown): pips} if pips else {})


def test_pips_that_agree_make_the_outline_the_card() -> None:
    (p,) = combine([reading("7S", 120, 130), reading("7S", 320, 406)], "7")
    assert p.code == "7S" and np.array_equal(p.quad, OUTLINE)
    assert p.confidence >= LiveSettings().auto_accept_threshold


def test_an_outline_that_holds_an_index_off_its_corners_is_not_that_cards_place() -> None:
    """A pale stretch of table seen as a huge outline (half the frame) around a small fan: the
    index it holds, far from its corners, is read where the index is (a live reader follows the
    card by that place and finds its seat there)."""
    (p,) = combine([reading("9H", 220, 260)], None)
    assert p.code == "9H"
    assert not np.array_equal(p.quad, OUTLINE)
    assert np.allclose(np.mean(p.quad, axis=0), (220, 260), atol=2)
    # nor are the pips it holds that card's: no second cue to lift it to auto-accept
    (counted,) = combine([reading("9H", 220, 260)], "9")
    assert counted.confidence == p.confidence < LiveSettings().auto_accept_threshold


def test_pips_that_count_another_number_leave_the_corner_index_to_the_dealer() -> None:
    """The outline's pips count another number than its corner index: overlapping cards hide
    or add pips, so the count is weak evidence. The index is read on the outline, but never
    sure enough to be taken without the dealer."""
    (p,) = combine([reading("7S", 120, 130), reading("7S", 320, 406)], "4")
    assert p.code == "7S" and np.array_equal(p.quad, OUTLINE)
    assert p.confidence < LiveSettings().auto_accept_threshold


def test_a_picture_under_a_number_index_leaves_the_card_unknown() -> None:
    """The middle is one coloured picture (a court card) while the index in its corner names a
    number card (a German B read as 8): unknown rather than perhaps wrong."""
    (p,) = combine([reading("8D", 120, 130), reading("8D", 320, 406)], PICTURE)
    assert p.card is None
    (court,) = combine([reading("JD", 120, 130)], PICTURE)
    assert court.code == "JD"


def test_an_index_inside_an_outline_but_off_its_corners_is_not_judged_by_its_pips() -> None:
    """An outline around a pile or an overlap: the index in its middle belongs to a card whose
    outline was not found, the pips counted are other cards'. The index is read, but never
    sure enough to be taken without the dealer."""
    (p,) = combine([reading("9C", 220, 260)], "6")
    assert p.code == "9C"
    assert not np.array_equal(p.quad, OUTLINE)  # where the index is, not the pile's outline
    assert p.confidence < LiveSettings().auto_accept_threshold


def test_whole_frame_pairs_leave_out_those_of_a_detected_index() -> None:
    """With a detected index, the ink-blob pairs that agree with it are its own (read from the
    detector's crops already); the whole-frame pairs look elsewhere."""
    frame = np.full((300, 400, 3), 235, np.uint8)
    for x in (100, 300):  # two rank-over-suit pairs of dark blobs, 24 px apart
        frame[80:100, x - 6:x + 6] = 20
        frame[112:124, x - 5:x + 5] = 20
    everything = ink_pairs.find_candidates(frame)
    assert {round(c.centre[0]) for c in everything} >= {100, 300}
    detected = [(np.float32([100, 90]), np.float32([100, 118]))]
    rest = ink_pairs.find_candidates(frame, detected=detected)
    assert {round(c.centre[0]) for c in rest} == {300}
    assert len(ink_pairs.find_candidates(frame, most=1)) == 1


def test_whole_frame_pairs_are_looked_for_on_card_paper_only() -> None:
    """Ink-like marks on the table (wood grain, cloth, a logo) are not searched for indices by
    the whole-frame pairs: only card-white regions (and a margin around them) are."""
    frame = np.zeros((480, 640, 3), np.uint8)
    frame[:] = (90, 140, 190)  # light wood
    frame[100:400, 300:520] = 240  # a card's white face
    for x, y in ((120, 200), (400, 200)):  # a rank-over-suit pair on the wood, one on the card
        frame[y - 10:y + 10, x - 6:x + 6] = 10
        frame[y + 22:y + 34, x - 5:x + 5] = 10
    reader = indices.IndexReader(proposals="both")
    pairs = [c for c, _need, group in reader.candidates(frame) if group < 0]
    assert pairs and all(300 <= c.centre[0] <= 520 for c in pairs)
    assert any(abs(c.centre[0] - 120) < 10 for c in ink_pairs.find_candidates(frame))


def test_a_whole_card_and_its_surest_index_outvote_a_weaker_misread_inside_it() -> None:
    """A face read as JD whose index reads JD at 0.999, and a crop of its picture read as 2C at
    0.98: the card is JD (the 2C is no card of its own); a disagreeing index as sure as the
    face's own still makes the card unknown."""
    face = Proposal(parse_card("JD"), 0.9, OUTLINE, "visual")
    reads = [reading("JD", 120, 130, 0.999), reading("2C", 220, 260, 0.98)]
    assert [p.code for p in _with_indices([face], reads)] == ["JD"]
    face = Proposal(parse_card("JD"), 0.9, OUTLINE, "visual")
    reads = [reading("JD", 120, 130, 0.99), reading("2C", 220, 260, 0.999)]
    assert [p.card for p in _with_indices([face], reads)] == [None]


def test_a_fan_found_as_one_outline_gives_its_cards_not_the_whole_card_reading_alone() -> None:
    """Five cards fanned so that their paper makes one card-shaped outline, which the whole-card
    reader reads as the 10C under them: the 9H 8H 7H indices along its edge are the other cards
    (rule CA), not misreads of one card's picture, and the 10C is its own index."""
    fan = Proposal(parse_card("10C"), 0.64, OUTLINE, "visual")
    reads = [reading(code, 120 + 30 * i, 130, 0.999) for i, code in
             enumerate(("10C", "9H", "8H", "7H"))]
    assert sorted(p.code for p in _with_indices([fan], reads)) == ["10C", "7H", "8H", "9H"]
    # one other card inside, less sure than the face's own index, is still a misread of it
    fan = Proposal(parse_card("10C"), 0.64, OUTLINE, "visual")
    assert [p.code for p in _with_indices([fan], [reads[0], reading("9H", 150, 130, 0.98)])] \
        == ["10C"]


def test_a_qr_label_outvotes_the_indices_of_other_cards_inside_it() -> None:
    """A labelled card stays its label's card whatever indices are read inside it."""
    label = Proposal(parse_card("KS"), 1.0, OUTLINE, "barcode")
    reads = [reading(code, 120 + 30 * i, 130) for i, code in enumerate(("2H", "3H", "4H"))]
    assert [p.code for p in _with_indices([label], reads)] == ["KS"]


def test_ink_blobs_on_card_paper_are_searched_around_the_paper_only_with_the_same_result() -> None:
    """The whole-frame pairs' blobs are looked for in the paper's bounding box (plus the reach
    of the ink threshold and the paper dilation): the same blobs as over the whole frame."""
    rng = np.random.default_rng(5)
    frame = rng.integers(60, 200, (480, 640, 3), dtype=np.uint8)  # a busy table
    frame[100:400, 300:520] = 235
    for x, y in ((330, 130), (480, 360), (400, 250)):  # indices, one near the card's edge
        frame[y - 10:y + 10, x - 6:x + 6] = 10
        frame[y + 22:y + 34, x - 5:x + 5] = 10
    where = np.zeros((480, 640), np.uint8)
    where[90:410, 290:530] = 255
    around = ink_pairs.glyph_blobs(frame, where)
    assert len(around) >= 6
    assert np.array_equal(around, ink_pairs._ink_blobs(frame, where, lines=False))
    assert len(ink_pairs.glyph_blobs(frame, np.zeros_like(where))) == 0


def test_a_cards_two_corner_indices_are_one_card_even_at_a_slant() -> None:
    """No outline found: a card's two indices, printed 180° apart, are one proposal, surer than
    one index. At a slant the far index looks smaller: the reach is measured in the larger."""
    near_index = reading("7S", 600, 100, step=24)
    far_index = reading("7S", 600, 260, prob=0.9995, step=16, upside_down=True)  # 10 small steps
    (p,) = _with_indices([], [near_index, far_index])
    assert p.code == "7S" and p.confidence >= LiveSettings().auto_accept_threshold


def test_two_copies_of_a_card_side_by_side_are_two_cards() -> None:
    """A two-deck shoe: the same card twice in a fan, both indices pointing the same way."""
    twins = [reading("7S", 600, 100), reading("7S", 640, 110)]
    assert [p.code for p in _with_indices([], twins)] == ["7S", "7S"]


def test_the_other_corner_of_a_card_read_from_its_outline_is_not_a_second_card() -> None:
    """The outline found is the card's (its pips agree with the index in its corner); the
    card's other index, outside that outline, is the same card, not another."""
    in_corner = reading("7S", 120, 420)
    outside = reading("7S", 120, 520, upside_down=True)
    (p,) = combine([in_corner, outside], "7")
    assert p.code == "7S" and np.array_equal(p.quad, OUTLINE)


def bordered_index(touching: bool) -> tuple[np.ndarray, np.ndarray]:
    """A card's paper with a rank over a suit, and a long straight border line 2 px wide that
    the rank touches (or passes a few pixels from); and where the paper is."""
    frame = np.full((300, 400, 3), 40, np.uint8)  # a dark table
    frame[40:280, 60:360] = 235
    frame[130:150, 150:162] = 10  # the rank: 12 x 20 px
    frame[160:172, 151:161] = 10  # the suit, a glyph below it
    x = 150 if touching else 145  # the line runs down the rank's left side
    frame[45:275, x - 2:x] = 10
    where = np.zeros(frame.shape[:2], np.uint8)
    where[40:280, 60:360] = 255
    return frame, where


def test_a_rank_touching_a_border_line_is_cut_off_it_when_lines_are_searched() -> None:
    """The training scenes' index anchors search with lines erased (blobs_off_lines)."""
    frame, where = bordered_index(touching=True)
    for blobs in (ink_pairs.glyph_blobs(frame, where, lines=True),
                  ink_pairs.blobs_off_lines(frame)):
        rank = blobs[np.hypot(blobs[:, 0] - 156, blobs[:, 1] - 140) < 3]
        assert len(rank) == 1 and rank[0, 7] == 1  # found, off the line
        assert 18 <= rank[0, 2] <= 20  # about the rank's size: the line is gone
        (pair,) = [c for c in ink_pairs.find_candidates(frame, blobs) if
                   np.hypot(*(c.rank - (156, 140))) < 3 and np.hypot(*(c.suit - (156, 166))) < 3]
        assert pair.off_line


def test_the_reader_does_not_cut_glyphs_off_lines() -> None:
    """Rule AV (twenty-fifth step): on card paper and in local windows alike the reader's blobs
    keep a glyph that touches a line as one blob with it (the line search took a tenth of the
    reader's time for 0.3 % of its cards)."""
    frame, where = bordered_index(touching=True)
    for blobs in (ink_pairs.glyph_blobs(frame, where), ink_pairs.glyph_blobs(frame)):
        assert not (blobs[:, 7] > 0).any()
        assert not (np.hypot(blobs[:, 0] - 156, blobs[:, 1] - 140) < 3).any()
    candidates = indices.IndexReader(second=None).candidates(frame)
    assert not any(c.off_line for c, _need, _group in candidates)


def test_a_rank_beside_a_border_line_is_found_as_before() -> None:
    frame, where = bordered_index(touching=False)
    blobs = ink_pairs.glyph_blobs(frame, where)
    rank = blobs[np.hypot(blobs[:, 0] - 156, blobs[:, 1] - 140) < 3]
    assert len(rank) == 1 and rank[0, 7] == 0
    assert (blobs[:, 7] == 0).all()  # no blob touched the line: nothing cut off it


def test_two_glyphs_cut_off_lines_are_no_index_but_one_beside_an_intact_glyph_is() -> None:
    frame = np.full((200, 200, 3), 235, np.uint8)
    # (cx, cy, size, area, w, h, contrast, off a line): a rank 20 px tall over a suit 12 px
    rank = [100, 80, 20, 160, 12, 20, 150]
    suit = [100, 106, 12, 90, 10, 12, 150]
    for off_rank, off_suit, pairs in ((0, 0, 1), (1, 0, 1), (0, 1, 1), (1, 1, 0)):
        blobs = np.float32([rank + [off_rank], suit + [off_suit]])
        found = ink_pairs.find_candidates(frame, blobs)
        assert len(found) == pairs
        assert all(c.off_line == bool(off_rank or off_suit) for c in found)
