"""Deck adaptation: read the user's own deck better from a few labelled photos of it.

The shipped index network (``models/index_cnn.onnx``) is not retrained: its penultimate layer
(the input of its last fully connected layer, which the network gives as its second output,
``features``) is used as an embedding. The index crops the
recogniser proposes in labelled photos of the user's deck (or frames the dealer confirmed) are
embedded and kept as per-card prototypes. At reading time a crop's card is accepted when the
network is sure of it as before, or when the nearest prototype of the deck is close enough and
clearly ahead of the nearest prototype of any other card (precision first: a crop the prototypes
and a sure network disagree on is dropped, unknown rather than wrong; a card the deck has no
prototype of is read by the network alone, as before).

Stored with the deck as ``<data>/decks/<name>/adaptation.npz`` (about 20 kB):
``format``, ``model_sha256`` (the index network it was made with: a retrained network needs a
new adaptation), ``codes`` and ``features`` (float16, unit length) and ``untrusted`` (cards the
network alone misreads on this deck). numpy, OpenCV and ONNX Runtime only.
"""

from __future__ import annotations

import hashlib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dealer_assist.errors import InputError
from dealer_assist.vision.exposure import exposed
from dealer_assist.vision.indices import (
    CLASSES,
    Context,
    IndexRead,
    IndexReader,
    normalise,
    softmax,
    work_size,
)
from dealer_assist.vision.ink_pairs import CROP_H, CROP_W, crop, rescaled
from dealer_assist.vision.runtime import FEATURES

FORMAT = "dealer-assist deck adaptation 1"
FILE_NAME = "adaptation.npz"
# acceptance by prototypes, chosen on synthetic scenes of the held-out designs with another seed
# than the benchmark's (scripts/bench_vision.py --adapt-heldout --tune), never on cards-real
MIN_SIMILARITY = 0.875  # cosine to the nearest prototype of the card
# ... ahead of the nearest prototype of any other card by this much (0.06 until the fifty-fourth
# step; rule EC, docs/vision-results.md: 0.04 read one card more of 762 on a fresh seed, with no
# more wrong readings, beside the fifth index network)
MIN_MARGIN = 0.04
# collecting samples: a crop is an index when the network gives "not an index" less than this
MAX_NONE = 0.5
# a card the network is sure of is dropped when the deck's nearest prototype is another card's,
# ahead by this much
VETO_MARGIN = 0.0
STRICTER = 0.05  # added to MIN_SIMILARITY for crops cut by the detector's own (rough) pair
FILTER_ROUNDS = 2
SCALES = (1.0,)  # the sizes each adaptation photo is read at
MAX_PER_CARD = 24  # samples kept per card (the ones nearest the card's mean)
CROP_SHAPE = (CROP_H, CROP_W, 3)


class AdaptationError(InputError):
    """An adaptation file that cannot be used: corrupt, foreign, or made for another model."""


def model_digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@dataclass(frozen=True)
class Sample:
    """An index crop of a labelled frame: its card, embedding and centre (frame pixels)."""

    code: str
    feature: np.ndarray
    centre: tuple[float, float]
    read_as: str = ""  # the card the network alone is sure of ("" if none)


