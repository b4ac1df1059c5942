"""A/B the full fold (no checkpoint) of a long Greek 31 session between two checkouts.

    git archive BASE dealer_assist | tar -x -C /tmp/a      # any folder holding dealer_assist/
    uv run python scripts/bench_fold_ab.py /tmp/a . [--runs 7] [--rounds 10000]

Both copies are imported into one process (each keeps its own modules) and fold the same
decoded events in turn, ``--runs`` times, so machine load hits both alike. Prints the minimum
and median seconds of ``Session.from_events`` per copy, and checks that both reach the same
rounds and final state.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import statistics
import sys
import time
from types import ModuleType

PACKAGE = "dealer_assist"


def _drop() -> None:
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def load(folder: str) -> dict[str, ModuleType]:
    """Import the copy of the package in ``folder``; return its modules."""
    _drop()
    sys.path.insert(0, folder)
    try:
        for name in ("session.engine", "session.simulate", "variants.greek31"):
            importlib.import_module(f"{PACKAGE}.{name}")
    finally:
        sys.path.remove(folder)
    return {m: v for m, v in sys.modules.items() if m.startswith(PACKAGE)}


def use(modules: dict[str, ModuleType]) -> ModuleType:
    """Make ``modules`` the imported package (variants are looked up by name at fold time)."""
    _drop()
    sys.modules.update(modules)
    return modules[f"{PACKAGE}.session.engine"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs=2, help="two folders, each holding dealer_assist/")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=10_000)
    args = parser.parse_args()
    copies = {folder: load(folder) for folder in args.folders}
    use(copies[args.folders[0]])
    simulate = copies[args.folders[0]][f"{PACKAGE}.session.simulate"]
    text = json.dumps([simulate.greek31_start(), *simulate.greek31_events(args.rounds, seed=11)])
    times: dict[str, list[float]] = {folder: [] for folder in args.folders}
    outcome: dict[str, str] = {}
    for _ in range(args.runs):
        for folder in args.folders:
            engine = use(copies[folder])
            events = json.loads(text)
            gc.collect()
            t0 = time.perf_counter()
            session = engine.Session.from_events(events)
            times[folder].append(time.perf_counter() - t0)
            outcome[folder] = repr((session.rounds, session.state))
            del session
            gc.unfreeze()  # from_events freezes what it loaded
            gc.collect()
    print(f"full fold of {args.rounds} rounds ({len(events)} events), {args.runs} runs each")
    print(f"{'copy':<40}  {'min (s)':>8}  {'median (s)':>10}")
    for folder in args.folders:
        runs = times[folder]
        print(f"{folder:<40}  {min(runs):>8.3f}  {statistics.median(runs):>10.3f}")
    same = len(set(outcome.values())) == 1
    print("same rounds and final state:", "yes" if same else "NO")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
