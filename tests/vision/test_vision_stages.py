"""``scripts/vision_stages.py``: the recogniser's time, stage by stage, on a folder."""

from __future__ import annotations

import cProfile
import pstats
from pathlib import Path

import cv2
import numpy as np
import pytest

from scripts import vision_stages
from scripts.vision_stages import STAGES, Stage, main, stage_times


def inner() -> int:
    return sum(range(2000))


def outer_a() -> int:
    return inner() + inner()


def outer_b() -> int:
    return inner()


def test_a_stage_with_a_caller_counts_only_the_calls_from_it(monkeypatch) -> None:
    here = Path(__file__).name
    monkeypatch.setattr(vision_stages, "STAGES", (
        Stage("inner, all", here, "inner"), Stage("inner from a", here, "inner", "outer_a"),
        Stage("inner from b", here, "inner", "outer_b"), Stage("a", here, "outer_a")))
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(4):  # four "frames"
        outer_a()
        outer_b()
    profile.disable()
    rows = stage_times(pstats.Stats(profile), 4)
    assert [(s.label, calls) for s, calls, _ms in rows] == [
        ("inner, all", 3.0), ("inner from a", 2.0), ("inner from b", 1.0), ("a", 1.0)]
    ms = {s.label: t for s, _calls, t in rows}
    assert ms["inner, all"] == pytest.approx(ms["inner from a"] + ms["inner from b"])
    assert ms["a"] >= ms["inner from a"] > 0


def test_every_stage_names_a_function_the_reader_has() -> None:
    from dealer_assist.vision import detect, index_detector, indices, ink_pairs, recognizer
    modules = {"recognizer.py": recognizer.Recognizer, "detect.py": detect,
               "indices.py": indices.IndexReader, "index_detector.py": index_detector.IndexDetector,
               "ink_pairs.py": ink_pairs}
    for stage in STAGES:
        assert hasattr(modules[stage.module], stage.function), stage


def test_a_folder_is_read_and_its_stages_tabulated(tmp_path: Path, capsys) -> None:
    frame = np.full((480, 640, 3), 40, np.uint8)
    cv2.rectangle(frame, (200, 100), (380, 360), (235, 235, 235), -1)  # a blank card
    cv2.putText(frame, "7", (210, 140), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (20, 20, 20), 2)
    cv2.imwrite(str(tmp_path / "a.png"), frame)
    assert main([str(tmp_path), "--runs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"1 frames of {tmp_path}, 1 reads each"
    rows = [line.split(" | ") for line in lines[3:]]
    assert [r[0].strip("| ").strip() for r in rows] == [s.label for s in STAGES]
    ms = {r[0].strip("| ").strip(): float(r[2].rstrip(" |")) for r in rows}
    reader = ms["the corner-index reader"]
    assert ms["the recogniser's read"] >= reader >= ms["the detector's proposals"] > 0
    assert reader >= ms["whole-frame proposals"] > 0  # no outline read: its paper is searched


def test_a_folder_without_a_readable_image_is_refused(unreadable_folder: Path, capsys) -> None:
    assert main([str(unreadable_folder)]) == 2
    assert capsys.readouterr().err.startswith("error: ")
