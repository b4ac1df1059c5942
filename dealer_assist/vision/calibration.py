"""A user's deck: adapt the recogniser to it from a few labelled photos (issue 16).

``calibrate(folder, name)`` embeds the corner-index crops the recogniser proposes in the photos
with the shipped index network and keeps them as per-card prototypes (``adapt.py``); from photos
that show one card it also learns that deck's corner glyphs for the whole-card reader (the old
calibration, kept because it reads index letters the network never learned, such as a German
``B``/``D``). A deck lives in ``<data>/decks/<name>/``: ``adaptation.npz``, ``ranks.npz`` and
``suits.npz`` (when single-card photos were given) and ``deck.json``. ``<data>`` is
``$DEALER_ASSIST_DATA`` if set, else ``$XDG_DATA_HOME/dealer-assist`` (default
``~/.local/share/dealer-assist``).

Input folder: either ``labels.csv`` (``file,cards``: the cards in view, space-separated), or
images named by their one card (``QS.jpg``, ``10h-2.png``).
"""

from __future__ import annotations

import contextlib
import csv
import json
import re
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dealer_assist.cards import Card, CardError, parse_card, parse_cards
from dealer_assist.errors import InputError, RuleError, StorageError, os_error_kind
from dealer_assist.paths import data_dir
from dealer_assist.vision.adapt import FILE_NAME, DeckAdaptation, adapt_frames, model_digest
from dealer_assist.vision.detect import find_card_quads
from dealer_assist.vision.glyphs import corner_crop, glyph_features, split_index, suit_features
from dealer_assist.vision.model import GlyphModel, model_path
from dealer_assist.vision.recognizer import Models, Recognizer
from dealer_assist.vision.sources import read_image

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
DECK_WEIGHT = 3  # each of the user's samples counts as this many synthetic ones
_NAME_OK = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def deck_dir(name: str) -> Path:
    if not _NAME_OK.match(name) or name.startswith("."):
        raise ValueError(f"deck name {name!r}: use letters, digits, '.', '_' or '-'")
    return data_dir() / "decks" / name


def labelled_photos(folder: Path) -> list[tuple[Path, list[Card]]]:
    """(image, cards in view) from ``labels.csv``, or (image, [card]) from file names."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"no folder {folder}")
    labels = folder / "labels.csv"
    if labels.exists():
        try:
            with open(labels, newline="") as fh:
                return [(folder / r["file"], parse_cards(r["cards"]))
                        for r in csv.DictReader(fh)]
        except (KeyError, TypeError, CardError, UnicodeDecodeError, csv.Error) as exc:
            raise InputError(f"{labels}: not a 'file,cards' table ({exc})") from exc
    pairs = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        try:
            pairs.append((path, [parse_card(re.split(r"[-_ ]", path.stem)[0])]))
        except CardError:
            continue
    return pairs


def labelled_images(folder: Path) -> list[tuple[Path, Card]]:
    """(image, card) pairs of the photos that show one card."""
    return [(path, cards[0]) for path, cards in labelled_photos(folder) if len(cards) == 1]


def _frame(path: Path) -> np.ndarray | None:
    try:
        return read_image(path)
    except (FileNotFoundError, InputError):
        return None  # unreadable or over the pixel budget: reported as skipped


def frame_samples(frames: list[tuple[str, np.ndarray | None, Card]]
                  ) -> tuple[GlyphModel, GlyphModel, list[str]]:
    """Glyph samples from both corners of the largest card in each (name, frame or None if
    unreadable, its one card) triple; and the names of the frames not used."""
    rank_x, rank_y, suit_x, suit_y, skipped = [], [], [], [], []
    for name, frame, card in frames:
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
            skipped.append(name)
    if not rank_x:
        raise ValueError("no card index could be read in any calibration image")
    return GlyphModel(np.array(rank_x), np.array(rank_y)), GlyphModel(np.array(suit_x),
                                                                        np.array(suit_y)), skipped


@dataclass(frozen=True)
class Deck:
    """What a recogniser needs for a user's deck: glyph models and the index adaptation."""

    models: Models
    adaptation: DeckAdaptation | None

    def recognizer(self, **kwargs) -> Recognizer:
        return Recognizer(self.models, adaptation=self.adaptation, **kwargs)


