"""Procedural deck designs: card faces drawn with the system's fonts (``fc-list``), so that the
index reader meets many letterforms, stroke weights, widths, suit shapes, ink colours and index
layouts it will never see in one of the SVG decks.

A design is ``var:K``; everything about it follows from ``K`` (seeded), and its index anchors
(rank and suit centres of the top-left index) are known from the drawing, not searched for.
A ``wide:K`` design (issue 16, forty-first step; not in the shipped recipe) draws from a wider
space: the text faces of ``scripts/wide_fonts.sh`` too (hairline to black weights, condensed,
monospaced, slab and old-style faces), thinner and bolder strokes, larger and smaller indices,
and on some designs a large suit sign printed beside the index, as many European decks do.
Glyphs are drawn with Pillow's ``ImageFont``, not OpenCV's ``FontFace``: the latter keeps state
between the fonts loaded in one process, so the same design came out differently depending on
what was drawn before it.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from dealer_assist.vision import glyphs, synth
from scripts.vision_data import decks

FACE_H = 420
FACE_W = 294
# symbol faces: no letters or digits to draw an index with
_NOT_TEXT = ("D050000L", "StandardSymbols", "MathTeXGyre")
_SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
# faces that draw the four suits as glyphs (the procedural suits of synth are the others)
_SUIT_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "FreeSerif.ttf",
               "FreeSans.ttf", "FreeSerifBold.ttf", "FreeSansBold.ttf")


# scripts/wide_fonts.sh unpacks the wide designs' extra faces here (fontconfig never sees them)
WIDE_FONTS = Path(__file__).resolve().parents[2] / "build" / "wide-fonts"
_RANK_CHARS = "A23456789JQK10"


@cache
def text_fonts() -> tuple[str, ...]:
    """The installed font files that can draw an index (sorted, so a design is reproducible)."""
    try:
        out = subprocess.run(["fc-list", ":", "file"], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return ()
    files = sorted({line.split(":")[0].strip() for line in out.splitlines() if line.strip()})
    return tuple(f for f in files if f.endswith((".ttf", ".otf"))
                 and not any(bad in f for bad in _NOT_TEXT))


def wide_extra_fonts() -> tuple[str, ...]:
    """The faces in WIDE_FONTS (``scripts/wide_fonts.sh``; none there: empty), sorted."""
    return tuple(sorted(str(f) for f in WIDE_FONTS.glob("*") if f.suffix in (".ttf", ".otf")
                        and "Hairline" not in f.name))  # too thin to read at an index's size


@cache
def wide_fonts() -> tuple[str, ...]:
    """The wide designs' faces: :func:`text_fonts` and those of :func:`wide_extra_fonts` that
    draw every rank's characters with their own glyphs (not the font's box for a missing one),
    sorted."""
    return tuple(sorted({*text_fonts(), *filter(draws_ranks, wide_extra_fonts())}))


def draws_ranks(font: str) -> bool:
    """Does ``font`` draw each rank character as its own glyph, none of them as the font's
    "missing" box (the glyph it draws for an unassigned code point)?"""
    try:
        missing = synth.font_ink("\u0378", font, 48)
    except ValueError:  # no ink for a missing glyph: every glyph with ink is the font's own
        missing = None
    except OSError:  # not a font Pillow can read
        return False
    for ch in _RANK_CHARS:
        try:
            ink = synth.font_ink(ch, font, 48)
        except (ValueError, OSError):
            return False
        if missing is not None and ink.shape == missing.shape and np.array_equal(ink, missing):
            return False
    return True


def suit_fonts() -> tuple[str, ...]:
    return tuple(f for f in text_fonts() if f.rsplit("/", 1)[-1] in _SUIT_FONTS)


@dataclass(frozen=True)
class Style:
    font: str
    suit_font: str | None  # None: synth's procedural suit shapes
    weight: float
    width: float
    black: tuple[int, int, int]
    red: tuple[int, int, int]
    paper: tuple[int, int, int]
    rank_h: float  # rank glyph height, fraction of the card height
    suit_s: float  # suit glyph size, fraction of the card height
    gap: float  # rank bottom to suit top, fraction of the card height
    x: float  # index column centre, fraction of the card width
    y: float  # rank top, fraction of the card height
    frame: float  # inset of a printed frame line (fraction of the width), 0: none
    corner_pip: float = 0.0  # a large suit sign beside the index (fraction of the height), 0: none


@dataclass(frozen=True)
class Ranges:
    """What a family of procedural designs draws its styles from (fractions as in Style)."""

    paper_low: int  # each paper channel from this to 255
    weight: tuple[float, float]
    width: tuple[float, float]
    rank_h: tuple[float, float]
    suit_s: tuple[float, float]
    gap: tuple[float, float]
    x: tuple[float, float]
    y: tuple[float, float]
    sign_share: float = 0.0  # designs with a large suit sign beside the index (drawn last)


VAR = Ranges(225, (-0.03, 0.08), (0.7, 1.3), (0.06, 0.105), (0.045, 0.075), (0.0, 0.03),
             (0.07, 0.13), (0.02, 0.06))
WIDE = Ranges(215, (-0.03, 0.1), (0.6, 1.35), (0.05, 0.12), (0.035, 0.08), (0.0, 0.035),
              (0.06, 0.14), (0.015, 0.07), sign_share=0.35)


def style(k: int) -> Style:
    """Design ``var:k``'s style."""
    return _drawn_style(np.random.default_rng([16, k]), text_fonts(), VAR)


