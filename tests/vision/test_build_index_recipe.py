"""``scripts/build_index_model.py all``: the training stages it runs, in order."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts import build_index_model as build


@pytest.fixture
def stages(monkeypatch: pytest.MonkeyPatch) -> list:
    """The arguments of every training stage ``all`` runs (nothing is generated or trained)."""
    runs: list = []
    monkeypatch.setattr(build, "generate", lambda args: runs.append("generate"))
    monkeypatch.setattr(build, "train", runs.append)
    return runs


def refusal(argv: list[str], stages: list, capsys: pytest.CaptureFixture) -> str:
    """What ``build.main(argv)`` says on refusing it (exit 2, nothing generated or trained)."""
    with pytest.raises(SystemExit) as refused:
        build.main(argv)
    assert refused.value.code == 2 and stages == []
    return capsys.readouterr().err


def test_all_generates_then_runs_the_shipped_two_stages(stages: list, tmp_path: Path) -> None:
    build.main(["all", "--work", str(tmp_path / "work"), "--out", str(tmp_path / "net.onnx")])
    first, second = stages[1:]
    assert stages[0] == "generate"
    assert (first.epochs, first.lr, first.smoothing, first.init) == (20, 3e-3, 0.05, None)
    assert (second.epochs, second.lr, second.smoothing) == (5, 1e-3, 0.0)
    # the second stage starts from the first's checkpoint; only it writes the model
    assert second.init == tmp_path / "work" / "stage1" / "checkpoint.pt"
    assert second.out == tmp_path / "net.onnx" and first.out != second.out


def test_the_first_stage_can_train_longer(stages: list, tmp_path: Path) -> None:
    build.main(["all", "--stage1-epochs", "60", "--work", str(tmp_path)])
    assert [s.epochs for s in stages[1:]] == [60, 5]


def test_a_training_seed_leaves_the_scenes_seed_alone(stages: list, tmp_path: Path) -> None:
    build.main(["all", "--train-seed", "1", "--work", str(tmp_path)])
    assert [build.training_seed(s) for s in stages[1:]] == [1, 1]
    assert [s.seed for s in stages[1:]] == [0, 0]  # what generate renders with
    stages.clear()
    build.main(["all", "--seed", "2", "--work", str(tmp_path)])
    assert [build.training_seed(s) for s in stages[1:]] == [2, 2]


def test_more_renders_add_their_training_chunks_not_their_validation(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    for folder, n in ((first, 4), (second, 3)):
        folder.mkdir()
        for k in range(n):
            (folder / f"chunk-{k:04d}.npz").touch()
        (folder / "chunk-0009.tmp.npz").touch()  # a chunk still being written
    names = [(p.parent.name, p.name) for p in build.training_chunks(first, [second])]
    assert names == [("a", "chunk-0002.npz"), ("a", "chunk-0003.npz"), ("b", "chunk-0002.npz")]
    assert build.training_chunks(first) == build.training_chunks(first, [])


def test_all_passes_the_other_renders_to_every_stage(stages: list, tmp_path: Path) -> None:
    for folder in ("b", "c"):
        (tmp_path / folder).mkdir()
        for k in range(3):
            (tmp_path / folder / f"chunk-{k:04d}.npz").touch()
    build.main(["all", "--more-data", str(tmp_path / "b"), str(tmp_path / "c"),
                "--work", str(tmp_path)])
    assert [s.more_data for s in stages[1:]] == [[tmp_path / "b", tmp_path / "c"]] * 2


@pytest.mark.parametrize("chunks", [None, 0, 2])  # no folder, an empty one, validation only
def test_other_renders_without_training_chunks_are_refused(
        stages: list, tmp_path: Path, capsys: pytest.CaptureFixture, chunks: int | None) -> None:
    folder = tmp_path / "typo"
    if chunks is not None:
        folder.mkdir()
        for k in range(chunks):
            (folder / f"chunk-{k:04d}.npz").touch()
    with pytest.raises(SystemExit) as refused:
        build.main(["all", "--more-data", str(folder), "--work", str(tmp_path / "work")])
    assert refused.value.code == 2
    assert f"--more-data {folder}: no training chunks there" in capsys.readouterr().err
    assert stages == []  # nothing generated or trained


def test_channels_last_reaches_every_stage(stages: list, tmp_path: Path) -> None:
    build.main(["all", "--work", str(tmp_path)])
    assert [s.channels_last for s in stages[1:]] == [False, False]  # the shipped files' order
    stages.clear()
    build.main(["all", "--channels-last", "--work", str(tmp_path)])
    assert [s.channels_last for s in stages[1:]] == [True, True]


def test_an_averaging_second_stage_replaces_the_one_cycle_one(stages: list, tmp_path: Path
                                                              ) -> None:
    build.main(["all", "--stage1-epochs", "60", "--average-epochs", "10", "--work",
                str(tmp_path)])
    first, second = stages[1:]
    assert (first.epochs, first.average_every) == (60, 0)  # the first stage never averages
    assert (second.epochs, second.lr, second.smoothing) == (10, 1e-3, 0.0)
    assert second.average_every == build.AVERAGE_EVERY > 0
    assert second.init == tmp_path / "stage1" / "checkpoint.pt"


def test_without_averaging_the_second_stage_is_the_one_cycle_one(stages: list, tmp_path: Path
                                                                 ) -> None:
    build.main(["all", "--average-every", "7", "--work", str(tmp_path)])  # a train option
    assert [(s.epochs, s.average_every) for s in stages[1:]] == [(20, 0), (5, 0)]


@pytest.mark.parametrize("option", [["--average-every", "301"], ["--average-every", "-1"],
                                    ["--average-epochs", "-1"]])
def test_an_averaging_that_would_average_nothing_is_refused(
        stages: list, tmp_path: Path, capsys: pytest.CaptureFixture, option: list[str]) -> None:
    assert option[0] in refusal(["train", *option, "--work", str(tmp_path)], stages, capsys)


@pytest.mark.parametrize("option", [["--context", "0"], ["--context", "-1.6"],
                                    ["--context", "1.6", "--reader-cut"]])
def test_a_context_that_is_no_crop_or_not_the_plain_render_s_is_refused(
        stages: list, tmp_path: Path, capsys: pytest.CaptureFixture, option: list[str]) -> None:
    assert "--context" in refusal(["generate", *option, "--data", str(tmp_path)], stages,
                                  capsys)


@pytest.mark.parametrize("option", [["--focus-model", "nowhere.onnx"],
                                    ["--focus-weight", "-1"]])
def test_a_focus_that_is_no_network_or_no_weight_is_refused(
        stages: list, tmp_path: Path, capsys: pytest.CaptureFixture, option: list[str]) -> None:
    assert option[0] in refusal(["train", *option, "--work", str(tmp_path)], stages, capsys)


def test_the_focus_draws_the_crops_another_network_gets_wrong_more_often() -> None:
    """Rule DF: a crop is drawn in proportion to 1 + W (1 - p), p the other network's
    probability of its label."""
    import numpy as np

    from dealer_assist.vision.indices import CLASSES

    class SureOfNone:  # stands in for the other network: every crop is "not an index"
        def run(self, x: np.ndarray) -> np.ndarray:
            logits = np.zeros((len(x), len(CLASSES)), np.float32)
            logits[:, 0] = 30.0
            return logits

    focus = build.Focus.__new__(build.Focus)
    focus.net, focus.weight, focus._key = SureOfNone(), 4.0, None
    x = np.full((4, 40, 28, 3), 128, np.uint8)
    y = np.array([0, 0, CLASSES.index("10D"), CLASSES.index("QS")])
    shares = focus.shares(x, y)
    assert np.isclose(shares.sum(), 1)
    assert np.allclose(shares / shares[0], [1, 1, 5, 5])  # 1 + 4 x (1 - 0) for its mistakes
    assert focus.shares(x, y) is shares  # computed once for the same crops
