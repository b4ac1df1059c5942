"""What a dealer is asked at a live table: each card once, the card that is there, shown steadily.

    uv run python scripts/bench_live.py [--synthetic heldout|fans|training|training-fans|drawn-fans]
                                        [--scenes N] [--frames F] [--answer-after K]
                                        [--seed S] [--json]

Each of ``bench_vision.py``'s seeded 1280×960 scenes (another seed than training) is watched by
the live reader (``LiveReader``: recogniser, votes over frames, the pending card) as a still
camera would give it: ``--frames`` frames, each the scene with fresh sensor noise (uniform,
±3 levels). The dealer answers the pending card once it has been shown ``--answer-after``
frames running (confirms it: ``mark_handled``). Over all scenes it counts the cards the benchmark
expects (one of their indices legible), and of the cards asked: right the first time, asked
again (a card asked twice: the same physical card, as every scene holds one deck), wrong (not in
the scene), and the expected cards never asked; ``switches`` counts the times the pending card
changed to another card before the dealer answered it (what a tap could confirm by mistake);
the frames until a scene's last card was asked (median); the milliseconds per frame (median,
one thread). Choose on ``training`` and ``training-fans`` only (``bench_vision.py``'s rule);
``drawn-fans`` are the recogniser's precision test's fans (the project's drawn deck).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core: before numpy loads

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from dealer_assist.vision.live import LiveReader  # noqa: E402
from dealer_assist.vision.recognizer import Recognizer, single_threaded  # noqa: E402
from scripts.bench_vision import synthetic_items  # noqa: E402

NOISE = 3  # sensor noise of each frame: uniform in ±NOISE grey levels


def noisy(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``image`` with fresh sensor noise (another frame of a still camera)."""
    noise = rng.integers(-NOISE, NOISE + 1, image.shape, dtype=np.int16)
    return np.clip(image.astype(np.int16) + noise, 0, 255).astype(np.uint8)


def watch(recognizer: Recognizer, image: np.ndarray, rng: np.random.Generator, frames: int,
          answer_after: int) -> dict:
    """One scene watched ``frames`` frames: the cards asked in order, the frame each was asked
    at, the pending card's switches and the milliseconds per frame."""
    reader = LiveReader(recognizer=recognizer)
    asked: list[str] = []
    at: list[int] = []
    times: list[float] = []
    shown: str | None = None  # the card on the panel, and since which frame
    since = switches = 0
    for i in range(frames):
        frame = noisy(image, rng)
        t0 = time.perf_counter()
        update = reader.process(frame)
        times.append((time.perf_counter() - t0) * 1000)
        pending = update.pending
        if pending is None or pending.code is None:
            shown = None
            continue
        if pending.code != shown:
            switches += shown is not None
            shown, since = pending.code, i
        if i - since + 1 >= answer_after:
            asked.append(pending.code)
            at.append(i + 1)
            reader.mark_handled(pending)
            shown = None
    return {"asked": asked, "at": at, "switches": switches, "ms": times}


def run(kind: str, scenes: int, frames: int, answer_after: int, seed: int) -> dict:
    """The counts over ``scenes`` scenes of ``--synthetic kind`` (see the module's docstring)."""
    recognizer = Recognizer()
    rng = np.random.default_rng(seed + 1)  # the noise; the scenes come from ``seed``
    totals = dict.fromkeys(("expected", "right", "again", "wrong", "never", "switches"), 0)
    last_frames: list[int] = []
    times: list[float] = []
    per_scene = []
    for name, image, expected, allowed, *_sizes in synthetic_items(kind, scenes, seed):
        seen = watch(recognizer, image, rng, frames, answer_after)
        asked = seen["asked"]
        row = {"scene": name, "expected": len(expected), "right": len(set(asked) & allowed),
               "again": len(asked) - len(set(asked)),
               "wrong": len(set(asked) - allowed), "never": len(expected - set(asked)),
               "switches": seen["switches"]}
        for key in totals:
            totals[key] += row[key]
        if asked:
            last_frames.append(seen["at"][-1])
        times += seen["ms"]
        per_scene.append(row)
    return {**totals, "scenes": scenes, "frames": frames, "answer_after": answer_after,
            "seed": seed, "kind": kind,
            "median_last_frame": statistics.median(last_frames) if last_frames else None,
            "median_ms": round(statistics.median(times), 2) if times else 0.0,
            "per_scene": per_scene}


def table(r: dict) -> str:
    return (f"{r['kind']}, {r['scenes']} scenes × {r['frames']} frames, answered after "
            f"{r['answer_after']}: expected {r['expected']} cards; asked right {r['right']}, "
            f"asked again {r['again']}, wrong {r['wrong']}, never asked {r['never']}; "
            f"pending switched {r['switches']} times; last card asked at frame "
            f"{r['median_last_frame']} (median); {r['median_ms']} ms/frame")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic", default="heldout",
                        choices=["heldout", "fans", "training", "training-fans", "drawn-fans"])
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--answer-after", type=int, default=3,
                        help="frames the pending card is shown before the dealer answers")
    parser.add_argument("--seed", type=int, default=20261124)
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    args = parser.parse_args(argv)
    if args.scenes < 1 or args.frames < 1 or args.answer_after < 1:
        parser.error("--scenes, --frames and --answer-after must be at least 1")
    single_threaded()
    result = run(args.synthetic, args.scenes, args.frames, args.answer_after, args.seed)
    print(json.dumps(result) if args.json else table(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
