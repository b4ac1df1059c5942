"""Find and read printed corner indices (rank over suit) anywhere in a frame, card outline or not.

Proposals: the index detector (``index_detector.py``) gives index positions with a rough
rank-to-suit geometry; ink-blob pairs (``ink_pairs.py``) sharpen it near each detected index and,
over the whole frame, find the indices the detector missed. Each proposal's upright crop is read
by a small convolutional network (``models/index_cnn.onnx``, run by ONNX Runtime) as one of the
52 cards or *not an index*; only confident readings are kept, and readings of the same card close
together are merged. Crops the network is unsure of get a second look (cut again several ways),
and a detected index whose rough crop names a card unsurely is shown to the detector again at a
standard scale (``IndexDetector.look_again``). Unread crops that name a card are also cut
narrower and wider across their step (the stretched look: a camera low beside the table
foreshortens an index), and read where both cuts of one side agree surely enough.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path

import cv2
import numpy as np

from dealer_assist.cards import Card, parse_card
from dealer_assist.vision.detect import DETECT_LONG_SIDE, scaled_down, white_mask
from dealer_assist.vision.explained import explained, inside, long_side, without
from dealer_assist.vision.exposure import blurred, unsharp
from dealer_assist.vision.index_detector import AGAIN_REACH, DET_LONG_SIDE, IndexDetector
from dealer_assist.vision.ink_pairs import (
    MIN_GLYPH,
    Candidate,
    agrees,
    anchored_pairs,
    candidate,
    crop,
    find_candidates,
    glyph_blobs,
    local_pairs,
    recut,
    rescaled,
    stretched,
    widened,
    window_blobs,
)
from dealer_assist.vision.model import model_path
from dealer_assist.vision.runtime import OnnxNet

# frames are searched at this size: larger ones scaled down, smaller ones enlarged (cubic, at
# most ENLARGE_MOST times; the glyph sizes and ink thresholds below are in work pixels). On
# --synthetic training scaled to 640 px (seventh step): as they are 165 cards (1 wrong), x1.25
# 170, x1.5 173 (the same wrong one), x1.75 and x2 182 (2 wrong): x1.5 until the twenty-fifth
# step. Then (rules AW, AX; docs/vision-results.md) x2: on the training designs at 640 px
# 2 827 cards, 13 wrong, against 2 794 and 17 (x1.75 2 825, 13), confirmed on fresh scenes
WORK_LONG_SIDE, ENLARGE_MOST = 1280, 2.0
RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CLASSES = ("none", *(r + s for s in "SHDC" for r in RANK_CODES))


@dataclass(frozen=True, slots=True, eq=False)
class IndexRead:
    """A corner index read as ``card`` with probability ``prob``. Compared by identity (two
    readings of the same card at the same probability are still two readings)."""

    card: Card
    prob: float
    candidate: Candidate


def normalise(crops: np.ndarray) -> np.ndarray:
    """Crops (N, H, W, 3) uint8 to the network's input (N, 3, H, W) float32: each crop's own
    contrast stretched to 0..1 (so dim light and colour casts look like daylight)."""
    flat = crops.reshape(len(crops), -1)
    lo = flat.min(axis=1).astype(np.float32).reshape(-1, 1, 1, 1)
    hi = _percentile95(flat).reshape(-1, 1, 1, 1)
    x = np.clip((crops.astype(np.float32) - lo) / np.maximum(hi - lo, 16.0), 0, 1)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


def _percentile95(rows: np.ndarray) -> np.ndarray:
    """``np.percentile(rows, 95, axis=1)`` (linear) of uint8 ``rows``, from each row's histogram:
    the k-th smallest value is the number of values whose cumulative count is at most k (twice
    as fast as a partial sort, four times as np.percentile)."""
    n, m = rows.shape
    pos = 0.95 * (m - 1)
    k = int(pos)
    offsets = np.arange(n, dtype=np.int32)[:, None] * 256
    cumulative = np.bincount((rows + offsets).ravel(), minlength=256 * n).reshape(n, 256)
    cumulative = cumulative.cumsum(axis=1)
    below = (cumulative <= k).sum(axis=1).astype(np.float32)
    above = (cumulative <= k + 1).sum(axis=1).astype(np.float32)
    return below + (above - below) * np.float32(pos - k)


PROPOSERS = ("learned", "classical", "both")
# How sure the networks must be (chosen on synthetic scenes of the training designs, bench_vision
# --synthetic training, 80 scenes, 221 legible cards; never on cards-real or the held-out designs).
# A crop cut by the detector's own (rough) rank/suit estimate: DETECTOR_PAIR_PROB; crops cut by
# ink-blob centres: MIN_PROB. The crops of one detected index (its blob pairs and its own pair)
# are also read together: a card that at least GROUP_VOTES of them name first, at a mean
# probability ≥ GROUP_PROB, is read even if no crop alone is sure enough. (All of them, with the
# thresholds below, make the reader's Acceptance.)
# Seventh step (two networks, the lower probability of both, see SECOND_FROM): with everything
# else as it was, DETECTOR_PAIR_PROB 0.99 and 0.97 read 206 and 207 cards, none wrong, 0.95 207
# with one wrong; CLASSICAL_PROB 0.99 206, 0.97, 0.95 and 0.93 207, none wrong; min_prob 0.9 and
# GROUP_PROB 0.8 one wrong card more, GROUP_PROB 0.85 the same cards as 0.9. Together (with the
# second look's AGAIN_MEAN at 0.9): 208 cards, none wrong. (One network, sixth step: 0.99 both,
# 205 cards, one wrong.)
MIN_PROB = 0.95
DETECTOR_PAIR_PROB = 0.97
# A crop cut by a whole-frame ink-blob pair that no detected index vouches for (proposals "both"):
# CLASSICAL_PROB (see above).
CLASSICAL_PROB = 0.97
# ...and at most this many of them a frame, the inkiest (with 160, as the classical proposals
# alone take, the same 199 cards on those scenes; with 60, 198): they are what "both" costs
CLASSICAL_MOST = 100
# They are looked for on card paper only (the white mask's regions, grown by this share of its
# long side: 15 px at 640): on those scenes the same 190 cards as over the whole frame (with a
# 5-px margin 189 and one more wrong, glyphs at a card's edge cut), and a third less time on
# the real photos, whose tables are textured
PAPER_MARGIN = 15 / 640
GROUP_PROB = 0.9
GROUP_VOTES = 2
# A crop cut on one glyph of a detected index that has no blob pair and the detector's step
# (ink_pairs.anchored_pairs) is read this sure, alone: it votes in no group and gets no second
# look. Fifteenth step, on the training designs (training240 and training-fans120 of seed
# 20261126, training240 and training-fans200 of seed 20261129): 0.99 alone 1 969 cards against
# 1 962, no set more wrong; 0.97, or in the group votes, or with second looks, 1 976-1 984 but
# one or two wrong readings more (second looks of crops first read at 0.84 and 0.97)
ANCHORED_PROB = 0.99
# Small regions of card paper (a long side of ZOOM_MIN_SIDE to ZOOM_MAX_SIDE px at the
# detector's scale, plus ZOOM_MARGIN of it around) are shown to the detector again at ZOOM times
# its scale: the indices of a fan or of a card far from the camera are too small for it at 640 px
# (issue 16, sixth step). A legible index (8 px at 1280) is on a card about 25 px tall at 640;
# a fan of cards whose indices the detector misses (under ~6 px at 640) spans about 120 px. Its
# peaks must reach ZOOM_MIN_PEAK, and it looks at ZOOM_AREA of its main input's pixels at most,
# the smallest regions first. Chosen on --synthetic training (80 scenes): a longest side of 80,
# 120 or 200 px read the same cards; peaks from 0.2 or 0.3 one wrong card more, from 0.4 or 0.5
# none (206 cards), 0.6 one card fewer; a budget of 0.25, 0.5, 1 or none, the same cards (0.5:
# one region of the longest side fits). ZOOM (thirteenth step; 2 until then), on --synthetic
# training (240 scenes) and training-fans (120), seed 20261126: 2 read 789 cards, 13 wrong / 136,
# 4 wrong; 2.5 792 / 137; 3 790 / 136; 4 790 / 137, none more wrong. 2.5 confirmed on fresh
# scenes (seed 20261127: 80 training-design, 80 held-out-design, 40 fans): 627 of 782, 6 wrong,
# against 625, 6.
ZOOM, ZOOM_MIN_SIDE, ZOOM_MAX_SIDE, ZOOM_MARGIN = 2.5, 24, 120, 0.15
ZOOM_MIN_PEAK = 0.5
ZOOM_AREA = 0.5
# The paper regions the zoomed pass looks at are the card-white mask's, each grown by ZOOM_JOIN
# px (at DETECT_LONG_SIDE) first, so that the fragments of one small fan, whose ink cuts its
# paper into specks under ZOOM_MIN_SIDE, make one region (fifty-sixth step, rule EI; 0: as the
# mask is, the reader before)
ZOOM_JOIN = 0
# A card close to the camera (rule FG's candidate, sixty-seventh step): its index is too big for
# the detector, taught on rank-to-suit steps of 2.5-48 px at its input. A frame whose card
# outlines are all CLOSE_FROM px long or more at the detector's size (48 px times 5.7, the least
# of the middle half of a card's long side over its step, EXPLAINED_STEPS' choice on the
# training designs) is read at CLOSE_SIZES: its work image at the outline search's 640 px, the
# detector at half that, where its indices are in the detector's range
CLOSE_FROM = 48 * 5.7
# (work image long side, most enlargement, detector's input long side): at a card's usual size,
# and close to the camera (an index 24 px or more apart at 640 px: more than a 40x28 crop needs)
USUAL_SIZES, CLOSE_SIZES = (WORK_LONG_SIDE, ENLARGE_MOST, DET_LONG_SIDE), (640, 1.0, 320)
# A second look at the crops the network is unsure of (the card it names first at AGAIN_FROM
# or more, below what the crop needs): each is cut again at other scales and a little off its
# centre (LOOKS: scale of the rank-to-suit step, shift across and along it in steps), and read
# when the mean probability of that card over all its cuts is AGAIN_MEAN or more and at least
# AGAIN_VOTES of the new cuts name it first; at most AGAIN_MOST crops a frame, surest first.
# Chosen on --synthetic training (see docs/vision-results.md). Seventh step, two networks, the other
# thresholds as they were: AGAIN_MEAN 0.85 read 207 cards, 0.875 and 0.9 206, none wrong, 0.8
# 208 with two wrong; with the thresholds above lowered to 0.97, 0.85 and 0.9 both 208, none
# wrong. 0.9 because at 0.85 a held-out design's scene of test_adapt reads a Q♦ beside a card's
# edge as 10♦ at a mean of 0.857 (the sixth step's 0.95 was likewise moved up from 0.925 by a
# held-out scene). A first reading below 0.7 would need its new cuts at 0.98 on average; from
# 0.5 or 0.7, 24 or 12 crops a frame, the same cards
AGAIN_FROM, AGAIN_MEAN, AGAIN_VOTES, AGAIN_MOST = 0.7, 0.9, 7, 12
# What the detector looks at again (IndexReader._detected_again): "named", the reader's until
# the fifty-fifth step, the detected indices whose own crop names a card, unsure; "all", shipped
# (rule EF, issue 16's fifty-fifth step), also those whose crop reads as no card, where no crop
# of that detected index was read: a blurred index the detector placed half a step off, at most
# AGAIN_BLANK_MOST a frame (the strongest peaks first), their new cut read at the detector
# pair's threshold
LOOK_AGAIN = ("named", "all")
SHIPPED_LOOK_AGAIN = "all"
AGAIN_BLANK_MOST = 20
LOOKS = ((0.8, 0.0, 0.0), (0.9, 0.0, 0.0), (1.1, 0.0, 0.0), (1.25, 0.0, 0.0),
         (1.0, 0.12, 0.0), (1.0, -0.12, 0.0), (1.0, 0.0, 0.12), (1.0, 0.0, -0.12))
# A stretched look (fifty-eighth step; shipped by rule EP): at a steep camera an index is
# foreshortened, and the crop the rank-to-suit step cuts (a similarity) squashes or stretches it
# across the step. The unread crops whose likeliest class is a card (at most STRETCH_MOST a
# frame, surest first; not anchored ones) are cut again STRETCHES times as wide across the step
# (two narrower, two wider); a card that both cuts of one side name first, at a mean
# probability of at least what STRETCH_NEEDS says, is read (the narrower side first): "own",
# what the crop needs alone (rule EO: failed, four more wrong readings on the choice seeds);
# "anchored", the larger of that and what an anchored crop needs (rule EP, shipped: on fresh
# seeds 0.5 % more cards, 2.5 % more at a 45-55 degree camera); "off", none (the reader before)
STRETCHES = ((0.6, 0.75), (1.33, 1.67))
STRETCH_MOST = 12
# STRETCH_FROM, the least probability of its likeliest card a crop needs for this look, is set
# after SECOND_FROM below
STRETCH_NEEDS = ("off", "own", "anchored")
SHIPPED_STRETCH = "anchored"
# One glyph, one card (rule FA, sixty-third step; see SHARED_GLYPH): shipped on; off, the reader
# before
SHIPPED_ONE_GLYPH = True
# A second index network (``models/index_cnn_b.onnx``: wider, trained on another render of the
# scenes, see docs/vision.md) gives its opinion on every crop the first names a card at
# SECOND_FROM or more: that crop's probability of each class is then the lower of the two
# networks' (seventh step; on --synthetic training the lower read 206 cards and none wrong at the
# thresholds above as they were, the mean 206 and one wrong). Below SECOND_FROM the lower stays
# under AGAIN_FROM, where the lowest rule starts, so the other crops keep the first network's.
# Since the twenty-fifth step the file is the network's int8 copy (build_index_model.py quantize;
# rule AV): half its float time, and on the training designs as many cards, as precisely.
SECOND_MODEL = "index_cnn_b"
SECOND_FROM = 0.4
# The stretched look (STRETCHES) leaves out the crops whose likeliest card is under SECOND_FROM,
# where the second network is not asked either (rule FE, sixty-sixth step: on fresh seeds the
# p95 frame time 61.2 ms against 66.7, at 10 of 10 384 cards; 0, every unread crop that names a
# card, is the reader before)
STRETCH_FROM = SECOND_FROM
# Rule FF (sixty-seventh step, shipped): a card outline the detector's crops read as one card in
# two corners is looked at no more (explained.py): on fresh seeds the same cards in full view
# (11 173 of 11 173), the p95 frame time 53.4 ms against 65.7 and 0.92 times the instructions;
# False: the reader before
SHIPPED_SKIP_EXPLAINED = True
# Rule FG's candidate (sixty-seventh step): a frame of cards close to the camera read at
# CLOSE_SIZES; False: the reader before
SHIPPED_CLOSE_UP = False
# A third index network (``models/index_cnn_c.onnx``, since the fifty-first step): the first
# network's recipe with another training seed, shown the first network's own crop, asked when the
# second is. The two seeds' mean is one opinion, which the second network vetoes (COMBINES'
# "seed-mean", rule DS): each seed is sure of some wrong cards the other is not, so on fresh
# scenes the pair read 0.9 % more cards than the first alone with 20 wrong readings against 31.
THIRD_MODEL = "index_cnn_c"
# Further seeds of the recipe (``models/index_cnn_d.onnx``, since the fifty-third step, rule DZ:
# its third seed; ``models/index_cnn_e.onnx``, since the fifty-fourth, rule EB: its fourth),
# shown the first network's crop and averaged with the first and third. They come with the
# shipped third network and the seed-mean: a reader without them has none.
MORE_SEED_MODELS = ("index_cnn_d", "index_cnn_e")
SHIPPED_COMBINE = "seed-mean"
# Rules DV and DX (fifty-third step): the seeds' precision spent on looser thresholds. Every
# threshold p above is read at 1 - DOUBT (1 - p) (``Acceptance.scaled``; the constants keep their
# histories). On fresh scenes (rule AM, docs/vision-results.md) 1.3 read 1.2 % more cards than
# 1 with 28 wrong readings against 21, and 1.5 0.4 % more than 1.3 with 33 against 28; 1.7 made
# more wrong readings than the bar allowed with three networks, but not with the fourth (rule
# DZ): 0.5 % more cards than 1.5 with three, 41 wrong readings against 39; 1.9 with the fifth
# (rule EB, fifty-fourth step): 0.3 % more cards than 1.7 with four, 30 against 25.
DOUBT = 1.9
CONTEXT = 1.6  # a network that sees around the index: its crop's quad grown this much (rule DC)
Context = tuple[np.ndarray, list[Candidate]]  # a work image and the candidates cut from it


def loosened(p: float, doubt: float = DOUBT) -> float:
    """A documented threshold ``p`` as the shipped reader applies it: 1 - ``doubt`` (1 - p)."""
    return 1 - doubt * (1 - p)


@dataclass(frozen=True)
class Acceptance:
    """How sure the networks must be for a reading, by where it comes from (the defaults are the
    constants above, with their histories, loosened by DOUBT): ``blob_pair`` a crop cut by
    ink-blob centres, ``detector_pair`` by the detector's own pair, ``whole_frame`` by a
    whole-frame pair, ``anchored`` an anchored crop; ``group`` the mean of a detected index's
    crops, ``again_mean`` a second look's. A rule that tries other thresholds makes another one
    (``scaled``)."""

    blob_pair: float = loosened(MIN_PROB)
    detector_pair: float = loosened(DETECTOR_PAIR_PROB)
    whole_frame: float = loosened(CLASSICAL_PROB)
    anchored: float = loosened(ANCHORED_PROB)
    group: float = loosened(GROUP_PROB)
    again_mean: float = loosened(AGAIN_MEAN)

    def scaled(self, factor: float) -> Acceptance:
        """Every threshold p moved to 1 - ``factor`` (1 - p): stricter below 1, looser above
        (issue 16's rules BP and BU call ``factor`` the doubt factor d)."""
        moved = [loosened(p, factor) for p in self.values()]
        if factor <= 0 or min(moved) <= 0:
            raise ValueError(f"the factor must be over 0 and keep every threshold over 0, "
                             f"not {factor}")
        return Acceptance(*moved)

    def values(self) -> tuple[float, ...]:
        """The thresholds in the order of the fields."""
        return tuple(getattr(self, f.name) for f in fields(self))


class IndexReader:
    """The index network; :meth:`read` gives the confident index readings of a frame.

    ``proposals``: where the crops come from: ``learned`` (the index detector,
    ``models/index_det.onnx``), ``classical`` (:func:`find_candidates`, the ink-blob pairs) or
    ``both``. ``second``: the second network's file, ``True`` for the shipped one (if present),
    ``None`` for none; ``third``, likewise the third network's (THIRD_MODEL). ``path``,
    ``detector``: the first network's and the detector's files (None: the shipped ones);
    ``acceptance``: the thresholds (the shipped ones); ``combine`` (one of COMBINES): how a
    class's probability is made of the networks' (see :func:`combined`). A rule's candidate only
    (issue 16, rules DC, DD and DE; none shipped): ``second_context`` and ``third_context``, the
    factors the second and third networks' crops are grown by (``ink_pairs.widened``; the
    shipped networks see the first network's crop, 1). ``more_seeds``: files of more training
    seeds of the first network's recipe, shown its crop and averaged with the first and third
    (``combine="seed-mean"``, or ``"mean"``: rule ED's candidate); None for the shipped ones
    (MORE_SEED_MODELS, rule DZ) when the third network and the combination are the shipped
    ones, else none. ``look_again`` (one of LOOK_AGAIN): which detected indices the detector
    looks at again (the shipped "all", rule EF; "named" the reader before it). ``zoom_join``:
    the zoomed pass's paper regions grown by this many px first (ZOOM_JOIN, rule EI).
    ``sharp_mean``: a rule's candidate (EK): on a frame that is not sharpened
    (``exposure.blurred``), the networks' plain mean ("mean") at the thresholds scaled by this
    factor (``Acceptance.scaled``), the second network's veto kept for blurred frames.
    ``stretch_look`` (one of STRETCH_NEEDS): unread crops cut again narrower and wider across
    their step, read at an anchored crop's threshold (the shipped "anchored", rule EP), at
    their own ("own", rule EO), or not at all ("off", the reader before).
    ``anchored_votes``: rule EQ's candidate, an anchored crop votes in its detected index's
    group (see GROUP_VOTES; alone it still needs the acceptance's ``anchored``).
    ``again_reach``: how far, in steps, the detector's second look may find an index from the
    middle it looked at (``IndexDetector.look_again``; AGAIN_REACH as shipped, rule ES's
    candidate 1.2). ``second_seeds``: rule EY's candidate, files of more training seeds of the
    second network's recipe, whose softmax is averaged with the second network's before it
    vetoes (:class:`SeedMean`; none shipped). ``one_glyph``: a reading that shares a glyph
    with a surer reading of another card is dropped (:func:`one_glyph`; shipped, rule FA;
    False: the reader before). ``stretch_from``: the stretched look leaves out the crops whose
    likeliest card is less probable than this (STRETCH_FROM, shipped by rule FE; 0: the
    reader before). ``skip_explained``: a card outline (given to :meth:`read`) that the
    detector's crops read as one card in two corners gets no whole-frame pairs and no further
    looks (``explained.py``; shipped by rule FF, SHIPPED_SKIP_EXPLAINED; False: the reader
    before). ``close_up``: rule FG's candidate, a frame whose card outlines are all close to the
    camera is read at CLOSE_SIZES (:func:`close_to_camera`; SHIPPED_CLOSE_UP).
    """

    def __init__(self, path=None, proposals: str = "both", second: Path | bool | None = True,
                 acceptance: Acceptance | None = None, detector: Path | None = None,
                 second_context: float = 1.0, third: Path | bool | None = True,
                 third_context: float = 1.0, combine: str = SHIPPED_COMBINE,
                 more_seeds: Sequence[Path] | None = None,
                 look_again: str = SHIPPED_LOOK_AGAIN, zoom_join: int = ZOOM_JOIN,
                 sharp_mean: float | None = None, stretch_look: str = SHIPPED_STRETCH,
                 anchored_votes: bool = False, again_reach: float = AGAIN_REACH,
                 second_seeds: Sequence[Path] = (),
                 one_glyph: bool = SHIPPED_ONE_GLYPH,
                 stretch_from: float = STRETCH_FROM,
                 skip_explained: bool = SHIPPED_SKIP_EXPLAINED,
                 close_up: bool = SHIPPED_CLOSE_UP) -> None:
        if proposals not in PROPOSERS:
            raise ValueError(f"proposals must be one of {', '.join(PROPOSERS)}")
        if combine not in COMBINES:
            raise ValueError(f"combine must be one of {', '.join(COMBINES)}")
        if look_again not in LOOK_AGAIN:
            raise ValueError(f"look_again must be one of {', '.join(LOOK_AGAIN)}")
        if stretch_look not in STRETCH_NEEDS:
            raise ValueError(f"stretch_look must be one of {', '.join(STRETCH_NEEDS)}")
        if zoom_join < 0:
            raise ValueError(f"zoom_join is a number of pixels, 0 or more, not {zoom_join}")
        if more_seeds is None:
            more_seeds = shipped_seeds() if combine == "seed-mean" and third is True else []
        if more_seeds and combine not in AVERAGING:
            raise ValueError("more seeds of the first network are averaged: combine seed-mean "
                             "or mean")
        self.path = path or model_path("index_cnn", ".onnx")
        self.net = OnnxNet(self.path)
        self.second = shipped_or(second, SECOND_MODEL)
        if second_seeds:
            if self.second is None:
                raise ValueError("more seeds of the second network need a second network")
            self.second = SeedMean([self.second, *(OnnxNet(path) for path in second_seeds)])
        self.third = shipped_or(third, THIRD_MODEL)
        self.more_seeds = [OnnxNet(path) for path in more_seeds]
        self.contexts = (second_context, third_context)
        self.combine = combine
        self.acceptance = acceptance or Acceptance()
        self.proposals = proposals
        self.detector = (IndexDetector(detector, again_reach=again_reach)
                         if proposals != "classical" else None)
        self.look_again = look_again
        self.zoom_join = zoom_join
        # rule EK's candidate: on frames read unsharpened, the plain mean of every network at
        # these thresholds instead (None: every frame as the others)
        self.sharp = None if sharp_mean is None else ("mean", self.acceptance.scaled(sharp_mean))
        self.stretch_look = stretch_look
        self.stretch_from = stretch_from
        self.anchored_votes = anchored_votes
        self.one_glyph = one_glyph
        self.skip_explained = skip_explained
        self.close_up = close_up
        self.sizes = USUAL_SIZES  # the sizes the frame being read is read at (CLOSE_SIZES)

    @property
    def min_prob(self) -> float:
        """What a crop cut by ink-blob centres needs, the least any single crop needs."""
        return self.acceptance.blob_pair

    def candidates(self, small: np.ndarray, scaled: np.ndarray | None = None,
                   paper: np.ndarray | None = None) -> list[tuple[Candidate, float, int]]:
        """The crops to read in a frame at work size, each with the probability it needs alone
        and its group: the detector peak it came from (-1: a classical ink-blob pair).
        ``scaled``: ``small`` already scaled to the detector's input size, if the caller has it;
        ``paper``: the frame's card-white mask (``detect.white_mask``, any scale), likewise."""
        paper = self._paper(small, scaled, paper)
        cands, detected = self._detected_candidates(small, scaled, paper)
        return cands + self._whole_frame_candidates(small, paper, detected)

    def _paper(self, small: np.ndarray, scaled: np.ndarray | None, paper: np.ndarray | None
               ) -> np.ndarray | None:
        """The card-white mask the zoomed pass and the whole-frame pairs look on: ``paper`` if
        given, else found (at the detector's size); None without a detector."""
        if paper is not None or self.detector is None:
            return paper
        return white_mask(scaled if scaled is not None else
                          scaled_down(small, DETECT_LONG_SIDE)[0])

    def _detected_candidates(self, small: np.ndarray, scaled: np.ndarray | None,
                             paper: np.ndarray | None
                             ) -> tuple[list[tuple[Candidate, float, int]],
                                        list[tuple[np.ndarray, np.ndarray]]]:
        """The crops the index detector proposes (see :meth:`candidates`) and its detected
        indices' (rank, suit) estimates."""
        cands: list[tuple[Candidate, float, int]] = []
        detected: list[tuple[np.ndarray, np.ndarray]] = []
        if self.detector is None:
            return cands, detected
        strict = max(self.min_prob, self.acceptance.detector_pair)
        peaks = [(r, s) for _p, r, s in self.detector.peaks(small, scaled, self.sizes[2])]
        for r, s in peaks + self._zoomed_peaks(small, paper, peaks):
            if np.hypot(*(s - r)) >= 0.5 * MIN_GLYPH:
                g = len(detected)
                detected.append((r, s))
                # ink-blob pairs that agree with the detected index (sharp where the glyphs
                # separate), and the detector's own pair (rough: it must be surer)
                blobs = window_blobs(small, r, s)
                pairs = local_pairs(small, r, s, blobs=blobs)
                cands += [(c, self.min_prob, g) for c in pairs]
                cands.append((candidate(r, s, detected=True), strict, g))
                if not pairs:  # a glyph merged with its surroundings: cut on the other
                    vote = g if self.anchored_votes else -1
                    cands += [(c, max(self.min_prob, self.acceptance.anchored), vote)
                              for c in anchored_pairs(r, s, blobs)]
        return cands, detected

    def _whole_frame_candidates(self, small: np.ndarray, paper: np.ndarray | None,
                                detected: list[tuple[np.ndarray, np.ndarray]],
                                away: Sequence[np.ndarray] = ()
                                ) -> list[tuple[Candidate, float, int]]:
        """The ink-blob pairs of the whole frame (see :meth:`candidates`), none inside the
        quads ``away`` (work pixels: card outlines read already, ``explained.py``)."""
        if self.proposals == "classical":  # the pipeline before the detector
            return [(c, self.min_prob, -1) for c in find_candidates(small)]
        if self.proposals != "both":
            return []
        # the indices the detector missed: ink on card paper only, and not the pairs that
        # agree with a detected index (its own: read already, or not its closest); a glyph
        # merged with a printed line stays merged (ink_pairs.LINE_MIN_LENGTH: rule AV)
        where = without(paper_region(paper, small.shape[1::-1]), away)
        blobs = glyph_blobs(small, where)
        return [(c, self.acceptance.whole_frame, -1)
                for c in find_candidates(small, blobs, detected, CLASSICAL_MOST)]

    def _zoomed_peaks(self, small: np.ndarray, paper: np.ndarray,
                      found: list[tuple[np.ndarray, np.ndarray]]
                      ) -> list[tuple[np.ndarray, np.ndarray]]:
        """(rank, suit) of the indices the detector finds when it looks again, at ZOOM times its
        usual scale, at each small region of card paper (a fan or a card far from the camera,
        whose indices are too small at the detector's size), less those that agree with an
        index in ``found``."""
        det_scale = min(1.0, self.sizes[2] / max(small.shape[:2]))
        zoom = ZOOM * det_scale  # work pixels to the zoomed pass's pixels
        to_work = small.shape[1] / paper.shape[1]
        h, w = small.shape[:2]
        join = round(self.zoom_join * max(paper.shape) / DETECT_LONG_SIDE)
        if join > 0:  # one small fan's specks of paper joined into one region
            disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * join + 1, 2 * join + 1))
            paper = cv2.dilate(paper, disc)
        # each region's box: that of its outer contour (a tenth of the time of its components)
        contours, _ = cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        boxes = [cv2.boundingRect(c) for c in contours]
        # the smallest regions first (their indices are the smallest), up to a budget of pixels
        budget = ZOOM_AREA * h * w * det_scale ** 2
        out: list[tuple[np.ndarray, np.ndarray]] = []
        for x, y, bw, bh in sorted(boxes, key=lambda box: max(box[2], box[3])):
            side = max(bw, bh) * to_work  # work pixels
            if not ZOOM_MIN_SIDE <= side * det_scale <= ZOOM_MAX_SIDE:
                continue
            margin = ZOOM_MARGIN * side
            x0, y0 = max(0, int(x * to_work - margin)), max(0, int(y * to_work - margin))
            x1 = min(w, int((x + bw) * to_work + margin))
            y1 = min(h, int((y + bh) * to_work + margin))
            budget -= (x1 - x0) * (y1 - y0) * zoom ** 2
            if budget < 0:
                break
            region = small[y0:y1, x0:x1]
            if zoom != 1:
                region = cv2.resize(region, None, fx=zoom, fy=zoom,
                                    interpolation=cv2.INTER_AREA if zoom < 1 else
                                    cv2.INTER_LINEAR)
            for score, r, s in self.detector.peaks(np.ascontiguousarray(region)):
                if score < ZOOM_MIN_PEAK:
                    continue
                r, s = r / zoom + (x0, y0), s / zoom + (x0, y0)
                known = found + out
                if known and agrees(r[None], s[None], np.array([k[0] for k in known]),
                                    np.array([k[1] for k in known])).any():
                    continue
                out.append((r.astype(np.float32), s.astype(np.float32)))
        return out

    def probabilities(self, crops: np.ndarray, context: Context | None = None) -> np.ndarray:
        """Softmax over CLASSES for (N, H, W, 3) uint8 crops, with the second opinion."""
        if len(crops) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        x = normalise(crops)
        return self.second_opinion(x, self.first_opinion(x), context)

    def first_opinion(self, x: np.ndarray) -> np.ndarray:
        """The first network's softmax over CLASSES for normalised crops ``x`` (N, 3, H, W)."""
        return opinion(self.net, x)

    def second_opinion(self, x: np.ndarray, probs: np.ndarray, context: Context | None = None
                       ) -> np.ndarray:
        """``probs`` (the first network's, of the normalised crops ``x``), and on the crops whose
        likeliest card is at SECOND_FROM or more, its and the other networks' combined
        (:func:`combined`; the shipped reader: the first and third networks' mean, vetoed by the
        second). ``context``: the work image and the crops' candidates, which a network that
        sees around the index cuts its own crops from (without it, that network is not asked)."""
        if self.second is None and self.third is None and not self.more_seeds:
            return probs
        ask = np.flatnonzero(probs[:, 1:].max(axis=1) >= SECOND_FROM)
        if len(ask) == 0:
            return probs
        second, third = (self._opinion(net, k, x, ask, context)
                         for net, k in zip((self.second, self.third), self.contexts, strict=True))
        more = [opinion(net, x[ask]) for net in self.more_seeds]
        out = probs.copy()
        out[ask] = combined(probs[ask], second, third, self.combine, more)
        return out

    @staticmethod
    def _opinion(net: OnnxNet | None, k: float, x: np.ndarray, ask: np.ndarray,
                 context: Context | None) -> np.ndarray | None:
        """``net``'s softmax for the crops ``x[ask]``, cut from the work image at their quads
        grown ``k`` times if k is not 1; None without the network (or the work image it needs)."""
        if net is None or (k != 1 and context is None):
            return None
        if k == 1:
            return opinion(net, x[ask])
        image, cands = context
        return opinion(net, normalise(np.stack([crop(image, widened(cands[i], k)) for i in ask])))

    def read(self, frame: np.ndarray, scaled: np.ndarray | None = None,
             paper: np.ndarray | None = None, outlines: Sequence[np.ndarray] = ()
             ) -> list[IndexRead]:
        """Confident index readings, one per card and place (duplicates merged). ``scaled``:
        ``frame`` already scaled to at most DET_LONG_SIDE (INTER_AREA), and ``paper``, its
        card-white mask, if the caller has them (the recogniser's outline search works at that
        size: one resize less). ``outlines``: the frame's card outlines (frame pixels,
        ``detect.find_cards``); with ``skip_explained``, those a detector's crop reads are
        looked at no more (``explained.py``)."""
        reads = [r for _way, r in self.readings(frame, scaled, paper, outlines)]
        return _merge(one_glyph(reads) if self.one_glyph else reads)

    def readings(self, frame: np.ndarray, scaled: np.ndarray | None = None,
                 paper: np.ndarray | None = None, outlines: Sequence[np.ndarray] = ()
                 ) -> list[tuple[str, IndexRead]]:
        """Every reading :meth:`read` merges, each with the way it was read (one of WAYS; the
        diagnostic ``scripts/vision_paths.py`` counts what each way adds). With ``close_up``, a
        frame whose card ``outlines`` are all close to the camera (CLOSE_FROM) is read at
        CLOSE_SIZES: the frame at the detector's usual size (``scaled``) is read instead."""
        if not (self.close_up and close_to_camera(frame, outlines)):
            return self._readings(frame, scaled, paper, outlines)
        half = scaled if scaled is not None else scaled_down(frame, DET_LONG_SIDE)[0]
        f = half.shape[1] / frame.shape[1]
        with self._read_at(CLOSE_SIZES):
            found = self._readings(half, None, paper, [np.asarray(q) * f for q in outlines])
        return [(way, IndexRead(r.card, r.prob, rescaled(r.candidate, 1 / f)))
                for way, r in found]

    def _readings(self, frame: np.ndarray, scaled: np.ndarray | None,
                  paper: np.ndarray | None, outlines: Sequence[np.ndarray]
                  ) -> list[tuple[str, IndexRead]]:
        """:meth:`readings` of ``frame`` at :attr:`sizes`."""
        with self._settings_for(frame, scaled):
            small, scale, scaled = self.work_inputs(frame, scaled)
            paper = self._paper(small, scaled, paper)
            # the detector's crops first: the card outlines they read explain (if the reader
            # looks for that) get no whole-frame pairs and no further looks
            cands, detected = self._detected_candidates(small, scaled, paper)
            decisions, probs = self._classified(small, cands)
            away = self._explained(outlines, scale, cands, decisions)
            more = self._whole_frame_candidates(small, paper, detected, away)
            if more:
                more_decisions, more_probs = self._classified(small, more)
                cands, decisions = cands + more, decisions + more_decisions
                probs = np.vstack([probs, more_probs])
            if not cands:
                return []
            reads = [(_way(c, g), IndexRead(parse_card(CLASSES[k]), p, rescaled(c, 1 / scale)))
                     for (c, _need, g), (k, p) in zip(cands, decisions, strict=True) if k]
            # the crops of an explained card that read nothing are looked at no more
            skip = (inside(np.array([c.centre for c, _n, _g in cands]), away)
                    & np.array([k == 0 for k, _p in decisions]))
            # the group, second and stretched looks read with the networks alone (not
            # :meth:`classify`): a deck adaptation vets their readings (:meth:`vetted`)
            for way, more_reads in (
                    ("group", self.vetted(small, self._group_reads(
                        cands, probs, probs.argmax(axis=1), scale), scale)),
                    ("second look", self.vetted(small, self._second_looks(
                        small, [c for c, _need, _g in cands], decisions, probs, scale, skip),
                        scale)),
                    ("detected again",
                     self._detected_again(small, cands, decisions, probs, scale, skip)),
                    ("stretched look", self.vetted(small, self._stretched_looks(
                        small, cands, decisions, probs, scale, skip), scale))):
                reads += [(way, r) for r in more_reads]
            return reads

    def _classified(self, small: np.ndarray, cands: list[tuple[Candidate, float, int]]
                    ) -> tuple[list[tuple[int, float]], np.ndarray]:
        """:meth:`classify` of the crops of ``cands`` (candidates in the work image ``small``,
        with what each needs)."""
        if not cands:
            return [], np.zeros((0, len(CLASSES)), np.float32)
        crops = np.stack([crop(small, c) for c, _need, _g in cands])
        return self.classify(crops, [need for _c, need, _g in cands],
                             (small, [c for c, _need, _g in cands]))

    def _explained(self, outlines: Sequence[np.ndarray], scale: float,
                   cands: list[tuple[Candidate, float, int]],
                   decisions: list[tuple[int, float]]) -> list[np.ndarray]:
        """The card ``outlines`` (frame pixels) that the crops read explain
        (``explained.explained``), in work pixels; none unless ``skip_explained``."""
        if not self.skip_explained:
            return []
        read = [(c, k) for (c, _need, _g), (k, _p) in zip(cands, decisions, strict=True) if k]
        return explained([np.asarray(q, np.float32) * scale for q in outlines],
                         np.array([c.centre for c, _k in read]).reshape(-1, 2),
                         np.array([c.size for c, _k in read]), [CLASSES[k] for _c, k in read])

    def vetted(self, small: np.ndarray, reads: list[IndexRead], scale: float
               ) -> list[IndexRead]:
        """``reads`` (made in the work image ``small`` at ``scale``) that may stand: all of them
        (a deck adaptation overrides this, see ``adapt.AdaptedIndexReader``)."""
        return reads

    @contextmanager
    def _read_at(self, sizes: tuple[int, float, int]) -> Iterator[None]:
        """:attr:`sizes` (USUAL_SIZES or CLOSE_SIZES) while the block runs."""
        self.sizes = sizes
        try:
            yield
        finally:
            self.sizes = USUAL_SIZES

    @contextmanager
    def _settings_for(self, frame: np.ndarray, scaled: np.ndarray | None) -> Iterator[None]:
        """The combination and thresholds to read ``frame`` at: the reader's own, or for a frame
        that is not sharpened, ``sharp``'s (rule EK's candidate) while the block runs."""
        if self.sharp is None or blurred(frame, scaled):
            yield
            return
        own = self.combine, self.acceptance
        self.combine, self.acceptance = self.sharp
        try:
            yield
        finally:
            self.combine, self.acceptance = own

    def work_inputs(self, frame: np.ndarray, scaled: np.ndarray | None = None
                    ) -> tuple[np.ndarray, float, np.ndarray | None]:
        """What :meth:`read` proposes and cuts its crops in: the work image (``work_size``; a
        blurred frame's sharpened, ``exposure.blurred``, rule BE), its scale, and the detector's
        input (``None``: the detector scales the work image down itself). ``scaled``: see
        :meth:`read`; it is not sharpened (a frame over WORK_LONG_SIDE gives the detector the
        sharpened work image, scaled down)."""
        work_long, enlarge_most, det_long = self.sizes
        small, scale = work_size(frame, work_long, enlarge_most)
        if blurred(frame, scaled):
            small = unsharp(small)
        if scale < 1:  # the detector scales the work frame down itself
            scaled = None
        elif scale > 1 and scaled is None:  # its input is the frame, not its enlargement
            scaled = scaled_down(frame, det_long)[0]
        return small, scale, scaled

    def _detected_again(self, small: np.ndarray, cands: list[tuple[Candidate, float, int]],
                        decisions: list[tuple[int, float]], probs: np.ndarray, scale: float,
                        skip: np.ndarray | None = None) -> list[IndexRead]:
        """Readings of the detected indices whose own crop names a card first, but not surely
        enough: the detector looks at each again at a standard scale
        (:meth:`IndexDetector.look_again`), and the new cut is read if it is sure enough and
        names the same card. With ``look_again`` "all", also of those whose crop names no card
        and whose detected index has no reading (at most AGAIN_BLANK_MOST): their new cut is
        read if it names any card surely enough."""
        if self.detector is None:
            return []
        best = probs.argmax(axis=1)
        unsure = [i for i, ((c, _need, _g), (k, _p)) in enumerate(zip(cands, decisions,
                                                                       strict=True))
                  if c.detected and k == 0 and best[i] != 0]
        if self.look_again == "all":
            unsure += self._blank_detections(cands, decisions, best)
        if skip is not None:
            unsure = [i for i in unsure if not skip[i]]
        if not unsure:
            return []
        again = self.detector.look_again(small, [(cands[i][0].rank, cands[i][0].suit)
                                                 for i in unsure])
        pairs = [(i, candidate(*pair)) for i, pair in zip(unsure, again, strict=True) if pair]
        if not pairs:
            return []
        new, _probs = self.classify(np.stack([crop(small, c) for _i, c in pairs]),
                                    [cands[i][1] for i, _c in pairs],
                                    (small, [c for _i, c in pairs]))
        return [IndexRead(parse_card(CLASSES[k]), p, rescaled(c, 1 / scale))
                for (i, c), (k, p) in zip(pairs, new, strict=True)
                if k and best[i] in (0, k)]  # the rough crop named that card, or none

    @staticmethod
    def _blank_detections(cands: list[tuple[Candidate, float, int]],
                          decisions: list[tuple[int, float]], best: np.ndarray) -> list[int]:
        """The detector's own crops that read as no card, of detected indices none of whose
        crops was read: the first AGAIN_BLANK_MOST (the detector's peaks come strongest first)."""
        read = {g for (_c, _need, g), (k, _p) in zip(cands, decisions, strict=True) if k}
        return [i for i, ((c, _need, g), (k, _p)) in enumerate(zip(cands, decisions,
                                                                   strict=True))
                if c.detected and k == 0 and best[i] == 0 and g not in read][:AGAIN_BLANK_MOST]

    def _second_looks(self, small: np.ndarray, cands: list[Candidate],
                      decisions: list[tuple[int, float]], probs: np.ndarray, scale: float,
                      skip: np.ndarray | None = None) -> list[IndexRead]:
        """Readings of the crops the network is unsure of, cut again (see LOOKS)."""
        best = probs.argmax(axis=1)
        top = probs[np.arange(len(best)), best]
        unsure = [i for i, (k, _p) in enumerate(decisions)
                  if k == 0 and best[i] != 0 and top[i] >= AGAIN_FROM and not cands[i].anchored
                  and (skip is None or not skip[i])]
        unsure = sorted(unsure, key=lambda i: -top[i])[:AGAIN_MOST]
        if not unsure:
            return []
        again = [recut(cands[i], *look) for i in unsure for look in LOOKS]
        looks = self.probabilities(np.stack([crop(small, c) for c in again]), (small, again))
        looks = looks.reshape(len(unsure), len(LOOKS), -1)
        reads = []
        for i, seen in zip(unsure, looks, strict=True):
            prob = read_again(probs[i], seen, self.acceptance.again_mean)
            if prob is not None:
                reads.append(IndexRead(parse_card(CLASSES[best[i]]), prob,
                                       rescaled(cands[i], 1 / scale)))
        return reads

    def _stretched_looks(self, small: np.ndarray, cands: list[tuple[Candidate, float, int]],
                         decisions: list[tuple[int, float]], probs: np.ndarray, scale: float,
                         skip: np.ndarray | None = None) -> list[IndexRead]:
        """Readings of unread crops that name a card first, cut again narrower and wider
        across their step (see STRETCHES); none if ``stretch_look`` is "off"."""
        if self.stretch_look == "off":
            return []
        best = probs.argmax(axis=1)
        pool = [i for i, (k, _p) in enumerate(decisions)
                if k == 0 and best[i] != 0 and not cands[i][0].anchored
                and probs[i, best[i]] >= self.stretch_from and (skip is None or not skip[i])]
        pool = sorted(pool, key=lambda i: -probs[i, best[i]])[:STRETCH_MOST]
        if not pool:
            return []
        floor = self.acceptance.anchored if self.stretch_look == "anchored" else 0.0
        widths = [k for side in STRETCHES for k in side]
        cuts = [stretched(cands[i][0], k) for i in pool for k in widths]
        seen = self.probabilities(np.stack([crop(small, c) for c in cuts]), (small, cuts))
        seen = seen.reshape(len(pool), len(STRETCHES), -1, seen.shape[1])
        reads = []
        for i, sides in zip(pool, seen, strict=True):
            for side in sides:
                names = side.argmax(axis=1)
                k = int(names[0])
                mean = float(side[:, k].mean())
                if k and (names == k).all() and mean >= max(cands[i][1], floor):
                    reads.append(IndexRead(parse_card(CLASSES[k]), mean,
                                           rescaled(cands[i][0], 1 / scale)))
                    break
        return reads

    def classify(self, crops: np.ndarray, needs: list[float], context: Context | None = None
                 ) -> tuple[list[tuple[int, float]], np.ndarray]:
        """Per crop: its class in CLASSES (0: not an index, or not sure enough: below its
        ``needs`` probability) and that class's probability; and the network's probabilities.
        (A deck adaptation overrides this, see ``adapt.AdaptedIndexReader``.)"""
        probs = self.probabilities(crops, context)
        best = probs.argmax(axis=1)
        return [(int(k) if k and p[k] >= need else 0, float(p[k]))
                for k, p, need in zip(best, probs, needs, strict=True)], probs

    def _group_reads(self, cands, probs: np.ndarray, best: np.ndarray, scale: float
                     ) -> list[IndexRead]:
        """Readings no single crop is sure of, but the crops of one detected index agree on:
        their mean probability of the card ≥ the acceptance's ``group`` and at least GROUP_VOTES
        of them name it first."""
        groups: dict[int, list[int]] = {}
        for i, (_c, _need, g) in enumerate(cands):
            if g >= 0:
                groups.setdefault(g, []).append(i)
        reads = []
        for members in groups.values():
            if len(members) < GROUP_VOTES:
                continue
            mean = probs[members].mean(axis=0)
            k = int(mean.argmax())
            votes = int((best[members] == k).sum())
            if k == 0 or mean[k] < self.acceptance.group or votes < GROUP_VOTES:
                continue
            top = members[int(probs[members, k].argmax())]
            reads.append(IndexRead(parse_card(CLASSES[k]), float(mean[k]),
                                   rescaled(cands[top][0], 1 / scale)))
        return reads


