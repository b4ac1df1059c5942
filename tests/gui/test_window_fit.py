"""The training and reconcile windows at 1024×600 and 1920×1080, opened from the table's
window as a dealer would: every enabled button and input is inside the window, whole and at
least 9 mm; no label, tab, button, list item or table cell is cut or elided."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from fit_checks import check_window
from gui_driver import window_fixture  # noqa: F401
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton

from dealer_assist.gui.reconcile import open_reconcile
from dealer_assist.gui.training_window import open_training
from dealer_assist.training.drills import AMOUNT, ORDER, drill_games, kinds_for
from dealer_assist.training.levels import LEVELS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reports"))
from report_sessions import greek_session, second_session

SIZES = ((1024, 600), (1920, 1080))


def opened(window, size, opener):
    """The main window at ``size`` (its type size follows), the tool window at ``size`` too."""
    window.resize(*size)
    QApplication.processEvents()
    tool = opener()
    tool.resize(*size)
    QApplication.processEvents()
    return tool


def click(qtbot, button: QPushButton) -> None:
    assert button is not None and button.isVisible() and button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def answer(qtbot, training, question) -> None:
    """The right answer, by taps on the pad."""
    pad = training.drill.pad
    if question.answer_type == AMOUNT:
        if question.answer < 0:
            click(qtbot, next(b for b in pad.findChildren(QPushButton) if b.text() == "− loses"))
        for digit in str(abs(question.answer)):
            click(qtbot, pad.findChild(QPushButton, f"key{digit}"))
        click(qtbot, pad.ok)
    elif question.answer_type == ORDER:
        for seat in question.answer:
            click(qtbot, pad.findChild(QPushButton, f"choice_{seat}"))
        check_window(training)  # the order being built, with Clear and ⌫
        click(qtbot, pad.ok)
    else:
        click(qtbot, pad.findChild(QPushButton, f"choice_{question.answer}"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", drill_games())
def test_training_fits(qtbot, window, game, size):
    training = opened(window, size, lambda: open_training(window))
    qtbot.addWidget(training)
    drill = training.drill
    check_window(training)  # the setup page
    qtbot.keyClicks(drill.new_name, "Maria")
    click(qtbot, training.findChild(QPushButton, "add_trainee"))
    drill.game_box.setCurrentIndex(drill.game_box.findData(game))
    drill.count_box.setValue(1)
    for n, kind in enumerate(kinds_for(game)):
        drill.kind_box.setCurrentIndex(drill.kind_box.findData(kind))
        level = tuple(LEVELS)[n % len(LEVELS)]  # hints on some, a clock on others
        drill.level_box.setCurrentIndex(drill.level_box.findData(level))
        drill.seed_box.setValue(7 + n)
        click(qtbot, training.findChild(QPushButton, "start"))
        question = drill.run.current
        check_window(training)  # the question
        if drill.reveal.isVisible():
            click(qtbot, drill.reveal)
            check_window(training)  # the answer shown as a hint
        answer(qtbot, training, question)
        assert "Right" in drill.feedback.text(), (kind, drill.feedback.text())
        check_window(training)  # the verdict and its explanation
        click(qtbot, training.findChild(QPushButton, "next"))
        assert "grade" in drill.summary.text()
        check_window(training)  # the setup page with the grade
    for tab in (1, 2):  # progress, trainer overview
        training.tabs.setCurrentIndex(tab)
        check_window(training)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_reconcile_fits(qtbot, window, tmp_path, size):
    logs = [greek_session(tmp_path / "friday-table1.db"),
            second_session(tmp_path / "friday-table2.db")]
    reconcile = opened(window, size, lambda: open_reconcile(window, logs))
    assert reconcile.tabs.count() == 3  # two logs and all tables
    for tab in range(reconcile.tabs.count()):
        reconcile.tabs.setCurrentIndex(tab)
        check_window(reconcile)
