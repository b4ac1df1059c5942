"""Deck calibration: learn the corner glyphs of the user's own deck from one photo per card.

A calibrated deck lives in ``<data>/decks/<name>/`` as ``ranks.npz`` and ``suits.npz`` (glyph
samples cut from the user's photos) plus ``deck.json``. ``<data>`` is ``$DEALER_ASSIST_DATA`` if
set, else ``$XDG_DATA_HOME/dealer-assist`` (default ``~/.local/share/dealer-assist``). Readings
with a calibrated deck use the shipped synthetic samples and the deck's own samples together.

Input folder: either ``labels.csv`` (``file,cards``; images with exactly one card are used), or
images named by their card (``QS.jpg``, ``10h-2.png``).
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import numpy as np

from dealer_assist.cards import Card, CardError, parse_card, parse_cards
from dealer_assist.errors import InputError
from dealer_assist.paths import data_dir
from dealer_assist.vision.detect import find_card_quads
from dealer_assist.vision.glyphs import corner_crop, glyph_features, split_index, suit_features
from dealer_assist.vision.model import GlyphModel
from dealer_assist.vision.recognizer import Models
from dealer_assist.vision.sources import read_image

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
DECK_WEIGHT = 3  # each of the user's samples counts as this many synthetic ones
_NAME_OK = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def deck_dir(name: str) -> Path:
    if not _NAME_OK.match(name) or name.startswith("."):
        raise ValueError(f"deck name {name!r}: use letters, digits, '.', '_' or '-'")
    return data_dir() / "decks" / name


def labelled_images(folder: Path) -> list[tuple[Path, Card]]:
    """(image, card) pairs from ``labels.csv`` single-card rows, or from file names."""
    labels = folder / "labels.csv"
    if labels.exists():
        with open(labels, newline="") as fh:
            rows = [(folder / r["file"], parse_cards(r["cards"])) for r in csv.DictReader(fh)]
        return [(path, cards[0]) for path, cards in rows if len(cards) == 1]
    pairs = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        try:
            pairs.append((path, parse_card(re.split(r"[-_ ]", path.stem)[0])))
        except CardError:
            continue
    return pairs


def deck_samples(images: list[tuple[Path, Card]]) -> tuple[GlyphModel, GlyphModel, list[str]]:
    """Glyph samples from both corners of the largest card in each image; and images not used."""
    rank_x, rank_y, suit_x, suit_y, skipped = [], [], [], [], []
    for path, card in images:
        try:
            frame = read_image(path)
        except (FileNotFoundError, InputError):
            frame = None  # unreadable or over the pixel budget: reported as skipped
        quads = find_card_quads(frame) if frame is not None else []
        found = 0
        for quad in quads[:1]:
            for q in (quad, np.roll(quad, -2, axis=0)):
                glyphs = split_index(corner_crop(frame, q))
                if glyphs is None:
                    continue
                found += 1
                rank_x.append(glyph_features(glyphs.rank))
                rank_y.append(card.rank)
                suit_x.append(suit_features(glyphs.suit))
                suit_y.append(card.suit)
        if not found:
            skipped.append(path.name)
    if not rank_x:
        raise ValueError("no card index could be read in any calibration image")
    return GlyphModel(np.array(rank_x), np.array(rank_y)), GlyphModel(np.array(suit_x),
                                                                        np.array(suit_y)), skipped


def calibrate(folder: Path, name: str | None = None) -> tuple[Models, dict]:
    """Learn a deck from ``folder`` (saved as deck ``name`` if given): its models and a report."""
    images = labelled_images(Path(folder))
    ranks, suits, skipped = deck_samples(images)
    report = {"images": len(images), "samples": len(ranks.labels), "skipped": skipped,
              "cards": sorted({f"{r}{s}" for r, s in zip(ranks.labels, suits.labels, strict=True)})}
    if name is not None:
        target = deck_dir(name)
        ranks.save(target / "ranks.npz")
        suits.save(target / "suits.npz")
        (target / "deck.json").write_text(json.dumps({"name": name, **report}, indent=1))
    return _with_shipped(ranks, suits), report


def _with_shipped(ranks: GlyphModel, suits: GlyphModel) -> Models:
    shipped = Models.shipped()
    return Models(shipped.ranks.merged(ranks, DECK_WEIGHT),
                  shipped.suits.merged(suits, DECK_WEIGHT), calibrated=True)


def load_deck_models(name: str) -> Models:
    """Models for a saved calibrated deck (raises FileNotFoundError if there is none)."""
    folder = deck_dir(name)
    if not (folder / "ranks.npz").exists():
        raise FileNotFoundError(f"no calibrated deck {name!r} in {folder.parent}")
    return _with_shipped(GlyphModel.load(folder / "ranks.npz"),
                         GlyphModel.load(folder / "suits.npz"))


def list_decks() -> list[str]:
    root = data_dir() / "decks"
    if not root.exists():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "ranks.npz").exists())
