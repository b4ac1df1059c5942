"""Running and tabulating a reader's rule sets (``scripts/vision_rule_sets.py``)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from scripts import vision_rule_sets as rs


def result(right: int, wrong: int) -> dict:
    return {"read_right": right, "read_wrong": wrong, "cards": right + 10, "mode": "synthetic"}


class FakeBench:
    """Stands in for bench_vision.py: records each run's arguments, answers with a result."""

    def __init__(self, returncode: int = 0) -> None:
        self.calls: list[list[str]] = []
        self.returncode = returncode

    def __call__(self, args: list[str]) -> subprocess.CompletedProcess:
        self.calls.append(args)
        return subprocess.CompletedProcess(args, self.returncode, json.dumps(result(5, 1)),
                                           "no such model")


def test_run_writes_each_set_and_seed_once_with_the_candidates_options(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeBench()
    monkeypatch.setattr(rs, "bench", fake)
    argv = ["run", str(tmp_path), "C1", "--seeds", "7", "8", "--", "--first-model", "m.onnx"]
    assert rs.main(argv) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"C1__{s}__{seed}.json" for s in ("blur", "daylight", "fans") for seed in (7, 8)]
    assert ["--synthetic", "training", "--scenes", "160", "--perturb", "blur", "--seed", "7",
            "--runs", "1", "--json", "--first-model", "m.onnx"] in fake.calls
    # a stopped run goes on where it stopped: what is there is kept, not run again
    (tmp_path / "C1__fans__8.json").unlink()
    fake.calls.clear()
    assert rs.main(argv) == 0
    assert len(fake.calls) == 1 and fake.calls[0][:3] == ["--synthetic", "training-fans",
                                                          "--scenes"]


