"""Build models/ranks.npz and models/suits.npz from synthetic card corners (no downloaded data).

    uv run python scripts/build_models.py [--per-font N] [--seed S]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealer_assist.vision import synth
from dealer_assist.vision.model import MODELS_DIR, GlyphModel
from dealer_assist.vision.trainset import build_training_set


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-font", type=int, default=4,
                        help="augmented samples per font and card")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=MODELS_DIR)
    args = parser.parse_args(argv)
    print(f"fonts: {', '.join(Path(f).name for f in synth.FONTS)}")
    rx, ry, sx, sy = build_training_set(args.per_font, args.seed)
    for name, x, y in (("ranks", rx, ry), ("suits", sx, sy)):
        path = args.out / f"{name}.npz"
        GlyphModel(x, y).save(path)
        counts = dict(zip(*np.unique(y, return_counts=True), strict=True))
        print(f"{path}: {len(y)} samples, {path.stat().st_size // 1024} KiB, {counts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
