"""``scripts/bench_vision.py DIR``: a folder it cannot read ends in a message and exit 2, not a
traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.errors import EXIT_UNREADABLE

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.bench_vision import main


@pytest.mark.parametrize(("labels", "photo", "says"), [
    (None, False, "labels.csv"),  # no labels file
    ("name,x\na,b\n", False, "columns file, cards"),  # not the labels table
    ("file,cards\nphoto.png,XX\n", True, "labels.csv"),  # not a card code
    ("file,cards\nmissing.png,AS\n", False, "missing.png"),  # a photo that is not there
])
def test_an_unreadable_photo_folder_is_refused_with_a_message(
        tmp_path: Path, capsys, labels: str | None, photo: bool, says: str) -> None:
    if labels is not None:
        (tmp_path / "labels.csv").write_text(labels)
    if photo:
        cv2.imwrite(str(tmp_path / "photo.png"), np.full((40, 40, 3), 200, np.uint8))
    assert main([str(tmp_path), "--runs", "1"]) == EXIT_UNREADABLE
    assert says in capsys.readouterr().err


def test_a_bad_deck_name_is_refused_with_a_message(tmp_path: Path, capsys) -> None:
    (tmp_path / "labels.csv").write_text("file,cards\n")
    assert main([str(tmp_path), "--deck", "../elsewhere"]) == EXIT_UNREADABLE
    assert "deck name" in capsys.readouterr().err


def test_a_readable_folder_is_measured(tmp_path: Path, capsys) -> None:
    cv2.imwrite(str(tmp_path / "felt.png"), np.full((120, 160, 3), (40, 110, 30), np.uint8))
    (tmp_path / "labels.csv").write_text("file,cards\nfelt.png,\n")
    assert main([str(tmp_path), "--runs", "1", "--json"]) == 0
    assert '"images": 1' in capsys.readouterr().out