def wide_style(k: int) -> Style:
    """Design ``wide:k``'s style: from :func:`wide_fonts` and the WIDE ranges (its own seed, so
    ``var:k`` is unchanged)."""
    return _drawn_style(np.random.default_rng([18, k]), wide_fonts(), WIDE)


def _drawn_style(rng: np.random.Generator, fonts: tuple[str, ...], r: Ranges) -> Style:
    sfonts = suit_fonts()
    black = tuple(int(v) for v in rng.integers(0, 70, 3))
    if rng.random() < 0.15:  # dark blue or green "black" suits
        black = (int(rng.integers(60, 140)), int(rng.integers(0, 90)), int(rng.integers(0, 40)))
    red = (int(rng.integers(0, 90)), int(rng.integers(0, 70)), int(rng.integers(140, 235)))
    paper = tuple(int(v) for v in rng.integers(r.paper_low, 256, 3))
    return Style(
        font=fonts[int(rng.integers(len(fonts)))],
        suit_font=sfonts[int(rng.integers(len(sfonts)))] if sfonts and rng.random() < 0.5
        else None,
        weight=float(rng.uniform(*r.weight)), width=float(rng.uniform(*r.width)),
        black=black, red=red, paper=paper,
        rank_h=float(rng.uniform(*r.rank_h)), suit_s=float(rng.uniform(*r.suit_s)),
        gap=float(rng.uniform(*r.gap)), x=float(rng.uniform(*r.x)),
        y=float(rng.uniform(*r.y)),
        frame=float(rng.uniform(0.02, 0.2)) if rng.random() < 0.3 else 0.0,
        # drawn last, and only for a family that prints it: var: designs draw as before it was
        corner_pip=float(rng.uniform(0.09, 0.16)) if r.sign_share and rng.random() < r.sign_share
        else 0.0)


def rank_glyph(rank: str, height: int, st: Style) -> np.ndarray:
    """The rank (``10`` set tight, as on cards) ``height`` rows tall, in the design's font,
    weight and width (as :func:`synth.rank_mask` does with its fonts)."""
    px = 96
    parts = ["1", "0"] if rank == "10" else [rank]
    pieces = [synth.font_ink(part, st.font, px) for part in parts]
    return synth.shape_rank(pieces, px, height, st.weight, st.width)


@cache
def _suit_shape(suit: str) -> np.ndarray:
    """``glyphs.suit_features`` of synth's own ``suit``, cut to its ink."""
    mask = np.where(synth.suit_mask(suit, 64) > 127, 255, 0).astype(np.uint8)
    x, y, w, h = cv2.boundingRect(mask)
    return glyphs.suit_features(mask[y:y + h, x:x + w])


def _unlike(glyph: np.ndarray, suit: str) -> float:
    """How far a drawn suit glyph's shape is from synth's ``suit`` (the whole-card reader's
    features, which tell a spade from a club)."""
    ink = np.where(glyph > 127, 255, 0).astype(np.uint8)
    return float(np.linalg.norm(glyphs.suit_features(ink) - _suit_shape(suit)))


@cache
def suit_chars(font: str) -> dict[str, str]:
    """The characters that draw each suit in ``font``. FreeSerifBold (GNU FreeFont) draws U+2660
    as a club and U+2663 as a spade: a font whose black suits look swapped gets them swapped
    back (found by shape, so a labelled club always looks like one)."""
    spade, club = (synth.font_ink(_SUIT_CHARS[s], font, 64) for s in "SC")
    swapped = _unlike(spade, "C") + _unlike(club, "S") < _unlike(spade, "S") + _unlike(club, "C")
    return {**_SUIT_CHARS, "S": _SUIT_CHARS["C"], "C": _SUIT_CHARS["S"]} if swapped \
        else dict(_SUIT_CHARS)


