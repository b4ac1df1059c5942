"""Benchmark card recognition on labelled photos or on synthetic scenes of held-out deck designs.

    uv run python scripts/bench_vision.py DIR [--json] [--runs N] [--perturb MODE]
                                              [--deck NAME]
    uv run python scripts/bench_vision.py --synthetic heldout|fans|training|training-fans|drawn-fans
                                          (or oblique|training-oblique: a steep camera;
                                           closeup|training-closeup: cards close to it)
                                          [--scenes N]
                                          [--perturb MODE] [--proposals learned|classical|both]
    uv run python scripts/bench_vision.py --settle           # live reader on a busy 8-card frame
    ... [--first-model ONNX] [--second-model ONNX|none] [--third-model ONNX|none]
        [--detector-model ONNX] [--acceptance-factor F]
        [--combine seed-mean|lowest|either|mean] [--more-seeds ONNX ...]
        [--look-again named|all]                                    # a rule's reader
        [--zoom-join PX] [--sharp-mean F] [--stretch-look off|own|anchored] [--stretch-from P]
        [--skip-explained | --no-skip-explained] [--close-up | --no-close-up]
        [--anchored-votes] [--again-reach STEPS] [--second-seeds ONNX ...]
        [--one-glyph | --no-one-glyph]

DIR/labels.csv has a header ``file,cards`` and space-separated card codes per image. Prints each
image's expected and read cards, then card recall, card precision, the median and 95th-percentile
milliseconds per frame (wall clock, median over ``--runs`` timed runs per image, one thread;
``median_cpu_ms`` and ``p95_cpu_ms`` are the same in the process's CPU time, which a busy
machine disturbs less) and the images with misses. ``host_reference_ms`` times a fixed
workload (the function of that name): compare times from two machines by it. ``--perturb``
degrades every frame first: ``blur`` (Gaussian σ 1.5), ``dark`` (40 % brightness), ``jpeg``
(quality 30), ``rotate`` (turned 15°), ``small`` (640 px long side), ``warm`` (tungsten light on
a camera balanced for daylight: green × 0.82, blue × 0.6).

``--synthetic`` renders seeded 1280×960 table scenes (``scripts/vision_data``) of the deck designs
held out of training (``heldout``: singles, rows, fans, piles; ``fans``: fans only), in everyday
light (the hard conditions are the ``--perturb`` modes), another seed than training. A card is
expected when one of its printed indices is fully visible and legible (rank and suit centres at
least 8 px apart: a card about 50 px tall); reading a card that is in the scene but hidden counts
neither way, reading one that is not in the scene is wrong. The rendered sets also give the
recall by index size (``by_size``: the cards whose largest legible index has its rank-to-suit
step in each bin of ``SIZE_BINS``, px of the 1280-px scene, and how many of them were read):
under ``--perturb blur`` nearly all that is lost is indices under 16 px.

``--synthetic training`` renders the same kind of scenes of the *training* designs (another seed
than training), ``training-fans`` their fans alone: the sets on which thresholds may be chosen
(never ``cards-real``, never the held-out designs). ``oblique`` and ``training-oblique``
(fifty-seventh step): the same scenes with the camera looking across the table at OBLIQUE_TILT
degrees from straight down, the steep end of the 0-55 degrees every other set and the training
scenes draw from (a phone or tablet low beside the table). ``closeup`` and ``training-closeup``
(sixty-seventh step): one or two cards 0.6-0.95 of the frame tall, as a card held up to the
camera or a phone close above it (the other sets' cards are 90-560 px tall).

``--synthetic drawn-fans`` renders the fans of the recogniser's precision test
(``tests/vision/test_recognition.py``: the project's drawn deck, ``synth.random_fan``; that test is
``--seed 7 --scenes 12``) for as many scenes as asked: a wider check that no card is read that is
not there. Every card of a fan counts as expected, so its recall is the test's (most indices in
such a fan are visible, not all).

``--first-model``, ``--second-model`` and ``--third-model`` (either or ``none``),
``--detector-model`` and ``--acceptance-factor`` read with another index reader than the shipped
one: a rule's candidate (each threshold p of the shipped ``indices.Acceptance`` moved to
1 - F (1 - p); factors compose by multiplying, so since the fifty-fourth step, whose shipped
thresholds are the documented ones at rule EB's 1.9 (``indices.DOUBT``), a factor F of an
earlier rule is F / 1.9 here: the reader before rule DV is ``--acceptance-factor 0.5263
--more-seeds none``, the reader before rule EB ``--acceptance-factor 0.8947 --more-seeds
models/index_cnn_d.onnx``); ``--more-seeds`` the further training seeds in the seeds' mean
(the shipped fourth and fifth networks of rules DZ and EB by default; ``none``: the reader
before rule DZ); ``--second-seeds`` more training seeds of the second network's recipe, averaged
with it before it vetoes (rule EY's candidate; none shipped);
``--combine`` how the networks' probabilities make the reader's (``indices.COMBINES``);
``--look-again`` which detected indices the detector looks at again: ``all`` (shipped, rule EF)
also those that read as no card, ``named`` only those whose crop names a card (the reader before
the fifty-fifth step; ``indices.LOOK_AGAIN``); ``--zoom-join`` the zoomed pass's paper regions
grown by PX px at 640 first (``indices.ZOOM_JOIN``, rule EI); ``--sharp-mean F`` the networks'
plain mean at thresholds scaled by F on frames read unsharpened (rule EK); ``--stretch-look``
how unread crops cut again narrower and wider across their step are read
(``indices.STRETCHES``): at an anchored crop's threshold (``anchored``, shipped, rule EP), at
their own (``own``, rule EO) or not at all (``off``, the reader before the fifty-eighth step);
``--stretch-from P`` leaves the crops whose likeliest card is under P out of that look
(``indices.STRETCH_FROM``, 0.4 since rule FE; 0: the reader before); ``--skip-explained`` looks
no further in a card outline the detector's crops read in two corners (``explained.py``,
shipped by rule FF; ``--no-skip-explained`` the reader before); ``--close-up`` reads a frame
whose card outlines are all close to the camera at half the work size (``indices.CLOSE_SIZES``,
rule FG's candidate);
``--again-reach STEPS`` how far from the middle it looked at the detector's second look may
find an index (``index_detector.AGAIN_REACH``; rule ES's candidate 1.2); ``--no-one-glyph`` keeps
a reading that shares a glyph with a surer reading of another card (the reader before rule FA;
shipped, ``--one-glyph``, drops it: ``indices.one_glyph``). A
file not named is the shipped one: since the fifty-first step a first network alone is measured with
``--third-model none`` (the reader before it: the first and second networks, ``lowest``), and
rule DC's and DD's readers with ``--third-context 1.6`` (``indices.CONTEXT``) and ``--combine
lowest`` or ``either``. The JSON names them
(``reader``), so ``compare_readers.py`` can judge the candidate against a plain run; a file ONNX
Runtime cannot load is refused (exit 2).

``--proposals`` chooses where the index crops come from: ``learned`` (the index detector, the
default), ``classical`` (the ink-blob pairs, the pipeline before the detector) or ``both``;
``--always-whole-card`` runs the whole-card reader on every outline as before (by default it runs
only on outlines whose corner indices do not settle the card).

``--pipeline whole-card`` measures the recogniser without the index network (the pipeline before
issue 16), for before/after tables.

``--adapt-heldout`` adapts to each held-out design from ``--adapt-photos`` rendered photos that
together show its 52 cards (``scripts/vision_data/deck_photos.py``, seed ``--adapt-seed``;
with ``--adapt-by-suit``, four photos of one suit each, as the app's "Teach a deck" takes
them), then reads ``--scenes`` scenes and fans of it (seed ``--seed``) without and with the
adaptation, per design and pooled (``"totals"`` in the JSON); ``--tune`` prints a grid of
acceptance thresholds instead (use another ``--seed``). The real photos are never adapted to:
they are evaluation only.
"""

