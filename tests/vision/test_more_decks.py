"""``generate --more-decks``: aisleriot's other SVG decks as training designs (rule DL)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts import build_index_model as build
from scripts.vision_data import decks, scenes

needs_more_decks = pytest.mark.skipif(not decks.more_decks(),
                                      reason="gnome-cards-data is not installed")


def test_the_more_decks_are_never_held_out_nor_in_the_shipped_training_designs() -> None:
    assert not set(decks.MORE_DECKS) & {"paris", "tigullio", "bellot", "bonded"}
    for name in decks.more_decks():
        assert name.startswith("aisleriot-") and name not in decks.HELD_OUT
        assert name not in decks.deck_files() and name not in decks.training_decks()
    assert decks.element_id("aisleriot-anglo", "QH") == "heart_queen"
    assert decks.element_id("aisleriot-anglo", "AC") == "club_1"
    with pytest.raises(KeyError):
        decks.deck_path("aisleriot-paris")


@needs_more_decks
def test_more_decks_draws_them_in_the_svg_share_and_changes_nothing_without_it() -> None:
    rng = np.random.default_rng(0)
    picked = [build.pick_design(rng, more_decks=True) for _ in range(3000)]
    svg = [p for p in picked if ":" not in p]
    more = [p for p in svg if p in decks.more_decks()]
    assert not set(picked) & set(decks.HELD_OUT)
    assert 0.40 < len(svg) / len(picked) < 0.50  # the SVG share is unchanged
    share = len(decks.more_decks()) / (len(decks.more_decks()) + len(decks.training_decks()))
    assert abs(len(more) / len(svg) - share) < 0.05  # every SVG deck as likely as another
    plain, default = np.random.default_rng(1), np.random.default_rng(1)
    assert [build.pick_design(plain, more_decks=False) for _ in range(300)] == \
        [build.pick_design(default) for _ in range(300)]
    assert not {build.pick_design(np.random.default_rng(k)) for k in range(300)} & \
        set(decks.more_decks())


@needs_more_decks
@pytest.mark.parametrize("deck", ["aisleriot-anglo_modern", "aisleriot-ornamental",
                                  "aisleriot-tango"])
def test_a_more_deck_renders_52_faces_whose_index_is_found_top_left(deck: str) -> None:
    faces = decks.render_deck(deck)
    assert set(faces) == set(decks.CODES)
    anchors = scenes.anchors_of(deck, faces)
    found = [a for a in anchors.values() if a]
    assert len(found) >= 51
    for rank_x, rank_y, suit_x, suit_y in found:
        height, width = faces["AS"].shape[:2]
        assert rank_x < width / 3 and suit_x < width / 3 and rank_y < suit_y < height / 2


def test_more_decks_with_the_reader_s_cut_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(build, "generate", lambda args: pytest.fail("generated"))
    with pytest.raises(SystemExit) as refused:
        build.main(["generate", "--more-decks", "--reader-cut", "--data", str(tmp_path)])
    assert refused.value.code == 2 and "--more-decks" in capsys.readouterr().err


def test_more_decks_without_the_decks_installed_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(decks, "AISLERIOT_DECKS", tmp_path)
    monkeypatch.setattr(build, "generate", lambda args: pytest.fail("generated"))
    with pytest.raises(SystemExit) as refused:
        build.main(["generate", "--more-decks", "--data", str(tmp_path)])
    assert refused.value.code == 2 and "gnome-cards-data" in capsys.readouterr().err


@needs_more_decks
def test_a_fifth_share_draws_the_more_decks_alone_and_keeps_the_kde_decks_share() -> None:
    rng = np.random.default_rng(2)
    picked = [build.pick_design(rng, mix=(0.45, 0.15, 0.2, 0.0, 0.2)) for _ in range(3000)]
    more = [p for p in picked if p in decks.more_decks()]
    kde = [p for p in picked if p in decks.training_decks()]
    assert 0.17 < len(more) / len(picked) < 0.23 and set(more) == set(decks.more_decks())
    assert 0.41 < len(kde) / len(picked) < 0.49
    assert not any(p.startswith("wide:") for p in picked)
    assert not set(picked) & set(decks.HELD_OUT)


def test_a_fifth_share_without_the_decks_installed_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(decks, "AISLERIOT_DECKS", tmp_path)
    monkeypatch.setattr(build, "generate", lambda args: pytest.fail("generated"))
    with pytest.raises(SystemExit) as refused:
        build.main(["generate", "--design-mix", "0.45", "0.15", "0.2", "0", "0.2",
                    "--data", str(tmp_path)])
    assert refused.value.code == 2 and "gnome-cards-data" in capsys.readouterr().err
