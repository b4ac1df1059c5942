"""``build_index_model.py train``: its crop augmentations (``--cover``,
``--augment frames|pips|courts|blurs|blurs-wide``)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts import build_index_model as build


def drawn_indices(n: int) -> np.ndarray:
    """``n`` upright crops of paper with a dark rank block over a dark suit block, placed where
    ``ink_pairs.candidate`` puts them (rank centre 0.3, suit centre 0.65 of the height)."""
    x = np.full((n, 40, 28, 3), 235, np.uint8)
    x[:, 6:18, 10:18] = 20   # rank
    x[:, 21:31, 9:19] = 20   # suit
    return x


def edge_energy(crops: np.ndarray) -> np.ndarray:
    """Each crop's fine detail: the variance of its grey's Laplacian (lower: softer)."""
    import cv2

    return np.array([cv2.Laplacian(cv2.cvtColor(c, cv2.COLOR_BGR2GRAY), cv2.CV_32F).var()
                     for c in crops])


def ink(crops: np.ndarray, rows: slice) -> np.ndarray:
    return (crops[:, rows] < 100).all(axis=-1).sum(axis=(1, 2))


def test_covered_crops_hide_the_suit_keep_the_rank_and_name_no_card() -> None:
    x, y = drawn_indices(300), np.array([0] * 50 + [5] * 250)
    cx, cy = build.covered(x, y, np.random.default_rng(1), share=1.0)
    assert (cy == 0).all()
    assert (cx[:50] == x[:50]).all()  # "not an index" crops are left as they were
    suit = ink(cx[50:], slice(21, 40)) / ink(x[50:], slice(21, 40))
    rank = ink(cx[50:], slice(0, 19)) / ink(x[50:], slice(0, 19))
    assert suit.mean() < 0.35           # mostly hidden, a sliver left
    assert np.median(rank) > 0.95       # the rank stays in view


def test_cover_share_picks_that_share_of_index_crops_and_copies() -> None:
    x, y = drawn_indices(2000), np.full(2000, 7)
    cx, cy = build.covered(x, y, np.random.default_rng(2), share=0.1)
    assert 150 < int((cy == 0).sum()) < 250
    assert (y == 7).all() and (x == drawn_indices(1)[0]).all()  # inputs untouched
    assert (cx[cy == 7] == x[cy == 7]).all()


@pytest.mark.parametrize(("option", "share"), [([], 0.0), (["--cover", "0.1"], 0.1)])
def test_cover_is_off_unless_asked_and_then_in_both_stages(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, option: list, share: float) -> None:
    runs: list = []
    monkeypatch.setattr(build, "generate", lambda args: None)
    monkeypatch.setattr(build, "train", runs.append)
    build.main(["all", "--work", str(tmp_path), "--out", str(tmp_path / "n.onnx"), *option])
    assert [r.cover for r in runs] == [share, share]


def test_a_frame_line_is_dashed_a_card_edge_is_not() -> None:
    """On a blank crop: a card's edge is one stroke of ink, a printed frame of dashes or dots
    several."""
    import cv2

    def strokes(dashed: bool, seed: int) -> int:
        crop = np.full((40, 28, 3), 235, np.uint8)
        build._edge_line(crop, np.random.default_rng(seed), dashed=dashed)
        ink = (crop.max(axis=2) < 150).astype(np.uint8)
        return cv2.connectedComponents(ink, connectivity=8)[0] - 1
    assert [strokes(False, s) for s in range(40)] == [1] * 40
    assert sum(strokes(True, s) >= 3 for s in range(40)) >= 36  # a short line at a corner: fewer


@pytest.mark.parametrize("shape", ["ellipse", "heart", "diamond", "spade", "club"])
def test_a_big_pip_is_drawn_beside_the_rank_in_its_ink(shape: str) -> None:
    """``--augment pips``' blot (and ``courts``' suit signs): the rank's own colour, right of
    the rank, never on it."""
    for seed in range(40):
        crop = np.full((40, 28, 3), 235, np.uint8)
        crop[6:18, 10:18] = (40, 40, 200)  # a red rank
        build._big_pip(crop, np.random.default_rng(seed), (shape,))
        blot = (np.abs(crop.astype(int) - (40, 40, 200)).max(axis=2) < 30)
        blot[6:18, 10:18] = False
        columns = np.flatnonzero(blot.any(axis=0))
        assert len(columns) and columns.min() >= 19 and columns.max() == 27
        assert (crop[6:18, 10:18] == (40, 40, 200)).all()


def test_pips_blots_about_three_crops_in_ten() -> None:
    x = drawn_indices(600)
    out = build.augment(x, np.random.default_rng(3), "pips")
    right = (out[:, 5:25, 22:] < 100).all(axis=-1).sum(axis=(1, 2))  # ink right of the rank
    assert 0.2 < (right > 20).mean() < 0.45
    assert ((build.augment(x, np.random.default_rng(3), "frames")[:, 5:25, 22:] < 100)
            .all(axis=-1).sum(axis=(1, 2)) > 20).mean() < 0.1


def test_each_suit_sign_has_its_own_outline_in_its_box() -> None:
    """``courts``' signs: a diamond fills half its box, a club or a spade less than a heart, all
    inside the box; a sign that is not a suit is refused."""
    def filled(shape: str) -> float:
        crop = np.full((200, 200, 3), 235, np.uint8)
        build._fill_sign(crop, shape, (100, 100), (40, 50), (0, 0, 0))
        ink = crop[..., 0] < 100
        rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
        assert rows.min() >= 49 and rows.max() <= 151 and cols.min() >= 59 and cols.max() <= 141
        return ink.sum() / (80 * 100)
    assert abs(filled("diamond") - 0.5) < 0.03
    assert filled("club") < filled("heart") and filled("spade") < filled("heart")
    with pytest.raises(ValueError, match="unknown sign"):
        build._suit_sign("star", np.float32([0, 0]), np.float32([1, 1]))


def test_a_frame_corner_runs_down_the_left_and_along_the_top() -> None:
    for seed in range(20):
        crop = np.full((40, 28, 3), 235, np.uint8)
        build._frame_corner(crop, np.random.default_rng(seed))
        ink = crop.max(axis=2) < 150
        rows, cols = np.flatnonzero(ink[:, :7].any(axis=1)), np.flatnonzero(ink[:7].any(axis=0))
        assert rows.min() < 8 and rows.max() > 34    # down the left side (dotted or not)
        assert cols.min() < 7 and cols.max() > 22    # along the top
        assert not ink[12:, 8:].any()                # nowhere else


def test_courts_blots_about_three_crops_in_ten_and_adds_frame_corners() -> None:
    x = drawn_indices(600)
    courts = build.augment(x, np.random.default_rng(3), "courts")
    right = (courts[:, 5:25, 22:] < 100).all(axis=-1).sum(axis=(1, 2))
    assert 0.2 < (right > 10).mean() < 0.45
    top = (courts[:, :3, 12:] < 150).all(axis=-1).sum(axis=(1, 2))  # a corner's top line
    pips = build.augment(x, np.random.default_rng(3), "pips")
    assert (top > 8).mean() > (((pips[:, :3, 12:] < 150).all(axis=-1).sum(axis=(1, 2))) > 8).mean()


def test_blurs_blurs_about_a_quarter_of_the_crops_and_pips_none() -> None:
    """``blurs``: three crops in ten out of focus, half of them sharpened again as the reader
    would (so fewer than three in ten stay soft); ``pips`` blurs none."""
    x = drawn_indices(600)
    pips = edge_energy(build.augment(x, np.random.default_rng(3), "pips"))
    blurs = edge_energy(build.augment(x, np.random.default_rng(3), "blurs"))
    soft = 0.5 * np.median(pips)
    assert (pips < soft).mean() < 0.08
    assert 0.15 < (blurs < soft).mean() < 0.4
    one = build._out_of_focus(x[0], np.random.default_rng(5))
    assert one.shape == x[0].shape and one.dtype == np.uint8


def test_blurs_wide_blurs_the_same_crops_harder() -> None:
    """``blurs-wide`` draws as ``blurs`` does, with a wider blur: the same crops come out soft,
    softer on the whole, and the crops it leaves in focus are ``blurs``' own."""
    x = drawn_indices(600)
    blurs = build.augment(x, np.random.default_rng(3), "blurs")
    wide = build.augment(x, np.random.default_rng(3), "blurs-wide")
    same = (blurs == wide).all(axis=(1, 2, 3))
    assert 0.6 < same.mean() < 0.8  # three in ten drawn out of focus differ
    e_blurs, e_wide = edge_energy(blurs[~same]), edge_energy(wide[~same])
    assert np.median(e_wide) < np.median(e_blurs)
    assert e_wide.min() < e_blurs.min()