def calibrate(folder: Path, name: str | None = None) -> tuple[Deck, dict]:
    """Adapt to the deck in ``folder`` (saved as deck ``name`` if given): the deck and a report.

    Raises RuleError when no card index is found in any photo (nothing is saved)."""
    photos = labelled_photos(Path(folder))
    if not photos:
        raise RuleError(f"no labelled photo in {folder}: give labels.csv (file,cards) or "
                        "images named like QS.jpg")
    frames, singles, skipped = [], [], []
    for path, cards in photos:
        frame = _frame(path)
        if frame is None:
            skipped.append(path.name)
            continue
        frames.append((frame, {c.code for c in cards}))
        if len(cards) == 1:
            singles.append((path.name, frame, cards[0]))
    return adapt_deck(frames, name, singles, skipped)


def adapt_deck(frames: list[tuple[np.ndarray, set[str]]], name: str | None = None,
               singles: list[tuple[str, np.ndarray | None, Card]] = (),
               skipped: list[str] = ()) -> tuple[Deck, dict]:
    """Adapt to a deck from (frame, cards in view) pairs (and glyph samples from ``singles``,
    photos of one card each, if any); saved as deck ``name`` if given: the deck and a report
    (``skipped``: the photos that could not be read, for the report).

    Raises RuleError when no card index is found in any frame; a StorageError when the deck
    cannot be saved. Either way nothing is saved and a deck already saved under ``name`` is
    left as it was."""
    try:
        adaptation, report = adapt_frames(frames)
    except ValueError as exc:
        raise RuleError(f"{exc} ({len(frames)} photos read)") from exc
    try:
        ranks, suits, _ = frame_samples(list(singles)) if singles else (None, None, [])
    except ValueError:
        ranks = suits = None
    report = {"images": len(frames) + len(skipped), **report, "skipped": list(skipped),
              "glyph_samples": 0 if ranks is None else len(ranks.labels)}
    if name is not None:
        _save(deck_dir(name), adaptation, ranks, suits, {"name": name, **report})
    models = _with_shipped(ranks, suits) if ranks is not None else Models.shipped()
    return Deck(models, adaptation), report


def _save(target: Path, adaptation: DeckAdaptation, ranks: GlyphModel | None,
          suits: GlyphModel | None, report: dict) -> None:
    """Write a deck's files to a new folder beside ``target``, then put it in ``target``'s
    place: a fault part way leaves the deck that was there (if any) as it was."""
    new = target.with_name(f".{target.name}.new")
    old = target.with_name(f".{target.name}.old")
    try:
        for leftover in (new, old):
            shutil.rmtree(leftover, ignore_errors=True)
        new.mkdir(parents=True)
        adaptation.save(new / FILE_NAME)
        if ranks is not None and suits is not None:
            ranks.save(new / "ranks.npz")
            suits.save(new / "suits.npz")
        (new / "deck.json").write_text(json.dumps(report, indent=1))
        if target.exists():
            target.rename(old)
        new.rename(target)
    except OSError as exc:
        if old.exists() and not target.exists():
            old.rename(target)
        shutil.rmtree(new, ignore_errors=True)
        raise deck_storage_error(exc, target) from None
    shutil.rmtree(old, ignore_errors=True)


def deck_storage_error(exc: OSError, folder: Path) -> StorageError:
    """The StorageError of a deck that could not be saved in ``folder``."""
    kind = os_error_kind(exc)
    if kind == "disk_full":
        return StorageError(kind, f"There is no space left on the disk: the deck "
                            f"{folder.name!r} was not saved ({folder.parent}).",
                            "Free some space, then save the deck again.")
    if kind == "read_only":
        return StorageError(kind, f"The deck folder {folder.parent} cannot be written: "
                            f"the deck {folder.name!r} was not saved.",
                            "Make the folder writable (or set DEALER_ASSIST_DATA to a writable "
                            "folder), then save the deck again.",
                            title="The deck folder cannot be written")
    return StorageError("io", f"The deck {folder.name!r} could not be saved in {folder.parent} "
                        f"({exc.strerror or exc}).", "Check the disk and the folder, then save "
                        "the deck again.", title="The deck cannot be saved")