def suit_glyph(suit: str, size: int, st: Style) -> np.ndarray:
    if st.suit_font is None:
        return synth.suit_mask(suit, size)
    img = synth.font_ink(suit_chars(st.suit_font)[suit], st.suit_font, 4 * size)
    scale = size / max(img.shape)
    out_w, out_h = max(2, round(img.shape[1] * scale)), max(2, round(img.shape[0] * scale))
    return cv2.resize(img, (out_w, out_h), interpolation=cv2.INTER_AREA)


def card(code: str, st: Style, rng: np.random.Generator) -> tuple[np.ndarray, list[float]]:
    """One face (BGRA) and its anchor [rank x, y, suit x, y] (top-left index, face pixels)."""
    rank, suit = code[:-1], code[-1]
    colour = st.red if suit in "HD" else st.black
    w, h = FACE_W, FACE_H
    img = np.full((h, w, 3), st.paper, np.uint8)
    if st.frame:
        m = int(st.frame * w)
        cv2.rectangle(img, (m, m), (w - 1 - m, h - 1 - m), colour if rng.random() < 0.5
                      else st.black, int(rng.integers(1, 4)), cv2.LINE_AA)
    # the centre: pips, or a picture for court cards
    if rank in "JQK":
        x0, y0, x1, y1 = int(0.2 * w), int(0.14 * h), int(0.8 * w), int(0.86 * h)
        for _ in range(int(rng.integers(6, 16))):
            c = tuple(int(v) for v in rng.integers(0, 256, 3))
            p = (int(rng.uniform(x0, x1)), int(rng.uniform(y0, y1)))
            if rng.random() < 0.5:
                cv2.circle(img, p, int(rng.uniform(5, 40)), c, -1, cv2.LINE_AA)
            else:
                q = (int(rng.uniform(x0, x1)), int(rng.uniform(y0, y1)))
                cv2.rectangle(img, p, q, c, -1)
        cv2.rectangle(img, (x0, y0), (x1, y1), st.black, 2)
    else:
        n = 1 if rank == "A" else int(rank)
        pip = int((0.2 if n == 1 else 0.12) * h)
        for fx, fy in synth._PIPS[n]:
            m = suit_glyph(suit, pip, st)
            if fy > 0.5:
                m = cv2.rotate(m, cv2.ROTATE_180)
            synth.stamp(img, m, int(fx * w) - m.shape[1] // 2, int(fy * h) - m.shape[0] // 2,
                        colour)
    # the index, top left and (turned) bottom right
    half = np.full((h, w, 3), st.paper, np.uint8)
    rm = rank_glyph(rank, max(4, int(st.rank_h * h)), st)
    if rm.shape[1] > 0.16 * w:
        rm = cv2.resize(rm, (int(0.16 * w), rm.shape[0]), interpolation=cv2.INTER_AREA)
    sm = suit_glyph(suit, max(4, int(st.suit_s * h)), st)
    cx = st.x * w
    ry = int(st.y * h)
    sy = ry + rm.shape[0] + int(st.gap * h)
    rx, sx = int(cx - rm.shape[1] / 2), int(cx - sm.shape[1] / 2)
    synth.stamp(half, rm, max(rx, 1), ry, colour)
    synth.stamp(half, sm, max(sx, 1), sy, colour)
    if st.corner_pip:  # a large suit sign beside the index, its top at the rank's
        big = suit_glyph(suit, max(4, int(st.corner_pip * h)), st)
        bx = max(rx + rm.shape[1], sx + sm.shape[1]) + max(2, int(0.02 * w))
        synth.stamp(half, big, bx, ry, colour)
    img = np.minimum(np.minimum(img, half), cv2.rotate(half, cv2.ROTATE_180))
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (190, 190, 190), 1)
    anchor = [max(rx, 1) + rm.shape[1] / 2, ry + rm.shape[0] / 2,
              max(sx, 1) + sm.shape[1] / 2, sy + sm.shape[0] / 2]
    return np.dstack([img, np.full((h, w), 255, np.uint8)]), [float(v) for v in anchor]


@cache
def deck(k: int, wide: bool = False) -> tuple[dict[str, np.ndarray], dict[str, list[float]]]:
    """Design ``var:k`` (``wide:k`` if ``wide``): faces (BGRA) and index anchors by card
    code."""
    st = wide_style(k) if wide else style(k)
    rng = np.random.default_rng([19 if wide else 17, k])
    faces, anchors = {}, {}
    for code in decks.CODES:
        faces[code], anchors[code] = card(code, st, rng)
    return faces, anchors
