"""The training window: a short drill completed by clicking, results saved and shown."""

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from dealer_assist.gui.training_window import TrainingWindow, open_training
from dealer_assist.training.drills import AMOUNT, CHOICE, ORDER, SEAT
from dealer_assist.training.runner import DrillRun
from dealer_assist.training.store import TrainingStore


class Clock:
    """Each reading is 1 s after the last (the window also reads it for its countdown)."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 1.0
        return self.now


def _click(qtbot, window, name):
    button = window.findChild(QPushButton, name)
    assert button is not None and button.isVisible() and button.isEnabled(), name
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def _click_answer(qtbot, window, q, value):
    """Enter ``value`` the way a trainee would: sign, chips and keypad; or choice buttons."""
    if q.answer_type == AMOUNT:
        if value < 0:
            qtbot.mouseClick(_by_text(window, "− loses"), Qt.MouseButton.LeftButton)
        rest = abs(value)
        if rest >= 10:  # large amounts by chips, small ones on the keypad
            for chip in (100, 25, 10, 5, 1):
                while rest >= chip:
                    _click(qtbot, window, f"chip{chip}")
                    rest -= chip
        else:
            _click(qtbot, window, f"key{rest}")
        _click(qtbot, window, "ok")
    elif q.answer_type == ORDER:
        for seat in value:
            _click(qtbot, window, f"choice_{seat}")
        _click(qtbot, window, "ok")
    else:
        assert q.answer_type in (SEAT, CHOICE)
        _click(qtbot, window, f"choice_{value}")


def _by_text(window, text):
    return next(b for b in window.findChildren(QPushButton) if b.text() == text)


def _wrong(q):
    if q.answer_type == CHOICE:
        return next(v for v, _ in q.choices if v != q.answer)
    if q.answer_type == ORDER:
        return tuple(reversed(q.answer))
    if q.answer_type == SEAT:
        return q.answer % len(q.names) + 1
    return q.answer + 1


def test_short_drill_completed_by_clicking(qtbot, data_dir):
    store = TrainingStore()
    window = TrainingWindow(store=store, clock=Clock())
    qtbot.addWidget(window)
    window.show()
    qtbot.keyClicks(window.drill.new_name, "Maria")
    _click(qtbot, window, "add_trainee")
    assert window.drill.trainee_box.currentText() == "Maria"
    window.drill.level_box.setCurrentIndex(window.drill.level_box.findData("practice"))
    window.drill.count_box.setValue(4)
    window.drill.seed_box.setValue(11)
    # the same seed in a run of its own: what the engine will ask and answer
    preview = DrillRun("greek31", "practice", count=4, seed=11)
    expected = []
    while (q := preview.next_question()) is not None:
        expected.append(q)
        preview.answer(q.answer)
    _click(qtbot, window, "start")
    for i, q in enumerate(expected):
        shown = window.drill.run.current
        assert (shown.kind, shown.prompt, shown.answer) == (q.kind, q.prompt, q.answer)
        value = q.answer if i != 1 else _wrong(q)  # the second one answered wrong on purpose
        _click_answer(qtbot, window, q, value)
        feedback = window.drill.feedback.text()
        assert ("Right" in feedback) == (i != 1)
        assert q.answer_text() in feedback
        _click(qtbot, window, "next")
    assert window.drill.stack.currentIndex() == 0  # back to the setup page with the summary
    assert "3/4 right" in window.drill.summary.text()
    saved = store.attempts("Maria")
    assert [a.correct for a in saved] == [True, False, True, True]
    assert [a.kind for a in saved] == [q.kind for q in expected]
    assert all(a.seconds > 0 for a in saved)  # answer times come from the injected clock
    assert "4 answers, 75% right" in window.progress.summary.text()
    overview = window.overview.table
    assert overview.item(0, 0).text() == "Maria" and overview.item(0, 1).text() == "4"


def test_keyboard_entry(qtbot, data_dir):
    window = TrainingWindow(store=TrainingStore(), clock=Clock())
    qtbot.addWidget(window)
    window.show()
    window.drill.kind_box.setCurrentIndex(window.drill.kind_box.findData("payout"))
    window.drill.count_box.setValue(1)
    window.drill.seed_box.setValue(2)
    _click(qtbot, window, "start")
    q = window.drill.run.current
    keys = ("-" if q.answer < 0 else "") + "9" + "\b" + str(abs(q.answer))
    for ch in keys:
        if ch == "\b":
            qtbot.keyClick(window, Qt.Key.Key_Backspace)
        else:
            qtbot.keyClicks(window, ch)
    assert window.drill.pad.value() == q.answer
    qtbot.keyClick(window, Qt.Key.Key_Return)
    assert "Right" in window.drill.feedback.text()
    qtbot.keyClick(window, Qt.Key.Key_Return)  # Enter again: next (here: the results)
    assert "1/1 right" in window.drill.summary.text()
    assert "guest" in window.drill.trainee_box.currentText()


def test_open_training(qtbot, data_dir):
    window = open_training(None)
    qtbot.addWidget(window)
    assert window.isVisible() and window.windowTitle() == "Dealer training"