from __future__ import annotations

import argparse
import csv
import inspect
import json
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core: before numpy loads

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from dealer_assist.cards import parse_cards  # noqa: E402
from dealer_assist.errors import EXIT_UNREADABLE, InputError  # noqa: E402
from dealer_assist.vision import synth  # noqa: E402
from dealer_assist.vision.advice import SMALL_STEP, reader_steps, too_small  # noqa: E402
from dealer_assist.vision.calibration import load_deck  # noqa: E402
from dealer_assist.vision.exposure import blurred, exposed  # noqa: E402
from dealer_assist.vision.index_detector import AGAIN_REACH  # noqa: E402
from dealer_assist.vision.indices import (  # noqa: E402
    AVERAGING,
    COMBINES,
    LOOK_AGAIN,
    SHIPPED_CLOSE_UP,
    SHIPPED_COMBINE,
    SHIPPED_LOOK_AGAIN,
    SHIPPED_ONE_GLYPH,
    SHIPPED_SKIP_EXPLAINED,
    SHIPPED_STRETCH,
    STRETCH_FROM,
    STRETCH_NEEDS,
    WORK_LONG_SIDE,
    ZOOM_JOIN,
    Acceptance,
    IndexReader,
)
from dealer_assist.vision.model import model_path  # noqa: E402
from dealer_assist.vision.recognizer import Recognizer, single_threaded  # noqa: E402
from dealer_assist.vision.runtime import OnnxNet, load_error  # noqa: E402
from dealer_assist.vision.sources import read_image  # noqa: E402
from scripts.scene_cache import SceneCache, code_digest  # noqa: E402

PERTURBATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {}
LEGIBLE = 8  # px from rank to suit centre: a glyph about 8 px tall, a card about 50 px tall
# the rendered scenes' recall by index size: lower edges of the bins of a card's largest legible
# index, rank-to-suit step in px of the 1280-px scene (about a ninth of the card's height)
SIZE_BINS = (LEGIBLE, 12, 16, 20, 25, 32, 45)
# a rendered card none of whose indices is in full view, but one at least this visible, and each
# of its halves (the rank's, the suit's) too, is "partly covered": counted apart, not in the
# recall (issue 16, sixty-first step: the fans and piles a dealer sees hold many; a person reads
# most of them)
PARTLY = 0.6


def perturbation(name: str):
    def register(fn):
        PERTURBATIONS[name] = fn
        return fn
    return register


@perturbation("blur")
def _blur(frame: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(frame, (0, 0), 1.5)


@perturbation("dark")
def _dark(frame: np.ndarray) -> np.ndarray:
    return (frame.astype(np.float32) * 0.4).astype(np.uint8)


@perturbation("warm")
def _warm(frame: np.ndarray) -> np.ndarray:
    """Tungsten light (about 3000 K) on a camera balanced for daylight: less green, much less
    blue."""
    return cv2.convertScaleAbs(frame.astype(np.float32) * np.float32([0.6, 0.82, 1.0]))


@perturbation("jpeg")
def _jpeg(frame: np.ndarray) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 30])[1], 1)


@perturbation("rotate")
def _rotate(frame: np.ndarray) -> np.ndarray:
    h, w = frame.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), 15, 1.0)
    return cv2.warpAffine(frame, m, (w, h), borderMode=cv2.BORDER_REFLECT)


@perturbation("small")
def _small(frame: np.ndarray) -> np.ndarray:
    h, w = frame.shape[:2]
    f = 640 / max(h, w)
    return cv2.resize(frame, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)


# ---------------------------------------------------------------- items to read

