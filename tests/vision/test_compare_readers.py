"""``scripts/compare_readers.py``: a candidate reader confirmed on precision, not on a count of
wrong readings (issue 16, rule AM)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_assist.errors import EXIT_OK, EXIT_REFUSED, EXIT_UNREADABLE

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts import bench_vision
from scripts.compare_readers import Tally, main, more_wrong_p


def result(tmp_path: Path, name: str, right: int, wrong: int, kind: str = "heldout",
           light: str | None = None, seed: int = 7) -> Path:
    """A ``bench_vision.py --json`` result file of 1 000 scenes' cards."""
    mode = f"synthetic {kind} (index)" + (f", perturbed: {light}" if light else "")
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"recall": right / 5000, "precision": 1.0, "images": 1000,
                                "cards": 5000, "read_right": right, "read_wrong": wrong,
                                "mode": mode, "seed": seed, "scenes": 1000, "misses": {}}))
    return path


def compare(tmp_path: Path, shipped: list[tuple], candidate: list[tuple]) -> int:
    """Run the script on (right, wrong, kind, light) results, paired by position."""
    return main(["--shipped", *(str(result(tmp_path, f"s{i}", *r)) for i, r in enumerate(shipped)),
                 "--candidate",
                 *(str(result(tmp_path, f"c{i}", *r)) for i, r in enumerate(candidate))])


def test_more_cards_at_the_same_precision_pass_though_more_are_wrong(tmp_path, capsys) -> None:
    # 4 % more cards and one more wrong reading: a count of wrong readings would refuse it
    shipped = [(2000, 6, "training"), (2000, 6, "heldout"), (2000, 6, "heldout", "blur")]
    candidate = [(2080, 7, "training"), (2080, 7, "heldout"), (2080, 7, "heldout", "blur")]
    assert compare(tmp_path, shipped, candidate) == EXIT_OK
    out = capsys.readouterr().out
    assert "FAIL" not in out and out.rstrip().endswith("the candidate passes")
    assert "(a) light blur: 2080 against 2000" in out


def test_the_partly_covered_cards_are_reported_not_judged(tmp_path, capsys) -> None:
    def with_partly(path: Path, read: int) -> Path:
        data = json.loads(path.read_text())
        data["partly_covered"] = {"cards": 300, "read": read}
        path.write_text(json.dumps(data))
        return path

    shipped = with_partly(result(tmp_path, "s", 2000, 6), 100)
    fewer = with_partly(result(tmp_path, "c", 1990, 6), 200)  # more partly covered, fewer cards
    assert main(["--shipped", str(shipped), "--candidate", str(fewer)]) == EXIT_REFUSED
    out = capsys.readouterr().out
    assert "info  cards with the partly covered: 2190 against 2100 (partly covered 200 " \
           "against 100)" in out
    assert "FAIL  (a) cards: 1990 against 2000" in out
    plain = result(tmp_path, "p", 2010, 6)  # a result from before the count: no line
    assert main(["--shipped", str(shipped), "--candidate", str(plain)]) == EXIT_OK
    assert "partly" not in capsys.readouterr().out


def test_fewer_cards_fail(tmp_path, capsys) -> None:
    assert compare(tmp_path, [(2000, 6)], [(1990, 2)]) == EXIT_REFUSED
    assert "FAIL  (a) cards: 1990 against 2000" in capsys.readouterr().out


def test_a_light_that_loses_cards_fails_even_when_the_pool_gains(tmp_path, capsys) -> None:
    shipped = [(2000, 0, "heldout"), (1000, 0, "heldout", "blur")]
    candidate = [(2200, 0, "heldout"), (980, 0, "heldout", "blur")]  # blur: 98 %
    assert compare(tmp_path, shipped, candidate) == EXIT_REFUSED
    out = capsys.readouterr().out
    assert "pass  (a) cards: 3180 against 3000" in out
    assert "FAIL  (a) light blur: 980 against 1000" in out


def test_precision_under_the_issues_target_on_one_kind_fails(tmp_path, capsys) -> None:
    shipped = [(2000, 8, "training"), (2000, 0, "fans")]
    candidate = [(2100, 11, "training"), (2100, 0, "fans")]  # training 99.48 %
    assert compare(tmp_path, shipped, candidate) == EXIT_REFUSED
    assert "FAIL  (b) synthetic training (index): precision 99.48%" in capsys.readouterr().out


