"""Run a reader's rule sets with ``bench_vision.py`` and tabulate them (issue 16's rules).

    uv run python scripts/vision_rule_sets.py run OUT NAME [--sets choice heldout small oblique]
        [--seeds S ...] [--heldout-seeds S ...] [-- BENCH OPTIONS]
    uv run python scripts/vision_rule_sets.py table OUT

``run`` writes one ``bench_vision.py --synthetic ... --runs 1 --json`` result per set and seed
into ``OUT/NAME__SET__SEED.json``; the bench options after ``--`` name the candidate
(``--first-model F``, ``--detector-model F``, ...; none for the shipped reader). A result already
there is kept, so a stopped run goes on where it stopped; each is written whole or not at all.
The sets, per seed:

* ``choice`` (the training designs, for choosing): 160 scenes, the same 160 blurred, 80 fans;
* ``small``: the 160 training scenes at 640 px (``--perturb small``);
* ``heldout`` (reported, never chosen on): 80 held-out scenes and 40 fans per held-out seed;
* ``oblique`` (a steep camera, 45-55 degrees, fifty-eighth step): 80 training-design scenes per
  seed (a set to choose on) and 80 held-out-design scenes per held-out seed (reported);
* ``confirm`` (rule AM's confirmation of a pick, on seeds never used before, ``--seeds``): 240
  training scenes, 240 held-out scenes and 120 fans, each in daylight, warm light and blurred.
* ``confirm-fans``: the ``confirm`` group's three sets of fans alone (the same files: another
  reader's fans on a confirmation's seeds, or more seeds of fans).

``table`` prints, per reader name, cards read right · wrong in each set pooled over its seeds,
the choice sets pooled, and the held-out sets per seed; where every result of a cell counts the
partly covered cards (``partly_covered``, since the sixty-first step), also "(read/cards
partly)". Choose on the training designs only (``bench_vision.py``'s rule). ``confirm OUT
SHIPPED CANDIDATE`` judges the candidate's ``confirm`` results against the shipped reader's,
seed by seed (``compare_readers.py``, rule AM). Exit 0: done (``confirm``: passed); 1: a bench
run failed (``confirm``: the candidate failed); 2: a file in OUT that is not a result, a name
that cannot be one, or (``confirm``) a set one of the two readers lacks.

    uv run python scripts/vision_rule_sets.py confirm OUT SHIPPED CANDIDATE
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealer_assist.errors import EXIT_OK, EXIT_REFUSED, EXIT_UNREADABLE
from scripts.compare_readers import load_result, paired_runs, verdict

BENCH = Path(__file__).with_name("bench_vision.py")
CHOICE_SEEDS = (20261437, 20261439, 20261441)  # rule CS's (forty-first step), spent since
HELDOUT_SEEDS = (20261124, 20261443)  # the benchmark's, and one more
# set name -> (bench arguments, whether it uses the held-out seeds)
SETS: dict[str, tuple[list[str], bool]] = {
    "daylight": (["--synthetic", "training", "--scenes", "160"], False),
    "blur": (["--synthetic", "training", "--scenes", "160", "--perturb", "blur"], False),
    "fans": (["--synthetic", "training-fans", "--scenes", "80"], False),
    "small": (["--synthetic", "training", "--scenes", "160", "--perturb", "small"], False),
    "heldout": (["--synthetic", "heldout", "--scenes", "80"], True),
    "heldout-fans": (["--synthetic", "fans", "--scenes", "40"], True),
    "oblique": (["--synthetic", "training-oblique", "--scenes", "80"], False),
    "heldout-oblique": (["--synthetic", "oblique", "--scenes", "80"], True),
}
# rule AM's confirmation (compare_readers.py): each kind of scene at this size in three lights
CONFIRM_SCENES = {"training": 240, "heldout": 240, "fans": 120}
CONFIRM_LIGHTS = (None, "warm", "blur")  # no --perturb, then these


def confirm_sets() -> dict[str, tuple[list[str], bool]]:
    """The ``confirm`` group's sets, named ``confirm-KIND`` or ``confirm-KIND-LIGHT``."""
    sets = {}
    for kind, scenes in CONFIRM_SCENES.items():
        for light in CONFIRM_LIGHTS:
            perturb = ["--perturb", light] if light else []
            name = f"confirm-{kind}-{light}" if light else f"confirm-{kind}"
            sets[name] = (["--synthetic", kind, "--scenes", str(scenes), *perturb], False)
    return sets