def read_again(first: np.ndarray, seen: np.ndarray, mean_needed: float) -> float | None:
    """The probability of the card a crop's ``first`` reading (probabilities over CLASSES) names
    first, over that reading and the readings of its new cuts (``seen``: one row each), if they
    agree on it: its mean ``mean_needed`` or more, and at least AGAIN_VOTES new cuts name it
    first; None if they don't, or if the first reading names "not an index"."""
    k = int(first.argmax())
    mean = float((first[k] + seen[:, k].sum()) / (1 + len(seen)))
    if k == 0 or mean < mean_needed or int((seen.argmax(axis=1) == k).sum()) < AGAIN_VOTES:
        return None
    return mean


# how the networks' probabilities of a class make the reader's (IndexReader's ``combine``):
# "lowest" (each other network can veto; the shipped reader's until the fifty-first step); rule
# DD's "either" (the first network and either other one: min(first, max(others))); rule DE's
# "mean" (of all of them, further seeds too, rule ED: a probability distribution again, in which
# one network's doubt counts but does not veto alone); rule DS's "seed-mean", the shipped
# reader's (the first and third networks, two training seeds of one recipe, as one opinion,
# their mean; the second network's veto on it: min(mean(first, third), second); without a third
# network, "lowest")
COMBINES = ("lowest", "either", "mean", "seed-mean")
AVERAGING = ("mean", "seed-mean")  # the combinations that take further seeds into their mean


