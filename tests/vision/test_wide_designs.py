"""The wide procedural designs (issue 16, forty-first step, rule CS): ``wide:K`` designs drawn
from more text faces and wider ranges than ``var:K``, some with a large suit sign beside the
index, and how the build asks for them (``--design-mix`` with a fourth share)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts import build_index_model as build
from scripts.vision_data import decks, scenes, variants
from tests.vision.test_index_training_data import ink_at

DEJAVU = next((f for f in variants.text_fonts() if f.endswith("/DejaVuSans.ttf")), None)


def test_a_wide_design_is_the_same_every_time_and_not_its_var_namesake() -> None:
    assert variants.wide_style(3) == variants.wide_style(3)
    assert len({variants.wide_style(k) for k in range(20)}) == 20
    assert all(variants.wide_style(k) != variants.style(k) for k in range(20))
    faces, anchors = scenes.load_faces("wide:5"), scenes.anchors_of("wide:5", {})
    assert set(faces) == set(decks.CODES) == set(anchors)
    assert all(face.shape == (variants.FACE_H, variants.FACE_W, 4) for face in faces.values())
    assert not np.array_equal(faces["7C"], scenes.load_faces("var:5")["7C"])


def test_no_var_design_prints_the_large_sign() -> None:
    """``Style`` grew a field with a default: the shipped recipe's designs are drawn as before."""
    assert not any(variants.style(k).corner_pip for k in range(build.N_VARIANTS))


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_a_wide_design_s_anchors_sit_on_its_rank_and_suit(k) -> None:
    faces, anchors = variants.deck(k, wide=True)
    for code in ("AS", "10H", "QD", "7C"):
        rx, ry, sx, sy = anchors[code]
        reach = int(0.3 * (sy - ry))
        assert ink_at(faces[code], (rx, ry), reach), (k, code, "rank")
        assert ink_at(faces[code], (sx, sy), reach), (k, code, "suit")
        assert sy > ry and rx < 0.3 * variants.FACE_W and sy < 0.3 * variants.FACE_H


@pytest.mark.parametrize("k", [0, 2])  # designs that print the large suit sign
def test_the_large_suit_sign_is_printed_beside_the_index_and_moves_no_anchor(k) -> None:
    st = variants.wide_style(k)
    assert st.corner_pip > 0 and variants.wide_style(1).corner_pip == 0
    for code in ("AS", "10H", "QD", "7C"):
        face, anchor = variants.card(code, st, np.random.default_rng(0))
        plain, plain_anchor = variants.card(code, replace(st, corner_pip=0),
                                            np.random.default_rng(0))
        assert anchor == plain_anchor
        rx, _ry, sx, _sy = anchor
        ys, xs = np.nonzero((face != plain).any(axis=2))
        assert len(xs), code
        # in the top-left corner (and, turned, the bottom-right), right of the index's glyphs
        top = ys < variants.FACE_H / 2
        assert xs[top].min() > max(rx, sx) and ys[top].max() < 0.3 * variants.FACE_H, code
        assert xs[~top].max() < variants.FACE_W - max(rx, sx), code


def test_a_font_that_draws_a_rank_as_its_missing_glyph_box_is_not_used(monkeypatch) -> None:
    if DEJAVU is None:
        pytest.skip("DejaVu Sans is not installed (scripts/setup.sh installs it)")
    assert variants.draws_ranks(DEJAVU)
    monkeypatch.setattr(variants, "_RANK_CHARS", "AK\ue000")  # a code point it has no glyph for
    assert not variants.draws_ranks(DEJAVU)


def test_a_file_that_is_no_font_is_not_used(tmp_path: Path) -> None:
    fake = tmp_path / "Fake-Regular.ttf"
    fake.write_bytes(b"not a font")
    assert not variants.draws_ranks(str(fake))


def test_the_wide_faces_are_the_system_s_and_those_unpacked_for_them(tmp_path, monkeypatch):
    monkeypatch.setattr(variants, "WIDE_FONTS", tmp_path)  # nothing unpacked: the system's
    variants.wide_fonts.cache_clear()
    try:
        assert variants.wide_extra_fonts() == ()
        assert variants.wide_fonts() == variants.text_fonts()
        if DEJAVU is not None:
            (tmp_path / "Extra-Regular.ttf").write_bytes(Path(DEJAVU).read_bytes())
            (tmp_path / "Extra-Hairline.ttf").write_bytes(Path(DEJAVU).read_bytes())
            (tmp_path / "Broken-Regular.ttf").write_bytes(b"not a font")
            variants.wide_fonts.cache_clear()
            assert variants.wide_extra_fonts() == (str(tmp_path / "Broken-Regular.ttf"),
                                                   str(tmp_path / "Extra-Regular.ttf"))
            assert set(variants.wide_fonts()) == {*variants.text_fonts(),
                                                  str(tmp_path / "Extra-Regular.ttf")}
    finally:
        variants.wide_fonts.cache_clear()


def test_a_fourth_share_draws_wide_designs_and_never_a_held_out_one() -> None:
    rng = np.random.default_rng(0)
    picked = [build.pick_design(rng, mix=(0.4, 0.1, 0.2, 0.3)) for _ in range(2000)]
    families = [p.split(":")[0] for p in picked if ":" in p]
    assert not set(picked) & set(decks.HELD_OUT)
    assert 0.25 < families.count("wide") / len(picked) < 0.35
    assert all(0 <= int(p[5:]) < build.N_WIDE for p in picked if p.startswith("wide:"))
    # three shares: the shipped recipe's draws, no wide design
    rng3, rng_default = np.random.default_rng(1), np.random.default_rng(1)
    three = [build.pick_design(rng3, mix=build.DESIGN_MIX) for _ in range(300)]
    assert three == [build.pick_design(rng_default) for _ in range(300)]
    assert not any(p.startswith("wide:") for p in three)


@pytest.mark.parametrize("mix", [["0.5", "0.5", "0.5"], ["0.5", "0.5"],
                                 ["1", "0", "0", "0", "0", "0"],
                                 ["1.2", "0", "-0.2"]])
def test_the_build_refuses_shares_that_do_not_add_up(mix, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        build.main(["generate", "--scenes", "1", "--design-mix", *mix])
    assert stop.value.code == 2
    assert "--design-mix takes 3 to 5 shares" in capsys.readouterr().err


def test_the_build_refuses_wide_designs_before_their_fonts_are_unpacked(tmp_path, monkeypatch,
                                                                       capsys) -> None:
    monkeypatch.setattr(variants, "WIDE_FONTS", tmp_path / "none")
    with pytest.raises(SystemExit) as stop:
        build.main(["generate", "--scenes", "1", "--data", str(tmp_path / "data"),
                    "--design-mix", "0.4", "0.1", "0.2", "0.3"])
    assert stop.value.code == 2
    assert "scripts/wide_fonts.sh" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()