class Item(NamedTuple):
    """One frame to read and what it shows."""

    name: str
    frame: np.ndarray
    expected: set[str]  # the cards a reader should read
    allowed: set[str]  # the cards it may read without being wrong (expected, or on the table)
    steps: dict[str, float] | None = None  # rendered scenes: each expected card's largest
    # legible index, as its rank-to-suit step in frame px (for the recall by index size)
    partly: set[str] | None = None  # rendered scenes: the cards partly covered (see PARTLY)


def photo_items(folder: Path, labels: list[tuple[str, set[str]]]) -> Iterator[Item]:
    for name, expected in labels:
        yield Item(name, read_image(folder / name), expected, expected)


# ``--synthetic oblique`` / ``training-oblique``: the camera's tilt from straight down, degrees
OBLIQUE_TILT = (45.0, 55.0)
# the ``--synthetic`` kinds rendered by synthetic_scenes (with the scene's true indices)
RENDERED_KINDS = ("heldout", "fans", "training", "training-fans", "oblique", "training-oblique",
                  "closeup", "training-closeup")


def synthetic_scenes(kind: str, scenes_n: int, seed: int, only: list[str] | None = None
                     ) -> Iterator[tuple[str, int, Any, Any, list]]:
    """(deck, number, scene, anchors, legible indices) of the seeded 1280×960 scenes of
    ``--synthetic kind``; an index is legible in full view (≥ 97 % visible) with its rank and
    suit centres ≥ LEGIBLE px apart (``scenes.IndexMark``)."""
    for deck, i, sc, anchors, marks in rendered_scenes(kind, scenes_n, seed, only):
        yield deck, i, sc, anchors, [m for m in marks if m.legible(LEGIBLE)]


def rendered_scenes(kind: str, scenes_n: int, seed: int, only: list[str] | None = None
                    ) -> Iterator[tuple[str, int, Any, Any, list]]:
    """:func:`synthetic_scenes` with every index of each scene, however visible."""
    from scripts.vision_data import decks, scenes

    held = decks.training_decks() if kind.startswith("training") else decks.held_out_decks()
    held = only or held
    if not held:
        raise SystemExit("no held-out deck installed (apt-get install kdegames-card-data-kf5)")
    rng = np.random.default_rng(seed)
    for i in range(scenes_n):
        deck = held[i % len(held)]
        faces = scenes.load_faces(deck)
        anchors = scenes.anchors_of(deck, faces)
        layout = ("fan" if kind.endswith("fans") else "closeup" if kind.endswith("closeup")
                  else None)
        low, high = OBLIQUE_TILT if kind.endswith("oblique") else (0.0, scenes.MAX_TILT)
        sc = scenes.make_scene(rng, faces, (1280, 960), kind=layout, mild=True,
                               min_tilt=low, max_tilt=high)
        yield deck, i, sc, anchors, scenes.visible_indices(sc, anchors)


def synthetic_items(kind: str, scenes_n: int, seed: int, only: list[str] | None = None
                    ) -> Iterator[Item]:
    if kind == "drawn-fans":  # the precision test's fans (tests/vision: seed 7, 12 scenes)
        rng = np.random.default_rng(seed)
        for i in range(scenes_n):
            frame, cards = synth.random_fan(rng, i)
            codes = {card.code for card in cards}
            yield Item(f"drawn-fan-{i:03d}", frame, codes, codes)
        return
    from scripts.vision_data import scenes

    for deck, i, sc, _anchors, marks in rendered_scenes(kind, scenes_n, seed, only):
        steps: dict[str, float] = {}
        for m in marks:
            if m.legible(LEGIBLE):
                steps[m.code] = max(steps.get(m.code, 0.0), m.step)
        partly = {m.code for m in marks
                  if m.step >= LEGIBLE and scenes.partly_visible(m.frac, m.glyph_frac, PARTLY)}
        yield Item(f"{deck}-{i:03d}", sc.image, set(steps), {c.code for c in sc.cards}, steps,
                   partly - set(steps))


def cached_items(root: Path, kind: str, scenes_n: int, seed: int) -> Iterator[Item]:
    """:func:`synthetic_items` kept in and read from the scene cache under ``root``
    (``scene_cache.py``: the same frames, rendered once)."""
    version = code_digest([inspect.getsource(rendered_scenes),
                           inspect.getsource(synthetic_items), f"LEGIBLE={LEGIBLE}",
                           f"OBLIQUE_TILT={OBLIQUE_TILT}", f"PARTLY={PARTLY}"])
    rows = SceneCache(root, version).rows(kind, seed, scenes_n,
                                          lambda: synthetic_items(kind, scenes_n, seed))
    for row in rows:
        yield Item(*row)


