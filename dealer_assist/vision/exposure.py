"""A dim frame brightened, as a camera's automatic exposure would (issue 16: at 40 % brightness
recall halved on outside photos; the card paper fell under the white mask's floor); and, for the
white mask alone, a copy in neutral colour under a strongly coloured light (see CAST_RATIO); and
whether a frame is blurred, so that its corner indices are read sharpened (see SHARPEN_BELOW).

Chosen on ``bench_vision --synthetic training`` (80 scenes) darkened to 40 %, never on
``cards-real`` or the held-out designs: with the brightest thousandth of a frame's pixels
(BRIGHT_SHARE) brought up to 245 (TARGET) the darkened scenes read 207 of 221 cards, none wrong,
against 198 without (at 230: 206; at 215 and 200, 206 and 207 with one and two wrong cards; with
the brightest hundredth at 230, 207 but one wrong card in the undarkened scenes too). The
undarkened scenes read the same 208 cards.
"""

from __future__ import annotations

import cv2
import numpy as np

BRIGHT_SHARE = 0.001  # the frame's brightest pixels (its brightest channel) ...
TARGET = 245  # ... are brought up to this level (0-255) when they are dimmer
MOST_GAIN = 4.0  # darker frames are brightened this much at most (their noise grows with it)
STEP = 4  # the level is measured on every STEP-th pixel of every STEP-th row


def bright_level(frame: np.ndarray) -> int:
    """The level of a uint8 BGR (or grey) frame's brightest BRIGHT_SHARE of pixels."""
    sample = frame[::STEP, ::STEP]
    if sample.ndim == 3:  # a pixel's brightest channel (np.maximum: a tenth of .max's time)
        sample = np.maximum.reduce([sample[..., c] for c in range(sample.shape[2])])
    return _level(sample)


def channel_levels(frame: np.ndarray) -> list[int]:
    """:func:`bright_level` of each channel of a uint8 BGR frame on its own."""
    sample = frame[::STEP, ::STEP]
    return [_level(sample[..., c]) for c in range(sample.shape[2])]


def _level(sample: np.ndarray) -> int:
    """The level (0-255) under which all but the brightest BRIGHT_SHARE of uint8 ``sample`` are."""
    if sample.size == 0:
        return 0
    below = min(sample.size - 1, int(sample.size * (1 - BRIGHT_SHARE)))  # pixels under it
    counts = np.cumsum(np.bincount(sample.ravel(), minlength=256))
    return int(np.searchsorted(counts, below, side="right"))


def exposed(frame: np.ndarray) -> np.ndarray:
    """``frame`` itself when its bright pixels reach TARGET, else a brightened copy (gain at
    most MOST_GAIN); a black frame, and one that is not 8-bit, is returned as it is."""
    if frame.dtype != np.uint8:
        return frame
    level = bright_level(frame)
    if level >= TARGET or level <= 0:
        return frame
    return cv2.convertScaleAbs(frame, alpha=min(TARGET / level, MOST_GAIN))


# Warm light (issue 16, sixteenth step): under tungsten light on a camera balanced for daylight
# card paper is orange, about 45 % saturated, and the white mask (detect.white_mask: saturation
# under 70 of 255) no longer finds it, nor the outlines and the paper regions searched for indices
# (bench_vision --perturb warm: cards-real 19 of 43). The white mask is therefore given
# neutral_paper(frame): where the channels' bright levels differ by CAST_RATIO or more, a copy
# whose channels are taken down to the dimmest one's level (none is amplified). Only the mask sees
# it: the networks, the ink blobs and the whole-card reader read the frame as it is. Chosen on the
# training designs' scenes under warm light (training240 and training-fans120/200 of seeds
# 20261126 and 20261129): 1 902 cards against 1 791, 22 wrong against 18 (31 in daylight); the
# daylight scenes (those four and seed 20261203's) read one card more, nothing else changed. Every
# pixel balanced for the networks instead read 1 961-1 976 warm cards, but with 31-33 wrong, and
# changed daylight readings (amplified: one card fewer, wrong readings moved); see
# docs/vision-results.md.
# Mild casts (+-10 %) and cream paper stay under 1.3 (7 of 1 240 daylight scenes reach it).
CAST_RATIO = 1.3


