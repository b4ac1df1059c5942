"""Confirm a candidate card reader against the shipped one (issue 16, rule AM's criterion).

    uv run python scripts/compare_readers.py --shipped S1.json S2.json ... \\
                                             --candidate C1.json C2.json ...

Each file is one ``bench_vision.py ... --json`` result; the two lists pair up by position, and
each pair must be the same run read by the two readers (the same mode and perturbation, images,
cards, and for ``--synthetic`` the same seed and scenes). Pooled over all pairs, the candidate:

(a) reads more cards than the shipped reader, and under each light (``--perturb`` mode, or none)
    at least ``LIGHT_SHARE`` of its cards;
(b) keeps a precision of at least ``PRECISION_FLOOR`` (the issue's target) on each kind of scene
    (``synthetic training``, ``synthetic heldout``, ...), or, on a kind where the shipped reader
    is under that floor too, shows no significant loss against it there ((c)'s test on that
    kind alone; rule FC, sixty-fifth step: the shipped reader itself was under the floor on one
    kind or another on three of four pairs of fresh seeds, so the floor alone mostly measured
    which seeds were drawn);
(c) shows no significant loss of precision, over everything and on the held-out designs alone:
    given both readers' wrong readings, the candidate's share of them is tested against its share
    of the cards read (one-sided exact binomial test), and must give p ≥ ``ALPHA``.

Why precision and not a count of wrong readings: a reader that reads k % more cards at the same
precision makes about k % more wrong readings, so "no more wrong" turns it down more often than
not (docs/vision-results.md, *Results, twenty-third step*). (c) is a weak guard with a few dozen
wrong readings; (b) is the floor. Confirm on scenes never used for choosing (two fresh seeds of 240
training, 240 held-out and 120 fan scenes, each under no perturbation, ``warm`` and ``blur``).

Also printed, not judged: the cards read counting the partly covered ones too (a fan's or a
pile's, ``partly_covered``, since the sixty-first step), where every result counts them.

Prints a table and the verdict. Exit 0: passed; 1: failed; 2: a file unreadable, not a
``bench_vision.py`` result, or pairs that are not the same run.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealer_assist.errors import EXIT_OK, EXIT_REFUSED, EXIT_UNREADABLE

LIGHT_SHARE = 0.99
PRECISION_FLOOR = 0.995
ALPHA = 0.05
SAME_RUN = ("mode", "images", "cards", "seed", "scenes")  # what a pair must share


@dataclass(frozen=True)
class Run:
    """One benchmark run: which scenes, and the cards read right and wrong."""

    kind: str  # the mode without the perturbation, e.g. "synthetic heldout (index)"
    light: str  # the --perturb mode, or "none"
    right: int
    wrong: int
    partly: int | None = None  # partly covered cards read (None: the result does not count them)


@dataclass(frozen=True)
class Tally:
    """Cards read right and wrong, pooled over runs."""

    right: int = 0
    wrong: int = 0

    @property
    def read(self) -> int:
        return self.right + self.wrong

    @property
    def precision(self) -> float:
        return self.right / self.read if self.read else 1.0


def load_result(path: Path) -> dict:
    """A ``bench_vision.py --json`` result; ValueError names the file if it is not one."""
    try:
        result = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: cannot read it as JSON ({exc})") from None
    if not isinstance(result, dict) or not all(
            isinstance(result.get(k), int) for k in ("read_right", "read_wrong", "cards")) \
            or not isinstance(result.get("mode"), str):
        raise ValueError(f"{path}: not a bench_vision.py --json result")
    return result


def as_run(result: dict) -> Run:
    kind, _, light = result["mode"].partition(", perturbed: ")
    partly = (result.get("partly_covered") or {}).get("read")
    return Run(kind, light or "none", result["read_right"], result["read_wrong"], partly)


def paired_runs(shipped: list[Path], candidate: list[Path]) -> list[tuple[Run, Run]]:
    """The runs pair by pair; ValueError if the lists differ in length or a pair is not one run."""
    if len(shipped) != len(candidate) or not shipped:
        raise ValueError(f"give as many candidate results as shipped ones, at least one "
                         f"({len(candidate)} against {len(shipped)})")
    pairs = []
    for a_path, b_path in zip(shipped, candidate, strict=True):
        a, b = load_result(a_path), load_result(b_path)
        differ = [k for k in SAME_RUN if a.get(k) != b.get(k)]
        if differ:
            raise ValueError(f"{a_path} and {b_path} are not the same run: "
                             f"{', '.join(differ)} differ")
        pairs.append((as_run(a), as_run(b)))
    return pairs


def pooled(runs: Iterable[Run]) -> Tally:
    runs = list(runs)
    return Tally(sum(r.right for r in runs), sum(r.wrong for r in runs))


def more_wrong_p(candidate: Tally, shipped: Tally) -> float:
    """One-sided exact binomial test: the chance of the candidate having at least its share of
    both readers' wrong readings if both read wrong at the same rate per card read."""
    n = candidate.wrong + shipped.wrong
    if n == 0:
        return 1.0
    share = candidate.read / (candidate.read + shipped.read)
    return sum(comb(n, x) * share**x * (1 - share) ** (n - x)
               for x in range(candidate.wrong, n + 1))