class Embedder:
    """The first index network, giving class probabilities and embeddings (its output FEATURES,
    the input of its last fully connected layer) in one forward pass of the reader's own
    session."""

    def __init__(self, reader: IndexReader | None = None) -> None:
        self.reader = reader or IndexReader()
        self.net = self.reader.net
        if FEATURES not in self.net.outputs:
            raise AdaptationError(f"the index network {self.reader.path.name} has no "
                                  f"'{FEATURES}' output to adapt with (rebuild it with "
                                  f"scripts/build_index_model.py)")
        self.model_sha256 = model_digest(self.reader.path)
        probe = np.zeros((1, *CROP_SHAPE), np.uint8)
        self.dim = self.forward(probe)[1].shape[1]

    def forward(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Softmax probabilities (N, 53) and unit-length embeddings (N, D) of uint8 crops, both
        of this network alone (a deck's samples are labelled by the network they embed)."""
        net = self.net
        logits, feats = net.run_outputs(normalise(crops), [net.outputs[0], FEATURES])
        probs = softmax(logits.reshape(len(crops), -1))
        feats = feats.reshape(len(crops), -1)
        return probs, feats / np.maximum(np.linalg.norm(feats, axis=1, keepdims=True), 1e-6)

    def samples(self, frame: np.ndarray, cards: set[str]) -> list[Sample]:
        """The index crops proposed in ``frame`` that the network finds index-like, each
        labelled with the card of ``cards`` (the cards in view) it finds most likely."""
        small, scale = work_size(exposed(frame))
        cands = self.reader.candidates(small)
        if not cands or not cards:
            return []
        probs, feats = self.forward(np.stack([crop(small, c) for c, *_rest in cands]))
        allowed = sorted(CLASSES.index(c) for c in cards)
        out = []
        for (cand, need, *_group), p, f in zip(cands, probs, feats, strict=True):
            if p[0] < MAX_NONE:
                k, sure = allowed[int(np.argmax(p[allowed]))], int(np.argmax(p))
                out.append(Sample(CLASSES[k], f, (cand.centre[0] / scale, cand.centre[1] / scale),
                                  CLASSES[sure] if sure and p[sure] >= need else ""))
        return out


class DeckAdaptation:
    """Per-card prototypes (unit embeddings) of a user's deck for one index network."""

    def __init__(self, codes: np.ndarray, features: np.ndarray, model_sha256: str,
                 untrusted: frozenset[str] = frozenset()) -> None:
        """``untrusted``: cards the network alone was sure of on crops of other cards of this
        deck, and every suit of a rank it misread (a German ``B`` read as an ``8``): such a
        reading needs the prototypes' agreement."""
        order = np.argsort(codes, kind="stable")
        self.codes = np.asarray(codes)[order].astype(str)
        self.features = np.asarray(features, np.float32)[order]
        self.model_sha256 = model_sha256
        self.untrusted = frozenset(untrusted)
        self._untrusted = np.array([c in self.untrusted for c in CLASSES])
        self.cards, self._starts = np.unique(self.codes, return_index=True)
        self._class = np.array([CLASSES.index(c) for c in self.cards], np.int64)
        self._known = np.isin(np.arange(len(CLASSES)), self._class)  # cards with prototypes

    @classmethod
    def from_samples(cls, samples: list[Sample], model_sha256: str) -> DeckAdaptation:
        """Prototypes from labelled samples: samples nearer another card's mean than their own
        (mislabelled crops, pips, picture parts) are dropped; at most MAX_PER_CARD a card."""
        if not samples:
            raise ValueError("no card index was found in the photos")
        codes = np.array([s.code for s in samples])
        feats = np.stack([s.feature for s in samples]).astype(np.float32)
        cards = sorted(set(codes))
        ok = np.ones(len(codes), bool)
        for _ in range(FILTER_ROUNDS):  # the means of the samples kept so far
            means = np.stack([feats[(codes == c) & ok].mean(axis=0) if (
                (codes == c) & ok).any() else np.zeros(feats.shape[1]) for c in cards])
            means /= np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-6)
            sims = feats @ means.T
            nearest = np.array(cards)[sims.argmax(axis=1)]
            ok = nearest == codes
        keep = []
        for i, c in enumerate(cards):
            mine = np.nonzero((codes == c) & (nearest == c))[0]
            keep += list(mine[np.argsort(-sims[mine, i])][:MAX_PER_CARD])
        if not keep:
            raise ValueError("no card index was found in the photos")
        keep = np.array(sorted(keep))
        untrusted: set[str] = set()
        for i in keep:
            read, code = samples[i].read_as, samples[i].code
            if read and read != code:  # a misread rank is misread in every suit (B as 8)
                rank_misread = read[:-1] != code[:-1]
                untrusted |= {c for c in CLASSES[1:]
                              if c == read or (rank_misread and c[:-1] == read[:-1])}
        return cls(codes[keep], feats[keep], model_sha256, frozenset(untrusted))

    def card_similarity(self, feats: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per embedding: the class of its nearest card, the cosine to that card's nearest
        prototype, and its margin over the nearest prototype of any other card."""
        sims = np.maximum.reduceat(feats @ self.features.T, self._starts, axis=1)
        if sims.shape[1] == 1:
            best = sims[:, 0]
            return self._class[np.zeros(len(feats), int)], best, best + 1
        top2 = np.partition(sims, -2, axis=1)[:, -2:]
        return self._class[sims.argmax(axis=1)], top2[:, 1], top2[:, 1] - top2[:, 0]

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, format=np.array(FORMAT), model_sha256=np.array(
            self.model_sha256), codes=self.codes, features=self.features.astype(np.float16),
            untrusted=np.array(sorted(self.untrusted), dtype="<U3"))
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, model_sha256: str | None = None) -> DeckAdaptation:
        """Load ``path``; AdaptationError if it is not an adaptation file, or (when
        ``model_sha256`` is given) one made for another index network."""
        try:
            with np.load(path, allow_pickle=False) as data:
                fmt = str(data["format"])
                sha, codes = str(data["model_sha256"]), data["codes"].astype(str)
                feats = data["features"].astype(np.float32)
                untrusted = set(data["untrusted"].astype(str))
        except FileNotFoundError:
            raise
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as exc:
            raise AdaptationError(f"{path} is not a deck adaptation file ({exc}); "
                                  "adapt the deck again") from exc
        if fmt != FORMAT or feats.ndim != 2 or len(codes) != len(feats) or not len(codes) \
                or not set(codes) | untrusted <= set(CLASSES[1:]) or not np.isfinite(feats).all():
            raise AdaptationError(f"{path} is not a deck adaptation file of this version; "
                                  "adapt the deck again")
        if model_sha256 is not None and sha != model_sha256:
            raise AdaptationError(f"{path} was made for another index network (the models were "
                                  "updated); adapt the deck again with the same photos")
        return cls(codes, feats, sha, frozenset(untrusted))


class AdaptedIndexReader(IndexReader):
    """The index reader with a deck's prototypes: a crop is read when the network is sure as
    before, or when the deck's prototypes are; when both are sure but disagree, it is dropped."""

    def __init__(self, deck: DeckAdaptation, min_similarity: float = MIN_SIMILARITY,
                 min_margin: float = MIN_MARGIN, max_none: float = MAX_NONE,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.embedder = Embedder(self)
        if deck.features.shape[1] != self.embedder.dim:
            raise AdaptationError("the deck adaptation does not fit this index network; "
                                  "adapt the deck again")
        if deck.model_sha256 != self.embedder.model_sha256:
            raise AdaptationError("the deck adaptation was made for another index network; "
                                  "adapt the deck again with the same photos")
        self.deck = deck
        self.min_similarity = min_similarity
        self.min_margin = min_margin
        self.max_none = max_none
        self.stricter = STRICTER
        self.veto_margin = VETO_MARGIN

    def classify(self, crops: np.ndarray, needs: list[float], context: Context | None = None
                 ) -> tuple[list[tuple[int, float]], np.ndarray]:
        probs, feats = self.embedder.forward(crops)
        probs = self.second_opinion(normalise(crops), probs, context)
        best = probs.argmax(axis=1)
        near, sim, margin = self.deck.card_similarity(feats)
        out = []
        for k, p, need, c, s, m in zip(best, probs, needs, near, sim, margin, strict=True):
            net_sure = bool(k) and p[k] >= need and not self.deck._untrusted[k]
            # a crop the network finds no index (picture parts, pips, table) and a crop cut by
            # the detector's rough pair (it needs more) must be closer to the deck's prototype
            extra = self.stricter if need > self.min_prob else 0.0
            deck_sure = (p[0] < self.max_none and s >= self.min_similarity + extra
                         and m >= self.min_margin)
            if deck_sure and (not net_sure or c == k):
                out.append((int(c), float(max(p[c], min(s, self.min_prob)))))
            elif net_sure and (c == k or m < self.veto_margin or not self.deck._known[k]):
                out.append((int(k), float(p[k])))
            else:  # nobody sure, or the deck prefers another card it knows: unknown, not wrong
                out.append((0, float(p[k])))
        return out, probs

    def vetted(self, small: np.ndarray, reads: list[IndexRead], scale: float
               ) -> list[IndexRead]:
        """The readings the networks made alone (group, second and stretched looks) that may
        stand on this deck: never a card the network misreads on it (untrusted), nor a card the
        deck has prototypes of when the crop's nearest prototype is another card."""
        reads = [r for r in reads if not self.deck._untrusted[CLASSES.index(r.card.code)]]
        if not reads:
            return reads
        crops = np.stack([crop(small, rescaled(r.candidate, scale)) for r in reads])
        near, _sim, _margin = self.deck.card_similarity(self.embedder.forward(crops)[1])
        classes = [CLASSES.index(r.card.code) for r in reads]
        return [r for r, k, c in zip(reads, classes, near, strict=True)
                if c == k or not self.deck._known[k]]


def adapt_frames(frames: list[tuple[np.ndarray, set[str]]], reader: IndexReader | None = None,
                 scales: tuple[float, ...] = SCALES) -> tuple[DeckAdaptation, dict]:
    """A deck adaptation from (frame, cards in view) pairs, and a report. Each frame is also
    read shrunk by each of ``scales`` (a card far from the camera looks different)."""
    embedder = Embedder(reader)
    samples = []
    for frame, cards in frames:
        for f in scales:
            img = frame if f == 1 else cv2.resize(frame, None, fx=f, fy=f,
                                                  interpolation=cv2.INTER_AREA)
            samples += embedder.samples(img, cards)
    deck = DeckAdaptation.from_samples(samples, embedder.model_sha256)
    return deck, {"frames": len(frames), "crops": len(samples), "samples": len(deck.codes),
                  "cards": [str(c) for c in deck.cards]}
