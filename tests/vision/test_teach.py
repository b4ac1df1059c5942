"""Teaching a deck from the camera (``vision.teach``): four photos, one suit each, make a saved
deck; a photo without card indices or of the wrong suit is refused and kept out; a failed save
leaves the deck that was saved before exactly as it was."""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from dealer_assist.errors import RuleError, StorageError
from dealer_assist.vision import calibration
from dealer_assist.vision.adapt import AdaptedIndexReader, DeckAdaptation
from dealer_assist.vision.calibration import list_decks, load_deck
from dealer_assist.vision.teach import STEPS, DeckTeacher

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.vision_data import decks, scenes
from scripts.vision_data.deck_photos import deck_photo, suit_photos

DECK = "penguins"  # held out of training: the network never saw it


@pytest.fixture(scope="module")
def photos() -> list[tuple[np.ndarray, set[str]]]:
    if DECK not in decks.held_out_decks():
        pytest.skip("held-out deck not installed (kdegames-card-data-kf5)")
    return suit_photos(DECK, seed=31)


def teach_all(teacher: DeckTeacher, photos) -> None:
    for frame, _cards in photos:
        teacher.capture(frame)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_four_suit_photos_teach_a_deck_that_the_camera_can_read_with(photos, data_dir) -> None:
    teacher = DeckTeacher()
    assert teacher.step == STEPS[0] and "13 spades" in teacher.step.prompt
    for (frame, cards), step in zip(photos, STEPS, strict=True):
        assert teacher.step == step and cards == set(step.cards)
        captured = teacher.capture(frame)
        assert captured.step == step and captured.cards_seen >= 10
    assert teacher.done and teacher.step is None
    deck, report = teacher.save("home")
    assert len(report["cards"]) >= 50 and report["images"] == 4
    assert list_decks() == ["home"]
    saved = load_deck("home")
    assert saved.adaptation is not None and set(saved.adaptation.cards) == set(deck.adaptation.cards)
    # nothing else is left in the decks folder (no half-written copy)
    assert [p.name for p in (data_dir / "decks").iterdir()] == ["home"]


def test_a_picture_without_card_indices_is_refused_and_not_kept(photos) -> None:
    teacher = DeckTeacher()
    table = scenes.background(np.random.default_rng(3), 1280, 960)
    for frame in (None, np.zeros((0, 0, 3), np.uint8), table):
        with pytest.raises(RuleError, match=r"camera|no card index"):
            teacher.capture(frame)
        assert teacher.frames == [] and teacher.step == STEPS[0]


def test_a_picture_of_another_suit_is_refused(photos) -> None:
    teacher = DeckTeacher()
    hearts = photos[1][0]
    with pytest.raises(RuleError, match="not the spades"):
        teacher.capture(hearts)
    assert teacher.frames == []
    teacher.capture(photos[0][0])
    assert teacher.step == STEPS[1]


def test_retake_drops_the_last_capture(photos) -> None:
    teacher = DeckTeacher()
    assert teacher.retake() is None
    teacher.capture(photos[0][0])
    teacher.capture(photos[1][0])
    assert teacher.retake() == STEPS[1] and len(teacher.frames) == 1
    teacher.capture(photos[1][0])
    assert teacher.step == STEPS[2]


def test_save_refuses_before_all_four_suits_or_a_bad_name(photos, data_dir) -> None:
    teacher = DeckTeacher()
    teacher.capture(photos[0][0])
    with pytest.raises(RuleError, match="hearts first"):
        teacher.save("home")
    with pytest.raises(ValueError, match="deck name"):
        teacher.save("../evil")
    assert not (data_dir / "decks").exists()


@pytest.mark.parametrize(("code", "kind"), [(errno.ENOSPC, "disk_full"),
                                            (errno.EACCES, "read_only"), (errno.EIO, "io")])
