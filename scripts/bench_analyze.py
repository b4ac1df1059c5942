"""Benchmark of ``dealer-assist analyze 31-classic``: the whole analysis for one choice of pay
tables, from a cold cache (every deal re-counted) to the finished text with the strategy card.

Target: at most 1 s per choice of pay tables. Usage: ``uv run python scripts/bench_analyze.py
[--runs N] [--cli]``; prints the median (and min, max) wall-clock time of N runs per row as a
table, and the median CPU time of this process (the CLI row: of the parent only, so ~0).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from dealer_assist.analysis import classic31
from dealer_assist.analysis.cli import to_json, to_text

TABLES = [(1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 1, 2), (5, 2, 3)]


def whole_analysis(play: int, natural: int, royal: int) -> None:
    classic31.count_deals.cache_clear()
    analysis = classic31.analyze(play, natural, royal)
    to_text(analysis)
    to_json(analysis)


def timed(fn, runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of each run (CPU time is what this process itself used)."""
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--cli", action="store_true",
                        help="also time the command end to end (interpreter start included)")
    args = parser.parse_args()
    rows = []
    for tables in TABLES:
        rows.append((f"analysis, tables {tables} (cold)",
                     timed(lambda t=tables: whole_analysis(*t), args.runs)))
    classic31.analyze()
    rows.append(("analysis, tables (1, 1, 1) (deals cached)",
                 timed(lambda: to_text(classic31.analyze(1, 1, 1)), args.runs)))
    if args.cli:
        command = [sys.executable, "-m", "dealer_assist.cli", "analyze", "31-classic", "--json"]
        rows.append(("CLI end to end: analyze 31-classic --json",
                     timed(lambda: subprocess.run(command, check=True, capture_output=True),
                           args.runs)))
    print(f"cpus: {os.cpu_count()}, load average: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}, runs per row: {args.runs}")
    print(f"| {'what':<45} | {'median s':>8} | {'min s':>7} | {'max s':>7} | "
          f"{'CPU median s':>12} |")
    print(f"|{'-' * 47}|{'-' * 10}|{'-' * 9}|{'-' * 9}|{'-' * 14}|")
    for what, (wall, cpu) in rows:
        print(f"| {what:<45} | {statistics.median(wall):>8.3f} | {min(wall):>7.3f} | "
              f"{max(wall):>7.3f} | {statistics.median(cpu):>12.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