def verdict(pairs: list[tuple[Run, Run]]) -> tuple[bool, list[str]]:
    """Rule AM's criterion on the pooled pairs: passed, and one line per check."""
    shipped, candidate = [a for a, _ in pairs], [b for _, b in pairs]
    lines, passed = [], True

    def check(ok: bool, text: str) -> None:
        nonlocal passed
        passed &= ok
        lines.append(f"{'pass' if ok else 'FAIL'}  {text}")

    a, b = pooled(shipped), pooled(candidate)
    check(b.right > a.right, f"(a) cards: {b.right} against {a.right} "
          f"({(b.right / a.right - 1) if a.right else 0:+.1%})")
    if all(r.partly is not None for pair in pairs for r in pair):
        pa, pb = (sum(r.partly or 0 for r in runs) for runs in (shipped, candidate))
        lines.append(f"info  cards with the partly covered: {b.right + pb} against "
                     f"{a.right + pa} (partly covered {pb} against {pa})")
    for light in dict.fromkeys(r.light for r in shipped):
        la, lb = (pooled(r for r in runs if r.light == light) for runs in (shipped, candidate))
        check(lb.right >= LIGHT_SHARE * la.right,
              f"(a) light {light}: {lb.right} against {la.right} (at least {LIGHT_SHARE:.0%})")
    for kind in dict.fromkeys(r.kind for r in shipped):
        ka, kb = (pooled(r for r in runs if r.kind == kind) for runs in (shipped, candidate))
        text = (f"(b) {kind}: precision {kb.precision:.2%} ({kb.wrong} wrong of {kb.read}; "
                f"shipped {ka.precision:.2%}, {ka.wrong} of {ka.read})")
        if kb.precision >= PRECISION_FLOOR:
            check(True, text)
        elif ka.precision >= PRECISION_FLOOR:
            check(False, f"{text}; under the floor, which the shipped reader holds")
        else:
            p = more_wrong_p(kb, ka)
            check(p >= ALPHA, f"{text}; both under the floor: p = {p:.3f} (at least {ALPHA})")
    held_out = [(a, b) for a, b in pairs if "heldout" in a.kind]
    for name, group in (("everything", pairs), ("held-out designs", held_out)):
        if not group:
            continue
        ga, gb = pooled(a for a, _ in group), pooled(b for _, b in group)
        p = more_wrong_p(gb, ga)
        check(p >= ALPHA, f"(c) {name}: {gb.wrong} wrong of {gb.read} against {ga.wrong} of "
              f"{ga.read}, p = {p:.3f} (at least {ALPHA})")
    return passed, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shipped", type=Path, nargs="+", required=True)
    parser.add_argument("--candidate", type=Path, nargs="+", required=True)
    args = parser.parse_args(argv)
    try:
        pairs = paired_runs(args.shipped, args.candidate)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    passed, lines = verdict(pairs)
    print("\n".join(lines))
    print("the candidate passes" if passed else "the candidate fails")
    return EXIT_OK if passed else EXIT_REFUSED


if __name__ == "__main__":
    raise SystemExit(main())
