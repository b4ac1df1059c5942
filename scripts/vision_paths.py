"""What each way of reading an index adds, in seeded synthetic scenes.

    uv run python scripts/vision_paths.py --synthetic training|training-fans|heldout|fans
                                          [--scenes N] [--seed S] [--perturb MODE]
                                          [--at P ...] [--json]

For each card the recogniser reads in a scene (``bench_vision.py --synthetic``'s scenes: right
when it is on the table, wrong when not; the benchmark's right readings are only those of the
cards with a legible index, so this counts a few more), the ways the index reader read it
(``indices.WAYS``: a crop cut by the detector's own pair, an ink-blob pair of a detected
index, an anchored crop, a whole-frame pair; a group of crops agreeing, a second look, a
detected index looked at again), from ``IndexReader.readings`` on the reader's own inputs. A
card no index reading names was read from its outline alone (``outline``).

The table gives, per way, the cards only that way read (what the reader would lose without
it), right and wrong, and the cards it read with other ways. ``--at P``: also the cards only
that way read at probability P or more (what a stricter bar for that way alone would keep).
Wrong readings are listed with each way's probability. The precision a way's own cards have is
the trade it makes: a way that adds few right cards for each wrong one is where a stricter bar
costs least. A diagnostic for choosing what to work on, not a benchmark: choose on the training
designs only (``bench_vision.py``'s rule).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from dealer_assist.vision.detect import find_cards
from dealer_assist.vision.exposure import exposed
from dealer_assist.vision.indices import WAYS
from dealer_assist.vision.recognizer import Recognizer, single_threaded
from scripts.bench_vision import PERTURBATIONS, synthetic_items
from scripts.vision_misses import diagnostic_parser

OUTLINE = "outline"  # a card no index reading names: read from its outline alone


def cards_read(kind: str, scenes: int, seed: int, perturb: str | None = None) -> list[dict]:
    """One row per card the recogniser read: scene, card, right (on the table), and its index
    readings: (way, probability) pairs, the surest per way."""
    recognizer = Recognizer()
    reader = recognizer.index
    rows = []
    for name, frame, _expected, allowed, *_sizes in synthetic_items(kind, scenes, seed):
        if perturb:
            frame = PERTURBATIONS[perturb](frame)
        read = {p.code for p in recognizer.read(frame) if p.code}
        frame = exposed(frame)  # the reader's own inputs, as Recognizer.read gives them
        outlines = find_cards(frame)
        surest: dict[tuple[str, str], float] = {}
        for way, r in reader.readings(frame, outlines.small, outlines.mask, outlines.quads):
            key = (str(r.card.code), way)
            surest[key] = max(surest.get(key, 0.0), r.prob)
        for code in sorted(read):
            ways = {w: round(p, 3) for (c, w), p in surest.items() if c == code}
            rows.append({"scene": name, "card": code, "right": code in allowed, "ways": ways})
    return rows


def table(rows: list[dict], at: tuple[float, ...] = ()) -> str:
    """Per way: cards only it read (right · wrong), with others, and only it at each of ``at``."""
    only: Counter = Counter()
    shared: Counter = Counter()
    only_at: Counter = Counter()
    for r in rows:
        ways = r["ways"] or {OUTLINE: 1.0}
        for way, prob in ways.items():
            (only if len(ways) == 1 else shared)[way, r["right"]] += 1
            for p in at:
                if len(ways) == 1 and prob >= p:
                    only_at[way, p, r["right"]] += 1
    head = (f"{'way':16s}{'only it':>14s}{'with others':>14s}"
            + "".join(f"{'only, ≥ ' + str(p):>16s}" for p in at))
    lines = [head]
    for way in (*WAYS, OUTLINE):
        cells = [f"{only[way, True]} · {only[way, False]}",
                 f"{shared[way, True]} · {shared[way, False]}",
                 *(f"{only_at[way, p, True]} · {only_at[way, p, False]}" for p in at)]
        lines.append(f"{way:16s}" + f"{cells[0]:>14s}{cells[1]:>14s}"
                     + "".join(f"{c:>16s}" for c in cells[2:]))
    right = sum(r["right"] for r in rows)
    lines.append(f"all: {right} right · {len(rows) - right} wrong (right · wrong in each cell)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = diagnostic_parser(__doc__.splitlines()[0], sorted(PERTURBATIONS))
    parser.add_argument("--at", type=float, nargs="*", default=[],
                        help="also count each way's own cards at this probability or more")
    args = parser.parse_args(argv)
    single_threaded()
    rows = cards_read(args.synthetic, args.scenes, args.seed, args.perturb)
    if args.json:
        print(json.dumps(rows))
        return 0
    for r in rows:
        if not r["right"]:
            ways = ", ".join(f"{w} {p:.3f}" for w, p in r["ways"].items()) or OUTLINE
            print(f"{r['scene']} {r['card']}: wrong ({ways})")
    print(table(rows, tuple(args.at)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
