"""The learned corner-index detector: where the printed indices (rank over suit) are in a frame.

``models/index_det.onnx`` (built by ``scripts/build_index_detector.py``, run by ONNX Runtime,
see ``runtime.py``) is a small fully convolutional network. On the frame scaled to at most
``DET_LONG_SIDE`` pixels it gives, per 4×4-pixel cell, the probability that an index's centre is
there, the centre's offset inside the cell, the rank-to-suit distance (log) and its direction.
Each local peak becomes a :class:`~dealer_assist.vision.indices.Candidate` (rank and suit centres),
which the index classifier then reads or rejects. :meth:`IndexDetector.look_again` runs it again on
given indices, each scaled to one standard size, for a better estimate of their geometry.
"""

from __future__ import annotations

import cv2
import numpy as np

from dealer_assist.vision.model import model_path
from dealer_assist.vision.runtime import OnnxNet

DET_LONG_SIDE = 640  # the detector's input: frames scaled down to at most this long side
STRIDE = 4  # heatmap cell (input pixels)
MULTIPLE = 16  # the input is padded to a multiple of this (three stride-2 steps, one more spare)
# weaker peaks are not proposed; at most MAX_PEAKS a frame, strongest first. Chosen on 80 scenes
# of the training designs (bench_vision --synthetic training): 0.3 and 40 read 200 of 291 cards,
# 0.2 and 60 read 208, both with none wrong, for about 2 ms more. The classifier decides.
MIN_PEAK = 0.2
MAX_PEAKS = 60
# A second look at a detected index (see IndexDetector.look_again): the frame around it scaled so
# its estimated rank-to-suit step is AGAIN_STEP px, in an AGAIN_TILE-px square (AGAIN_GAP px of
# black between squares); the new peak must be within AGAIN_REACH steps of its middle. The index
# reader asks for it where the detector's own crop names a card, unsure (IndexReader.
# _detected_again). Eleventh step, chosen on --synthetic training (240 scenes, seed 20261126;
# without it 620 cards, 13 wrong): a step of 18 px in 96-px squares 630 · 13; 14 px 628 · 13,
# 16 px 629 · 15, 22 px 625 · 14; 64-px squares at 14 px 626 · 13, at 10 px 625 · 14; 80-px
# squares at 18 px 624 · 14
AGAIN_STEP, AGAIN_TILE, AGAIN_GAP, AGAIN_REACH = 18.0, 96, 16, 0.6