CONFIRM_SETS = confirm_sets()
SETS.update(CONFIRM_SETS)
GROUPS = {"choice": ("daylight", "blur", "fans"), "small": ("small",),
          "heldout": ("heldout", "heldout-fans"), "oblique": ("oblique", "heldout-oblique"),
          "confirm": tuple(CONFIRM_SETS),
          "confirm-fans": tuple(s for s in CONFIRM_SETS if s.startswith("confirm-fans"))}
POOLED = GROUPS["choice"]


def planned(sets: list[str], seeds: list[int], heldout_seeds: list[int]
            ) -> list[tuple[str, int, list[str]]]:
    """(set, seed, bench arguments) of every run the groups ``sets`` ask for."""
    runs = []
    for group in sets:
        for name in GROUPS[group]:
            args, heldout = SETS[name]
            for seed in heldout_seeds if heldout else seeds:
                runs.append((name, seed, [*args, "--seed", str(seed), "--runs", "1", "--json"]))
    return runs


def bench(args: list[str]) -> subprocess.CompletedProcess:
    """One ``bench_vision.py`` run in a process of its own."""
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True)


def run(out: Path, name: str, sets: list[str], seeds: list[int], heldout_seeds: list[int],
        options: list[str]) -> int:
    if not name or "__" in name or "/" in name:
        print(f"error: {name!r} cannot name a reader (no '__' or '/')", file=sys.stderr)
        return EXIT_UNREADABLE
    out.mkdir(parents=True, exist_ok=True)
    for set_name, seed, args in planned(sets, seeds, heldout_seeds):
        path = out / f"{name}__{set_name}__{seed}.json"
        if path.exists():
            continue
        done = bench([*args, *options])
        if done.returncode != 0:
            print(f"error: {set_name} seed {seed} failed (exit {done.returncode}): "
                  f"{done.stderr.strip()[-400:]}", file=sys.stderr)
            return EXIT_REFUSED
        tmp = path.with_suffix(".tmp")
        tmp.write_text(done.stdout)
        tmp.replace(path)
        print(f"{path.name}: done", flush=True)
    return EXIT_OK


class Tally(NamedTuple):
    """One result's cards read right and wrong, and its partly covered cards read and in all
    (None in a result from before the benchmark counted them)."""

    right: int
    wrong: int
    partly_read: int | None = None
    partly_cards: int | None = None


Found = dict[str, dict[str, dict[int, Tally]]]


def tallies(out: Path) -> Found:
    """Per reader, per set, per seed: its :class:`Tally`; ValueError for a file that is no
    result."""
    found: Found = defaultdict(lambda: defaultdict(dict))
    for path in sorted(out.glob("*__*__*.json")):
        parts = path.stem.split("__")
        if len(parts) != 3 or parts[1] not in SETS or not parts[2].isdigit():
            raise ValueError(f"{path}: not named as this script names its results "
                             f"(NAME__SET__SEED.json)")
        name, set_name, seed = parts
        result = load_result(path)
        partly = result.get("partly_covered") or {}
        found[name][set_name][int(seed)] = Tally(result["read_right"], result["read_wrong"],
                                                 partly.get("read"), partly.get("cards"))
    return found


