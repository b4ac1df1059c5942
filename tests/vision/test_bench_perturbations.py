"""``scripts/bench_vision.py --perturb``: what each mode does to a frame."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.bench_vision import PERTURBATIONS, main


def test_warm_light_keeps_red_and_takes_green_and_blue_down() -> None:
    white = np.full((4, 4, 3), 255, np.uint8)
    assert PERTURBATIONS["warm"](white)[0, 0].tolist() == [153, 209, 255]  # B, G, R


@pytest.mark.parametrize("mode", sorted(PERTURBATIONS))
def test_every_mode_gives_a_colour_frame(mode: str) -> None:
    frame = np.random.default_rng(1).integers(0, 256, (96, 128, 3), dtype=np.uint8)
    out = PERTURBATIONS[mode](frame)
    assert out.dtype == np.uint8 and out.ndim == 3 and out.shape[2] == 3
    assert not np.array_equal(out, frame)


def test_a_folder_is_measured_in_warm_light(tmp_path: Path, capsys) -> None:
    cv2.imwrite(str(tmp_path / "felt.png"), np.full((120, 160, 3), (40, 110, 30), np.uint8))
    (tmp_path / "labels.csv").write_text("file,cards\nfelt.png,\n")
    assert main([str(tmp_path), "--runs", "1", "--json", "--perturb", "warm"]) == 0
    assert json.loads(capsys.readouterr().out)["mode"].endswith("perturbed: warm")