class IndexDetector:
    """Proposes index positions; :meth:`peaks` gives (rank, suit) centre pairs in frame pixels."""

    def __init__(self, path=None, min_peak: float = MIN_PEAK, max_peaks: int = MAX_PEAKS,
                 again_reach: float = AGAIN_REACH) -> None:
        if not again_reach > 0:
            raise ValueError("again_reach must be a positive number of steps")
        self.path = path or model_path("index_det", ".onnx")
        self.net = OnnxNet(self.path)
        self.min_peak = min_peak
        self.max_peaks = max_peaks
        self.again_reach = again_reach

    def maps(self, frame: np.ndarray, scaled: np.ndarray | None = None,
             long_side: int = DET_LONG_SIDE) -> tuple[np.ndarray, float]:
        """The network's six output maps for a BGR ``frame`` and the scale the frame was run at.
        ``scaled``: ``frame`` already scaled to at most ``long_side`` (INTER_AREA), if the
        caller has it; ``long_side``: the input's long side at most (DET_LONG_SIDE)."""
        h, w = frame.shape[:2]
        f = min(1.0, long_side / max(h, w))
        size = (max(1, round(w * f)), max(1, round(h * f)))
        if f < 1:
            ready = scaled is not None and scaled.shape[1::-1] == size
            frame = scaled if ready else cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        sh, sw = frame.shape[:2]
        # the input blob (1, 3, H, W), 0..1, zero-padded to a multiple of 16 (what
        # cv2.dnn.blobFromImage after copyMakeBorder gives, in one copy)
        blob = np.zeros((1, 3, -(-sh // MULTIPLE) * MULTIPLE, -(-sw // MULTIPLE) * MULTIPLE),
                        np.float32)
        blob[0, :, :sh, :sw] = frame.transpose(2, 0, 1)
        blob *= np.float32(1 / 255.0)
        out = self.net.run(blob)[0]
        return out[:, :-(-sh // STRIDE), :-(-sw // STRIDE)], f

    def peaks(self, frame: np.ndarray, scaled: np.ndarray | None = None,
              long_side: int = DET_LONG_SIDE) -> list[tuple[float, np.ndarray, np.ndarray]]:
        """(score, rank centre, suit centre) of each proposed index, strongest first (``scaled``,
        ``long_side``: see :meth:`maps`)."""
        if frame.ndim != 3 or min(frame.shape[:2]) < 8:
            return []
        out, f = self.maps(frame, scaled, long_side)
        return _decoded(out, f, self.min_peak, self.max_peaks)

    def look_again(self, frame: np.ndarray, pairs: list[tuple[np.ndarray, np.ndarray]]
                   ) -> list[tuple[np.ndarray, np.ndarray] | None]:
        """Each (rank, suit) pair of ``frame`` pixels looked at again: the frame around it scaled
        so its rank-to-suit step is AGAIN_STEP pixels, the detector's peak nearest its middle
        (within ``again_reach`` steps, AGAIN_REACH as shipped) in frame pixels, or None. The
        views are tiled into mosaics of at most DET_LONG_SIDE pixels, one network run each."""
        cell = AGAIN_TILE + AGAIN_GAP
        per_row = DET_LONG_SIDE // cell
        half = AGAIN_TILE / 2
        found: list[tuple[np.ndarray, np.ndarray] | None] = []
        for first in range(0, len(pairs), per_row * per_row):
            some = pairs[first:first + per_row * per_row]
            cols = min(per_row, len(some))
            mosaic = np.zeros((-(-len(some) // cols) * cell, cols * cell, 3), np.uint8)
            views = []
            for i, (rank, suit) in enumerate(some):
                zoom = AGAIN_STEP / max(float(np.hypot(*(suit - rank))), 1.0)
                middle = (rank + suit) / 2
                shift = half - zoom * middle  # the pair's middle to the square's
                view = np.array([[zoom, 0, shift[0]], [0, zoom, shift[1]]], np.float32)
                x, y = i % cols * cell, i // cols * cell
                mosaic[y:y + AGAIN_TILE, x:x + AGAIN_TILE] = cv2.warpAffine(
                    frame, view, (AGAIN_TILE, AGAIN_TILE), flags=cv2.INTER_LINEAR)
                views.append((np.float32([x + half, y + half]), zoom, middle))
            out, _f = self.maps(mosaic)
            peaks = _decoded(out, 1.0, self.min_peak, None)
            for centre, zoom, middle in views:
                near = [(float(np.hypot(*((r + s) / 2 - centre))), r, s) for _p, r, s in peaks]
                near = [n for n in near if n[0] < self.again_reach * AGAIN_STEP]
                if not near:
                    found.append(None)
                    continue
                _d, r, s = min(near, key=lambda n: n[0])
                found.append(((r - centre) / zoom + middle, (s - centre) / zoom + middle))
        return found


def _decoded(out: np.ndarray, f: float, min_peak: float, most: int | None
             ) -> list[tuple[float, np.ndarray, np.ndarray]]:
    """(score, rank centre, suit centre) of the peaks of the detector's output maps ``out`` of a
    frame scaled by ``f``, strongest first: at least ``min_peak``, at most ``most``."""
    heat = 1 / (1 + np.exp(-out[0]))
    peak = (heat >= min_peak) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peak)
    order = np.argsort(-heat[ys, xs])[:most]
    ys, xs = ys[order], xs[order]
    ox, oy, logd, cx, cy = out[1:, ys, xs]
    centre = ((np.column_stack([xs + ox, ys + oy]).astype(np.float32) + 0.5) * STRIDE)
    unit = np.column_stack([cx, cy]) / np.maximum(np.hypot(cx, cy), 1e-6)[:, None]
    half = (0.5 * np.exp(np.clip(logd, 0.0, 4.5)))[:, None] * unit
    rank, suit = (centre - half) / f, (centre + half) / f
    return [(float(heat[y, x]), r, s) for y, x, r, s in zip(ys, xs, rank, suit, strict=True)]
