"""Synthetic cards and table scenes drawn with OpenCV: training data for the shipped models and
test frames with known cards. Nothing here is downloaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from dealer_assist.cards import FULL_DECK, Card

_SYSTEM_FONTS = (  # serif faces close to printed card indices, used when the system has them
    "/usr/share/fonts/opentype/urw-base35/C059-Roman.otf",
    "/usr/share/fonts/opentype/urw-base35/C059-Bold.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusRoman-Bold.otf",
    "/usr/share/fonts/opentype/urw-base35/P052-Roman.otf",
    "/usr/share/fonts/opentype/urw-base35/URWBookman-Light.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
)
BUILTIN_FONT = "sans"
FONTS: tuple[str, ...] = (BUILTIN_FONT, *(f for f in _SYSTEM_FONTS if Path(f).exists()))
RED = (30, 30, 200)
BLACK = (25, 25, 25)
PAPER = (245, 245, 245)
SS = 4  # supersampling factor for anti-aliased drawing


def suit_mask(suit: str, size: int) -> np.ndarray:
    """A filled suit symbol (uint8 0/255) in a ``size`` x ``size`` square."""
    s = size * SS
    m = np.zeros((s, s), np.uint8)
    c = s / 2

    def p(x: float, y: float) -> tuple[int, int]:
        return int(c + x * s), int(c + y * s)

    def circle(x: float, y: float, r: float) -> None:
        cv2.circle(m, p(x, y), int(r * s), 255, -1, cv2.LINE_AA)

    def poly(*pts: tuple[float, float]) -> None:
        cv2.fillPoly(m, [np.array([p(x, y) for x, y in pts], np.int32)], 255, cv2.LINE_AA)

    if suit == "D":
        poly((0, -0.5), (0.37, 0), (0, 0.5), (-0.37, 0))
    elif suit == "H":
        circle(-0.22, -0.2, 0.26)
        circle(0.22, -0.2, 0.26)
        poly((-0.47, -0.12), (0.47, -0.12), (0, 0.48))
    elif suit == "S":
        circle(-0.22, 0.1, 0.2)
        circle(0.22, 0.1, 0.2)
        poly((-0.42, 0.06), (0.42, 0.06), (0.04, -0.42), (0, -0.5), (-0.04, -0.42))
        poly((-0.03, 0.05), (0.03, 0.05), (0.06, 0.4), (0.15, 0.5), (-0.15, 0.5), (-0.06, 0.4))
    elif suit == "C":
        circle(0, -0.27, 0.21)
        circle(-0.28, 0.1, 0.2)
        circle(0.28, 0.1, 0.2)
        circle(0, 0.02, 0.12)
        poly((-0.03, -0.1), (0.03, -0.1), (0.06, 0.4), (0.15, 0.5), (-0.15, 0.5), (-0.06, 0.4))
    else:
        raise ValueError(f"unknown suit {suit!r}")
    return cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA)


def _text(part: str, font: str, px: int) -> np.ndarray:
    """One string drawn white on black, cropped to its ink: a font file with Pillow, the built-in
    face with OpenCV's (OpenCV >= 5) or Hershey. (Font files went through OpenCV's ``FontFace``
    until issue 16's thirty-fourth step: it keeps one face per family, so C059-Bold drew as
    C059-Roman, or the other way round, whichever the process had drawn first.)"""
    if font != BUILTIN_FONT:
        return font_ink(part, font, px)
    img = np.zeros((px * 2, px * (len(part) + 1)), np.uint8)
    if hasattr(cv2, "FontFace"):
        if part == "0":
            part = "O"  # the built-in face slashes its zero; card zeros are plain ovals
        cv2.putText(img, part, (px // 4, int(px * 1.5)), 255, cv2.FontFace(font), px, 400)
    else:  # pragma: no cover - OpenCV 4
        cv2.putText(img, part, (px // 4, int(px * 1.5)), cv2.FONT_HERSHEY_COMPLEX, px / 22, 255,
                    max(1, px // 12), cv2.LINE_AA)
    ys, xs = np.nonzero(img > 100)
    return img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def font_ink(text: str, font: str, px: int) -> np.ndarray:
    """``text`` drawn white on black with the font file ``font`` at ``px`` (Pillow: no state
    kept between fonts), cropped to its ink; ValueError if the font draws none."""
    face = ImageFont.truetype(font, px)
    img = Image.new("L", (px * (len(text) + 2), 3 * px), 0)
    ImageDraw.Draw(img).text((px // 2, px // 2), text, fill=255, font=face)
    arr = np.asarray(img)
    ys, xs = np.nonzero(arr > 100)
    if len(ys) == 0:
        raise ValueError(f"{font} draws no ink for {text!r}")
    return arr[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def rank_mask(rank: str, height: int, font: str = BUILTIN_FONT, weight: float = 0.0,
              width: float = 1.0) -> np.ndarray:
    """The rank text (``10`` set tight, as on cards) ``height`` rows tall, cropped to its ink.

    Any other text is drawn as it is (e.g. the ``B`` and ``D`` of a German deck). ``weight``
    thickens (> 0) or thins (< 0) the strokes, in fractions of the glyph height; ``width``
    stretches the glyph sideways.
    """
    px = 24 * SS
    pieces = [_text(part, font, px) for part in (["1", "0"] if rank == "10" else [rank])]
    return shape_rank(pieces, px, height, weight, width)


def shape_rank(pieces: list[np.ndarray], px: int, height: int, weight: float,
               width: float) -> np.ndarray:
    """Rank pieces drawn ``px`` high (the ``1`` and ``0`` of a 10, or one piece) set tight
    and bottom-aligned, thickened or thinned by ``weight``, cropped to the ink, ``height`` rows
    tall and stretched sideways by ``width``."""
    h = max(pc.shape[0] for pc in pieces)
    gap = max(1, h // 14)
    row = []
    for i, pc in enumerate(pieces):
        pad = np.zeros((h, pc.shape[1]), np.uint8)
        pad[h - pc.shape[0]:] = pc
        row.append(pad)
        if i < len(pieces) - 1:
            row.append(np.zeros((h, gap), np.uint8))
    glyph = np.pad(np.hstack(row), px // 4)
    k = int(abs(weight) * h)
    if k > 0:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        glyph = cv2.dilate(glyph, kernel) if weight > 0 else cv2.erode(glyph, kernel)
    ys, xs = np.nonzero(glyph > 100)
    glyph = glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    out_w = max(2, round(glyph.shape[1] * height / glyph.shape[0] * width))
    return cv2.resize(glyph, (out_w, height), interpolation=cv2.INTER_AREA)


def stamp(img: np.ndarray, mask: np.ndarray, x: int, y: int, colour: tuple[int, int, int]) -> None:
    h, w = mask.shape
    h = min(h, img.shape[0] - y)
    w = min(w, img.shape[1] - x)
    a = (mask[:h, :w].astype(np.float32) / 255)[..., None]
    region = img[y:y + h, x:x + w].astype(np.float32)
    img[y:y + h, x:x + w] = (region * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


_PIPS = {  # pip centres as fractions of the card, for the number cards
    1: [(0.5, 0.5)],
    2: [(0.5, 0.2), (0.5, 0.8)],
    3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    4: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.8), (0.7, 0.8)],
    5: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.5), (0.3, 0.8), (0.7, 0.8)],
    6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    7: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    8: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.5, 0.65), (0.3, 0.8),
        (0.7, 0.8)],
    9: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.4), (0.7, 0.4), (0.5, 0.5), (0.3, 0.6), (0.7, 0.6),
        (0.3, 0.8), (0.7, 0.8)],
    10: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.3), (0.3, 0.4), (0.7, 0.4), (0.3, 0.6), (0.7, 0.6),
         (0.5, 0.7), (0.3, 0.8), (0.7, 0.8)],
}


def render_card(card: Card, size: tuple[int, int] = (300, 420), font: str = BUILTIN_FONT,
                weight: float = 0.0, width: float = 1.0, paper: tuple[int, int, int] = PAPER,
                index_text: str | None = None) -> np.ndarray:
    """A face-up card (BGR, ``size`` = (w, h)) with its index in the top-left and bottom-right.

    ``index_text`` replaces the printed rank (e.g. ``B`` for a German deck's jack).
    """
    w, h = size
    img = np.full((h, w, 3), paper, np.uint8)
    colour = RED if card.suit in "HD" else BLACK
    k = w / 300
    half = np.full((h, w, 3), paper, np.uint8)
    rank_h, suit_s = int(34 * k), int(24 * k)
    rm = rank_mask(index_text or card.rank, rank_h, font, weight, width)
    if rm.shape[1] > 40 * k:  # a wide "10" is set narrow on cards, to fit the index column
        rm = cv2.resize(rm, (int(40 * k), rank_h), interpolation=cv2.INTER_AREA)
    rx = max(2, int(25 * k) - rm.shape[1] // 2)
    stamp(half, rm, rx, int(12 * k), colour)
    stamp(half, suit_mask(card.suit, suit_s), int(25 * k) - suit_s // 2, int(52 * k), colour)
    img = np.minimum(img, half)
    img = np.minimum(img, cv2.rotate(half, cv2.ROTATE_180))
    if card.is_face:
        x0, y0, x1, y1 = int(0.19 * w), int(0.12 * h), int(0.81 * w), int(0.88 * h)
        cv2.rectangle(img, (x0, y0), (x1, y1), (40, 160, 220), -1)
        cv2.rectangle(img, (x0 + 8, y0 + 8), (x1 - 8, (y0 + y1) // 2), (160, 60, 40), -1)
        cv2.rectangle(img, (x0, y0), (x1, y1), BLACK, max(1, int(2 * k)))
    else:
        n = 1 if card.rank == "A" else int(card.rank)
        pip = int((70 if n == 1 else 46) * k)
        for fx, fy in _PIPS[n]:
            m = suit_mask(card.suit, pip)
            if fy > 0.5:
                m = cv2.rotate(m, cv2.ROTATE_180)
            stamp(img, m, int(fx * w) - pip // 2, int(fy * h) - pip // 2, colour)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (200, 200, 200), 1)
    return img


def table(size: tuple[int, int], colour: tuple[int, int, int] = (40, 110, 30), seed: int = 0
          ) -> np.ndarray:
    """A felt-like table background (BGR) of ``size`` = (w, h)."""
    rng = np.random.default_rng(seed)
    w, h = size
    img = np.empty((h, w, 3), np.float32)
    img[:] = colour
    img += rng.normal(0, 8, (h, w, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def place(scene: np.ndarray, card_img: np.ndarray, quad: Sequence[Sequence[float]]) -> np.ndarray:
    """Paste ``card_img`` into ``scene`` so its corners land on ``quad`` (TL, TR, BR, BL)."""
    h, w = card_img.shape[:2]
    src = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, np.asarray(quad, np.float32))
    size = (scene.shape[1], scene.shape[0])
    warped = cv2.warpPerspective(card_img, m, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, size, flags=cv2.INTER_AREA)
    a = (mask.astype(np.float32) / 255)[..., None]
    return (scene * (1 - a) + warped * a).astype(np.uint8)


def card_quad(centre: tuple[float, float], height: float, angle_deg: float,
              tilt: float = 0.0) -> np.ndarray:
    """Corner points (TL, TR, BR, BL) of a card of ``height`` px turned by ``angle_deg``.

    ``tilt`` in [0, 0.3) narrows the top edge to fake a camera looking across the table.
    """
    hw, hh = height / 2 * 63 / 88, height / 2
    pts = np.array([[-hw * (1 - tilt), -hh], [hw * (1 - tilt), -hh], [hw, hh], [-hw, hh]])
    a = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return (pts @ rot.T + np.asarray(centre)).astype(np.float32)


def scene(cards: Sequence[Card], quads: Sequence[np.ndarray], size: tuple[int, int] = (1280, 960),
          seed: int = 0, blur: float = 0.0, noise: float = 0.0, light: float = 0.0,
          font: str = BUILTIN_FONT) -> np.ndarray:
    """A table frame with ``cards`` placed at ``quads`` (later ones on top), then degraded."""
    img = table(size, seed=seed)
    for card, quad in zip(cards, quads, strict=True):
        img = place(img, render_card(card, font=font), quad)
    return degrade(img, seed=seed, blur=blur, noise=noise, light=light)


def random_fan(rng: np.random.Generator, seed: int) -> tuple[np.ndarray, list[Card]]:
    """A frame of 2-5 random cards of the drawn deck fanned left to right (320-460 px tall, each
    0.15-0.3 of a card's height right of the last and turned 10° more, the fan -30° to 30°),
    blurred σ 0-1 with noise 4; ``rng`` draws the fan, ``seed`` the table and the noise."""
    cards = [FULL_DECK[i] for i in rng.choice(52, int(rng.integers(2, 6)), replace=False)]
    h = float(rng.uniform(320, 460))
    step, base, spread = float(rng.uniform(0.15, 0.3)) * h, float(rng.uniform(-30, 30)), 10.0
    quads = [card_quad((400 + step * i, 500), h, base + spread * i) for i in range(len(cards))]
    frame = scene(cards, quads, seed=seed, blur=float(rng.uniform(0, 1)), noise=4)
    return frame, cards


def degrade(img: np.ndarray, seed: int = 0, blur: float = 0.0, noise: float = 0.0,
            light: float = 0.0) -> np.ndarray:
    """Blur (sigma px), Gaussian noise (sigma) and a left-to-right lighting gradient (0..1)."""
    rng = np.random.default_rng(seed)
    out = img.astype(np.float32)
    if blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    if light:
        ramp = np.linspace(1 - light, 1.0, img.shape[1], dtype=np.float32)
        out *= ramp[None, :, None]
    if noise > 0:
        out += rng.normal(0, noise, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)