def test_the_held_out_sets_use_their_own_seeds(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeBench()
    monkeypatch.setattr(rs, "bench", fake)
    assert rs.main(["run", str(tmp_path), "S", "--sets", "heldout", "--heldout-seeds", "3"]) == 0
    assert [c[:2] + c[4:6] for c in fake.calls] == [["--synthetic", "heldout", "--seed", "3"],
                                                    ["--synthetic", "fans", "--seed", "3"]]


def test_the_oblique_group_chooses_on_training_designs_and_reports_held_out_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeBench()
    monkeypatch.setattr(rs, "bench", fake)
    assert rs.main(["run", str(tmp_path), "S", "--sets", "oblique", "--seeds", "5",
                    "--heldout-seeds", "3"]) == 0
    assert [c[:2] + c[4:6] for c in fake.calls] == [
        ["--synthetic", "training-oblique", "--seed", "5"],
        ["--synthetic", "oblique", "--seed", "3"]]


def test_the_confirmations_fans_can_be_run_alone(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeBench()
    monkeypatch.setattr(rs, "bench", fake)
    assert rs.main(["run", str(tmp_path), "S", "--sets", "confirm-fans", "--seeds", "5"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "S__confirm-fans-blur__5.json", "S__confirm-fans-warm__5.json", "S__confirm-fans__5.json"]
    assert all(c[:4] == ["--synthetic", "fans", "--scenes", "120"] for c in fake.calls)


def test_a_failed_bench_run_stops_and_leaves_no_file(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(rs, "bench", FakeBench(returncode=2))
    assert rs.main(["run", str(tmp_path), "C1", "--seeds", "7"]) == 1
    assert list(tmp_path.iterdir()) == []
    assert "daylight seed 7 failed (exit 2): no such model" in capsys.readouterr().err


def test_a_name_that_cannot_be_a_file_name_part_is_refused(tmp_path: Path) -> None:
    assert rs.main(["run", str(tmp_path / "out"), "a__b"]) == 2
    assert not (tmp_path / "out").exists()


def write(out: Path, name: str, set_name: str, seed: int, right: int, wrong: int,
          partly: tuple[int, int] | None = None) -> None:
    """A result file; ``partly``: its partly covered cards (read, in all), else none counted."""
    data = result(right, wrong)
    if partly:
        data["partly_covered"] = {"read": partly[0], "cards": partly[1]}
    (out / f"{name}__{set_name}__{seed}.json").write_text(json.dumps(data))


def test_the_table_pools_seeds_and_the_choice_sets(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture) -> None:
    for seed, k in ((1, 0), (2, 1)):
        write(tmp_path, "S", "daylight", seed, 100 + k, 1)
        write(tmp_path, "S", "blur", seed, 80, k)
        write(tmp_path, "S", "fans", seed, 20, 0)
    write(tmp_path, "C", "daylight", 1, 105, 2)  # C has no blur or fans: not pooled
    write(tmp_path, "C", "heldout", 9, 250, 0)
    assert rs.main(["table", str(tmp_path)]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0] == "| set | C | S |"
    assert "| daylight | 105 · 2 | 201 · 2 |" in rows
    assert "| choice, pooled | — | 401 · 3 |" in rows
    assert "| heldout 9 | 250 · 0 | — |" in rows


def test_the_table_counts_partly_covered_cards_where_every_result_does(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    write(tmp_path, "S", "heldout-fans", 1, 50, 0, partly=(3, 5))
    write(tmp_path, "S", "heldout-fans", 2, 50, 0, partly=(4, 6))
    write(tmp_path, "S", "fans", 1, 20, 1)  # from before the count
    write(tmp_path, "S", "fans", 2, 20, 1, partly=(2, 9))
    write(tmp_path, "S", "daylight", 1, 30, 0, partly=(1, 2))
    write(tmp_path, "S", "daylight", 2, 30, 0, partly=(0, 3))
    assert rs.main(["table", str(tmp_path)]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert "| heldout-fans 1 | 50 · 0 (3/5 partly) |" in rows
    assert "| heldout-fans 2 | 50 · 0 (4/6 partly) |" in rows
    assert "| daylight | 60 · 0 (1/5 partly) |" in rows  # pooled over the seeds
    assert "| fans | 40 · 2 |" in rows  # one of its two results lacks the count


def test_a_file_that_is_no_result_is_named(tmp_path: Path,
                                           capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "S__daylight__1.json").write_text("{not json")
    assert rs.main(["table", str(tmp_path)]) == 2
    assert "S__daylight__1.json" in capsys.readouterr().err
    (tmp_path / "S__daylight__1.json").unlink()
    assert rs.main(["table", str(tmp_path)]) == 2  # nothing to tabulate


def test_the_confirm_group_runs_rule_ams_sets_on_the_given_seeds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeBench()
    monkeypatch.setattr(rs, "bench", fake)
    assert rs.main(["run", str(tmp_path), "S", "--sets", "confirm", "--seeds", "5"]) == 0
    asked = sorted(" ".join(c[:6]) for c in fake.calls)
    assert len(asked) == 9
    assert "--synthetic fans --scenes 120 --perturb warm" in asked
    assert "--synthetic heldout --scenes 240 --seed 5" in asked  # fresh seeds, not held-out ones
    assert "--synthetic training --scenes 240 --perturb blur" in asked


def write_confirm(out: Path, name: str, seed: int, right: int, wrong: int) -> None:
    for set_name in rs.GROUPS["confirm"]:
        kind = set_name.split("-")[1]
        light = set_name.split("-")[2] if set_name.count("-") == 2 else None
        mode = f"synthetic {kind} (index)" + (f", perturbed: {light}" if light else "")
        (out / f"{name}__{set_name}__{seed}.json").write_text(json.dumps(
            {"read_right": right, "read_wrong": wrong, "cards": 1000, "mode": mode,
             "images": 240, "seed": seed, "scenes": 240}))


def test_confirm_judges_the_candidate_by_rule_am(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture) -> None:
    for seed in (1, 2):
        write_confirm(tmp_path, "S", seed, 500, 2)
        write_confirm(tmp_path, "C", seed, 520, 2)  # more cards, as precise: passes
        write_confirm(tmp_path, "W", seed, 520, 9)  # more cards, 9 wrong of 529 a set: 98.3 %
    assert rs.main(["confirm", str(tmp_path), "S", "C"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "C passes"
    assert rs.main(["confirm", str(tmp_path), "S", "W"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  (b) synthetic fans (index): precision 98.30%" in out
    assert out.splitlines()[-1] == "W fails"


def test_confirm_refuses_when_a_set_is_missing(tmp_path: Path,
                                               capsys: pytest.CaptureFixture) -> None:
    write_confirm(tmp_path, "S", 1, 500, 2)
    write_confirm(tmp_path, "C", 1, 520, 2)
    (tmp_path / "C__confirm-fans-blur__1.json").unlink()
    assert rs.main(["confirm", str(tmp_path), "S", "C"]) == 2
    assert "C__confirm-fans-blur__1.json" in capsys.readouterr().err
    assert rs.main(["confirm", str(tmp_path), "S", "nobody"]) == 2