def cell(counts: list[Tally]) -> str:
    """Right · wrong summed, then the partly covered cards read of all if every result counts
    them; a dash for no results."""
    if not counts:
        return "—"
    text = f"{sum(t.right for t in counts)} · {sum(t.wrong for t in counts)}"
    if all(t.partly_cards is not None for t in counts):
        text += (f" ({sum(t.partly_read or 0 for t in counts)}/"
                 f"{sum(t.partly_cards or 0 for t in counts)} partly)")
    return text


def table(found: Found) -> str:
    """The markdown table of :func:`tallies`: a column per reader."""
    names = sorted(found)

    def counts(name: str, sets: tuple[str, ...], seed: int | None = None) -> list:
        by_set = [found[name].get(s, {}) for s in sets]
        return [v for by_seed in by_set for k, v in by_seed.items() if seed in (None, k)]

    rows = [[s, *(cell(counts(n, (s,))) for n in names)] for s, (_a, held) in SETS.items()
            if not held and any(found[n].get(s) for n in names)]
    if any(found[n].get(s) for n in names for s in POOLED):
        rows.append(["choice, pooled", *(cell(counts(n, POOLED)) if all(
            found[n].get(s) for s in POOLED) else "—" for n in names)])
    for s in (s for s, (_a, held) in SETS.items() if held):
        seeds = sorted({seed for n in names for seed in found[n].get(s, {})})
        rows += [[f"{s} {seed}", *(cell(counts(n, (s,), seed)) for n in names)]
                 for seed in seeds]
    lines = ["| set | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def confirm_files(out: Path, shipped: str, candidate: str) -> tuple[list[Path], list[Path]]:
    """The two readers' ``confirm`` results in OUT, paired set by set and seed by seed;
    ValueError if there are none, one reader lacks a set of a seed the other has, or a file in
    OUT is no result (:func:`tallies`)."""
    found = tallies(out)
    seeds = sorted({seed for name in (shipped, candidate) for s in GROUPS["confirm"]
                    for seed in found.get(name, {}).get(s, {})})
    if not seeds:
        raise ValueError(f"no confirm results of {shipped} or {candidate} in {out}")
    pairs = [tuple(out / f"{name}__{s}__{seed}.json" for name in (shipped, candidate))
             for seed in seeds for s in GROUPS["confirm"]]
    missing = [p.name for pair in pairs for p in pair if not p.exists()]
    if missing:
        raise ValueError(f"missing in {out}: {', '.join(missing)}")
    return [a for a, _ in pairs], [b for _, b in pairs]


def confirm(out: Path, shipped: str, candidate: str) -> int:
    try:
        pairs = paired_runs(*confirm_files(out, shipped, candidate))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    passed, lines = verdict(pairs)
    print("\n".join(lines))
    print(f"{candidate} passes" if passed else f"{candidate} fails")
    return EXIT_OK if passed else EXIT_REFUSED


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run", help="run a reader's sets")
    p_run.add_argument("out", type=Path)
    p_run.add_argument("name")
    p_run.add_argument("--sets", nargs="+", choices=sorted(GROUPS), default=["choice"])
    p_run.add_argument("--seeds", nargs="+", type=int, default=list(CHOICE_SEEDS))
    p_run.add_argument("--heldout-seeds", nargs="+", type=int, default=list(HELDOUT_SEEDS))
    p_table = sub.add_parser("table", help="tabulate the results in OUT")
    p_table.add_argument("out", type=Path)
    p_confirm = sub.add_parser("confirm", help="judge a candidate by rule AM")
    p_confirm.add_argument("out", type=Path)
    p_confirm.add_argument("shipped")
    p_confirm.add_argument("candidate")
    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)  # then the bench's own options
    args = parser.parse_args(argv[:cut])
    if args.command == "run":
        return run(args.out, args.name, args.sets, args.seeds, args.heldout_seeds,
                   argv[cut + 1:])
    if args.command == "confirm":
        return confirm(args.out, args.shipped, args.candidate)
    try:
        found = tallies(args.out)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    if not found:
        print(f"error: no results in {args.out}", file=sys.stderr)
        return EXIT_UNREADABLE
    print(table(found))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
