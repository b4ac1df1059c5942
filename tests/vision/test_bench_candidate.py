"""``scripts/bench_vision.py``'s candidate reader: other model files and scaled thresholds, as
a rule's candidate is measured, and clear refusals of files that are not networks."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.bench_vision import main, seeds_option

FANS = ["--synthetic", "drawn-fans", "--scenes", "2", "--runs", "1", "--json"]


def bench(capsys, *options: str) -> dict:
    assert main([*FANS, *options]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_candidate_reader_is_measured_and_described(capsys) -> None:
    shipped = bench(capsys)
    assert "reader" not in shipped
    strict = bench(capsys, "--acceptance-factor", "0.002", "--second-model", "none")
    assert strict["reader"] == {"second": "none", "acceptance_factor": 0.002}
    assert strict["cards"] == shipped["cards"]  # the same scenes
    # thresholds of 0.9999 and more read fewer of the fans' cards than the shipped ones (0.9975
    # did until the thirty-eighth step's first network, which is surer of these cards)
    assert shipped["read_right"] > 0 and strict["read_right"] < shipped["read_right"]


def test_the_printed_summary_names_the_candidate_reader(capsys) -> None:
    assert main(["--synthetic", "drawn-fans", "--scenes", "1", "--runs", "1",
                 "--second-model", "none", "--acceptance-factor", "0.6"]) == 0
    assert "candidate reader: second none, acceptance_factor 0.6" in capsys.readouterr().out


def test_the_shipped_files_named_read_as_the_shipped_reader(capsys) -> None:
    models = Path(__file__).resolve().parents[2] / "models"
    shipped = bench(capsys)
    named = bench(capsys, "--first-model", str(models / "index_cnn.onnx"),
                  "--second-model", str(models / "index_cnn_b.onnx"),
                  "--third-model", str(models / "index_cnn_c.onnx"), "--third-context", "1",
                  "--detector-model", str(models / "index_det.onnx"),
                  "--acceptance-factor", "1")
    for key in ("cards", "read_right", "read_wrong", "misses"):
        assert named[key] == shipped[key]


@pytest.mark.parametrize("option", ["--first-model", "--second-model", "--detector-model",
                                    "--third-model", "--second-seeds"])
def test_a_file_that_is_not_a_network_is_refused_with_its_option(option: str, tmp_path: Path,
                                                                  capsys) -> None:
    notes = tmp_path / "notes.onnx"
    notes.write_text("not a network\n")
    for path in (notes, tmp_path / "missing.onnx"):
        assert main([*FANS, option, str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: {option} {path}:") and "Traceback" not in err


def test_a_factor_out_of_range_is_refused(capsys) -> None:
    assert main([*FANS, "--acceptance-factor", "0"]) == 2
    assert "factor" in capsys.readouterr().err


def test_a_candidate_reader_is_not_mixed_with_a_deck(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--synthetic", "heldout", "--deck", "home", "--acceptance-factor", "1.25"])
    assert stop.value.code == 2
    assert "without a deck" in capsys.readouterr().err


def test_the_reader_before_the_third_network_is_measured_and_described(capsys) -> None:
    """``--third-model none``: the first and second networks, the lower of the two (the reader
    before rule DS); the shipped first network named as its own third gives the mean of a
    network with itself, the two-network reader again."""
    before = bench(capsys, "--third-model", "none")
    assert before["reader"] == {"third": "none"}
    first = str(Path(__file__).resolve().parents[2] / "models" / "index_cnn.onnx")
    same = bench(capsys, "--third-model", first)
    assert same["reader"] == {"third": first}
    for key in ("cards", "read_right", "read_wrong", "misses"):
        assert same[key] == before[key]


def test_the_first_network_as_a_seed_of_its_own_is_described(capsys) -> None:
    """``--more-seeds``: the shipped first network named as a further seed is listed."""
    first = str(Path(__file__).resolve().parents[2] / "models" / "index_cnn.onnx")
    seeded = bench(capsys, "--more-seeds", first)
    assert seeded["reader"] == {"more_seeds": first} and seeded["cards"] > 0


def test_more_seeds_none_is_the_reader_before_the_fourth_network() -> None:
    assert seeds_option(None) is None  # the shipped seeds
    assert seeds_option(["none"]) == [] and seeds_option(["NONE"]) == []
    assert seeds_option(["a.onnx", "b.onnx"]) == [Path("a.onnx"), Path("b.onnx")]


@pytest.mark.parametrize("options", [["--more-seeds", "m.onnx", "--combine", "lowest"],
                                     ["--combine", "either", "--third-model", "none"],
                                     ["--second-context", "0"], ["--third-context", "0"],
                                     ["--third-context", "1", "--third-model", "none"],
                                     ["--second-seeds", "s.onnx", "--second-model", "none"]])
def test_a_candidate_option_without_its_sense_is_refused(options: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main([*FANS, *options])
    assert stop.value.code == 2
    assert options[0] in capsys.readouterr().err


def test_the_reader_before_rule_ef_is_named_and_reads_no_more_than_the_shipped(capsys) -> None:
    shipped = bench(capsys)
    before = bench(capsys, "--look-again", "named")
    assert "reader" not in shipped
    assert before["reader"] == {"look_again": "named"}
    assert before["cards"] == shipped["cards"]
    # the shipped reader's further looks add readings; on these scenes it loses none
    assert shipped["read_right"] >= before["read_right"]


def test_rule_es_reader_is_named_and_a_reach_out_of_range_is_refused(capsys) -> None:
    farther = bench(capsys, "--again-reach", "1.2")
    assert farther["reader"] == {"again_reach": 1.2}
    assert main([*FANS, "--again-reach", "-1"]) == 2
    assert "again_reach must be a positive number of steps" in capsys.readouterr().err


def test_rule_ey_reader_is_named(capsys) -> None:
    second = Path(__file__).resolve().parents[2] / "models" / "index_cnn_b.onnx"
    doubled = bench(capsys, "--second-seeds", str(second))
    assert doubled["reader"] == {"second_seeds": str(second)}
    assert doubled["read_right"] == bench(capsys)["read_right"]  # a seed mean of one network


def test_the_reader_before_rule_fa_is_named_and_the_shipped_one_is_not(capsys) -> None:
    before = bench(capsys, "--no-one-glyph")
    assert before["reader"] == {"one_glyph": "no"}
    shipped = bench(capsys, "--one-glyph")  # the shipped reader, named as in rule FA's runs
    assert "reader" not in shipped
    # one glyph, one card only takes readings away
    assert shipped["read_right"] <= before["read_right"]
    assert shipped["read_wrong"] <= before["read_wrong"]