def test_under_the_floor_where_the_shipped_reader_is_too_is_judged_against_it(
        tmp_path, capsys) -> None:
    # fans: the shipped reader 99.40 %, the candidate 99.30 %: under the floor both, and 14
    # wrong against 12 on as many cards is no significant loss
    shipped = [(4000, 10, "training"), (2000, 12, "fans")]
    candidate = [(4040, 10, "training"), (2000, 14, "fans")]
    assert compare(tmp_path, shipped, candidate) == EXIT_OK
    assert "pass  (b) synthetic fans (index): precision 99.30%" in capsys.readouterr().out
    # 30 wrong against 12 is one
    candidate = [(4040, 10, "training"), (2000, 30, "fans")]
    assert compare(tmp_path, shipped, candidate) == EXIT_REFUSED
    out = capsys.readouterr().out
    assert "FAIL  (b) synthetic fans (index)" in out and "both under the floor: p = 0.00" in out


def test_under_the_floor_where_the_shipped_reader_holds_it_fails(tmp_path, capsys) -> None:
    # 11 wrong against 8 is no significant loss, but the shipped reader holds the floor here
    shipped = [(2000, 8, "training")]
    candidate = [(2100, 11, "training")]
    assert compare(tmp_path, shipped, candidate) == EXIT_REFUSED
    assert "which the shipped reader holds" in capsys.readouterr().out


def test_a_significant_loss_of_precision_on_held_out_designs_fails(tmp_path, capsys) -> None:
    # 99.63 % clears the floor, but 15 wrong against 1 on as many cards is no chance
    assert compare(tmp_path, [(4000, 1)], [(4001, 15)]) == EXIT_REFUSED
    out = capsys.readouterr().out
    assert "pass  (b)" in out
    assert "FAIL  (c) everything" in out and "FAIL  (c) held-out designs" in out


def test_the_binomial_test() -> None:
    # three wrong readings against none, on as many cards read: 1/2³
    assert more_wrong_p(Tally(997, 3), Tally(1000, 0)) == pytest.approx(0.125)
    assert more_wrong_p(Tally(100, 0), Tally(100, 5)) == pytest.approx(1.0)  # none of them
    assert more_wrong_p(Tally(100, 0), Tally(100, 0)) == 1.0  # no wrong reading at all
    # the candidate reads three times the cards: its share of wrong readings is 3/4
    assert more_wrong_p(Tally(299, 1), Tally(100, 0)) == pytest.approx(0.75)


def test_pairs_of_different_runs_are_refused(tmp_path, capsys) -> None:
    shipped = result(tmp_path, "s", 100, 0, seed=1)
    candidate = result(tmp_path, "c", 110, 0, seed=2)
    assert main(["--shipped", str(shipped), "--candidate", str(candidate)]) == EXIT_UNREADABLE
    assert "not the same run: seed differ" in capsys.readouterr().err
    assert main(["--shipped", str(shipped), str(shipped), "--candidate", str(candidate)]) \
        == EXIT_UNREADABLE
    assert "as many candidate results" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["not json", "[1, 2]", '{"mode": "x", "read_right": 1}'])
def test_a_file_that_is_not_a_result_is_refused(tmp_path, capsys, text: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    good = result(tmp_path, "good", 100, 0)
    assert main(["--shipped", str(good), "--candidate", str(bad)]) == EXIT_UNREADABLE
    assert "bad.json" in capsys.readouterr().err
    assert main(["--shipped", str(good), "--candidate", str(tmp_path / "none.json")]) \
        == EXIT_UNREADABLE


def test_a_synthetic_benchmark_result_names_its_seed_and_scenes(capsys) -> None:
    assert bench_vision.main(["--synthetic", "fans", "--scenes", "1", "--seed", "3",
                              "--runs", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["seed"], out["scenes"]) == (3, 1)


def test_the_script_runs_from_anywhere_and_ends_without_a_traceback(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[2] / "scripts" / "compare_readers.py"
    good = result(tmp_path, "good", 100, 0)
    run = subprocess.run([sys.executable, str(script), "--shipped", str(good), "--candidate",
                          str(tmp_path / "none.json")], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == EXIT_UNREADABLE
    assert "none.json" in run.stderr and "Traceback" not in run.stderr
