"""Shared fixtures for the vision tests; Qt runs offscreen (set before Qt loads)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import numpy as np
import pytest

from dealer_assist.vision.recognizer import Recognizer


@pytest.fixture(scope="session")
def recognizer() -> Recognizer:
    """The shipped models, without the whole-frame extras (barcodes and fans stay on)."""
    return Recognizer()


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private user data folder (DEALER_ASSIST_DATA)."""
    folder = tmp_path / "data"
    monkeypatch.setenv("DEALER_ASSIST_DATA", str(folder))
    return folder


def codes(proposals) -> list[str]:
    return sorted(p.code for p in proposals if p.code is not None)


@pytest.fixture
def read_codes(recognizer: Recognizer):
    """Read a frame and return the sorted codes of the known cards."""

    def read(frame: np.ndarray) -> list[str]:
        return codes(recognizer.read(frame))

    return read
