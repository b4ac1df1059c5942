"""``scripts/scene_cache.py`` and ``bench_vision.py --scene-cache``: rendered scenes kept on disk
and read back as the same frames (issue 16, forty-fifth step)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.bench_vision import main
from scripts.scene_cache import SceneCache, code_digest


class Renderer:
    """Stands in for the scene generator: seeded frames, and a count of the streams started."""

    def __init__(self, n: int) -> None:
        self.n, self.started = n, 0

    def __call__(self):
        self.started += 1
        rng = np.random.default_rng(7)
        for i in range(self.n):
            frame = rng.integers(0, 256, (30, 40, 3), np.uint8)
            yield (f"deck-{i:03d}", frame, {"10D", "QS"}, {"10D", "QS", "2C"},
                   {"10D": 9.5, "QS": 12.25}, {"2C"} if i % 2 else None)


def same(rows, expected) -> bool:
    return all(a[0] == b[0] and np.array_equal(a[1], b[1]) and a[2:] == b[2:]
               for a, b in zip(rows, expected, strict=True))


def test_scenes_are_rendered_once_and_read_back_the_same(tmp_path: Path) -> None:
    render, cache = Renderer(3), SceneCache(tmp_path, "v1")
    first = list(cache.rows("heldout", 5, 3, render))
    again = list(cache.rows("heldout", 5, 3, render))
    assert render.started == 1 and same(again, first) and same(first, list(Renderer(3)()))
    # a shorter run is a prefix of the stream: read too
    assert same(list(cache.rows("heldout", 5, 2, render)), first[:2]) and render.started == 1
    # another seed or kind is another stream
    list(cache.rows("heldout", 6, 3, render))
    list(cache.rows("fans", 5, 3, render))
    assert render.started == 3


def test_a_longer_run_renders_from_the_start_and_adds_what_is_missing(tmp_path: Path) -> None:
    cache = SceneCache(tmp_path, "v1")
    list(cache.rows("training", 1, 2, Renderer(2)))
    longer = Renderer(4)
    rows = list(cache.rows("training", 1, 4, longer))
    assert longer.started == 1 and same(rows, list(Renderer(4)()))
    assert same(list(cache.rows("training", 1, 4, longer)), rows) and longer.started == 1


def test_a_damaged_scene_is_rendered_again(tmp_path: Path) -> None:
    render, cache = Renderer(2), SceneCache(tmp_path, "v1")
    first = list(cache.rows("heldout", 5, 2, render))
    (tmp_path / "v1" / "heldout-5" / "00001.png").write_bytes(b"not a picture")
    assert same(list(cache.rows("heldout", 5, 2, render)), first) and render.started == 2
    assert same(list(cache.rows("heldout", 5, 2, render)), first) and render.started == 2


def test_a_cache_that_cannot_be_written_is_gone_without(tmp_path: Path, capsys) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache's folder would be")
    render = Renderer(2)
    rows = list(SceneCache(blocked, "v1").rows("heldout", 5, 2, render))
    assert same(rows, list(Renderer(2)()))
    err = capsys.readouterr().err
    assert err.count("warning: scene cache") == 1 and "going on without it" in err


def test_another_drawing_code_is_another_folder() -> None:
    assert code_digest() == code_digest()
    assert code_digest(["def make_scene(): ..."]) != code_digest()


@pytest.mark.parametrize("kind", ["heldout"])
def test_the_benchmark_reads_cached_scenes_as_rendered_ones(kind: str, tmp_path: Path,
                                                            capsys) -> None:
    run = ["--synthetic", kind, "--scenes", "2", "--seed", "11", "--runs", "1", "--json"]
    results = []
    for options in ([], ["--scene-cache", str(tmp_path)], ["--scene-cache", str(tmp_path)]):
        assert main([*run, *options]) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert len(list(tmp_path.rglob("*.png"))) == 2
    keys = ("cards", "read_right", "read_wrong", "misses", "by_size")
    assert results[0]["cards"] > 0
    assert all({k: r[k] for k in keys} == {k: results[0][k] for k in keys} for r in results)
