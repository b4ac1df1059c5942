"""Where the recogniser's time goes, stage by stage, on a folder of photos.

    uv run python scripts/vision_stages.py DIR [--runs N]

Reads every image in DIR (in place, nothing copied) ``--runs`` times (3) on one thread under
``cProfile``, after one read to load the models, and prints a table: per stage, the calls and
the milliseconds a frame, cumulative (a stage's time includes the stages indented under it).
The profiler adds a little to each Python call, so the total is somewhat above
``bench_vision.py``'s; the split is what it is for (sixty-sixth step: which stages a faster
frame must make cheaper). A diagnostic, not a benchmark. Exit 0; 2 for a folder with no image
it can read, or an unreadable image.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from dealer_assist.errors import EXIT_OK, EXIT_UNREADABLE
from dealer_assist.vision.recognizer import Recognizer, single_threaded
from scripts.vision_sharpness import folder_frames


class Stage(NamedTuple):
    """A table row: ``function`` of ``module`` (a file name), counted only when ``caller``
    (a function name) called it, if given; ``depth`` indents the label."""

    label: str
    module: str
    function: str
    caller: str | None = None
    depth: int = 0


STAGES = (
    Stage("the recogniser's read", "recognizer.py", "read"),
    Stage("card outlines (find_cards)", "detect.py", "find_cards", depth=1),
    Stage("the corner-index reader", "indices.py", "readings", depth=1),
    Stage("work image (scaling, sharpening)", "indices.py", "work_inputs", depth=2),
    Stage("the detector's proposals", "indices.py", "_detected_candidates", depth=2),
    Stage("detector, first pass", "index_detector.py", "peaks", "_detected_candidates",
          depth=3),
    Stage("detector, zoomed pass", "indices.py", "_zoomed_peaks", depth=3),
    Stage("ink blobs around detected indices", "ink_pairs.py", "window_blobs", depth=3),
    Stage("whole-frame proposals", "indices.py", "_whole_frame_candidates", depth=2),
    Stage("whole-frame ink blobs", "ink_pairs.py", "glyph_blobs", "_whole_frame_candidates",
          depth=3),
    Stage("crops through the networks", "indices.py", "classify", depth=2),
    Stage("second look", "indices.py", "_second_looks", depth=2),
    Stage("detector's second look", "indices.py", "_detected_again", depth=2),
    Stage("stretched look", "indices.py", "_stretched_looks", depth=2),
)


def stage_times(stats: pstats.Stats, frames: int) -> list[tuple[Stage, float, float]]:
    """(stage, calls a frame, ms a frame) of each of STAGES in ``stats``."""
    rows = []
    for stage in STAGES:
        calls = seconds = 0.0
        for (path, _line, name), (_cc, nc, _tt, ct, callers) in stats.stats.items():
            if name != stage.function or not path.endswith(stage.module):
                continue
            if stage.caller is None:
                calls, seconds = calls + nc, seconds + ct
                continue
            for (_p, _l, caller), (_ccc, cnc, _ctt, cct) in callers.items():
                if caller == stage.caller:
                    calls, seconds = calls + cnc, seconds + cct
        rows.append((stage, calls / frames, 1000 * seconds / frames))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--runs", type=int, default=3, help="reads of each image (3)")
    args = parser.parse_args(argv)
    runs = max(1, args.runs)
    try:
        frames = list(folder_frames(args.folder))
    except (OSError, ValueError) as exc:  # not a folder, no image, an unreadable image
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    single_threaded()
    recognizer = Recognizer()
    recognizer.read(frames[0])  # load the models outside the profile
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(runs):
        for frame in frames:
            recognizer.read(frame)
    profile.disable()
    print(f"{len(frames)} frames of {args.folder}, {runs} reads each")
    print("| stage | calls a frame | ms a frame |")
    print("|---|---|---|")
    for stage, calls, ms in stage_times(pstats.Stats(profile), len(frames) * runs):
        print(f"| {'  ' * stage.depth}{stage.label} | {calls:.1f} | {ms:.1f} |")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
