"""Trainees and results saved in SQLite and read back."""

import pytest

from dealer_assist.errors import RuleError
from dealer_assist.training.grading import Attempt
from dealer_assist.training.store import TrainingStore


def test_results_saved_and_reloaded(data_dir):
    store = TrainingStore()
    assert store.path == data_dir / "training.db"
    store.add_trainee("Maria")
    store.add_trainee("Jon")
    attempts = [Attempt("greek31", "payout", "practice", 7, True, 4.5, "+5", "+5"),
                Attempt("greek31", "next_dealer", "practice", 8, False, 31.0, "1. Ann",
                        "4. Dora", late=True)]
    store.record("maria", attempts)  # names match without regard to case
    store.close()

    again = TrainingStore()
    assert again.trainees() == ["Jon", "Maria"]
    loaded = again.attempts("Maria")
    assert [(a.kind, a.seed, a.correct, a.seconds, a.given, a.expected, a.late)
            for a in loaded] == [("payout", 7, True, 4.5, "+5", "+5", False),
                                 ("next_dealer", 8, False, 31.0, "1. Ann", "4. Dora", True)]
    assert all(a.at for a in loaded)
    assert again.attempts("Jon") == []


def test_progress_and_overview(data_dir):
    store = TrainingStore()
    store.add_trainee("Maria")
    store.add_trainee("Jon")
    store.record("Maria", [Attempt("greek31", "payout", "practice", i, True, 5.0)
                           for i in range(6)])
    store.record("Maria", [Attempt("greek31", "legal_entry", "table_ready", i, i % 2 == 0, 9.0)
                           for i in range(4)])
    p = store.progress("Maria")
    assert set(p.levels) == {"practice", "table_ready"}
    assert p.levels["practice"].grade == "A"
    assert p.levels["table_ready"].grade == "—"  # 4 attempts: too few to grade
    assert p.overall.weak_spots == ("legal_entry",)
    rows = {r.name: r for r in store.overview()}
    assert rows["Maria"].attempts == 10 and rows["Maria"].accuracy == 0.8
    assert (rows["Maria"].best_level, rows["Maria"].grade) == ("practice", "A")
    assert rows["Jon"].attempts == 0 and rows["Jon"].grade == "—"


def test_trainee_names_are_checked(data_dir):
    store = TrainingStore()
    store.add_trainee("Maria")
    with pytest.raises(RuleError):
        store.add_trainee("maria ")
    with pytest.raises(RuleError):
        store.add_trainee("  ")
    with pytest.raises(RuleError):
        store.record("Nobody", [])
