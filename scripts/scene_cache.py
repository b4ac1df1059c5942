"""A disk cache of the benchmark's rendered scenes (issue 16, forty-fifth step).

A rule's sets read the same seeded scenes with several readers, and the blurred set is the
daylight set perturbed: rendering is most of a run's time (about 0.6 s of a scene's 0.7 here).
``bench_vision.py --scene-cache DIR`` keeps each scene it renders as a PNG (lossless: the same
frame bytes) beside a JSON of what it shows, and reads them back the next time the same kind,
seed and scene are asked for.

Scenes are drawn from one random stream per seed, so a scene can only be rendered after every
scene before it: when the cache holds the first ``n`` scenes of a kind and seed, those are
read; when it holds fewer, the stream is rendered from its start and the missing scenes are
added. The cache's folder is named after a digest of the code that draws the scenes
(``scripts/vision_data``, ``dealer_assist/vision/synth.py``, and the functions that make the
benchmark's items from them), so a change there starts a new folder instead of reading stale
scenes. Files are written whole or not at all (a temporary file renamed), so two runs may share a
cache; a file that cannot be read is rendered again. A scene takes about 1-2 MB: a rule's
choice sets (3 seeds of 160 + 80 scenes) about 1 GB.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DRAWING_CODE = (ROOT / "scripts" / "vision_data", ROOT / "dealer_assist" / "vision" / "synth.py")

# what a cached scene is: (name, frame, expected, allowed, steps, partly), as bench_vision.Item
Row = tuple[str, np.ndarray, set[str], set[str], "dict[str, float] | None", "set[str] | None"]


def code_digest(extra: Iterable[str] = ()) -> str:
    """A short digest of the code that draws the scenes, and of ``extra`` (more source text)."""
    h = hashlib.sha256()
    for place in DRAWING_CODE:
        for path in sorted(place.rglob("*.py")) if place.is_dir() else [place]:
            h.update(path.relative_to(ROOT).as_posix().encode())
            h.update(path.read_bytes())
    for text in extra:
        h.update(text.encode())
    return h.hexdigest()[:16]


class SceneCache:
    """Scenes of one version of the drawing code under ``root`` (see the module's docstring)."""

    def __init__(self, root: Path, version: str) -> None:
        self.folder = root / version
        self.warned = False

    def rows(self, kind: str, seed: int, n: int, render: Callable[[], Iterator[Row]]
             ) -> Iterator[Row]:
        """The first ``n`` scenes of ``kind`` and ``seed``: from the cache, one at a time, up to
        the first it lacks (or cannot read); from there on from ``render()`` (the whole stream,
        run from its start past the scenes read), adding what the cache lacks."""
        place = self.folder / f"{kind}-{seed}"
        done = 0  # scenes read from the cache, one at a time (a frame is 3.7 MB)
        while done < n and (row := self._read(place, done)) is not None:
            yield row
            done += 1
        if done == n:
            return
        with contextlib.suppress(OSError):  # if it cannot be made, each write says why
            place.mkdir(parents=True, exist_ok=True)
        for i, row in zip(range(n), render(), strict=True):
            if i < done:
                continue  # read already
            if i == done or not (place / f"{i:05d}.json").exists():
                self._write(place, i, row)
            yield row

    @staticmethod
    def _read(place: Path, i: int) -> Row | None:
        try:
            meta = json.loads((place / f"{i:05d}.json").read_text())
        except (OSError, ValueError):
            return None
        frame = cv2.imread(str(place / f"{i:05d}.png"), cv2.IMREAD_COLOR)
        if frame is None or list(frame.shape) != meta.get("shape"):
            return None
        steps, partly = meta["steps"], meta.get("partly")
        return (meta["name"], frame, set(meta["expected"]), set(meta["allowed"]), steps,
                None if partly is None else set(partly))

    def _write(self, place: Path, i: int, row: Row) -> None:
        """Keep one scene; if it cannot be written (a full disk, say), say so once and go on
        without: the cache only saves time."""
        name, frame, expected, allowed, steps, partly = row
        meta = {"name": name, "shape": list(frame.shape), "expected": sorted(expected),
                "allowed": sorted(allowed), "steps": steps,
                "partly": None if partly is None else sorted(partly)}
        try:
            ok, png = cv2.imencode(".png", frame)
            if not ok:
                raise OSError(f"scene {name} could not be encoded as PNG")
            # the picture first: a scene counts as cached once its JSON is there
            _write_whole(place / f"{i:05d}.png", png.tobytes())
            _write_whole(place / f"{i:05d}.json", json.dumps(meta).encode())
        except OSError as exc:
            if not self.warned:
                print(f"warning: scene cache {self.folder}: {exc}; going on without it",
                      file=sys.stderr)
                self.warned = True


def _write_whole(path: Path, data: bytes) -> None:
    """``data`` to ``path``, whole or not at all."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