def evaluate(recognizer: Recognizer, items: Iterator[Item], runs: int, verbose: bool,
             perturb: str | None = None) -> dict:
    """Read every item ``runs`` times; recall, precision, median/p95 times and misses."""
    tp = fp = expected_total = images = sharpened = 0
    times: list[float] = []
    cpu_times: list[float] = []  # CPU time of the process (all its threads): less disturbed
    # by a busy machine than the wall clock
    misses: dict[str, dict[str, list[str]]] = {}
    sizes = [[0, 0] for _ in SIZE_BINS]  # per bin: cards expected, read
    advice = Counter()  # the "move closer" advice on each rendered frame alone
    partly_cards = partly_read = 0  # the partly covered cards (rendered scenes, see PARTLY)
    for name, frame, expected, allowed, steps, partly in items:
        rendered_side = max(frame.shape[:2])
        if perturb:
            frame = PERTURBATIONS[perturb](frame)
        wall, cpu = [], []
        for _ in range(runs):
            t0, c0 = time.perf_counter(), time.process_time()
            proposals = recognizer.read(frame)
            wall.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        times.append(statistics.median(wall))
        cpu_times.append(statistics.median(cpu))
        read = {p.code for p in proposals if p.code is not None}
        unknown = sum(p.card is None for p in proposals)
        images += 1
        sharpened += blurred(exposed(frame))  # its indices were read sharpened (rule BE)
        tp += len(read & expected)
        fp += len(read - allowed)
        expected_total += len(expected)
        partly = partly or set()
        partly_cards += len(partly)
        partly_read += len(read & partly)
        for code, step in (steps or {}).items():
            row = sizes[max(0, int(np.searchsorted(SIZE_BINS, step, side="right")) - 1)]
            row[0] += 1
            row[1] += code in read
        if steps:
            count_advice(advice, proposals, frame, steps, rendered_side, read)
        missed, wrong = sorted(expected - read), sorted(read - allowed)
        if missed or wrong:
            misses[name] = {"missed": missed, "wrong": wrong}
        if verbose:
            mark = "WRONG" if wrong else "MISS" if missed else "ok"
            extra = f" (+{unknown} unknown)" if unknown else ""
            print(f"{name}: expected {' '.join(sorted(expected))} | "
                  f"read {' '.join(sorted(read)) or '-'}{extra}  {mark}")
    return {
        "recall": round(tp / expected_total, 4) if expected_total else 0.0,
        "precision": round(tp / (tp + fp), 4) if tp + fp else 1.0,
        "median_ms": round(statistics.median(times), 2) if times else 0.0,
        "p95_ms": round(float(np.percentile(times, 95)), 2) if times else 0.0,
        "median_cpu_ms": round(statistics.median(cpu_times), 2) if cpu_times else 0.0,
        "p95_cpu_ms": round(float(np.percentile(cpu_times, 95)), 2) if cpu_times else 0.0,
        "images": images,
        "sharpened": sharpened,
        "cards": expected_total,
        "read_right": tp,
        "read_wrong": fp,
        "misses": misses,
        "by_size": [{"step_px": [lo, hi], "cards": n, "read": k} for lo, hi, (n, k)
                    in zip(SIZE_BINS, (*SIZE_BINS[1:], None), sizes, strict=True) if n],
        "advice": dict(advice),
        "partly_covered": {"cards": partly_cards, "read": partly_read},
    }


def count_advice(counts: Counter, proposals: list, frame: np.ndarray, steps: dict[str, float],
                 rendered_side: int, read: set[str]) -> None:
    """Count whether the panel's "move closer" advice (``advice.too_small``, on this frame
    alone) is given, against whether the scene's cards are small (the median of their largest
    legible indices' steps, as the reader sees them, under ``advice.SMALL_STEP``), and the
    cards read in the frames with and without it."""
    h, w = frame.shape[:2]
    hinted = too_small(reader_steps(proposals, (w, h)))
    shrink = max(h, w) / rendered_side * min(1.0, WORK_LONG_SIDE / max(h, w))
    small = float(np.median(list(steps.values()))) * shrink < SMALL_STEP
    side = "advised" if hinted else "quiet"
    counts["frames"] += 1
    counts["small_frames"] += small
    counts[f"{side}_frames"] += 1
    counts[f"{side}_small_frames"] += small
    counts[f"{side}_cards"] += len(steps)
    counts[f"{side}_read"] += len(read & set(steps))


def host_reference_ms(runs: int = 9) -> float:
    """Median process-CPU ms of a fixed workload (a seeded 1280×960 frame blurred, turned grey
    and edge-filtered; a 384×384 float32 matrix product), one thread: how fast this host is, so
    that times measured on different machines can be compared."""
    rng = np.random.default_rng(0)
    frame = rng.integers(0, 256, (960, 1280, 3), np.uint8)
    a = rng.standard_normal((384, 384)).astype(np.float32)
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        grey = cv2.cvtColor(cv2.GaussianBlur(frame, (0, 0), 1.5), cv2.COLOR_BGR2GRAY)
        cv2.Laplacian(grey, cv2.CV_16S)
        a @ a
        times.append((time.process_time() - t0) * 1000)
    return round(statistics.median(times), 2)


def host_networks_ms(runs: int = 9) -> float:
    """Median process-CPU ms of the shipped networks on fixed seeded inputs (the index detector
    on a 640×480 frame, the first index network on 60 crops), one ONNX Runtime thread: how fast
    this host runs them. :func:`host_reference_ms` does not tell machines apart there (the
    forty-sixth step's machine, AVX2 without AVX-512, ran them about twice as slowly at the same
    host reference)."""
    rng = np.random.default_rng(0)
    frame = rng.random((1, 3, 480, 640), np.float32)
    crops = rng.random((60, 3, 40, 28), np.float32)
    nets = [(OnnxNet(model_path("index_det", ".onnx")), frame),
            (OnnxNet(model_path("index_cnn", ".onnx")), crops)]
    for net, x in nets:
        net.run(x)  # the first run allocates
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        for net, x in nets:
            net.run(x)
        times.append((time.process_time() - t0) * 1000)
    return round(statistics.median(times), 2)


def host_speed() -> dict[str, float]:
    """Both host references, for a result's JSON."""
    return {"host_reference_ms": host_reference_ms(), "host_networks_ms": host_networks_ms()}


def settle_time(recognizer: Recognizer, seed: int, runs: int) -> dict:
    """Wall time for the live reader to settle every readable card of a busy 8-card frame."""
    from dealer_assist.vision.live import LiveReader
    from scripts.vision_data import decks, scenes

    deck = decks.held_out_decks()[0]
    faces = scenes.load_faces(deck)
    anchors = scenes.anchors_of(deck, faces)
    rng = np.random.default_rng(seed)
    while True:  # a frame of 8 cards, each with an index in full view
        sc = scenes.make_scene(rng, faces, (1280, 960), kind="single", max_tilt=20, mild=True)
        marks = scenes.visible_indices(sc, anchors)
        expected = {m.code for m in marks if m.frac >= 0.97}
        if len(sc.cards) == 8 and len(expected) == 8:
            break
    results = []
    for _ in range(runs):
        reader = LiveReader(recognizer=recognizer)
        t0, frames, settled = time.perf_counter(), 0, set()
        readable = {p.code for p in recognizer.read(sc.image)} & expected  # one frame's reading
        t0 = time.perf_counter()
        while settled < readable and frames < 20:
            update = reader.process(sc.image)
            frames += 1
            settled = {p.code for p in update.proposals if p.code is not None} & readable
        results.append(((time.perf_counter() - t0) * 1000, frames, len(settled)))
    ms = statistics.median(r[0] for r in results)
    return {"cards": len(expected), "settled_cards": results[0][2],
            "frames_to_settle": results[0][1], "settle_ms": round(ms, 1), "deck": deck,
            **host_speed()}


