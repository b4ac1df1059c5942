"""How many legible indices of unseen deck designs the corner-index detector proposes.

    uv run python scripts/bench_index_detector.py [--model PATH] [--synthetic heldout|fans]
                                                  [--scenes 40] [--json]

Renders the first ``--scenes`` scenes of ``bench_vision.py --synthetic KIND`` (same seed, same
scenes) and counts the indices in full view and legible there (rank to suit centre ≥
``bench_vision.LEGIBLE`` px) that get a proposal:

* ``near``: a peak whose centre lies within 0.6 of the rank-to-suit step (d) of the index's
  centre (the count the issue-16 reports give as "154 of 186" for the shipped detector);
* ``right``: a peak within 0.5 d whose direction is within 30° and whose length is 0.6–1.6 d
  (the criterion of ``tests/vision/test_index_detector.py``);
* ``crop``: one of the crops the reader is shown for the peaks (the detector's pair or a local
  blob pair) cut well enough that the training data would label it as this card.

No threshold is chosen on this: it compares detectors (``--model``, default the shipped one).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def count(detector, kind: str, scenes_n: int, seed: int) -> dict:
    from dealer_assist.vision import indices
    from scripts.bench_vision import synthetic_scenes
    from scripts.build_index_model import detector_candidates
    from scripts.vision_data import scenes

    per: dict[str, dict[str, int]] = {}
    peaks_total = 0
    for deck, _i, sc, anchors, marks in synthetic_scenes(kind, scenes_n, seed):
        peaks = detector.peaks(sc.image)
        peaks_total += len(peaks)
        crops = detector_candidates(detector, sc.image)
        labels = scenes.label_candidates(crops, marks, sc, anchors) if crops else []
        tally = per.setdefault(deck, {"indices": 0, "near": 0, "right": 0, "crop": 0})
        for code, rank, suit, *_visible in marks:
            d = float(np.linalg.norm(suit - rank))
            centre = (rank + suit) / 2
            gaps = [float(np.linalg.norm((r + s) / 2 - centre)) for _p, r, s in peaks]
            tally["indices"] += 1
            tally["near"] += any(g < 0.6 * d for g in gaps)
            tally["right"] += any(
                g < 0.5 * d and 0.6 * d < np.linalg.norm(s - r) < 1.6 * d
                and np.dot(s - r, suit - rank) > np.cos(np.deg2rad(30)) * d * np.linalg.norm(s - r)
                for g, (_p, r, s) in zip(gaps, peaks, strict=True))
            tally["crop"] += any(
                lab == indices.CLASSES.index(code) and np.linalg.norm(c.centre - centre) < d
                for lab, c in zip(labels, crops, strict=True))
    total = {k: sum(t[k] for t in per.values()) for k in ("indices", "near", "right", "crop")}
    return {**total, "peaks": peaks_total, "scenes": scenes_n, "per_deck": per}


def main(argv: list[str] | None = None) -> int:
    import cv2

    from dealer_assist.vision.index_detector import IndexDetector

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="detector ONNX file (default: the shipped)")
    parser.add_argument("--synthetic", choices=["heldout", "fans"], default="heldout")
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--seed", type=int, default=20261124)  # bench_vision.py's
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    result = count(IndexDetector(args.model), args.synthetic, args.scenes, args.seed)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.synthetic}, {args.scenes} scenes: {result['indices']} legible indices; "
          f"near {result['near']}, right {result['right']}, crop {result['crop']}; "
          f"{result['peaks']} peaks")
    print(f"{'deck':26} {'indices':>7} {'near':>5} {'right':>5} {'crop':>5}")
    for deck, t in result["per_deck"].items():
        print(f"{deck:26} {t['indices']:7} {t['near']:5} {t['right']:5} {t['crop']:5}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
