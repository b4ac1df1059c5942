"""``scripts/vision_sharpness.py``: how sharp a folder's frames and synthetic scenes are."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from scripts.vision_sharpness import main


def write_frames(folder: Path) -> None:
    """A crisp frame of black ink on paper, and the same blurred past the sharpening bar."""
    rng = np.random.default_rng(4)
    crisp = np.full((240, 320, 3), 235, np.uint8)
    for x, y in rng.integers(10, 220, (40, 2)):
        cv2.putText(crisp, "7", (int(x), int(y) + 20), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20,) * 3, 2)
    cv2.imwrite(str(folder / "a_crisp.png"), crisp)
    cv2.imwrite(str(folder / "b_soft.png"), cv2.GaussianBlur(crisp, (0, 0), 4))
    (folder / "labels.csv").write_text("file,cards\n")  # not an image: left out


def test_a_folder_is_summed_up_and_its_blurred_frames_counted(tmp_path: Path, capsys) -> None:
    write_frames(tmp_path)
    assert main([str(tmp_path)]) == 0
    row = capsys.readouterr().out.splitlines()[-1]
    assert row.startswith(f"| {tmp_path} | 2 | ")
    assert row.endswith("| 1 (50%) |")  # the blurred copy only


def test_synthetic_scenes_are_summed_up_beside_the_folder(tmp_path: Path, capsys) -> None:
    write_frames(tmp_path)
    assert main([str(tmp_path), "--synthetic", "training", "--scenes", "2", "--seed", "5"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 4 and rows[-1].startswith("| synthetic training, seed 5 | 2 | ")


def test_a_folder_without_a_readable_image_is_refused(unreadable_folder: Path, capsys) -> None:
    assert main([str(unreadable_folder)]) == 2
    assert capsys.readouterr().err.startswith("error: ")
