"""Nearest-neighbour glyph classifier: labelled feature vectors, scored by cosine similarity."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

MODELS_DIR = Path(__file__).resolve().parents[2] / "models"
PACKAGED_MODELS_DIR = Path(__file__).resolve().parents[1] / "_models"


@dataclass(frozen=True)
class Guess:
    """Best label, its similarity (-1..1) and its margin over the best other label."""

    label: str
    score: float
    margin: float


class GlyphModel:
    """Labelled glyph feature vectors; :meth:`classify` finds the most similar label.

    Similarity is the cosine of feature vectors centred on the samples' mean.
    """

    def __init__(self, features: np.ndarray, labels: np.ndarray) -> None:
        if len(features) != len(labels) or len(features) == 0:
            raise ValueError("a glyph model needs as many labels as feature rows, and at least one")
        labels = np.asarray(labels).astype(str)
        order = np.argsort(labels, kind="stable")  # samples grouped by label
        self.raw = np.asarray(features, np.float32)[order]
        self.labels = labels[order]
        self.mean = self.raw.mean(axis=0)
        self.features = self._unit(self.raw)
        self.classes, self._starts = np.unique(self.labels, return_index=True)
        self.classes = tuple(self.classes.tolist())

    def classify(self, feature: np.ndarray, allowed: tuple[str, ...] | None = None) -> Guess | None:
        """Most similar label (restricted to ``allowed`` if given), or None if none is allowed."""
        x = self._unit(np.asarray(feature, np.float32)[None])[0]
        best = np.maximum.reduceat(self.features @ x, self._starts)
        order = [i for i in np.argsort(-best) if allowed is None or self.classes[i] in allowed]
        if not order:
            return None
        top = order[0]
        second = float(best[order[1]]) if len(order) > 1 else -1.0
        return Guess(self.classes[top], float(best[top]), float(best[top]) - second)

    def _unit(self, feats: np.ndarray) -> np.ndarray:
        centred = feats - self.mean
        return centred / (np.linalg.norm(centred, axis=1, keepdims=True) + 1e-6)

    def merged(self, other: GlyphModel, weight: int = 1) -> GlyphModel:
        """A model holding both sets of samples (``other`` repeated ``weight`` times)."""
        feats = np.concatenate([self.raw, *[other.raw] * weight])
        labels = np.concatenate([self.labels, *[other.labels] * weight])
        return GlyphModel(feats, labels)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, features=self.raw.astype(np.float16), labels=self.labels)

    @classmethod
    def load(cls, path: Path) -> GlyphModel:
        with np.load(path, allow_pickle=False) as data:
            return cls(data["features"].astype(np.float32), data["labels"])


def model_path(name: str, suffix: str = ".npz") -> Path:
    """Where the shipped model ``name`` (e.g. ``ranks``) lives: the checkout or the wheel."""
    for folder in (MODELS_DIR, PACKAGED_MODELS_DIR):
        path = folder / f"{name}{suffix}"
        if path.exists():
            return path
    return MODELS_DIR / f"{name}{suffix}"