def adapt_heldout(args: argparse.Namespace, pipeline: dict, verbose: bool) -> dict:
    """Per held-out design: adapt to it from ``--adapt-photos`` rendered photos (seed
    ``--adapt-seed``), then read ``--scenes`` scenes and fans of it (seed ``--seed``) without and
    with the adaptation. ``--tune``: the adapted reading for a grid of thresholds instead."""
    from dealer_assist.vision.adapt import AdaptedIndexReader, adapt_frames
    from scripts.vision_data import decks
    from scripts.vision_data.deck_photos import deck_photos, suit_photos

    plain = Recognizer(**pipeline)
    out: dict = {}
    # (similarity, margin, stricter for detector pairs, veto margin): the last grid searched
    # (twenty-sixth step, rule BB); earlier ones covered similarity 0.7-0.9, margin 0-0.1,
    # stricter 0-0.1, veto 0-off
    grid = [(s, m, 0.05, 0.0) for s in (0.8, 0.825, 0.85, 0.875, 0.9) for m in (0.04, 0.06, 0.08)]
    for deck in decks.held_out_decks():
        seed = args.adapt_seed + len(out)
        photos = (suit_photos(deck, seed) if args.adapt_by_suit
                  else deck_photos(deck, args.adapt_photos, seed))
        t0 = time.perf_counter()
        adaptation, report = adapt_frames(photos, IndexReader(proposals=args.proposals),
                                          tuple(args.adapt_scales))
        report["adapt_s"] = round(time.perf_counter() - t0, 1)
        adapted = Recognizer(adaptation=adaptation, **pipeline)
        reader = adapted.index
        assert isinstance(reader, AdaptedIndexReader)
        row: dict = {"adaptation": report}
        for kind in ("heldout", "fans"):
            items = list(synthetic_items(kind, args.scenes, args.seed, [deck]))
            if args.tune:
                r = evaluate(plain, iter(items), 1, False, args.perturb)
                row[f"{kind} none"] = {k: r[k] for k in (
                    "recall", "precision", "read_right", "read_wrong", "cards")}
                for g in grid:  # similarity, margin, stricter, veto margin
                    reader.min_similarity, reader.min_margin, reader.stricter = g[:3]
                    reader.veto_margin = g[3]
                    r = evaluate(adapted, iter(items), 1, False, args.perturb)
                    row[f"{kind} {'/'.join(map(str, g))}"] = {k: r[k] for k in (
                        "recall", "precision", "read_right", "read_wrong", "cards")}
                continue
            row[kind] = {"before": evaluate(plain, iter(items), args.runs, False, args.perturb),
                         "after": evaluate(adapted, iter(items), args.runs, verbose,
                                           args.perturb)}
        out[deck] = row
        if verbose:
            print(f"{deck}: adapted from {report['frames']} photos in {report['adapt_s']} s: "
                  f"{report['samples']} of {report['crops']} crops kept, "
                  f"{len(report['cards'])} cards", flush=True)
    if args.tune:  # totals over the decks per threshold pair
        tune = {}
        for kind in ("heldout", "fans"):
            for key in [f"{kind} none"] + [f"{kind} {'/'.join(map(str, g))}" for g in grid]:
                tune[key] = {k: sum(out[d][key][n] for d in out) for k, n in (
                    ("right", "read_right"), ("wrong", "read_wrong"), ("cards", "cards"))}
        out["tune"] = tune
    return out


