"""``dealer-assist train``: drills in a terminal, trainees, progress and the trainer's overview.

    dealer-assist train drill --game greek31 --level learning --seed 1 [--trainee Maria]
    dealer-assist train add Maria
    dealer-assist train progress Maria
    dealer-assist train overview
    dealer-assist train kinds [--game greek31]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from dealer_assist.errors import RuleError
from dealer_assist.training.drills import (
    AMOUNT,
    CHOICE,
    KINDS,
    ORDER,
    Question,
    drill_games,
    kinds_for,
    parse_answer,
)
from dealer_assist.training.levels import LEVELS
from dealer_assist.training.render import table_lines
from dealer_assist.training.runner import DrillRun
from dealer_assist.training.store import Progress, TrainingStore


def add_arguments(parser: argparse.ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="train_command", metavar="ACTION")
    drill = subs.add_parser("drill", help="answer a series of drill questions")
    drill.add_argument("--game", default="greek31", help="game (default greek31)")
    drill.add_argument("--level", default="learning", help=f"one of {', '.join(LEVELS)}")
    drill.add_argument("--seed", type=int, default=None, help="same seed, same questions")
    drill.add_argument("--count", type=int, default=10, help="questions (default 10)")
    drill.add_argument("--kind", action="append", help="only this drill (repeatable)")
    drill.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="a game option for the simulated table (JSON value)")
    drill.add_argument("--trainee", help="save the results for this trainee")
    add = subs.add_parser("add", help="add a trainee")
    add.add_argument("name")
    progress = subs.add_parser("progress", help="a trainee's results")
    progress.add_argument("name")
    subs.add_parser("overview", help="every trainee at a glance (for the trainer)")
    kinds = subs.add_parser("kinds", help="the drills of each game")
    kinds.add_argument("--game")


def _options(pairs: list[str]) -> dict[str, Any]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise RuleError(f"--option {pair!r}: expected NAME=VALUE")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    return options


def _answer_help(q: Question) -> list[str]:
    if q.answer_type == AMOUNT:
        return ["Answer with a signed amount, e.g. +5, -3 or 0."]
    lines = [f"  {v if q.answer_type != CHOICE else i}) {label}"
             for i, (v, label) in enumerate(q.choices, start=1)]
    if q.answer_type == ORDER:
        lines.append("Answer with the seat numbers in order, e.g. 4 3 2 1.")
    return lines


def drill(args: argparse.Namespace, ask: Callable[[str], str], out: TextIO,
          clock: Callable[[], float] = time.monotonic) -> int:
    seed = args.seed if args.seed is not None else int(time.time()) % 100000
    run = DrillRun(args.game, args.level, args.count, seed, args.kind, _options(args.option),
                   clock)
    store = TrainingStore() if args.trainee else None
    if store:
        store.require(args.trainee)
    print(f"{run.level.title} drill, {args.game}, seed {seed}: {run.count} questions "
          f"(q to stop)", file=out)
    while (q := run.next_question()) is not None:
        print(f"\nQuestion {len(run.attempts) + 1} — {KINDS[q.kind].title}", file=out)
        print("\n".join(table_lines(q.table)), file=out)
        print(q.prompt, file=out)
        if run.level.hints and q.hint:
            print(f"Hint: {q.hint} (? shows the answer)", file=out)
        print("\n".join(_answer_help(q)), file=out)
        while True:
            try:
                text = ask("> ")
            except EOFError:
                text = "q"
            if text.strip().lower() in ("q", "quit"):
                return _finish(run, store, args.trainee, out)
            if text.strip() == "?":
                print(f"  Answer: {q.answer_text()}" if run.level.hints else
                      "  answers are shown only at the learning level", file=out)
                continue
            try:
                given = parse_answer(q, text)
                break
            except ValueError as exc:
                print(f"  {exc}", file=out)
        fb = run.answer(given)
        verdict = "Right" if fb.correct else ("Right, but too slow" if fb.right else "Wrong")
        print(f"{verdict} ({fb.seconds:.1f} s). Answer: {fb.expected}", file=out)
        print(fb.explanation, file=out)
    return _finish(run, store, args.trainee, out)


def _finish(run: DrillRun, store: TrainingStore | None, trainee: str | None,
            out: TextIO) -> int:
    s = run.summary()
    print(f"\n{s.correct}/{s.count} right, grade {s.grade}, best streak {s.best_streak}",
          file=out)
    if s.weak_spots:
        print(f"Weak spots: {', '.join(s.weak_spots)}", file=out)
    if store and trainee and run.attempts:
        store.record(trainee, run.attempts)
        print(f"Saved for {trainee}.", file=out)
    return 0


def progress_lines(p: Progress) -> list[str]:
    lines = [f"{p.name}: {p.overall.count} answers, {p.overall.accuracy:.0%} right, "
             f"streak {p.overall.streak} (best {p.overall.best_streak})"]
    for level, s in p.levels.items():
        median = f"{s.median_seconds:.1f} s" if s.median_seconds is not None else "—"
        lines.append(f"  {LEVELS[level].title}: grade {s.grade}, {s.correct}/{s.count} right, "
                     f"median {median}")
    for k in p.overall.kinds:
        lines.append(f"  {KINDS[k.kind].title if k.kind in KINDS else k.kind}: "
                     f"{k.correct}/{k.count} right")
    if p.overall.weak_spots:
        lines.append(f"  weak spots: {', '.join(p.overall.weak_spots)}")
    return lines


def run(args: argparse.Namespace, ask: Callable[[str], str] = input,
        out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        command = args.train_command or "kinds"
        if command == "drill":
            return drill(args, ask, out)
        if command == "kinds":
            for game in [args.game] if getattr(args, "game", None) else drill_games():
                names = ", ".join(f"{k}{' (irregularity)' if KINDS[k].irregular else ''}"
                                  for k in kinds_for(game))
                print(f"{game}: {names}", file=out)
            return 0
        store = TrainingStore()
        if command == "add":
            store.add_trainee(args.name)
            print(f"Added trainee {args.name.strip()}.", file=out)
        elif command == "progress":
            print("\n".join(progress_lines(store.progress(args.name))), file=out)
        elif command == "overview":
            for row in store.overview():
                weak = ", ".join(row.weak_spots) or "—"
                level = f" at {LEVELS[row.best_level].title}" if row.best_level else ""
                print(f"{row.name}: {row.attempts} answers, {row.accuracy:.0%} right, "
                      f"grade {row.grade}{level}, weak spots {weak}", file=out)
        return 0
    except RuleError as exc:
        print(f"dealer-assist train: {exc}", file=sys.stderr)
        return 2
