"""Synthetic table scenes with known cards, and the labelled index crops the network learns from.

A scene: a procedural background (felt, wood, cloth, busy patterns with stray letters and digits),
cards of one deck design laid out alone, in rows, fans or piles (heavy overlap), chips on top, a
camera tilt (perspective up to ~55°), then light (gradients, dim, colour casts, shadows, glare),
defocus or motion blur, sensor noise and JPEG artefacts. Every card's two printed indices are known
in face coordinates (found once per face on the clean render), so each proposal of
:func:`dealer_assist.vision.ink_pairs.find_candidates` can be labelled: the card whose index it is
(fully visible), *not an index* (class 0), or left out (an index partly hidden).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from dealer_assist.cards import parse_card
from dealer_assist.vision import indices, ink_pairs, synth
from scripts.vision_data import decks, variants

CARD_ASPECT = 0.70


@dataclass
class Placed:
    code: str
    quad: np.ndarray  # (4, 2) frame pixels, TL TR BR BL of the face image
    homography: np.ndarray  # face pixels -> frame pixels
    face_size: tuple[int, int]  # (w, h)


# ---------------------------------------------------------------- faces and their index anchors

def font_deck(font: str, height: int = 420) -> dict[str, np.ndarray]:
    """The project's own drawn cards (OpenCV / system fonts) as a BGRA 'deck'."""
    w = int(height * CARD_ASPECT)
    out = {}
    for code in decks.CODES:
        bgr = synth.render_card(parse_card(code), (w, height), font=font)
        out[code] = np.dstack([bgr, np.full(bgr.shape[:2], 255, np.uint8)])
    return out


def load_faces(deck: str) -> dict[str, np.ndarray]:
    if deck.startswith(("var:", "wide:")):
        return _procedural(deck)[0]
    if deck.startswith("font:"):
        return font_deck(synth.FONTS[int(deck[5:])])
    return decks.render_deck(deck)


def _procedural(deck: str) -> tuple[dict[str, np.ndarray], dict[str, list[float]]]:
    """The faces and index anchors of a procedural design ``var:K`` or ``wide:K``."""
    family, k = deck.split(":")
    return variants.deck(int(k), wide=True) if family == "wide" else variants.deck(int(k))


def on_white(face: np.ndarray) -> np.ndarray:
    a = face[..., 3:4].astype(np.float32) / 255
    return (face[..., :3] * a + 255 * (1 - a)).astype(np.uint8)


