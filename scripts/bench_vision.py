"""Benchmark card recognition on a folder of labelled photos.

    uv run python scripts/bench_vision.py DIR [--json] [--runs N] [--deck NAME | --calibrate-split]

DIR/labels.csv has a header ``file,cards`` and space-separated card codes per image. Prints each
image's expected and read cards, then card recall, card precision and the median milliseconds per
frame (wall clock, median over ``--runs`` timed runs per image, one thread; ``median_cpu_ms`` is the
same in CPU time, which a busy machine disturbs less).

``--calibrate-split`` calibrates a deck from every other single-card image (linked into a temporary
folder outside the repository) and scores only the remaining images, calibrated and uncalibrated.
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


def evaluate(recognizer: Recognizer, folder: Path, labels: list[tuple[str, set[str]]],
             runs: int, verbose: bool) -> dict:
    """Read every labelled image ``runs`` times; recall, precision and median times."""
    tp = fp = expected_total = 0
    times: list[float] = []
    cpu_times: list[float] = []  # CPU time of this thread: less disturbed by a busy machine
    for name, expected in labels:
        frame = read_image(folder / name)
        wall, cpu = [], []
        for _ in range(runs):
            t0, c0 = time.perf_counter(), time.thread_time()
            proposals = recognizer.read(frame)
            wall.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
        times.append(statistics.median(wall))
        cpu_times.append(statistics.median(cpu))
        read = {p.code for p in proposals if p.code is not None}
        unknown = sum(p.card is None for p in proposals)
        tp += len(read & expected)
        fp += len(read - expected)
        expected_total += len(expected)
        if verbose:
            mark = "ok" if read == expected else "MISS" if read <= expected else "WRONG"
            extra = f" (+{unknown} unknown)" if unknown else ""
            print(f"{name}: expected {' '.join(sorted(expected))} | "
                  f"read {' '.join(sorted(read)) or '-'}{extra}  {mark}")
    return {
        "recall": round(tp / expected_total, 4) if expected_total else 0.0,
        "precision": round(tp / (tp + fp), 4) if tp + fp else 1.0,
        "median_ms": round(statistics.median(times), 2),
        "median_cpu_ms": round(statistics.median(cpu_times), 2),
        "images": len(labels),
        "cards": expected_total,
        "read_right": tp,
        "read_wrong": fp,
    }


def summary(mode: str, r: dict) -> str:
    return (f"{mode}: recall {r['recall']:.1%} ({r['read_right']}/{r['cards']}), precision "
            f"{r['precision']:.1%} ({r['read_right']}/{r['read_right'] + r['read_wrong']}), "
            f"median {r['median_ms']} ms/frame (CPU {r['median_cpu_ms']} ms), "
            f"{r['images']} images")


def calibrated_split(folder: Path, labels: list[tuple[str, set[str]]]
                     ) -> tuple[Recognizer, list[tuple[str, set[str]]], int]:
    """Calibrate on every other single-card image (linked into a temporary folder outside the
    repository); return the recogniser, the images left to score and the number used."""
    train = [item for item in labels if len(item[1]) == 1][::2]
    with tempfile.TemporaryDirectory() as tmp:
        calib = Path(tmp)
        with open(calib / "labels.csv", "w", newline="") as fh:
            fh.write("file,cards\n")
            for name, cards in train:
                (calib / name).symlink_to((folder / name).resolve())
                fh.write(f"{name},{' '.join(cards)}\n")
        models, _ = calibrate(calib)
    return Recognizer(models), [item for item in labels if item not in train], len(train)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per image")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--deck", help="use this calibrated deck from the user's data folder")
    group.add_argument("--calibrate-split", action="store_true",
                       help="calibrate on half the single-card images, score the others "
                            "calibrated and uncalibrated")
    args = parser.parse_args(argv)
    single_threaded()
    labels = load_labels(args.dir)
    verbose = not args.json
    if args.calibrate_split:
        recognizer, held, used = calibrated_split(args.dir, labels)
        result = evaluate(recognizer, args.dir, held, args.runs, verbose)
        result["mode"] = f"calibrated on {used} images, scored on the other {len(held)}"
        baseline = evaluate(Recognizer(), args.dir, held, args.runs, False)
        baseline["mode"] = f"uncalibrated, same {len(held)} images"
        result["uncalibrated_same_images"] = baseline
    else:
        recognizer = Recognizer(load_deck_models(args.deck)) if args.deck else Recognizer()
        result = evaluate(recognizer, args.dir, labels, args.runs, verbose)
        result["mode"] = f"deck {args.deck}" if args.deck else "uncalibrated"
    if args.json:
        print(json.dumps(result))
    else:
        print(summary(result["mode"], result))
        if "uncalibrated_same_images" in result:
            base = result["uncalibrated_same_images"]
            print(summary(base["mode"], base))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
