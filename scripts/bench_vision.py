"""Benchmark card recognition on a folder of labelled photos.

    uv run python scripts/bench_vision.py DIR [--json] [--runs N] [--deck NAME | --calibrate-split]

DIR/labels.csv has a header ``file,cards`` and space-separated card codes per image. Prints each
image's expected and read cards, then card recall, card precision and the median milliseconds per
frame (wall clock, median over ``--runs`` timed runs per image, one thread; ``median_cpu_ms`` is the
same in CPU time, which a busy machine disturbs less).

``--calibrate-split`` calibrates a deck from the odd-numbered single-card images (in a temporary
folder outside the repository) and scores only the remaining images, to measure a calibrated deck.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core: before numpy loads

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealer_assist.cards import parse_cards  # noqa: E402
from dealer_assist.vision.calibration import calibrate, load_deck_models  # noqa: E402
from dealer_assist.vision.recognizer import Recognizer, single_threaded  # noqa: E402
from dealer_assist.vision.sources import read_image  # noqa: E402


def load_labels(folder: Path) -> list[tuple[str, set[str]]]:
    with open(folder / "labels.csv", newline="") as fh:
        return [(row["file"], {c.code for c in parse_cards(row["cards"])})
                for row in csv.DictReader(fh)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per image")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--deck", help="use this calibrated deck from the user's data folder")
    group.add_argument("--calibrate-split", action="store_true",
                       help="calibrate on odd single-card images, score the others")
    args = parser.parse_args(argv)
    single_threaded()
    labels = load_labels(args.dir)
    mode = "uncalibrated"
    if args.deck:
        recognizer, mode = Recognizer(load_deck_models(args.deck)), f"deck {args.deck}"
    elif args.calibrate_split:
        singles = [(f, c) for f, c in labels if len(c) == 1]
        train = singles[::2]
        labels = [item for item in labels if item not in train]
        with tempfile.TemporaryDirectory() as tmp:
            calib = Path(tmp) / "calib"
            calib.mkdir()
            with open(calib / "labels.csv", "w", newline="") as fh:
                fh.write("file,cards\n")
                for f, c in train:
                    (calib / f).symlink_to((args.dir / f).resolve())
                    fh.write(f"{f},{' '.join(c)}\n")
            models, _ = calibrate(calib)
        recognizer = Recognizer(models)
        mode = f"calibrated on {len(train)} images, scored on the other {len(labels)}"
    else:
        recognizer = Recognizer()
    tp = fp = expected_total = 0
    times: list[float] = []
    cpu_times: list[float] = []  # CPU time of this thread: less disturbed by a busy machine
    for name, expected in labels:
        frame = read_image(args.dir / name)
        runs, cpu_runs = [], []
        for _ in range(args.runs):
            t0, c0 = time.perf_counter(), time.thread_time()
            proposals = recognizer.read(frame)
            runs.append((time.perf_counter() - t0) * 1000)
            cpu_runs.append((time.thread_time() - c0) * 1000)
        times.append(statistics.median(runs))
        cpu_times.append(statistics.median(cpu_runs))
        read = {p.code for p in proposals if p.code is not None}
        unknown = sum(p.card is None for p in proposals)
        tp += len(read & expected)
        fp += len(read - expected)
        expected_total += len(expected)
        if not args.json:
            mark = "ok" if read == expected else "MISS" if read <= expected else "WRONG"
            extra = f" (+{unknown} unknown)" if unknown else ""
            print(f"{name}: expected {' '.join(sorted(expected))} | "
                  f"read {' '.join(sorted(read)) or '-'}{extra}  {mark}")
    read_total = tp + fp
    result = {
        "mode": mode,
        "recall": round(tp / expected_total, 4) if expected_total else 0.0,
        "precision": round(tp / read_total, 4) if read_total else 1.0,
        "median_ms": round(statistics.median(times), 2),
        "median_cpu_ms": round(statistics.median(cpu_times), 2),
        "images": len(labels),
        "cards": expected_total,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"mode: {mode}")
        print(f"recall {result['recall']:.1%} ({tp}/{expected_total}), precision "
              f"{result['precision']:.1%} ({tp}/{read_total}), median {result['median_ms']} "
              f"ms/frame (CPU {result['median_cpu_ms']} ms) over {len(labels)} images")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