def combined(first: np.ndarray, second: np.ndarray | None, third: np.ndarray | None,
             how: str = SHIPPED_COMBINE, more_seeds: Sequence[np.ndarray] = ()) -> np.ndarray:
    """The first network's probabilities and the second and third's (each (N, classes), the
    same crops; None: not asked) combined per class as ``how`` (one of COMBINES) says;
    ``more_seeds``' (seed-mean and mean only) are averaged with the first and third's."""
    if how == "seed-mean":
        mean = np.mean([first, *([] if third is None else [third]), *more_seeds], axis=0)
        return mean if second is None else np.minimum(mean, second)
    others = [p for p in (second, third) if p is not None]
    if how == "mean":
        return np.mean([first, *others, *more_seeds], axis=0)
    if not others:
        return first
    rest = np.maximum.reduce(others) if how == "either" else np.minimum.reduce(others)
    return np.minimum(first, rest)


def shipped_seeds() -> list[Path]:
    """The files of MORE_SEED_MODELS that are present."""
    return [path for name in MORE_SEED_MODELS if (path := model_path(name, ".onnx")).exists()]


class SeedMean:
    """Training seeds of one recipe asked as one network: :meth:`run` gives the log of their
    mean softmax, so that :func:`opinion` of it is that mean (rule EY's second network)."""

    def __init__(self, nets: Sequence[OnnxNet]) -> None:
        self.nets = list(nets)

    def run(self, x: np.ndarray) -> np.ndarray:
        mean = np.mean([opinion(net, x) for net in self.nets], axis=0)
        return np.log(np.maximum(mean, np.finfo(np.float32).tiny))


