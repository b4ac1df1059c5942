"""How sharp the frames the reader sees are: photo folders against seeded synthetic scenes.

    uv run python scripts/vision_sharpness.py [DIR ...] [--synthetic KIND ...] [--scenes N]
                                              [--seed S]

Per set, ``exposure.sharpness`` of each frame as the reader sees it (``exposure.exposed``
first): how many frames, the median and quartiles, and how many are under
``exposure.SHARPEN_BELOW`` (read sharpened, rule BE). A folder is every image file in it (no
labels needed; read in place, nothing copied). A diagnostic of how well the render covers real
photos on the measure that decides sharpening, not a benchmark. The measure mixes focus with
content (a close-up of one card has fewer fine edges for its contrast than a busy table), so a
gap says the synthetic scenes miss part of the photos' range, not by itself that the render is
too crisp (fifty-fourth step: ``../shared/cards-real`` median 0.11, 62 % sharpened; the
synthetic training scenes 0.53, 8 %). Exit 0; 2 for a folder with no image it can read, or an
unreadable image.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from dealer_assist.errors import EXIT_OK, EXIT_UNREADABLE
from dealer_assist.vision.exposure import SHARPEN_BELOW, exposed, sharpness
from dealer_assist.vision.sources import read_image
from scripts.bench_vision import synthetic_items

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}


def folder_frames(folder: Path) -> Iterator[np.ndarray]:
    """The frames of the image files in ``folder`` (by name); ValueError if there are none."""
    paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not paths:
        raise ValueError(f"{folder}: no image file in it")
    for path in paths:
        yield read_image(path)


def summary(name: str, frames: Iterable[np.ndarray]) -> str:
    """One table row: the set's frame count, median and quartiles, and how many are blurred."""
    values = np.array([sharpness(exposed(frame)) for frame in frames])
    q1, median, q3 = np.percentile(values, (25, 50, 75))
    under = int((values < SHARPEN_BELOW).sum())
    return (f"| {name} | {len(values)} | {median:.3f} | {q1:.3f}–{q3:.3f} | "
            f"{under} ({under / len(values):.0%}) |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, metavar="DIR")
    parser.add_argument("--synthetic", nargs="+", default=[],
                        choices=["training", "training-fans", "heldout", "fans"])
    parser.add_argument("--scenes", type=int, default=80)
    parser.add_argument("--seed", type=int, default=20261124)
    args = parser.parse_args(argv)
    if not args.folders and not args.synthetic:
        parser.error("name a folder or --synthetic")
    rows = ["| set | frames | median sharpness | quartiles | "
            f"under {SHARPEN_BELOW} (sharpened) |", "|---|---|---|---|---|"]
    try:
        for folder in args.folders:
            rows.append(summary(str(folder), folder_frames(folder)))
    except (OSError, ValueError) as exc:  # not a folder, no image, an unreadable image
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    for kind in args.synthetic:
        frames = (item.frame for item in synthetic_items(kind, args.scenes, args.seed))
        rows.append(summary(f"synthetic {kind}, seed {args.seed}", frames))
    print("\n".join(rows))
    return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
