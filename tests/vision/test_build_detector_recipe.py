"""``scripts/build_index_detector.py``: the stages ``all`` runs, and ``generate``'s chunks, the
same in any number of worker processes."""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts import build_index_detector as build
from scripts import build_index_model as build_model


def test_all_generates_then_runs_the_shipped_two_stages(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    runs: list = []
    monkeypatch.setattr(build, "generate", lambda args: runs.append("generate"))
    monkeypatch.setattr(build, "train", runs.append)
    build.main(["all", "--work", str(tmp_path / "work"), "--out", str(tmp_path / "det.onnx")])
    assert runs[0] == "generate"
    first, second = runs[1:]
    assert (first.epochs, first.lr, first.init) == (64, 4e-3, None)
    assert (second.epochs, second.lr) == (48, 2e-3)
    assert second.init == tmp_path / "work" / "stage1" / "checkpoint.pt"
    assert second.out == tmp_path / "det.onnx" and first.out != second.out


@pytest.mark.skipif(not build_model.decks_more(), reason="no aisleriot decks (gnome-cards-data)")
def test_the_shipped_recipe_is_one_option(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    """``--recipe shipped`` gives both stages and the render the shipped file's options (the
    command in the script's header); an option given on the command line still wins."""
    runs: list = []
    monkeypatch.setattr(build, "generate", runs.append)
    monkeypatch.setattr(build, "train", runs.append)
    build.main(["all", "--recipe", "shipped", "--work", str(tmp_path)])
    shipped = build.SHIPPED_RECIPE
    for args in runs:
        assert {k: getattr(args, k) for k in shipped} == shipped
    assert shipped["design_mix"] == [0.6, 0.2, 0.0, 0.0, 0.2] and shipped["designs"] == "mix"
    runs.clear()
    build.main(["all", "--recipe", "shipped", "--threads", "1", "--work", str(tmp_path)])
    assert [(r.threads, r.channels_last) for r in runs] == [(1, True)] * 3
    runs.clear()
    build.main(["all", "--work", str(tmp_path)])  # the defaults: the recipe shipped until then
    assert [(r.designs, r.channels_last, r.threads) for r in runs] == [("training", False, 1)] * 3


def test_the_stages_can_train_for_other_lengths(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    runs: list = []
    monkeypatch.setattr(build, "generate", lambda args: None)
    monkeypatch.setattr(build, "train", runs.append)
    build.main(["all", "--stage-epochs", "32", "24", "--work", str(tmp_path)])  # until step 33
    assert [(r.epochs, r.lr) for r in runs] == [(32, 4e-3), (24, 2e-3)]


def test_channels_last_reaches_both_stages(monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    runs: list = []
    monkeypatch.setattr(build, "generate", lambda args: None)
    monkeypatch.setattr(build, "train", runs.append)
    build.main(["all", "--channels-last", "--work", str(tmp_path)])
    assert [r.channels_last for r in runs] == [True, True]


def test_workers_render_the_missing_chunks_as_one_process_would(tmp_path: Path) -> None:
    """Two workers render what one fresh process renders (the reference is drawn in a fresh
    process too, as ``generate`` draws every chunk, and not after whatever this test session
    drew; see test_synth_fonts.py for the state that made such a chunk differ)."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "chunk-0000.npz").write_bytes(b"already rendered")  # skipped, left as it is
    args = argparse.Namespace(scenes=2 * build.SCENES_PER_CHUNK, seed=3, designs="training",
                              design_mix=build_model.DESIGN_MIX, data=data, workers=2,
                              steep=0.0)
    build.generate(args)
    assert (data / "chunk-0000.npz").read_bytes() == b"already rendered"
    assert sorted(p.name for p in data.iterdir()) == ["chunk-0000.npz", "chunk-0001.npz"]
    alone = tmp_path / "alone.npz"
    with multiprocessing.get_context("spawn").Pool(1) as fresh:
        fresh.apply(build.make_chunk, (1, 3, alone))
    with np.load(data / "chunk-0001.npz") as workers, np.load(alone) as one:
        assert sorted(workers.files) == sorted(one.files)
        for name in one.files:
            np.testing.assert_array_equal(workers[name], one[name])


def test_the_mix_of_designs_reaches_every_chunk(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    """``--designs mix --design-mix ...`` renders its chunks in those shares (wide: a fourth)."""
    from scripts.vision_data import variants

    monkeypatch.setattr(variants, "wide_extra_fonts", lambda: [Path("some-face.ttf")])
    rendered: list = []
    monkeypatch.setattr(build_model, "render_chunks",
                        lambda args, per_chunk, unit, make, *options: rendered.append(options))
    build.main(["generate", "--designs", "mix", "--design-mix", "0.4", "0.1", "0.2", "0.3",
                "--data", str(tmp_path)])
    build.main(["generate", "--designs", "mix", "--data", str(tmp_path)])
    assert rendered == [("mix", (0.4, 0.1, 0.2, 0.3), 0.0),
                        ("mix", build_model.DESIGN_MIX, 0.0)]


def test_the_steep_share_reaches_the_render(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    rendered: list = []
    monkeypatch.setattr(build_model, "render_chunks",
                        lambda args, per_chunk, unit, make, *options: rendered.append(options))
    build.main(["generate", "--steep", "0.4", "--data", str(tmp_path)])
    assert rendered == [("training", build_model.DESIGN_MIX, 0.4)]


class _Drawn(Exception):
    """Stops make_chunk at its first scene."""


@pytest.mark.parametrize("steep, tilts", [(0.0, (0.0, 55.0)), (1.0, build.STEEP_TILT)])
def test_a_steep_scene_is_seen_by_a_steeper_camera(steep, tilts, monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    """``--steep 1`` tilts every scene's camera STEEP_TILT; without it, the everyday 0-55°."""
    from scripts.vision_data import scenes

    seen: list = []

    def first_scene(*args, min_tilt: float, max_tilt: float, **kwargs):
        seen.append((min_tilt, max_tilt))
        raise _Drawn

    monkeypatch.setattr(scenes, "make_scene", first_scene)
    with pytest.raises(_Drawn):
        build.make_chunk(0, 3, tmp_path / "chunk.npz", steep=steep)
    assert seen == [tilts]
    assert not (tmp_path / "chunk.npz").exists()


@pytest.mark.parametrize("argv, message", [
    (["--designs", "mix", "--design-mix", "0.5", "0.5", "0.5"], "3 to 5 shares that add up"),
    (["--design-mix", "0.4", "0.1", "0.2", "0.3"], "--design-mix needs --designs mix"),
    (["--steep", "1.5"], "--steep is a share, 0 to 1"),
])
def test_the_detector_build_refuses_a_mix_it_cannot_draw(argv, message, tmp_path: Path,
                                                         capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        build.main(["generate", "--data", str(tmp_path / "data"), *argv])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "data").exists()