def adapt_table(result: dict) -> str:
    """The before/after table of :func:`adapt_heldout`'s result: a row per design and set, then
    the designs pooled per set (cards read, legible and wrong summed; no time)."""
    lines = ["| deck | set | before: recall · precision · median ms | after: recall · precision "
             "· median ms |", "|---|---|---|---|"]
    for deck, row in result.items():
        for kind in ("heldout", "fans"):
            if kind not in row:
                continue
            cells = [f"{_recall_precision(r)} · {r['median_ms']} (CPU {r['median_cpu_ms']})"
                     for r in (row[kind]["before"], row[kind]["after"])]
            lines.append(f"| {deck} | {kind} | {cells[0]} | {cells[1]} |")
    for kind, pooled in adapt_totals(result).items():
        cells = [_recall_precision(pooled[when]) for when in ("before", "after")]
        lines.append(f"| **all {len(result)}** | {kind} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines)


def adapt_totals(result: dict) -> dict[str, dict[str, dict]]:
    """Per set ("heldout", "fans"): the designs of :func:`adapt_heldout`'s result pooled,
    before and after adaptation: cards read right, wrong and legible, recall and precision."""
    totals: dict[str, dict[str, dict]] = {}
    for kind in ("heldout", "fans"):
        rows = [row[kind] for row in result.values() if kind in row]
        if not rows:
            continue
        totals[kind] = {}
        for when in ("before", "after"):
            right, wrong, cards = (sum(r[when][k] for r in rows)
                                   for k in ("read_right", "read_wrong", "cards"))
            totals[kind][when] = {
                "read_right": right, "read_wrong": wrong, "cards": cards,
                "recall": round(right / cards, 4) if cards else 0.0,
                "precision": round(right / (right + wrong), 4) if right + wrong else 1.0}
    return totals


def _recall_precision(r: dict) -> str:
    """Recall and precision from the counts (not from their rounded values)."""
    right, wrong, cards = r["read_right"], r["read_wrong"], r["cards"]
    recall = right / cards if cards else 0.0
    precision = right / (right + wrong) if right + wrong else 1.0
    return f"{recall:.1%} ({right}/{cards}) · {precision:.1%} ({wrong} wrong)"


def load_labels(folder: Path) -> list[tuple[str, set[str]]]:
    """(photo file, the cards it shows) per row of ``folder``'s labels.csv; InputError if the
    file is missing or is not such a table."""
    path = folder / "labels.csv"
    try:
        with open(path, newline="") as fh:
            return [(row["file"], {c.code for c in parse_cards(row["cards"])})
                    for row in csv.DictReader(fh)]
    except (OSError, UnicodeDecodeError, KeyError, ValueError) as exc:
        raise InputError(f"{path}: not a readable labels file (columns file, cards): "
                         f"{exc}") from exc


def summary(mode: str, r: dict) -> str:
    return (f"{mode}: recall {r['recall']:.1%} ({r['read_right']}/{r['cards']}), precision "
            f"{r['precision']:.1%} ({r['read_right']}/{r['read_right'] + r['read_wrong']}), "
            f"median {r['median_ms']} ms/frame, p95 {r['p95_ms']} ms (CPU median "
            f"{r['median_cpu_ms']} ms, p95 {r['p95_cpu_ms']} ms), {r['images']} images "
            f"({r['sharpened']} read sharpened as blurred), {len(r['misses'])} with misses"
            + (f"; host reference {r['host_reference_ms']} ms, networks "
               f"{r['host_networks_ms']} ms" if "host_reference_ms" in r else "")
            + by_size(r["by_size"]) + advice_line(r.get("advice", {}))
            + partly_line(r.get("partly_covered", {})))


def partly_line(p: dict) -> str:
    """The partly covered cards read, as a line of its own ("" where there are none)."""
    if not p.get("cards"):
        return ""
    return (f"\npartly covered (no index in full view, one {PARTLY:.0%} visible; not in the "
            f"recall): {p['read']}/{p['cards']} read")


def advice_line(a: dict) -> str:
    """The "move closer" advice's counts as a line of its own ("" for photos)."""
    if not a.get("frames"):
        return ""
    def recall(side: str) -> str:
        cards = a.get(f"{side}_cards", 0)
        return f"{a.get(f'{side}_read', 0)}/{cards}" if cards else "-"
    return (f"\n'move closer' advice on {a.get('advised_frames', 0)} of {a['frames']} frames "
            f"({a.get('advised_small_frames', 0)} of the {a['small_frames']} of small cards); "
            f"cards read where advised {recall('advised')}, elsewhere {recall('quiet')}")


def by_size(rows: list[dict]) -> str:
    """The recall by index size as a line of its own ("" for photos, whose sizes are unknown)."""
    if not rows:
        return ""
    cells = [f"{lo}–{hi or ''} px {k}/{n}" for (lo, hi), n, k in
             ((r["step_px"], r["cards"], r["read"]) for r in rows)]
    return "\nby index size (rank-to-suit step): " + ", ".join(cells)


def candidate_options(args: argparse.Namespace) -> dict[str, str | float]:
    """The candidate reader's options that were given (empty: the shipped reader)."""
    given = {"first": args.first_model, "second": args.second_model,
             "detector": args.detector_model, "acceptance_factor": args.acceptance_factor,
             "second_context": args.second_context, "third": args.third_model,
             "third_context": args.third_context,
             "more_seeds": " ".join(args.more_seeds) if args.more_seeds else None,
             "combine": None if args.combine == SHIPPED_COMBINE else args.combine,
             "look_again": (None if args.look_again == SHIPPED_LOOK_AGAIN
                            else args.look_again),
             "zoom_join": None if args.zoom_join == ZOOM_JOIN else args.zoom_join,
             "sharp_mean": args.sharp_mean,
             "stretch_look": (None if args.stretch_look == SHIPPED_STRETCH
                              else args.stretch_look),
             "anchored_votes": "yes" if args.anchored_votes else None,
             "one_glyph": (None if args.one_glyph == SHIPPED_ONE_GLYPH
                           else "yes" if args.one_glyph else "no"),
             "again_reach": None if args.again_reach == AGAIN_REACH else args.again_reach,
             "stretch_from": None if args.stretch_from == STRETCH_FROM else args.stretch_from,
             "skip_explained": (None if args.skip_explained == SHIPPED_SKIP_EXPLAINED
                                else "yes" if args.skip_explained else "no"),
             "close_up": (None if args.close_up == SHIPPED_CLOSE_UP
                          else "yes" if args.close_up else "no"),
             "second_seeds": (" ".join(map(str, args.second_seeds)) if args.second_seeds
                              else None)}
    return {k: (v if isinstance(v, float) else str(v)) for k, v in given.items()
            if v is not None}


def candidate_reader(args: argparse.Namespace) -> IndexReader:
    """The index reader of ``--first-model`` and the options beside it; ValueError with what is
    wrong if a file is not a network ONNX Runtime can load or the factor is out of range."""
    second, third = network_option(args.second_model), network_option(args.third_model)
    more_seeds = seeds_option(args.more_seeds)
    for option, path in (("--first-model", args.first_model), ("--second-model", second),
                         ("--detector-model", args.detector_model), ("--third-model", third),
                         *(("--more-seeds", path) for path in more_seeds or []),
                         *(("--second-seeds", path) for path in args.second_seeds or [])):
        if isinstance(path, Path) and (why := load_error(path)):
            raise ValueError(f"{option} {path}: {why}")
    acceptance = Acceptance()
    if args.acceptance_factor is not None:
        acceptance = acceptance.scaled(args.acceptance_factor)
    return IndexReader(path=args.first_model, proposals=args.proposals, second=second,
                       acceptance=acceptance, detector=args.detector_model,
                       second_context=args.second_context or 1.0, third=third,
                       third_context=args.third_context or 1.0, combine=args.combine,
                       more_seeds=more_seeds, look_again=args.look_again,
                       zoom_join=args.zoom_join, sharp_mean=args.sharp_mean,
                       stretch_look=args.stretch_look, anchored_votes=args.anchored_votes,
                       one_glyph=args.one_glyph,
                       again_reach=args.again_reach,
                       second_seeds=args.second_seeds or [],
                       stretch_from=args.stretch_from,
                       skip_explained=args.skip_explained, close_up=args.close_up)


def seeds_option(values: list[str] | None) -> list[Path] | None:
    """A ``--more-seeds`` value as IndexReader takes it: None (not given: the shipped seeds with
    the shipped third network), [] ('none') or the paths."""
    if values is None:
        return None
    return [] if [v.lower() for v in values] == ["none"] else [Path(v) for v in values]


def network_option(value: str | None) -> Path | bool | None:
    """An ``--second-model``/``--third-model`` value as IndexReader takes it: True (not given:
    the shipped file), None ('none') or the path."""
    if value is None:
        return True
    return None if value.lower() == "none" else Path(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path, nargs="?")
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per image")
    parser.add_argument("--perturb", choices=sorted(PERTURBATIONS))
    parser.add_argument("--pipeline", choices=["index", "whole-card"], default="index",
                        help="whole-card: without the index network (before issue 16)")
    parser.add_argument("--proposals", choices=["learned", "classical", "both"],
                        default="both", help="where the index crops come from: the learned "
                        "detector, the ink-blob pairs (before the detector), or both (default)")
    parser.add_argument("--always-whole-card", action="store_true",
                        help="run the whole-card reader on every outline (as before)")
    parser.add_argument("--synthetic", choices=[*RENDERED_KINDS, "drawn-fans"],
                        help="seeded rendered scenes instead of DIR: of the held-out or the "
                        "training deck designs (oblique: a steep camera; closeup: one or two "
                        "cards 0.6-0.95 of the frame tall), or the precision "
                        "test's drawn fans")
    parser.add_argument("--scenes", type=int, default=120)
    parser.add_argument("--seed", type=int, default=20261124)
    parser.add_argument("--scene-cache", type=Path, metavar="DIR",
                        help="with --synthetic: keep the rendered scenes in DIR and read them "
                        "from there the next time (scene_cache.py; about 1-2 MB a scene)")
    parser.add_argument("--settle", action="store_true",
                        help="time the live reader settling a busy 8-card frame")
    parser.add_argument("--adapt-heldout", action="store_true",
                        help="per held-out design: adapt from rendered photos, then read its "
                        "scenes and fans without and with the adaptation")
    parser.add_argument("--adapt-photos", type=int, default=6,
                        help="photos to adapt from (together they show all 52 cards)")
    parser.add_argument("--adapt-seed", type=int, default=5150)
    parser.add_argument("--adapt-by-suit", action="store_true",
                        help="adapt from four photos, one suit each (the app's Teach a deck)")
    parser.add_argument("--adapt-scales", type=float, nargs="+", default=[1.0],
                        help="read each adaptation photo at these scales")
    parser.add_argument("--tune", action="store_true",
                        help="with --adapt-heldout: a grid of acceptance thresholds (run it "
                        "with another --seed than the benchmark's)")
    parser.add_argument("--deck", help="use this adapted deck from the user's data folder")
    candidate = parser.add_argument_group(
        "another index reader (a rule's candidate; the shipped files and thresholds by default)")
    candidate.add_argument("--first-model", type=Path, metavar="ONNX",
                           help="the first index network")
    candidate.add_argument("--second-model", metavar="ONNX",
                           help="the second index network, or 'none' for the first alone")
    candidate.add_argument("--detector-model", type=Path, metavar="ONNX",
                           help="the index detector")
    candidate.add_argument("--second-context", type=float, metavar="K",
                           help="the second network sees its crop grown K times (rule DC)")
    candidate.add_argument("--third-model", metavar="ONNX",
                           help="the third network, asked as the second is, or 'none' for "
                           "the first two alone (the reader before the fifty-first step)")
    candidate.add_argument("--third-context", type=float, metavar="K",
                           help="the third network sees its crop grown K times (rule DC's "
                           "reader: 1.6; the shipped: 1, the first network's crop)")
    candidate.add_argument("--more-seeds", nargs="+", metavar="ONNX",
                           help="more training seeds of the first network's recipe, averaged "
                           "with the first and third (--combine seed-mean or mean), or 'none' for "
                           "the reader before rule DZ (default: the shipped ones)")
    candidate.add_argument("--second-seeds", nargs="+", type=Path, metavar="ONNX",
                           help="more training seeds of the second network's recipe, their "
                           "mean with the second network vetoing (rule EY's candidate)")
    candidate.add_argument("--combine", choices=COMBINES, default=SHIPPED_COMBINE,
                           help="how the networks' probabilities of a card make the reader's: "
                           "the first and third's mean vetoed by the second (the shipped "
                           "reader, rule DS), the lowest (each vetoes), 'either' (the first "
                           "and either other one, rule DD) or the mean of all (rule DE)")
    candidate.add_argument("--look-again", choices=LOOK_AGAIN, default=SHIPPED_LOOK_AGAIN,
                           help="which detected indices the detector looks at again: also "
                           "those that read as no card ('all', shipped, rule EF), or only "
                           "those whose crop names a card, unsure ('named', the reader before)")
    candidate.add_argument("--zoom-join", type=int, default=ZOOM_JOIN, metavar="PX",
                           help="the zoomed pass's regions of card paper grown by PX px at 640 "
                           "first, joining a small fan's specks (rule EI; shipped: %(default)s)")
    candidate.add_argument("--sharp-mean", type=float, metavar="F",
                           help="on frames read unsharpened, the plain mean of every network "
                           "at the thresholds scaled by F; blurred frames keep the second "
                           "network's veto (rule EK)")
    candidate.add_argument("--stretch-look", choices=STRETCH_NEEDS, default=SHIPPED_STRETCH,
                           help="unread crops that name a card cut again narrower and wider "
                           "across their step, for a steep camera: read at an anchored crop's "
                           "threshold (shipped, rule EP), their own (rule EO) or not at all "
                           "(off: the reader before)")
    candidate.add_argument("--stretch-from", type=float, default=STRETCH_FROM, metavar="P",
                           help="the stretched look leaves out crops whose likeliest card is "
                           "under P (shipped by rule FE: %(default)s; 0: the reader before)")
    candidate.add_argument("--skip-explained", action=argparse.BooleanOptionalAction,
                           default=SHIPPED_SKIP_EXPLAINED,
                           help="a card outline the detector's crops read as one card in two "
                           "corners gets no whole-frame pairs and no further looks (shipped, "
                           "rule FF; --no-skip-explained: the reader before)")
    candidate.add_argument("--close-up", action=argparse.BooleanOptionalAction,
                           default=SHIPPED_CLOSE_UP,
                           help="a frame whose card outlines are all close to the camera is read "
                           "at half the work size, the detector at half its (rule FG's "
                           "candidate; --no-close-up: the reader before)")
    candidate.add_argument("--anchored-votes", action="store_true",
                           help="an anchored crop votes in its detected index's group (rule "
                           "EQ's candidate)")
    candidate.add_argument("--one-glyph", action=argparse.BooleanOptionalAction,
                           default=SHIPPED_ONE_GLYPH,
                           help="drop a reading that shares a glyph with a surer reading of "
                           "another card (shipped, rule FA; --no-one-glyph: the reader before)")
    candidate.add_argument("--again-reach", type=float, default=AGAIN_REACH, metavar="STEPS",
                           help="how far from the middle it looked at the detector's second "
                           "look may find an index, in its steps (rule ES's candidate 1.2; "
                           "shipped: %(default)s)")
    candidate.add_argument("--acceptance-factor", type=float, metavar="F",
                           help="every acceptance threshold p moved to 1 - F (1 - p): F < 1 "
                           "stricter, F > 1 looser (indices.Acceptance.scaled)")
    args = parser.parse_args(argv)
    no_third = network_option(args.third_model) is None
    if args.combine == "either" and no_third:
        parser.error("--combine either needs a third network (the one that stands in)")
    if args.third_context is not None and (no_third or args.third_context <= 0):
        parser.error("--third-context needs a third network and must be over 0 (1: the "
                     "first network's crop)")
    if args.second_context is not None and args.second_context <= 0:
        parser.error("--second-context must be over 0 (1: the plain crop)")
    if args.second_seeds and network_option(args.second_model) is None:
        parser.error("--second-seeds are averaged with the second network: not with "
                     "--second-model none")
    if seeds_option(args.more_seeds) and args.combine not in AVERAGING:
        parser.error("--more-seeds are averaged with the first network: --combine seed-mean "
                     "or mean")
    single_threaded()
    pipeline: dict[str, Any] = {"index": args.pipeline == "index", "proposals": args.proposals,
                                "always_whole_card": args.always_whole_card}
    reader = candidate_options(args)
    if reader:
        if args.deck or args.adapt_heldout or args.pipeline != "index":
            parser.error("a candidate reader's options (--first-model, --acceptance-factor, "
                         "...) read with the index pipeline, without a deck")
        try:
            pipeline["index_reader"] = candidate_reader(args)
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_UNREADABLE
    verbose = not args.json
    if args.settle:
        result = settle_time(Recognizer(**pipeline), args.seed, max(1, args.runs))
        print(json.dumps(result) if args.json else
              f"settled {result['settled_cards']} of {result['cards']} cards in "
              f"{result['frames_to_settle']} frames, "
              f"{result['settle_ms']} ms (deck {result['deck']}; host reference "
              f"{result['host_reference_ms']} ms, networks {result['host_networks_ms']} ms)")
        return 0
    if args.adapt_heldout:
        result = adapt_heldout(args, pipeline, verbose)
        if args.json:
            print(json.dumps(result if args.tune else {**result, "totals": adapt_totals(result)}))
        elif args.tune:
            for key, t in result["tune"].items():
                print(f"{key}: {t['right']}/{t['cards']} right, {t['wrong']} wrong")
        else:
            print(adapt_table(result))
        return 0
    if args.synthetic:
        recognizer = Recognizer(**pipeline)
        items = (cached_items(args.scene_cache, args.synthetic, args.scenes, args.seed)
                 if args.scene_cache else synthetic_items(args.synthetic, args.scenes,
                                                          args.seed))
        result = evaluate(recognizer, items, args.runs, verbose, args.perturb)
        result["mode"] = f"synthetic {args.synthetic} ({args.pipeline})"
        result["seed"], result["scenes"] = args.seed, args.scenes
    elif args.dir is None:
        parser.error("give DIR, --synthetic or --settle")
    else:
        try:
            recognizer = load_deck(args.deck).recognizer(**pipeline) if args.deck else \
                Recognizer(**pipeline)
            result = evaluate(recognizer, photo_items(args.dir, load_labels(args.dir)),
                              args.runs, verbose, args.perturb)
        except (ValueError, OSError) as exc:  # the deck, labels.csv or a photo it names
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_UNREADABLE
        result["mode"] = (f"deck {args.deck}" if args.deck else "not adapted") + \
            f" ({args.pipeline})"
    if args.perturb:
        result["mode"] += f", perturbed: {args.perturb}"
    if reader:
        result["reader"] = reader
    result.update(host_speed())
    if args.json:
        print(json.dumps(result))
    else:
        print(summary(result["mode"], result))
        if reader:
            print("candidate reader: " + ", ".join(f"{k} {v}" for k, v in reader.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