def test_a_failed_save_leaves_the_saved_deck_as_it_was(photos, data_dir, monkeypatch, code,
                                                       kind) -> None:
    first = DeckTeacher()
    teach_all(first, photos)
    first.save("home")
    before = snapshot(data_dir / "decks")
    teacher = DeckTeacher()  # the same deck photographed again: other samples
    teach_all(teacher, suit_photos(DECK, seed=41))
    real_save = DeckAdaptation.save

    def fail_half_way(self, path: Path) -> None:
        real_save(self, path)  # the new adaptation is written, then the disk fails
        raise OSError(code, "simulated")

    monkeypatch.setattr(DeckAdaptation, "save", fail_half_way)
    with pytest.raises(StorageError) as caught:
        teacher.save("home")
    assert caught.value.kind == kind and "home" in caught.value.what
    assert "deck" in caught.value.title.lower() or kind == "disk_full"
    assert snapshot(data_dir / "decks") == before
    assert list_decks() == ["home"] and load_deck("home").adaptation is not None
    # the captures are kept: saving again once the disk is fixed replaces the deck
    monkeypatch.setattr(DeckAdaptation, "save", real_save)
    teacher.save("home")
    after = snapshot(data_dir / "decks")
    assert after.keys() == before.keys() and after != before


def test_the_standard_deck_and_a_saved_deck_give_their_recognisers(photos, data_dir) -> None:
    assert not isinstance(calibration.deck_recognizer(None).index, AdaptedIndexReader)
    teacher = DeckTeacher()
    teach_all(teacher, photos)
    deck, _report = teacher.save("home")
    reader = calibration.deck_recognizer("home").index
    assert isinstance(reader, AdaptedIndexReader)
    assert list(reader.deck.cards) == list(deck.adaptation.cards)
    with pytest.raises(FileNotFoundError):
        calibration.deck_recognizer("nowhere")


def test_the_remembered_deck_is_forgotten_when_it_is_gone_or_the_file_is_bad(photos,
                                                                            data_dir) -> None:
    assert calibration.chosen_deck() is None
    teacher = DeckTeacher()
    teach_all(teacher, photos)
    teacher.save("home")
    calibration.remember_deck("home")
    assert calibration.chosen_deck() == "home"
    calibration.remember_deck(None)
    assert calibration.chosen_deck() is None
    calibration.remember_deck("home")
    for content in ("not json", "[1, 2]", '{"deck": 7}', '{"deck": "../x"}'):
        (data_dir / calibration.CHOICE_FILE).write_text(content)
        assert calibration.chosen_deck() is None
    calibration.remember_deck("home")
    for p in sorted((data_dir / "decks" / "home").iterdir()):
        p.unlink()
    assert calibration.chosen_deck() is None  # the deck was deleted


def test_a_capture_names_the_cards_it_found_no_index_of(photos) -> None:
    faces = scenes.load_faces(DECK)
    shown = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"]  # no J, Q, K
    frame, _outlines = deck_photo(np.random.default_rng(12), faces, shown)
    captured = DeckTeacher().capture(frame)
    assert captured.missing == ("JS", "QS", "KS")
    assert captured.cards_seen == 10
    assert DeckTeacher().capture(photos[0][0]).missing == ()


@pytest.mark.parametrize(("code", "kind", "advice"), [
    (errno.ENOSPC, "disk_full", "Free some space"),
    (errno.EROFS, "read_only", "Make the folder writable"),
    (errno.EIO, "io", "Check the disk"),
])
def test_a_choice_that_cannot_be_written_is_a_storage_error_and_keeps_the_old_one(
        data_dir, monkeypatch, code: int, kind: str, advice: str) -> None:
    (data_dir / "decks" / "home").mkdir(parents=True)
    calibration.remember_deck(None)
    before = (data_dir / calibration.CHOICE_FILE).read_bytes()

    def failing(self, target):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(Path, "replace", failing)
    with pytest.raises(StorageError) as caught:
        calibration.remember_deck("home")
    assert caught.value.kind == kind and advice in caught.value.todo
    assert caught.value.title == "The deck choice was not remembered"
    assert (data_dir / calibration.CHOICE_FILE).read_bytes() == before
    assert not (data_dir / calibration.CHOICE_FILE).with_suffix(".tmp").exists()