def shipped_or(path: Path | bool | None, name: str) -> OnnxNet | None:
    """The network of ``path``; ``True``: the shipped file ``name`` (None if it is not there);
    None or False: none."""
    if path is True:
        path = model_path(name, ".onnx")
        path = path if path.exists() else None
    return OnnxNet(path) if path else None


def opinion(net: OnnxNet, x: np.ndarray) -> np.ndarray:
    """A network's softmax over CLASSES for normalised crops ``x`` (N, 3, H, W)."""
    return softmax(net.run(x).reshape(len(x), -1))


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax of (N, classes) logits."""
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def paper_region(paper: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Where a printed index can be: the card-white regions of the mask ``paper`` with their
    holes (the ink) filled, grown by PAPER_MARGIN of its long side (so glyphs at a card's edge
    stay whole), scaled to ``size`` (w, h)."""
    contours, _ = cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(paper)
    cv2.drawContours(filled, contours, -1, 255, cv2.FILLED)
    grow = max(3, round(PAPER_MARGIN * max(paper.shape)) | 1)
    filled = cv2.dilate(filled, np.ones((grow, grow), np.uint8))
    return cv2.resize(filled, size, interpolation=cv2.INTER_NEAREST)


def close_to_camera(frame: np.ndarray, outlines: Sequence[np.ndarray]) -> bool:
    """Whether ``frame`` has card outlines (frame pixels) and all are CLOSE_FROM px long or
    more at the detector's usual input size."""
    det_scale = min(1.0, DET_LONG_SIDE / max(frame.shape[:2]))
    return bool(outlines) and min(long_side(q) for q in outlines) * det_scale >= CLOSE_FROM


