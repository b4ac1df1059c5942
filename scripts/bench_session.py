"""Benchmark the session spine: durable append latency, replay and resume of a 10,000-round
session.

    uv run python scripts/bench_session.py [--runs 5] [--rounds 10000] [--appends 500]

Prints a table of medians over the runs. Targets on the project machine: append p99 <= 5 ms,
replay <= 1 s, resume <= 0.3 s. "replay" folds every event (no cache); "resume" is
``Session.open`` of the log with its checkpoint beside it (session/checkpoint.py): read and
decode the log, check and load the checkpoint, fold the events after it.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

from dealer_assist.session.engine import Session
from dealer_assist.session.log import EventLog
from dealer_assist.session.simulate import greek31_events, greek31_start


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def append_run(folder: Path, appends: int) -> tuple[float, float]:
    """Submit ``appends`` commands to a logged session; p50 and p99 of each durable append (ms)."""
    start = greek31_start()
    session = Session.new(start["game"], start["options"], start["seats"], start["first_dealer"],
                          path=folder / "append.db")
    latencies = []
    for event in islice(greek31_events(10**6, seed=3), appends):
        t0 = time.perf_counter()
        session.submit(event)
        latencies.append((time.perf_counter() - t0) * 1000)
    session.close()
    return percentile(latencies, 50), percentile(latencies, 99)


def make_log(path: Path, rounds: int) -> int:
    log = EventLog(path, durable=False)
    events = [greek31_start(), *greek31_events(rounds, seed=11)]
    log.append_many(events)
    log.close()
    return len(events)


def replay_run(path: Path) -> tuple[float, float, int]:
    """Seconds to reopen the log (read + fold) and, of that, to read and decode it."""
    t0 = time.perf_counter()
    events = EventLog(path).events()
    t1 = time.perf_counter()
    session = Session.from_events(events)
    t2 = time.perf_counter()
    return t2 - t0, t1 - t0, len(session.rounds)


def resume_run(path: Path) -> tuple[float, int]:
    """Seconds to reopen the log with a valid checkpoint beside it."""
    t0 = time.perf_counter()
    session = Session.open(path)
    elapsed = time.perf_counter() - t0
    rounds = len(session.rounds)
    session.log.close()  # not close(): nothing new to cache
    return elapsed, rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--appends", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        os.environ["DEALER_ASSIST_DATA"] = str(folder / "data")  # the checkpoint key
        p50s, p99s = [], []
        for run in range(args.runs):
            run_dir = folder / f"run{run}"
            run_dir.mkdir()
            p50, p99 = append_run(run_dir, args.appends)
            p50s.append(p50)
            p99s.append(p99)
        log_path = folder / "replay.db"
        events = make_log(log_path, args.rounds)
        totals, reads = [], []
        for _ in range(args.runs):
            total, read, rounds = replay_run(log_path)
            assert rounds == args.rounds
            totals.append(total)
            reads.append(read)
        Session.open(log_path).close()  # first open: full replay, writes the checkpoint
        resumes = []
        for _ in range(args.runs):
            elapsed, rounds = resume_run(log_path)
            assert rounds == args.rounds
            resumes.append(elapsed)
    med = statistics.median
    rows = [
        ("durable append p50 (ms)", f"{med(p50s):.2f}", "-"),
        ("durable append p99 (ms)", f"{med(p99s):.2f}", "<= 5"),
        (f"replay {args.rounds} rounds, {events} events (s)", f"{med(totals):.3f}", "<= 1"),
        ("  of which read + decode (s)", f"{med(reads):.3f}", "-"),
        ("  of which fold (s)", f"{med(totals) - med(reads):.3f}", "-"),
        (f"resume {args.rounds} rounds from checkpoint (s)", f"{med(resumes):.3f}", "<= 0.3"),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"Python {platform.python_version()} ({os.path.realpath(sys.executable)}); "
          "a PGO/LTO build (Debian's) folds ~15 % faster than a plain one (pyenv's)")
    print(f"median of {args.runs} runs; {args.appends} appends per run")
    print(f"{'measure':<{width}}  {'median':>8}  {'target':>6}")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>8}  {target:>6}")


if __name__ == "__main__":
    main()
