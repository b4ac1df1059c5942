"""Shared fixtures. Qt runs offscreen: set before any Qt import."""

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_QUICK_BACKEND", "software")

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SCENARIOS = Path(__file__).resolve().parent / "scenarios"


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A fresh user-data folder per test (sessions, calibrated decks, trainees)."""
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("DEALER_ASSIST_DATA", str(folder))
    return folder



@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path_factory, monkeypatch):
    """Every test keeps session keys and other user data in its own folder, never ~/.local
    (the ``data_dir`` fixture, when a test asks for it, replaces this one)."""
    monkeypatch.setenv("DEALER_ASSIST_DATA", str(tmp_path_factory.mktemp("user-data")))


@pytest.fixture(autouse=True)
def _delete_closed_widgets():
    """After each test, really delete the widgets pytest-qt closed with ``deleteLater``.

    Outside a running event loop ``processEvents`` never delivers deferred deletes, so without
    this every window of every earlier test stayed alive, and each app-wide restyle re-polished
    them all (a GUI test took ever longer the later it ran)."""
    yield
    if "PySide6.QtWidgets" not in sys.modules:
        return
    from PySide6.QtCore import QCoreApplication, QEvent

    if QCoreApplication.instance() is not None:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
