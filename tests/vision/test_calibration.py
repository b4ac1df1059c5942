"""Deck calibration: learn a deck from labelled photos, save it, load it, read with it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer_assist.cards import Card, parse_card, parse_cards
from dealer_assist.vision import synth
from dealer_assist.vision.calibration import (
    calibrate,
    data_dir,
    deck_dir,
    labelled_images,
    list_decks,
    load_deck,
    load_deck_models,
)
from dealer_assist.vision.labels import write_image
from dealer_assist.vision.recognizer import Models, Recognizer

GERMAN = {"J": "B", "Q": "D"}  # Bube, Dame: a deck whose faces the shipped models never saw


def photo(card: Card, angle: float = 8.0, seed: int = 0):
    img = synth.render_card(card, index_text=GERMAN.get(card.rank))
    return synth.degrade(synth.place(synth.table((960, 720), seed=seed), img,
                                     synth.card_quad((480, 360), 440, angle)), seed=seed, noise=4)


@pytest.fixture
def photos(tmp_path: Path) -> Path:
    folder = tmp_path / "photos"
    folder.mkdir()
    for i, card in enumerate(parse_cards("JH QS JC QD 7S 10H")):
        write_image(folder / f"{card.code.lower()}-{i}.png", photo(card, seed=i))
    (folder / "readme.png.txt").write_text("ignored")
    return folder


def test_data_dir_follows_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DEALER_ASSIST_DATA", str(tmp_path / "d"))
    assert data_dir() == tmp_path / "d"
    monkeypatch.delenv("DEALER_ASSIST_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "xdg" / "dealer-assist"
    with pytest.raises(ValueError):
        deck_dir("../escape")


def test_labelled_images_from_names_and_csv(photos: Path, tmp_path: Path) -> None:
    assert [c.code for _, c in labelled_images(photos)] == ["10H", "7S", "JC", "JH", "QD", "QS"]
    csv_dir = tmp_path / "csv"
    csv_dir.mkdir()
    (csv_dir / "labels.csv").write_text("file,cards\na.png,QS\nb.png,QS 9S\n")
    assert [(p.name, c.code) for p, c in labelled_images(csv_dir)] == [("a.png", "QS")]


def test_calibrate_saves_and_loads_deck(photos: Path, data_dir: Path) -> None:
    deck, report = calibrate(photos, "german")
    assert report["images"] == 6 and report["skipped"] == []
    assert report["glyph_samples"] == 12  # both corners of each card
    assert report["samples"] > 0 and set(report["cards"]) <= {"JH", "QS", "JC", "QD", "7S", "10H"}
    folder = data_dir / "decks" / "german"
    assert {p.name for p in folder.iterdir()} == {"ranks.npz", "suits.npz", "deck.json",
                                                  "adaptation.npz"}
    assert json.loads((folder / "deck.json").read_text())["name"] == "german"
    assert list_decks() == ["german"]
    loaded = load_deck_models("german")
    shipped = Models.shipped()
    assert len(loaded.ranks.labels) == len(shipped.ranks.labels) + 3 * 12
    assert len(deck.models.ranks.labels) == len(loaded.ranks.labels)
    assert load_deck("german").adaptation.codes.tolist() == deck.adaptation.codes.tolist()


def test_calibrated_deck_reads_what_shipped_models_cannot(photos: Path, data_dir: Path) -> None:
    calibrate(photos, "german")
    frame = photo(parse_card("JD"), angle=-20, seed=9)  # a card not in the calibration set
    shipped = [p.code for p in Recognizer().read(frame)]
    assert shipped in ([None], [])  # "B" is no rank the shipped models know: unknown, not wrong
    calibrated = [p.code for p in load_deck("german").recognizer().read(frame)]
    assert calibrated == ["JD"]


def test_missing_deck_is_reported(data_dir: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_deck("nope")
    assert list_decks() == []
