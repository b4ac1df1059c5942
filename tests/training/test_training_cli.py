"""``dealer-assist train`` in a terminal: a drill answered from the engine's answers, saved."""

import io

from dealer_assist.cli import build_parser
from dealer_assist.training import cli
from dealer_assist.training.drills import make_question
from dealer_assist.training.runner import DrillRun
from dealer_assist.training.store import TrainingStore


def _args(*argv):
    return build_parser("train").parse_args(["train", *argv])


def test_drill_in_a_terminal_saves_results(data_dir):
    out = io.StringIO()
    assert cli.run(_args("add", "Maria"), out=out) == 0
    # the questions this seed will ask, so the typed answers can be right, wrong, then quit
    preview = DrillRun("greek31", "learning", count=3, seed=4)
    q1 = preview.next_question()
    preview.answer(q1.answer)
    q2 = preview.next_question()
    typed = iter(["?", "nonsense", _typed(q1, q1.answer), _typed(q2, _wrong(q2)), "q"])
    code = cli.run(_args("drill", "--game", "greek31", "--level", "learning", "--seed", "4",
                         "--count", "3", "--trainee", "Maria"),
                   ask=lambda prompt: next(typed), out=out)
    text = out.getvalue()
    assert code == 0
    assert f"Answer: {q1.answer_text()}" in text  # "?" shows the answer at the learning level
    assert "Right" in text and "Wrong" in text and "Saved for Maria." in text
    saved = TrainingStore().attempts("Maria")
    assert [(a.kind, a.correct) for a in saved] == [(q1.kind, True), (q2.kind, False)]
    out = io.StringIO()
    cli.run(_args("progress", "Maria"), out=out)
    assert "2 answers, 50% right" in out.getvalue()
    out = io.StringIO()
    cli.run(_args("overview"), out=out)
    assert out.getvalue().startswith("Maria: 2 answers")


def _typed(q, value):
    if q.answer_type == "order":
        return " ".join(map(str, value))
    if q.answer_type == "choice":
        return str([v for v, _ in q.choices].index(value) + 1)
    return str(value)


def _wrong(q):
    if q.answer_type == "choice":
        return next(v for v, _ in q.choices if v != q.answer)
    if q.answer_type == "order":
        return tuple(reversed(q.answer))
    return q.answer + 1 if q.answer_type == "amount" else (q.answer % len(q.names)) + 1


def test_kinds_and_errors(data_dir, capsys):
    out = io.StringIO()
    assert cli.run(_args("kinds", "--game", "greek31"), out=out) == 0
    assert "legal_entry (irregularity)" in out.getvalue()
    assert cli.run(_args("progress", "Nobody"), out=io.StringIO()) == 2
    assert "no trainee called 'Nobody'" in capsys.readouterr().err
    assert make_question("greek31", "payout", 4).game == "greek31"