def test_a_stroke_weight_change_thins_or_bolds_the_ink_half_the_time_each() -> None:
    """``strokes``' change on one crop: the rank block's ink lighter at its edges (thinner) or
    darker just outside them (bolder), never both, and the paper far from the ink as it was."""
    x = drawn_indices(1)[0]
    thinner = bolder = 0
    for seed in range(200):
        out = build._stroke_weight(x, np.random.default_rng(seed))
        edge, outside = int(out[6, 13, 0]), int(out[5, 13, 0])  # the rank's top row, above it
        assert (out[0, 0] == x[0, 0]).all() and (out[12, 14] == x[12, 14]).all()
        if edge > x[6, 13, 0]:
            thinner += 1
            assert outside == x[5, 13, 0]
        else:
            bolder += 1
            assert outside < x[5, 13, 0] and edge == x[6, 13, 0]
    assert 70 < thinner < 130 and thinner + bolder == 200


def test_strokes_changes_about_three_crops_in_ten_and_pips_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``strokes`` changes the stroke weight of about three crops in ten, after ``pips``' own
    changes (the crop it gets has them); ``pips`` changes none."""
    changed: list[np.ndarray] = []
    real = build._stroke_weight

    def counted(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        changed.append(crop.copy())
        return real(crop, rng)
    monkeypatch.setattr(build, "_stroke_weight", counted)
    x = drawn_indices(600)
    build.augment(x, np.random.default_rng(3), "pips")
    assert changed == []
    out = build.augment(x, np.random.default_rng(3), "strokes")
    assert 0.24 < len(changed) / len(x) < 0.36
    assert out.shape == x.shape and out.dtype == np.uint8
    assert all(c.shape == (40, 28, 3) for c in changed)