def find_anchor(face: np.ndarray, near: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray] | None:
    """(rank centre, suit centre) of the top-left index of a clean upright face, or None.

    Without ``near``: the rank-over-suit pair nearest the face's top-left corner. With ``near``
    (rank x, y, suit x, y: where the deck's other faces have their index): the pair closest to
    it, both centres within ANCHOR_TOLERANCE of its step, or None.

    A glyph that touches a printed line is no blob of its own (a suit on its stem or a frame
    line: ancient-egyptians, jolly-royal; a queen on her picture's frame: penguins). Only when
    no pair is found, the face is searched again with such lines erased (the reader's glyphs cut
    off lines) and the suit's centre taken from its ink with thin lines opened away
    (:func:`_suit_body`): the line erased through a suit's middle leaves two halves."""
    for off_lines in (False, True):
        for f in (0.5, 1.0, 0.33):  # glyphs merge or break up at some sizes: try a few
            img = cv2.resize(on_white(face), None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
            h, w = img.shape[:2]
            blobs = ink_pairs.blobs_off_lines(img) if off_lines else None
            best = None
            for c in ink_pairs.find_candidates(img, blobs):
                if near is not None:
                    key = _off(np.array([*c.rank, *c.suit]) / f, near)
                    if key > ANCHOR_TOLERANCE:
                        continue
                else:
                    unit = (c.suit - c.rank) / (c.size + 1e-6)
                    if unit[1] < 0.75 or c.rank[0] > 0.3 * w or c.rank[1] > 0.3 * h:
                        continue
                    key = c.rank[1] + c.rank[0]
                if best is None or key < best[0]:
                    best = (key, c.rank, c.suit)
            if best is not None:
                _key, rank, suit = best
                if off_lines:
                    suit = _suit_body(img, rank, suit)
                return rank / f, suit / f
    return None


def _suit_body(img: np.ndarray, rank: np.ndarray, suit: np.ndarray) -> np.ndarray:
    """The centre of the ink blob nearest ``suit`` (within 0.4 of the rank-to-suit step, at most
    1.2 steps across) once lines thinner than a fifth of the step are opened away, else
    ``suit``."""
    step = float(np.hypot(*(suit - rank)))
    ink = ink_pairs.ink_mask(img.min(axis=2), 31)
    k = max(3, round(0.2 * step)) | 1
    body = cv2.morphologyEx(ink, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, _labels, stats, centres = cv2.connectedComponentsWithStats(body)
    if n < 2:
        return suit
    off = np.hypot(*(centres[1:] - suit).T)
    j = int(np.argmin(off))
    if off[j] < 0.4 * step and max(stats[j + 1, 2:4]) < 1.2 * step:
        return centres[j + 1].astype(suit.dtype)
    return suit


# An index further than this share of the deck's usual rank-to-suit step from where the deck's
# other faces have theirs is not the index: a "0" of a 10 paired with a pip beside it, a big
# pip and the small one below it, a mark at the card's edge (19 of the SVG decks' faces, tenth
# step). Such a face's index is looked for again near the usual place, else it is unknown. A
# 10's wider rank moves its centre by about a quarter step.
ANCHOR_TOLERANCE = 0.5
# the cache's: version 1 kept the corner-most pair of every face; version 2 did not search with
# lines erased (ancient-egyptians had 9 of 52 faces' index, jolly-royal 18, penguins 48); version 3
# put a 10's rank centre on its "1" where the digits are two blobs (see ten_centre)
ANCHORS_VERSION = 4


def ten_centre(face: np.ndarray, anchor: np.ndarray) -> np.ndarray:
    """A 10's anchor with its rank centre between the "1" and the "0".

    Where a deck prints the two digits apart, they are two blobs, and :func:`find_anchor` pairs
    one of them (mostly the "1", nearer the corner) with the suit: in 14 of the 16 SVG and
    font-drawn training designs every 10 was taught cut around its "1" (a stroke beside a round
    glyph), while a drawn design's anchor is the middle of its whole "10". Here the blob at the
    rank centre is joined with the one beside it at the same height and of about its height;
    the rank centre becomes the middle of both. A 10 printed as one blob keeps its anchor."""
    rank, suit = anchor[:2], anchor[2:]
    step = float(np.hypot(*(suit - rank)))
    blobs = ink_pairs.blobs_off_lines(on_white(face))
    if len(blobs) < 2:
        return anchor
    xy, w, h = blobs[:, :2], blobs[:, 4], blobs[:, 5]
    i = int(np.argmin(np.hypot(*(xy - rank).T)))
    if np.hypot(*(xy[i] - rank)) > 0.2 * step or w[i] >= 0.9 * h[i]:
        return anchor  # not a lone digit: the whole "10" or no blob there
    gap = np.abs(xy[:, 0] - xy[i, 0]) - (w + w[i]) / 2
    beside = ((np.abs(xy[:, 1] - xy[i, 1]) < 0.25 * h[i]) & (h > 0.7 * h[i]) & (h < 1.4 * h[i])
              & (gap > -0.1 * h[i]) & (gap < 0.5 * h[i]))
    beside[i] = False
    if not beside.any():
        return anchor
    j = int(np.flatnonzero(beside)[np.argmin(gap[beside])])
    left = min(xy[i, 0] - w[i] / 2, xy[j, 0] - w[j] / 2)
    right = max(xy[i, 0] + w[i] / 2, xy[j, 0] + w[j] / 2)
    return np.array([(left + right) / 2, (xy[i, 1] + xy[j, 1]) / 2, *suit], np.float64)


def _off(anchor: np.ndarray, usual: np.ndarray) -> float:
    """How far an anchor's rank or suit is from the ``usual`` one, in the usual step."""
    step = float(np.hypot(*(usual[2:] - usual[:2])))
    return float(max(np.hypot(*(anchor[:2] - usual[:2])),
                     np.hypot(*(anchor[2:] - usual[2:])))) / max(step, 1e-6)


def _as_row(anchor: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray | None:
    """:func:`find_anchor`'s (rank, suit) as one row [rank_x, rank_y, suit_x, suit_y]."""
    return None if anchor is None else np.array([*anchor[0], *anchor[1]], np.float64)


def usual_anchor(anchors: list[np.ndarray]) -> np.ndarray | None:
    """Where a deck's faces have their index (the median of their anchors), if at least 8 of
    them were found (too few to outvote a wrong one otherwise)."""
    return np.median(np.array(anchors), axis=0) if len(anchors) >= 8 else None


def anchors_of(deck: str, faces: dict[str, np.ndarray]) -> dict[str, list[list[float]]]:
    """Index anchors per card (cached): [rank_x, rank_y, suit_x, suit_y] or [] if not found.
    A face whose index is far from where the deck's others have theirs is searched again
    there (see ANCHOR_TOLERANCE)."""
    if deck.startswith(("var:", "wide:")):  # drawn here: known, not searched for
        return _procedural(deck)[1]
    # a font deck is cached by its font file, not its place in synth.FONTS (which depends on the
    # fonts installed: the cache outlives an install)
    key = f"font_{Path(synth.FONTS[int(deck[5:])]).stem}" if deck.startswith("font:") else deck
    path = decks.CACHE / f"anchors-v{ANCHORS_VERSION}-{key}.json"
    if path.exists():
        return json.loads(path.read_text())
    found = {code: _as_row(find_anchor(face)) for code, face in faces.items()}
    usual = usual_anchor([a for a in found.values() if a is not None])
    out = {}
    for code, a in found.items():
        if a is not None and usual is not None and _off(a, usual) > ANCHOR_TOLERANCE:
            a = _as_row(find_anchor(faces[code], near=usual))
        if a is not None and code.startswith("10"):
            a = ten_centre(faces[code], a)
        out[code] = [] if a is None else [float(v) for v in a]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out))
    return out


# ---------------------------------------------------------------- backgrounds and clutter

def background(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    kind = rng.choice(["felt", "wood", "cloth", "busy"], p=[0.35, 0.25, 0.2, 0.2])
    if kind == "felt":
        base = rng.choice([(40, 110, 30), (90, 60, 20), (30, 30, 140), (60, 60, 60), (20, 80, 110),
                           (120, 100, 80), (200, 200, 200)])
        img = np.empty((h, w, 3), np.float32)
        img[:] = np.array(base) * rng.uniform(0.6, 1.3)
        low = cv2.resize(rng.normal(0, 20, (8, 8)).astype(np.float32), (w, h))
        img += low[..., None] + rng.normal(0, rng.uniform(2, 10), (h, w, 1))
    elif kind == "wood":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, np.pi)
        u = xx * np.cos(a) + yy * np.sin(a)
        v = -xx * np.sin(a) + yy * np.cos(a)
        warp = cv2.resize(rng.normal(0, 15, (6, 6)).astype(np.float32), (w, h))
        grain = np.sin((v + warp + 8 * np.sin(u / rng.uniform(40, 200))) / rng.uniform(2, 9))
        colour = np.array(rng.choice([(40, 80, 140), (30, 60, 110), (60, 110, 170), (20, 40, 80)]))
        img = colour * (1 + 0.25 * grain[..., None]) * rng.uniform(0.6, 1.3)
    elif kind == "cloth":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        p = rng.uniform(6, 40)
        c1, c2 = rng.uniform(0, 255, 3), rng.uniform(0, 255, 3)
        check = ((np.sin(xx / p) > 0) ^ (np.sin(yy / p) > 0)).astype(np.float32)[..., None]
        img = c1 * check + c2 * (1 - check)
        img += rng.normal(0, 8, (h, w, 1))
    else:
        img = np.empty((h, w, 3), np.float32)
        img[:] = rng.uniform(0, 255, 3)
        img = busy(rng, img.astype(np.uint8), int(rng.integers(20, 80))).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def busy(rng: np.random.Generator, img: np.ndarray, n: int) -> np.ndarray:
    """Random shapes, lines and stray text (letters and digits that are not card indices)."""
    h, w = img.shape[:2]
    chars = "AKQJ0123456789BDEFGHMNPRSTUVWXYZ@#%&"
    for _ in range(n):
        colour = tuple(int(c) for c in rng.uniform(0, 255, 3))
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        s = int(rng.uniform(6, 80))
        kind = rng.integers(0, 4)
        if kind == 0:
            cv2.circle(img, (x, y), s, colour, int(rng.choice([-1, 2, 4])), cv2.LINE_AA)
        elif kind == 1:
            cv2.rectangle(img, (x, y), (x + s, y + int(rng.uniform(6, 80))), colour,
                          int(rng.choice([-1, 2])))
        elif kind == 2:
            cv2.line(img, (x, y), (x + int(rng.normal(0, 80)), y + int(rng.normal(0, 80))),
                     colour, int(rng.integers(1, 5)), cv2.LINE_AA)
        else:
            text = "".join(rng.choice(list(chars), int(rng.integers(1, 4))))
            cv2.putText(img, text, (x, y), int(rng.choice([0, 1, 2, 3, 4, 6, 7])),
                        rng.uniform(0.4, 2.5), colour, int(rng.integers(1, 4)), cv2.LINE_AA)
    return img


def chip(rng: np.random.Generator, r: int) -> tuple[np.ndarray, np.ndarray]:
    """A casino chip (BGR, alpha) of radius ``r``."""
    s = 2 * r + 2
    img = np.zeros((s, s, 3), np.uint8)
    alpha = np.zeros((s, s), np.uint8)
    colour = tuple(int(c) for c in rng.choice([(30, 30, 200), (200, 60, 20), (20, 20, 20),
                                                (40, 160, 40), (230, 230, 230), (30, 140, 220)]))
    cv2.circle(img, (r, r), r, colour, -1, cv2.LINE_AA)
    cv2.circle(alpha, (r, r), r, 255, -1, cv2.LINE_AA)
    for k in range(8):
        a = k * np.pi / 4 + rng.uniform(0, 0.5)
        p = (int(r + 0.8 * r * np.cos(a)), int(r + 0.8 * r * np.sin(a)))
        cv2.circle(img, p, max(1, r // 6), (245, 245, 245), -1, cv2.LINE_AA)
    cv2.circle(img, (r, r), int(0.55 * r), (245, 245, 245), max(1, r // 12), cv2.LINE_AA)
    return img, alpha


# ---------------------------------------------------------------- layouts

def card_rect(centre, height: float, angle: float) -> np.ndarray:
    hw, hh = height * CARD_ASPECT / 2, height / 2
    pts = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]], np.float32)
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    return pts @ rot.T + np.asarray(centre, np.float32)


def layout(rng: np.random.Generator, w: int, h: int, n_codes: int, kind: str
           ) -> list[np.ndarray]:
    """Card quads (table plane, before the camera tilt), bottom card first."""
    height = float(np.exp(rng.uniform(np.log(90), np.log(min(560, 0.95 * h)))))
    quads = []
    if kind == "single":
        for _ in range(int(rng.integers(2, 13))):
            hh = height * rng.uniform(0.8, 1.2)
            c = (rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h)
            quads.append(card_rect(c, hh, rng.uniform(0, 360)))
    elif kind == "fan":
        n = int(rng.integers(2, min(n_codes, 12) + 1))
        pivot = np.array([rng.uniform(0.3, 0.7) * w, rng.uniform(0.4, 0.8) * h])
        step = rng.uniform(5, 16) * rng.choice([-1, 1])
        base = rng.uniform(0, 360)
        for i in range(n):
            a = base + (i - n / 2) * step
            off = np.array([np.sin(np.deg2rad(a)), -np.cos(np.deg2rad(a))]) * height * 0.35
            quads.append(card_rect(pivot + off, height, a))
    elif kind == "row":
        n = int(rng.integers(2, min(n_codes, 10) + 1))
        a = rng.uniform(0, 360)
        d = np.array([np.cos(np.deg2rad(a)), np.sin(np.deg2rad(a))])
        step = height * CARD_ASPECT * rng.uniform(0.18, 0.45)
        start = np.array([w / 2, h / 2]) - d * step * n / 2
        for i in range(n):
            quads.append(card_rect(start + d * step * i, height, a + rng.normal(0, 3)))
    elif kind == "closeup":  # one or two cards close to the camera, 0.6-0.95 of the frame tall
        for _ in range(int(rng.integers(1, 3))):
            hh = float(np.exp(rng.uniform(np.log(0.6 * h), np.log(0.95 * h))))
            c = (rng.uniform(0.35, 0.65) * w, rng.uniform(0.4, 0.6) * h)
            quads.append(card_rect(c, hh, rng.uniform(0, 360)))
    else:  # pile
        n = int(rng.integers(3, min(n_codes, 10) + 1))
        c0 = np.array([rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h])
        for _ in range(n):
            quads.append(card_rect(c0 + rng.normal(0, 0.3 * height, 2), height,
                                   rng.uniform(0, 360)))
    return quads


def tilt_homography(rng: np.random.Generator, w: int, h: int, max_deg: float,
                    min_deg: float = 0.0) -> np.ndarray:
    """A camera looking across the table: rotation about the image's x axis of ``min_deg`` to
    ``max_deg``."""
    deg = rng.uniform(min_deg, max_deg)
    t = np.deg2rad(deg)
    f = max(w, h) * rng.uniform(0.8, 1.5)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
    spin = np.deg2rad(rng.uniform(-20, 20))
    rz = np.array([[np.cos(spin), -np.sin(spin), 0], [np.sin(spin), np.cos(spin), 0], [0, 0, 1]])
    hm = k @ rx @ rz @ np.linalg.inv(k)
    # scale and shift so the tilted table fills the frame again (the keystone stays)
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64), hm)[0]
    lo, hi = corners.min(0), corners.max(0)
    f = min(w / (hi[0] - lo[0]), h / (hi[1] - lo[1]))
    fit = np.array([[f, 0, -lo[0] * f], [0, f, -lo[1] * f], [0, 0, 1]])
    return fit @ hm