def _with_shipped(ranks: GlyphModel, suits: GlyphModel) -> Models:
    shipped = Models.shipped()
    return Models(shipped.ranks.merged(ranks, DECK_WEIGHT),
                  shipped.suits.merged(suits, DECK_WEIGHT), calibrated=True)


def load_deck(name: str) -> Deck:
    """A saved deck (FileNotFoundError if there is none; AdaptationError, an InputError, if its
    adaptation file is corrupt, foreign, or made for another index network)."""
    folder = deck_dir(name)
    adaptation_file = folder / FILE_NAME
    if not adaptation_file.exists() and not (folder / "ranks.npz").exists():
        raise FileNotFoundError(f"no deck {name!r} in {folder.parent}")
    adaptation = None
    if adaptation_file.exists():
        adaptation = DeckAdaptation.load(adaptation_file,
                                         model_digest(model_path("index_cnn", ".onnx")))
    models = Models.shipped()
    if (folder / "ranks.npz").exists():
        try:
            models = _with_shipped(GlyphModel.load(folder / "ranks.npz"),
                                   GlyphModel.load(folder / "suits.npz"))
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
            raise InputError(f"deck {name!r}: its glyph files cannot be read ({exc}); "
                             "adapt the deck again") from exc
    return Deck(models, adaptation)


def load_deck_models(name: str) -> Models:
    """The glyph models of a saved deck (the shipped ones if it has none)."""
    return load_deck(name).models


def list_decks() -> list[str]:
    root = data_dir() / "decks"
    if not root.exists():
        return []
    return sorted(p.name for p in root.iterdir() if not p.name.startswith(".")
                  and ((p / FILE_NAME).exists() or (p / "ranks.npz").exists()))


def deck_recognizer(name: str | None) -> Recognizer:
    """The recogniser for a saved deck, or the shipped one for ``None`` (the errors of
    :func:`load_deck`)."""
    return Recognizer() if name is None else load_deck(name).recognizer()


CHOICE_FILE = "camera.json"  # in the data folder: {"deck": the deck the camera last read with}


def chosen_deck() -> str | None:
    """The deck the camera read with last time, if it is still saved (None: the standard)."""
    try:
        name = json.loads((data_dir() / CHOICE_FILE).read_text(encoding="utf-8")).get("deck")
    except (OSError, ValueError, AttributeError):
        return None
    return name if isinstance(name, str) and name in list_decks() else None


def remember_deck(name: str | None) -> None:
    """Make ``name`` (None: the standard deck) the camera's deck next time. A data folder that
    cannot be written raises StorageError and leaves last time's choice as it was."""
    path = data_dir() / CHOICE_FILE
    tmp = path.with_suffix(".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps({"deck": name}), encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        with contextlib.suppress(OSError):  # nothing half-written is left
            tmp.unlink(missing_ok=True)
        raise choice_storage_error(exc, name, path) from exc


def choice_storage_error(exc: OSError, name: str | None, path: Path) -> StorageError:
    """The StorageError of a deck choice that could not be remembered in ``path``."""
    deck = repr(name) if name else "the standard deck"
    now = (f"The camera reads with {deck} now, but will open on the deck of last time when "
           "the app starts again.")
    title = "The deck choice was not remembered"
    kind = os_error_kind(exc)
    if kind == "disk_full":
        return StorageError(kind, f"There is no space left on the disk ({path.parent}). "
                            + now, "Free some space, then choose the deck again.", title=title)
    if kind == "read_only":
        return StorageError(kind, f"The data folder {path.parent} cannot be written. "
                            + now, "Make the folder writable (or set DEALER_ASSIST_DATA to a "
                            "writable folder), then choose the deck again.", title=title)
    return StorageError("io", f"The deck choice could not be saved in {path} "
                        f"({exc.strerror or exc}). " + now,
                        "Check the disk and the folder, then choose the deck again.", title=title)