def work_size(frame: np.ndarray, long_side: int = WORK_LONG_SIDE,
              enlarge_most: float = ENLARGE_MOST) -> tuple[np.ndarray, float]:
    """``frame`` at the index reader's work size (``long_side`` pixels on its long side,
    WORK_LONG_SIDE as a rule; a small frame enlarged at most ``enlarge_most`` times) and the
    scale."""
    h, w = frame.shape[:2]
    enlarge = min(enlarge_most, long_side / max(h, w, 1))
    if enlarge <= 1:
        return scaled_down(frame, long_side)
    size = (round(w * enlarge), round(h * enlarge))
    return cv2.resize(frame, size, interpolation=cv2.INTER_CUBIC), enlarge


# the ways a reading is made (IndexReader.readings): a single crop cut by the detector's own
# pair, by an ink-blob pair that agrees with a detected index, on one glyph and the detector's
# step (anchored), or by a whole-frame ink-blob pair; the crops of one detected index agreeing
# (group); an unsure crop cut again (second look); an unsure detected index looked at again;
# an unread crop cut narrower or wider across its step (stretched look, rule EP)
WAYS = ("detector pair", "blob pair", "anchored", "whole frame", "group", "second look",
        "detected again", "stretched look")


def _way(c: Candidate, group: int) -> str:
    """The way a single crop ``c`` of ``group`` (-1: none) was cut (see WAYS)."""
    if c.anchored:
        return "anchored"
    if c.detected:
        return "detector pair"
    return "blob pair" if group >= 0 else "whole frame"


