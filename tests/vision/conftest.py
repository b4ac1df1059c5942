"""Fixtures for the vision tests (tests/conftest.py sets offscreen Qt and ``data_dir``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dealer_assist.vision.recognizer import Recognizer


@pytest.fixture(scope="session")
def recognizer() -> Recognizer:
    """The shipped models, without the whole-frame extras (barcodes and fans stay on)."""
    return Recognizer()


def codes(proposals) -> list[str]:
    return sorted(p.code for p in proposals if p.code is not None)


@pytest.fixture
def read_codes(recognizer: Recognizer):
    """Read a frame and return the sorted codes of the known cards."""

    def read(frame: np.ndarray) -> list[str]:
        return codes(recognizer.read(frame))

    return read


@pytest.fixture(params=["empty", "broken", "missing"])
def unreadable_folder(request, tmp_path: Path) -> Path:
    """A photo folder a diagnostic over folders must refuse: empty, holding a broken JPEG, or
    not there."""
    folder = tmp_path / "photos"
    if request.param != "missing":
        folder.mkdir()
    if request.param == "broken":
        (folder / "x.jpg").write_bytes(b"not a jpeg")
    return folder