def neutral_paper(frame: np.ndarray) -> np.ndarray:
    """``frame`` (uint8 BGR) itself, or, in strongly coloured light, a copy with its channels
    scaled down to its dimmest channel's bright level (see CAST_RATIO)."""
    if frame.ndim != 3 or frame.dtype != np.uint8 or frame.size == 0:
        return frame
    levels = channel_levels(frame)
    low = max(min(levels), 1)
    if max(levels) < CAST_RATIO * low:
        return frame
    gains = np.array([low / max(level, 1) for level in levels])
    lut = np.rint(np.arange(256, dtype=np.float64)[:, None] * gains).astype(np.uint8)
    return cv2.LUT(frame, lut.reshape(256, 1, frame.shape[2]))


# Blur (issue 16, twenty-eighth step, rule BE): a frame whose grey has little fine detail for its
# contrast (sharpness under SHARPEN_BELOW: the Laplacian's variance over the grey's, at
# SHARPNESS_SIDE px; daylight scenes of the training designs 0.19 at their 5th percentile,
# blurred ones, sigma 1.5, 0.16 at their 95th) has its corner indices read from a sharpened copy
# (unsharp mask at the index reader's work size, indices.py). Chosen on the training designs and
# confirmed on fresh scenes; see docs/vision-results.md. Camera photos are softer than renders: 21
# of the 34 cards-real photos measure under the bar (measured, not tuned on), so a real camera's
# frames are mostly read sharpened, at about 6 ms more. SHARPEN_BELOW = 0 turns it off.
SHARPEN_BELOW = 0.15
SHARPEN_SIGMA = 1.0  # the mask's Gaussian, in pixels of the image it sharpens
SHARPEN_AMOUNT = 2.0  # image + AMOUNT x (image - its Gaussian blur)
SHARPNESS_SIDE = 640


def sharpness(frame: np.ndarray, small: np.ndarray | None = None) -> float:
    """Fine detail for the contrast of a uint8 BGR frame: var(Laplacian) / var(grey) of its grey
    scaled down (INTER_AREA) to at most SHARPNESS_SIDE px (about 0.5 for a sharp table scene,
    under 0.15 for a blurred one; a flat frame has none). ``small``: that scaled copy, if the
    caller has it."""
    h, w = frame.shape[:2]
    f = min(1.0, SHARPNESS_SIDE / max(h, w))
    size = (max(1, round(w * f)), max(1, round(h * f)))
    if small is None or small.shape[1::-1] != size:
        small = frame if f == 1 else cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    spread = float(cv2.meanStdDev(grey)[1][0, 0]) ** 2
    if spread < 1.0:
        return 0.0
    detail = float(cv2.meanStdDev(cv2.Laplacian(grey, cv2.CV_16S))[1][0, 0]) ** 2
    return detail / spread


def blurred(frame: np.ndarray, small: np.ndarray | None = None) -> bool:
    """Whether a uint8 frame is blurred enough to be read sharpened (see SHARPEN_BELOW); a flat
    or empty frame is not. ``small``: see :func:`sharpness`."""
    if SHARPEN_BELOW <= 0 or frame.dtype != np.uint8 or frame.size == 0:
        return False
    return 0 < sharpness(frame, small) < SHARPEN_BELOW


def unsharp(image: np.ndarray, sigma: float | None = None) -> np.ndarray:
    """A sharpened copy of a uint8 image: ``image`` + SHARPEN_AMOUNT x (``image`` - its Gaussian
    blur of ``sigma`` px, SHARPEN_SIGMA if None), saturated to 0-255."""
    soft = cv2.GaussianBlur(image, (0, 0), SHARPEN_SIGMA if sigma is None else sigma)
    return cv2.addWeighted(image, 1 + SHARPEN_AMOUNT, soft, -SHARPEN_AMOUNT, 0)