# One glyph, one card (sixty-third step, rule FA, shipped): a printed glyph belongs to one index,
# so two readings of different cards with a rank or suit point within SHARED_GLYPH of the smaller
# of their rank-to-suit steps from each other (a fan's rank read once with its own suit and once
# with the next card's pip) are not both there, and the less sure one is dropped. On the training
# designs' fans of two development seeds, right readings of different cards came no closer than
# 0.51 steps; the wrong 8♠ that showed the lead shared its 8 exactly (0 steps). On the choice
# seeds 2 wrong readings fewer of 12, as many cards; on fresh seeds 36 against 37.
SHARED_GLYPH = 0.3


def one_glyph(reads: list[IndexRead], near: float = SHARED_GLYPH) -> list[IndexRead]:
    """``reads`` less every reading that shares a glyph (see SHARED_GLYPH) with a surer reading of
    another card kept before it; the kept ones surest first."""
    reads = sorted(reads, key=lambda r: -r.prob)
    if len(reads) < 2:
        return reads
    points = np.array([(r.candidate.rank, r.candidate.suit) for r in reads], np.float64)
    steps = np.hypot(*(points[:, 1] - points[:, 0]).T)
    # (n, n): the closest pair of glyph points of two readings, in the smaller of their steps
    apart = np.linalg.norm(points[:, None, :, None] - points[None, :, None, :], axis=-1)
    apart = apart.min(axis=(2, 3)) / np.maximum(np.minimum.outer(steps, steps), 1e-6)
    codes = [r.card for r in reads]
    kept: list[int] = []
    for i in range(len(reads)):
        if not any(codes[k] != codes[i] and apart[i, k] < near for k in kept):
            kept.append(i)
    return [reads[i] for i in kept]


def _merge(reads: list[IndexRead]) -> list[IndexRead]:
    """One reading per card and place: the same card read within a glyph of itself is one."""
    reads = sorted(reads, key=lambda r: -r.prob)
    kept: list[IndexRead] = []
    for r in reads:
        if any(k.card == r.card and np.linalg.norm(np.subtract(k.candidate.centre,
               r.candidate.centre)) < 1.5 * max(k.candidate.size, r.candidate.size)
               for k in kept):
            continue
        kept.append(r)
    return kept
