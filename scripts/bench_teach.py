"""How long teaching a deck takes: the four captures and the save of the app's "Teach a deck".

    uv run python scripts/bench_teach.py [--runs 3] [--seed 5150]

Per held-out deck design (rendered suit photos: ``scripts/vision_data/deck_photos.suit_photos``),
the median over ``--runs`` of: one capture's check (``DeckTeacher.capture``) and the save
(adaptation and writing the deck, ``DeckTeacher.save``), in a throwaway data folder, one thread.
Prints a table (or ``--json``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ["DEALER_ASSIST_DATA"] = tempfile.mkdtemp(prefix="dealer-assist-bench-teach-")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealer_assist.vision.recognizer import single_threaded  # noqa: E402
from dealer_assist.vision.teach import DeckTeacher  # noqa: E402
from scripts.vision_data import decks  # noqa: E402
from scripts.vision_data.deck_photos import suit_photos  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5150)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    single_threaded()
    rows = []
    for number, deck in enumerate(decks.held_out_decks()):
        photos = suit_photos(deck, args.seed + number)
        capture_ms, save_ms, cards = [], [], 0
        for _ in range(max(1, args.runs)):
            teacher = DeckTeacher()
            teacher.embedder  # noqa: B018 - loaded once per teacher, as the dialog's first capture does
            for frame, _cards in photos:
                t0 = time.perf_counter()
                teacher.capture(frame)
                capture_ms.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            _deck, report = teacher.save("bench")
            save_ms.append((time.perf_counter() - t0) * 1000)
            cards = len(report["cards"])
        rows.append({"deck": deck, "capture_ms": round(statistics.median(capture_ms)),
                     "save_ms": round(statistics.median(save_ms)), "cards": cards})
    if args.json:
        print(json.dumps(rows))
        return 0
    print("| deck | capture (median ms) | save (median ms) | cards learned |")
    print("|---|---|---|---|")
    for r in rows:
        print(f"| {r['deck']} | {r['capture_ms']} | {r['save_ms']} | {r['cards']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
