"""Render the card faces of the SVG decks Debian ships (kdegames-card-data-kf5, aisleriot).

Model building and tests only (Qt lives here, not in ``dealer_assist.vision``). Each card is an
SVG element: ``queen_heart`` / ``10_spade`` / ``1_club`` in the KDE decks, ``heart_queen`` /
``spade_10`` / ``club_1`` in aisleriot's ``bonded.svgz`` and the other aisleriot decks
(:func:`more_deck_files`, Debian's ``gnome-cards-data``). Rendered faces are cached as PNG.
"""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np

CARDDECKS = Path("/usr/share/carddecks")
AISLERIOT = Path("/usr/share/aisleriot/cards/bonded.svgz")
AISLERIOT_DECKS = AISLERIOT.parent
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "dealer-assist-decks"

RANK_NAMES = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}
SUIT_NAMES = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
CODES = tuple(r + s for s in SUITS for r in RANKS)

# not read by the index reader, so left out of training and validation: German indices (B, D for
# jack and queen), a deck of robots with hexadecimal indices, and dark faces whose rank and suit
# sit side by side rather than stacked
EXCLUDED = ("xskat-german", "xskat-french", "future", "oxygen", "oxygen-air", "oxygen-white")
# never seen in training: the synthetic "unseen deck" validation and the test read these
HELD_OUT = ("tigullio-international", "penguins", "gm-paris", "aisleriot-bonded")
# issue 16, forty-ninth step (generate --more-decks; the fifth --design-mix share of the shipped
# recipe since the fifty-first step): the designs of
# Debian's gnome-cards-data with English indices (A, K, Q, J) over French suits, each a rank
# stacked over its suit. Left out: its paris and tigullio (the held-out gm-paris and
# tigullio-international drawn again) and bellot (the Paris pattern, as gm-paris); R/D/V, B/D/K,
# F/D/R and Cyrillic indices (ancient_french, atlasnye_skat, berlin, lattmann, rheinland,
# tarocco, slavic_costumes, the Cyrillic atlas deck); Swiss suits (swiss-xvii); courts with
# no index (guyenne-classic); rank and suit side by side (tango_nuevo); anglo_poker and
# simplistic, which QtSvg draws as blots; gnomangelo_bitmap (anglo_bitmap again); dondorf
# (the KDE dondorf again)
MORE_DECKS = ("anglo", "anglo_bitmap", "anglo_modern", "anglo_modern_4_color", "atlasnye",
              "gnomangelo", "neoclassical", "neoclassical_4_color", "orell", "ornamental",
              "plastic", "tango")


def deck_files() -> dict[str, Path]:
    """Every installed deck by name (``dondorf``, ``aisleriot-bonded``, ...)."""
    decks: dict[str, Path] = {}
    if CARDDECKS.is_dir():
        for folder in sorted(CARDDECKS.glob("svg-*")):
            files = sorted(folder.glob("*.svg*"))
            name = folder.name.removeprefix("svg-")
            if files and name not in EXCLUDED:
                decks[name] = files[0]
    if AISLERIOT.exists():
        decks["aisleriot-bonded"] = AISLERIOT
    return decks


def more_deck_files() -> dict[str, Path]:
    """The installed :data:`MORE_DECKS` by name (``aisleriot-anglo``, ...): training designs
    of ``generate --more-decks`` and of ``--design-mix``'s fifth share (the shipped first and
    third networks' recipe since issue 16's fifty-first step), never of the benchmark's sets."""
    files = {f"aisleriot-{stem}": AISLERIOT_DECKS / f"{stem}.svgz" for stem in MORE_DECKS}
    return {name: path for name, path in files.items() if path.exists()}


def more_decks() -> list[str]:
    return list(more_deck_files())


def deck_path(deck: str) -> Path:
    """The SVG file of any deck this module knows (KeyError for another name)."""
    return {**deck_files(), **more_deck_files()}[deck]


def training_decks() -> list[str]:
    return [d for d in deck_files() if d not in HELD_OUT]


def held_out_decks() -> list[str]:
    return [d for d in deck_files() if d in HELD_OUT]


def element_id(deck: str, code: str) -> str:
    rank, suit = RANK_NAMES.get(code[:-1], code[:-1]), SUIT_NAMES[code[-1]]
    return f"{suit}_{rank}" if deck.startswith("aisleriot-") else f"{rank}_{suit}"


def render_deck(deck: str, height: int = 420) -> dict[str, np.ndarray]:
    """All 52 faces of ``deck`` as BGRA images ``height`` px tall (cached on disk)."""
    folder = CACHE / f"{deck}-{height}"
    faces: dict[str, np.ndarray] = {}
    if folder.is_dir() and len(list(folder.glob("*.png"))) == len(CODES):
        for code in CODES:
            faces[code] = cv2.imread(str(folder / f"{code}.png"), cv2.IMREAD_UNCHANGED)
        return faces
    faces = _render(deck_path(deck), deck, height)
    folder.mkdir(parents=True, exist_ok=True)
    for code, img in faces.items():
        cv2.imwrite(str(folder / f"{code}.png"), img)
    return faces


def _render(path: Path, deck: str, height: int) -> dict[str, np.ndarray]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])
    renderer = QSvgRenderer(str(path))
    if not renderer.isValid():
        raise RuntimeError(f"cannot read the SVG deck {path}")
    faces = {}
    for code in CODES:
        eid = element_id(deck, code)
        if not renderer.elementExists(eid):
            raise RuntimeError(f"{path} has no element {eid}")
        box = renderer.transformForElement(eid).mapRect(renderer.boundsOnElement(eid))
        width = max(1, round(height * box.width() / box.height()))
        image = QImage(width, height, QImage.Format.Format_ARGB32)
        image.fill(0)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter, eid, QRectF(0, 0, width, height))
        painter.end()
        ptr = image.constBits()
        arr = np.frombuffer(ptr, np.uint8).reshape(height, image.bytesPerLine() // 4, 4)
        faces[code] = arr[:, :width].copy()  # BGRA (Qt's ARGB32 in little-endian memory)
    return faces
