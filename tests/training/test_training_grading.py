"""Grading bands, streaks, weak spots and the drill run's timing by an injected clock."""

import pytest

from dealer_assist.errors import RuleError
from dealer_assist.training.grading import Attempt, grade, streaks, summarize, weak_spots
from dealer_assist.training.levels import get_level
from dealer_assist.training.runner import DrillRun


def att(kind="payout", correct=True, seconds=5.0, level="practice"):
    return Attempt("greek31", kind, level, 0, correct, seconds)


@pytest.mark.parametrize(("accuracy", "median", "level", "expected"), [
    (1.0, 20.0, "practice", "A"),  # target 20 s
    (0.95, 20.0, "practice", "A"),
    (0.95, 20.5, "practice", "B"),  # too slow for A: within 1.5 x target
    (0.94, 10.0, "practice", "B"),
    (0.85, 30.0, "practice", "B"),
    (0.85, 30.5, "practice", "C"),
    (0.70, 40.0, "practice", "C"),
    (0.70, 41.0, "practice", "D"),  # slower than 2 x target: D whatever the accuracy
    (1.0, 41.0, "practice", "D"),
    (0.50, 1.0, "practice", "D"),
    (0.49, 1.0, "practice", "F"),
    (0.95, 10.0, "table_ready", "A"),  # target 10 s
    (0.95, 10.1, "table_ready", "B"),
    (0.95, 500.0, "learning", "A"),  # untimed: accuracy only
    (0.84, 500.0, "learning", "C"),
])
def test_bands(accuracy, median, level, expected):
    assert grade(accuracy, median, level, 20) == expected


def test_too_few_attempts_have_no_grade():
    assert grade(1.0, 1.0, "practice", 4) == "—"
    assert summarize([att()] * 4, "practice").grade == "—"
    assert summarize([att()] * 5, "practice").grade == "A"


def test_streaks():
    assert streaks([]) == (0, 0)
    assert streaks([True, True, False, True]) == (1, 2)
    assert streaks([False, True, True, True]) == (3, 3)


def test_weak_spots_by_question_type():
    attempts = ([att("payout", True)] * 4 + [att("next_dealer", False)] * 2
                + [att("next_dealer", True)] + [att("legal_entry", False)] * 2)
    # next_dealer: 1 of 3 right; legal_entry: only 2 tries, not enough to call it
    assert weak_spots(attempts) == ("next_dealer",)
    s = summarize(attempts, "practice")
    assert (s.count, s.correct, s.streak, s.best_streak) == (9, 5, 0, 4)
    assert {k.kind: (k.count, k.correct) for k in s.kinds} == {
        "payout": (4, 4), "next_dealer": (3, 1), "legal_entry": (2, 0)}


class Clock:
    def __init__(self, steps):
        self.steps, self.now = list(steps), 0.0

    def __call__(self):
        if self.steps:
            self.now += self.steps.pop(0)
        return self.now


def test_run_records_answer_times_from_the_clock_and_marks_late_answers():
    # question asked at t=0+0, answered 12 s later; then asked, answered 45 s later (limit 30)
    run = DrillRun("greek31", "table_ready", count=2, seed=3, clock=Clock([0, 12, 0, 45]))
    q = run.next_question()
    fb = run.answer(q.answer)
    assert fb.correct and fb.seconds == 12
    q = run.next_question()
    fb = run.answer(q.answer)
    assert fb.right and fb.late and not fb.correct
    assert run.done and run.next_question() is None
    assert [a.seconds for a in run.attempts] == [12, 45]
    assert [a.correct for a in run.attempts] == [True, False]


def test_learning_is_untimed_and_a_wrong_answer_is_wrong():
    run = DrillRun("greek31", "learning", count=2, seed=1, clock=Clock([0, 999]))
    q = run.next_question()
    assert run.answer(q.answer).correct  # no time limit
    q = run.next_question()
    wrong = "accept" if q.answer == "refuse" else (
        tuple(reversed(q.answer)) if isinstance(q.answer, tuple) else q.answer + 1)
    fb = run.answer(wrong)
    assert not fb.correct and fb.expected == q.answer_text()


def test_table_ready_injects_irregularities_and_practice_does_not():
    kinds = {q.kind for q in _questions("table_ready", 20)}
    assert "legal_entry" in kinds
    assert "legal_entry" not in {q.kind for q in _questions("practice", 20)}
    assert get_level("table-ready").irregular_share > 0 == get_level("practice").irregular_share


def _questions(level, count):
    run = DrillRun("greek31", level, count=count, seed=5, clock=Clock([]))
    out = []
    while (q := run.next_question()) is not None:
        out.append(q)
        run.answer(q.answer)
    return out


def test_unknown_level_or_kind_is_refused():
    with pytest.raises(RuleError):
        get_level("expert")
    with pytest.raises(RuleError):
        DrillRun("greek31", "learning", kinds=["payouts"])
