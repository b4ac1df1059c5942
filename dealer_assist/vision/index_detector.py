"""The learned corner-index detector: where the printed indices (rank over suit) are in a frame.

``models/index_det.onnx`` (built by ``scripts/build_index_detector.py``, run by ONNX Runtime,
see ``runtime.py``) is a small fully convolutional network. On the frame scaled to at most
``DET_LONG_SIDE`` pixels it gives, per 4×4-pixel cell, the probability that an index's centre is
there, the centre's offset inside the cell, the rank-to-suit distance (log) and its direction.
Each local peak becomes a :class:`~dealer_assist.vision.indices.Candidate` (rank and suit centres),
which the index classifier then reads or rejects.
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


class IndexDetector:
    """Proposes index positions; :meth:`peaks` gives (rank, suit) centre pairs in frame pixels."""

    def __init__(self, path=None, min_peak: float = MIN_PEAK, max_peaks: int = MAX_PEAKS) -> None:
        self.path = path or model_path("index_det", ".onnx")
        self.net = OnnxNet(self.path)
        self.min_peak = min_peak
        self.max_peaks = max_peaks

    def maps(self, frame: np.ndarray, scaled: np.ndarray | None = None
             ) -> tuple[np.ndarray, float]:
        """The network's six output maps for a BGR ``frame`` and the scale the frame was run at.
        ``scaled``: ``frame`` already scaled to at most DET_LONG_SIDE (INTER_AREA), if the
        caller has it."""
        h, w = frame.shape[:2]
        f = min(1.0, DET_LONG_SIDE / max(h, w))
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

    def peaks(self, frame: np.ndarray, scaled: np.ndarray | None = None
              ) -> list[tuple[float, np.ndarray, np.ndarray]]:
        """(score, rank centre, suit centre) of each proposed index, strongest first (``scaled``:
        see :meth:`maps`)."""
        if frame.ndim != 3 or min(frame.shape[:2]) < 8:
            return []
        out, f = self.maps(frame, scaled)
        heat = 1 / (1 + np.exp(-out[0]))
        peak = (heat >= self.min_peak) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
        ys, xs = np.nonzero(peak)
        order = np.argsort(-heat[ys, xs])[:self.max_peaks]
        ys, xs = ys[order], xs[order]
        ox, oy, logd, cx, cy = out[1:, ys, xs]
        centre = ((np.column_stack([xs + ox, ys + oy]).astype(np.float32) + 0.5) * STRIDE)
        unit = np.column_stack([cx, cy]) / np.maximum(np.hypot(cx, cy), 1e-6)[:, None]
        half = (0.5 * np.exp(np.clip(logd, 0.0, 4.5)))[:, None] * unit
        rank, suit = (centre - half) / f, (centre + half) / f
        return [(float(heat[y, x]), r, s) for y, x, r, s in zip(ys, xs, rank, suit, strict=True)]