# ---------------------------------------------------------------- the scene

@dataclass
class Scene:
    image: np.ndarray
    cards: list[Placed]
    owner: np.ndarray  # int16: index of the card on top at each pixel, -1 table, -2 chip


MAX_TILT = 55.0  # degrees from straight down: the camera of the training and everyday scenes


def make_scene(rng: np.random.Generator, faces: dict[str, np.ndarray], size: tuple[int, int],
               kind: str | None = None, max_tilt: float = MAX_TILT, degrade: bool = True,
               mild: bool = False, min_tilt: float = 0.0) -> Scene:
    """A scene of ``faces``; ``mild``: everyday light and camera (the validation scenes) instead
    of the training range (dim, strong blur, JPEG 20, ...); the camera tilted ``min_tilt`` to
    ``max_tilt`` degrees."""
    w, h = size
    img = background(rng, w, h)
    owner = np.full((h, w), -1, np.int16)
    codes = list(rng.permutation(decks.CODES))
    kind = kind or str(rng.choice(["single", "fan", "row", "pile"], p=[0.3, 0.3, 0.2, 0.2]))
    quads = layout(rng, w, h, len(codes), kind)
    tilt = tilt_homography(rng, w, h, max_tilt, min_tilt)
    placed: list[Placed] = []
    for i, q in enumerate(quads):
        code = codes[i]
        face = faces[code]
        fh, fw = face.shape[:2]
        frame_quad = cv2.perspectiveTransform(q[None].astype(np.float64), tilt)[0]
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        hm = cv2.getPerspectiveTransform(src, frame_quad.astype(np.float32))
        flip = rng.random() < 0.5  # a card face printed 180° is the same card
        if flip:
            face = cv2.rotate(face, cv2.ROTATE_180)
        x0, y0 = np.floor(frame_quad.min(0)).astype(int) - 12
        x1, y1 = np.ceil(frame_quad.max(0)).astype(int) + 12
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        warped = cv2.warpPerspective(face, shift @ hm, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        a = warped[..., 3:4].astype(np.float32) / 255
        roi = img[y0:y1, x0:x1].astype(np.float32)
        if rng.random() < 0.5:  # a soft shadow under the card
            sh = cv2.GaussianBlur(warped[..., 3], (0, 0), 3 + rng.uniform(0, 6)).astype(np.float32)
            sh = np.roll(sh, (int(rng.integers(1, 6)), int(rng.integers(1, 6))), (0, 1)) / 255
            roi *= 1 - 0.35 * sh[..., None]
        paper = rng.uniform(0.85, 1.0, 3) if rng.random() < 0.3 else np.ones(3)
        img[y0:y1, x0:x1] = (roi * (1 - a) + warped[..., :3] * paper * a).astype(np.uint8)
        owner[y0:y1, x0:x1][warped[..., 3] > 128] = i
        if flip:
            hm = hm @ np.array([[-1, 0, fw], [0, -1, fh], [0, 0, 1]], np.float64)
        placed.append(Placed(code, frame_quad.astype(np.float32), hm, (fw, fh)))
    if rng.random() < 0.35:  # chips, some on cards
        for _ in range(int(rng.integers(1, 6))):
            r = int(rng.uniform(10, max(12, 0.25 * min(w, h) * rng.uniform(0.2, 0.8))))
            cimg, calpha = chip(rng, r)
            x, y = int(rng.uniform(0, w - 2 * r - 2)), int(rng.uniform(0, h - 2 * r - 2))
            if x < 0 or y < 0:
                continue
            s = cimg.shape[0]
            a = calpha[..., None].astype(np.float32) / 255
            roi = img[y:y + s, x:x + s]
            img[y:y + s, x:x + s] = (roi * (1 - a) + cimg * a).astype(np.uint8)
            owner[y:y + s, x:x + s][calpha > 128] = -2
    if rng.random() < 0.25:
        img = busy(rng, img, int(rng.integers(3, 15)))
        # stray marks drawn on top belong to nobody: cards under them lose those pixels
    if degrade:
        img = mild_degrade(rng, img) if mild else degrade_image(rng, img)
    return Scene(img, placed, owner)


def _light_ramp(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A linear gradient across the frame (-0.5 to 0.5) in a random direction: uneven light."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    return ((xx - w / 2) * np.cos(a) + (yy - h / 2) * np.sin(a)) / max(w, h)


def mild_degrade(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Everyday conditions: a soft light gradient, a slight cast, mild defocus, noise, JPEG."""
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    ramp = _light_ramp(rng, h, w)
    out *= (1 + rng.uniform(0, 0.4) * ramp)[..., None] * rng.uniform(0.9, 1.1, 3)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 0.8))
    out += rng.normal(0, rng.uniform(0, 4), out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    q = int(rng.uniform(70, 95))
    return cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])[1], 1)


def degrade_image(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    # light: gradient, colour cast, dim, glare
    ramp = _light_ramp(rng, h, w)
    out *= (1 + rng.uniform(0, 0.9) * ramp)[..., None]
    out *= rng.uniform(0.75, 1.2, 3) if rng.random() < 0.5 else 1.0
    if rng.random() < 0.3:
        out *= rng.uniform(0.25, 0.6)
    if rng.random() < 0.2:
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(20, 0.4 * max(w, h))
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        glare = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
        out += rng.uniform(40, 140) * glare[..., None]
    if rng.random() < 0.25:  # a shadow across the table
        m = np.zeros((h, w), np.float32)
        pts = rng.uniform(0, 1, (4, 2)) * [w, h]
        cv2.fillPoly(m, [pts.astype(np.int32)], 1.0)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(3, 30))
        out *= (1 - rng.uniform(0.2, 0.55) * m)[..., None]
    r = rng.random()
    if r < 0.35:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 2.2))
    elif r < 0.5:
        k = int(rng.integers(3, 10))
        kern = np.zeros((k, k), np.float32)
        kern[k // 2] = 1 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
        kern = cv2.warpAffine(kern, rot, (k, k))
        out = cv2.filter2D(out, -1, kern / max(kern.sum(), 1e-6))
    out += rng.normal(0, rng.uniform(0, 10), out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        q = int(rng.uniform(20, 95))
        out = cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])[1], 1)
    return out


# ---------------------------------------------------------------- labelling proposals

class IndexMark(NamedTuple):
    """A printed index in a scene: its card, rank and suit centres (frame pixels), the visible
    fraction of its glyph box, and that of its less visible half (the rank's or the suit's).
    An index within 0.6 of its rank-to-suit step of the frame's edge counts as not visible (0)."""

    code: str
    rank: np.ndarray
    suit: np.ndarray
    frac: float
    glyph_frac: float

    @property
    def step(self) -> float:
        """Its rank-to-suit step: px from the rank's centre to the suit's."""
        return float(np.linalg.norm(self.suit - self.rank))

    def legible(self, min_step: float = 8) -> bool:
        """In full view (97 %) with its rank and suit centres ``min_step`` px apart or more."""
        return self.frac >= 0.97 and self.step >= min_step


def visible_indices(scene: Scene, anchors: dict[str, list[float]]) -> list[IndexMark]:
    """Every printed index of the scene's cards, with how much of it is visible."""
    h, w = scene.owner.shape
    out = []
    for i, card in enumerate(scene.cards):
        a = anchors.get(card.code) or []
        if not a:
            continue
        for rot in (False, True):
            pts = np.array([[a[0], a[1]], [a[2], a[3]]], np.float64)
            if rot:
                pts = np.array(card.face_size, np.float64) - pts
            p = cv2.perspectiveTransform(pts[None], card.homography)[0]
            rank, suit = p[0], p[1]
            d = float(np.linalg.norm(suit - rank))
            unit = (suit - rank) / (d + 1e-6)
            side = np.array([-unit[1], unit[0]]) * 0.45 * d
            top, bottom = rank - unit * 0.55 * d, suit + unit * 0.45 * d
            # covered: by a card laid later or a chip (the table beside the card does not count)
            over = (scene.owner > i) | (scene.owner == -2)
            m = 0.6 * d
            inside = (m <= min(rank[0], suit[0]) and max(rank[0], suit[0]) < w - m
                      and m <= min(rank[1], suit[1]) and max(rank[1], suit[1]) < h - m)
            if not (inside and d > 2):
                out.append(IndexMark(card.code, rank, suit, 0.0, 0.0))
                continue
            middle = (rank + suit) / 2
            frac = _visible(over, top, bottom, side)
            glyph_frac = min(_visible(over, top, middle, side),
                             _visible(over, middle, bottom, side))
            out.append(IndexMark(card.code, rank, suit, frac, glyph_frac))
    return out


def _visible(over: np.ndarray, start: np.ndarray, end: np.ndarray, side: np.ndarray) -> float:
    """Visible fraction of the box from ``start`` to ``end``, ``side`` wide to each side
    (``over``: the pixels something lies on)."""
    box = np.array([start - side, start + side, end + side, end - side])
    mask = np.zeros(over.shape, np.uint8)
    cv2.fillConvexPoly(mask, box.astype(np.int32), 1)
    hidden = int(np.count_nonzero(mask.astype(bool) & over))
    return 1 - hidden / max(cv2.countNonZero(mask), 1)


def label_candidates(cands: list[ink_pairs.Candidate], marks, scene: Scene,
                     anchors: dict[str, list[float]], min_visible: float = 0.97,
                     covered_glyph: float = 0.0, partly: float | None = None) -> list[int]:
    """Class per candidate: 1 + card number if it is a visible index, 0 if not an index at all
    (or, with ``covered_glyph``, an index whose rank or suit is less than that visible: it names
    no card), -1 (leave out) if it is an index that is partly hidden, or lies on a card whose
    index position is unknown. ``partly``: an index at least that visible, and each of its
    rank's and suit's halves too, is also its card (issue 16, sixty-first step)."""
    unknown = {i for i, card in enumerate(scene.cards) if not anchors.get(card.code)}
    h, w = scene.owner.shape
    labels = []
    for c in cands:
        lab = 0
        x, y = (int(min(max(v, 0), lim - 1)) for v, lim in zip(c.centre, (w, h), strict=True))
        if int(scene.owner[y, x]) in unknown:
            labels.append(-1)
            continue
        for code, rank, suit, frac, glyph_frac in marks:
            d = float(np.linalg.norm(suit - rank))
            if (np.linalg.norm(c.suit - suit) < 0.4 * d and np.linalg.norm(c.rank - rank) < 0.7 * d
                    and 0.6 * d < c.size < 1.5 * d):
                if frac >= min_visible or partly_visible(frac, glyph_frac, partly):
                    lab = indices.CLASSES.index(code)
                else:
                    lab = -1 if frac > 0.4 and glyph_frac >= covered_glyph else 0
                break
        labels.append(lab)
    return labels


def partly_visible(frac: float, glyph_frac: float, partly: float | None) -> bool:
    """Whether an index ``frac`` visible whose less visible half is ``glyph_frac`` visible is
    taught as its card at ``partly`` (None: only indices in full view are)."""
    return partly is not None and frac >= partly and glyph_frac >= partly
