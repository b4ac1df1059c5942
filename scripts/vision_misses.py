"""Why the recogniser misses the cards it misses in seeded synthetic scenes.

    uv run python scripts/vision_misses.py --synthetic training|training-fans|heldout|fans
                                           (or oblique|training-oblique)
                                           [--scenes N] [--seed S] [--perturb MODE] [--json]

Each card the benchmark expects (``bench_vision.py --synthetic``: one of its indices in full view
and legible) but the recogniser does not read falls in one of four kinds, at its index that
reads best:

* ``outline``: the index reader did read the card, and the recogniser dropped it when it checked
  the readings against the card outlines around them (``recognizer._with_indices``: a whole-card
  reading or a court picture that disagrees, say); until the thirty-fifth step such a miss was
  counted as one of the others, mostly ``cut``;
* ``no crop``: no crop the index reader cut (detected index, blob pair, anchored crop) is
  centred within half a rank-to-suit step of the printed index: the proposals missed it;
* ``cut``: crops are there, and the index cut at its true rank and suit centres reads as its card
  at the reader's blob-pair probability (``IndexReader.min_prob``) or more: the crops were cut
  in the wrong place or scale;
* ``network``: even that true cut reads below it: the networks do not know the index (a design's
  quirk, a covered glyph, a suit they confuse).

Each row also gives each network's own probability of the card at the true cut (``first``,
``second``, ``third``; -1 without that network; ``more``, a list, the further seeds' of rules
DZ and EB): where the first names a card at ``indices.SECOND_FROM`` or more the reader takes the
mean of the first, third and further seeds, or the second's if that is lower
(``indices.combined``, rules DS, DZ and EB). The summary line says which of the first two
networks a ``network`` miss is below the reader's probability in (issue 16's seventeenth step
chose what to retrain from it).

``--perturb`` degrades every scene first, as ``bench_vision.py --perturb`` does: blur, dark,
jpeg and warm keep the indices in place, and ``small`` (640 px on the long side) moves them with
the frame's scale (thirty-ninth step; ``rotate`` is not offered). Crops, true cuts included, are
cut from what the reader reads: the frame exposed (``exposure.exposed``) and, when it is
blurred, its work image sharpened (``IndexReader.work_inputs``; until the twenty-eighth step the
diagnostic cut them from the raw frame, so its dark and blurred rows were not the reader's).
Only ``--synthetic`` scenes have the true index positions; a diagnostic for choosing what to
work on, not a benchmark (no timing). Choose on the training designs only (``bench_vision.py``'s
rule).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from dealer_assist.vision.detect import find_cards
from dealer_assist.vision.exposure import exposed
from dealer_assist.vision.indices import CLASSES, Acceptance, normalise, opinion
from dealer_assist.vision.ink_pairs import candidate, crop
from dealer_assist.vision.recognizer import Recognizer, single_threaded
from scripts.bench_vision import PERTURBATIONS, RENDERED_KINDS, synthetic_scenes

KINDS = ("outline", "no crop", "cut", "network")
GEOMETRIC = {"rotate"}  # perturbations that move the indices elsewhere (not offered)
NEAR = 0.5  # a crop centred within this share of the index's rank-to-suit step is "there"


def misses(kind: str, scenes: int, seed: int, perturb: str | None = None) -> list[dict]:
    """One row per expected card not read: scene, card, kind, its true cut's probability, the
    best probability of its card among the crops there (-1: none) and the index's step (px);
    ``perturb``: a ``bench_vision`` perturbation applied to every scene first."""
    recognizer = Recognizer()
    reader = recognizer.index
    rows = []
    for deck, i, scene, _anchors, marks in synthetic_scenes(kind, scenes, seed):
        frame = PERTURBATIONS[perturb](scene.image) if perturb else scene.image
        to_frame = frame.shape[1] / scene.image.shape[1]  # "small": the marks scale with it
        read = {p.code for p in recognizer.read(frame) if p.code}
        missed = sorted({m.code for m in marks} - read)
        if not missed:
            continue
        # the reader's own inputs: the exposed frame, its outlines' 640-px copy and paper mask
        frame = exposed(frame)
        outlines = find_cards(frame)
        small, scale, scaled = reader.work_inputs(frame, outlines.small)
        scale *= to_frame  # the scene's pixels to the work image's
        cands = [c for c, _need, _group in reader.candidates(small, scaled, outlines.mask)]
        centres = np.array([c.centre for c in cands]).reshape(-1, 2)
        probs = reader.probabilities(np.stack([crop(small, c) for c in cands])) if cands \
            else np.zeros((0, len(CLASSES)))
        # the index reader's own readings (after the proposals above, which test_vision_misses
        # compares with those of the recogniser's read just before them)
        indexed = {r.card.code for r in reader.read(frame, outlines.small, outlines.mask,
                                                    outlines.quads)}
        for code in missed:  # the card's index that reads best at its true cut
            why = max((_why(reader, small, scale, m, centres, probs) for m in marks
                       if m.code == code), key=lambda row: row["true_cut"])
            if code in indexed:
                why["kind"] = "outline"
            rows.append({"scene": f"{deck}-{i:03d}", "deck": deck, **why})
    return rows


def _why(reader, small: np.ndarray, scale: float, mark, centres: np.ndarray, probs: np.ndarray
         ) -> dict:
    """Card, kind, true-cut probability, best crop probability (-1: no crop) and step of one
    missed index ``mark`` (scene pixels; ``scale``: scene to work pixels) in the work frame
    ``small``, whose crops are centred at ``centres`` and read ``probs``."""
    k = CLASSES.index(mark.code)
    rank = (mark.rank * scale).astype(np.float32)
    suit = (mark.suit * scale).astype(np.float32)
    step = float(np.hypot(*(suit - rank)))
    x = normalise(crop(small, candidate(rank, suit))[None])
    first_probs = reader.first_opinion(x)
    true = float(reader.second_opinion(x, first_probs)[0, k])  # what the reader makes of it
    first = float(first_probs[0, k])
    second, third = (-1.0 if net is None else float(opinion(net, x)[0, k])
                     for net in (reader.second, reader.third))
    more = [round(float(opinion(net, x)[0, k]), 3) for net in reader.more_seeds]
    near = np.hypot(*(centres - (rank + suit) / 2).T) < NEAR * step
    there = float(probs[near, k].max()) if near.any() else -1.0
    kind = "no crop" if not near.any() else "cut" if true >= reader.min_prob else "network"
    return {"card": str(mark.code), "kind": kind, "true_cut": round(true, 3),
            "first": round(first, 3), "second": round(second, 3), "third": round(third, 3),
            "more": more, "crops": round(there, 3), "step": round(step, 1)}


def table(rows: list[dict]) -> str:
    """Misses by design and kind."""
    decks = sorted({r["deck"] for r in rows})
    count = Counter((r["deck"], r["kind"]) for r in rows)
    lines = [f"{'design':26s}" + "".join(f"{k:>10s}" for k in KINDS) + f"{'all':>8s}"]
    for d in [*decks, "all"]:
        n = [sum(v for (dd, kk), v in count.items() if kk == k and d in (dd, "all"))
             for k in KINDS]
        lines.append(f"{d:26s}" + "".join(f"{v:10d}" for v in n) + f"{sum(n):8d}")
    return "\n".join(lines)


def below(rows: list[dict], need: float) -> str:
    """Which network the ``network`` misses' true cuts are below ``need`` in (a reader without a
    second network, ``second`` -1, has only the first to be below in)."""
    net = [r for r in rows if r["kind"] == "network"]
    under = [(r["first"] < need, 0 <= r["second"] < need) for r in net]
    both = sum(f and s for f, s in under)
    first = sum(f and not s for f, s in under)
    second = sum(s and not f for f, s in under)
    return (f"network misses ({len(net)}), true cut below {need:.3g}: in both networks {both}, "
            f"the first only {first}, the second only {second}")


def diagnostic_parser(description: str, perturbs: list[str], perturb_help: str | None = None
                      ) -> argparse.ArgumentParser:
    """The options the synthetic-scene diagnostics share (this one and ``vision_paths.py``):
    ``--synthetic``, ``--scenes``, ``--seed``, ``--perturb`` (one of ``perturbs``), ``--json``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--synthetic", required=True,
                        choices=RENDERED_KINDS)
    parser.add_argument("--scenes", type=int, default=80)
    parser.add_argument("--seed", type=int, default=20261124)
    parser.add_argument("--perturb", choices=perturbs, help=perturb_help)
    parser.add_argument("--json", action="store_true", help="print one JSON list only")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = diagnostic_parser(__doc__.splitlines()[0], sorted(set(PERTURBATIONS) - GEOMETRIC),
                               "those whose true index positions are known: the photometric "
                               "ones, and small (the frame's scale)")
    args = parser.parse_args(argv)
    single_threaded()
    rows = misses(args.synthetic, args.scenes, args.seed, args.perturb)
    if args.json:
        print(json.dumps(rows))
        return 0
    for r in rows:
        print(f"{r['scene']} {r['card']}: {r['kind']} (true cut {r['true_cut']:.2f}: first "
              f"{r['first']:.2f}, second {r['second']:.2f}, third {r['third']:.2f}, more "
              f"{' '.join(f'{p:.2f}' for p in r['more']) or '-'}; crops "
              f"{r['crops']:.2f}, step {r['step']:.0f} px)")
    print(below(rows, Acceptance().blob_pair))  # the shipped reader's min_prob
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
