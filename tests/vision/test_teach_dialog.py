"""The camera panel's deck choice and its "Teach a deck" dialog, driven by clicks and keys:
four captures and a name make a deck the camera then reads with; a refused capture, a deck that
cannot be used and a full disk are shown and lose nothing."""

from __future__ import annotations

import errno
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from dealer_assist.gui.camera_panel import STANDARD_DECK, CameraPanel
from dealer_assist.gui.teach_dialog import TeachDialog
from dealer_assist.vision import calibration
from dealer_assist.vision.adapt import FILE_NAME, AdaptedIndexReader, DeckAdaptation
from dealer_assist.vision.calibration import list_decks
from dealer_assist.vision.live import LiveReader, LiveSettings
from dealer_assist.vision.teach import DeckTeacher

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.vision_data import decks, scenes
from scripts.vision_data.deck_photos import deck_photo, suit_photos

DECK = "penguins"  # held out of training
CLICK = Qt.MouseButton.LeftButton


@pytest.fixture(scope="module")
def photos() -> list[tuple[np.ndarray, set[str]]]:
    if DECK not in decks.held_out_decks():
        pytest.skip("held-out deck not installed (kdegames-card-data-kf5)")
    return suit_photos(DECK, seed=32)


@pytest.fixture
def panel(qtbot, data_dir) -> CameraPanel:
    widget = CameraPanel(reader=LiveReader(), seats=6)
    qtbot.addWidget(widget)
    widget.resize(1000, 600)
    widget.show()
    return widget


def open_dialog(panel: CameraPanel, qtbot) -> TeachDialog:
    qtbot.mouseClick(panel.teach_button, CLICK)
    dialog = panel.teach_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible)
    return dialog


def capture_all(panel: CameraPanel, dialog: TeachDialog, photos, qtbot) -> None:
    for i, (frame, _cards) in enumerate(photos):
        assert dialog.step_label.text().startswith(f"Photo {i + 1} of 4")
        panel.reader.process(frame)  # the camera's next frame
        qtbot.mouseClick(dialog.capture_button, CLICK)
        assert "of the 13 cards found" in dialog.status_label.text()


def save_deck(photos, name: str) -> None:
    """Teach and save deck ``name`` from the four suit photos, as the dialog would."""
    teacher = DeckTeacher()
    for frame, _cards in photos:
        teacher.capture(frame)
    teacher.save(name)


def read_only_replace(self: Path, target) -> None:
    """``Path.replace`` on a read-only data folder."""
    raise OSError(errno.EROFS, "Read-only file system")


def storage_dialogs(parent) -> list[QMessageBox]:
    return [w for w in parent.findChildren(QMessageBox) if w.objectName() == "storageDialog"
            and w.isVisible()]


def test_teaching_a_deck_makes_the_camera_read_with_it(panel, photos, qtbot) -> None:
    reader = panel.reader
    assert panel.deck_box.currentText() == STANDARD_DECK
    assert not isinstance(reader.recognizer.index, AdaptedIndexReader)
    dialog = open_dialog(panel, qtbot)
    assert not dialog.save_button.isEnabled() and not dialog.name_edit.isEnabled()
    capture_all(panel, dialog, photos, qtbot)
    assert not dialog.capture_button.isEnabled()
    assert dialog.step_label.text() == "All four suits taken"
    assert not dialog.save_button.isEnabled()  # no name yet
    qtbot.keyClicks(dialog.name_edit, "home")
    assert dialog.save_button.isEnabled() and dialog.save_button.text() == "Save deck"
    qtbot.mouseClick(dialog.save_button, CLICK)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=60_000)
    assert list_decks() == ["home"]
    assert panel.deck_box.currentText() == "home"
    assert isinstance(reader.recognizer.index, AdaptedIndexReader)
    # back to the standard deck with the keyboard (the deck list: standard, home)
    panel.deck_box.setFocus()
    qtbot.keyClick(panel.deck_box, Qt.Key.Key_Up)
    assert panel.deck_box.currentText() == STANDARD_DECK
    assert not isinstance(reader.recognizer.index, AdaptedIndexReader)


def test_a_refused_capture_is_shown_and_the_step_stays(panel, photos, qtbot) -> None:
    dialog = open_dialog(panel, qtbot)
    qtbot.mouseClick(dialog.capture_button, CLICK)  # no frame from the camera yet
    assert "No camera picture" in dialog.status_label.text()
    panel.reader.process(scenes.background(np.random.default_rng(4), 1280, 960))
    qtbot.mouseClick(dialog.capture_button, CLICK)
    assert "No card index was found" in dialog.status_label.text()
    panel.reader.process(photos[2][0])  # diamonds, when spades are asked for
    qtbot.mouseClick(dialog.capture_button, CLICK)
    assert "not the spades" in dialog.status_label.text()
    assert dialog.step_label.text() == "Photo 1 of 4: spades"
    assert dialog.teacher.frames == [] and not dialog.retake_button.isEnabled()
    panel.reader.process(photos[0][0])
    qtbot.mouseClick(dialog.capture_button, CLICK)
    assert dialog.step_label.text() == "Photo 2 of 4: hearts"
    qtbot.mouseClick(dialog.retake_button, CLICK)
    assert dialog.step_label.text() == "Photo 1 of 4: spades"
    qtbot.mouseClick(dialog.cancel_button, CLICK)
    assert not dialog.isVisible() and list_decks() == []


def test_a_full_disk_is_a_dialog_and_the_captures_stay(panel, photos, qtbot, data_dir,
                                                       monkeypatch) -> None:
    real_save = DeckAdaptation.save

    def full(self, path: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(DeckAdaptation, "save", full)
    dialog = open_dialog(panel, qtbot)
    capture_all(panel, dialog, photos, qtbot)
    qtbot.keyClicks(dialog.name_edit, "home")
    qtbot.mouseClick(dialog.save_button, CLICK)
    qtbot.waitUntil(lambda: bool(storage_dialogs(dialog)), timeout=60_000)
    box = storage_dialogs(dialog)[0]
    assert box.windowTitle() == "The disk is full" and "Free some space" in box.informativeText()
    qtbot.mouseClick(box.ok_button, CLICK)
    assert dialog.isVisible() and len(dialog.teacher.frames) == 4 and list_decks() == []
    assert not (data_dir / "decks").exists() or not any((data_dir / "decks").iterdir())
    monkeypatch.setattr(DeckAdaptation, "save", real_save)  # space freed: save again
    qtbot.mouseClick(dialog.save_button, CLICK)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=60_000)
    assert list_decks() == ["home"] and panel.deck_box.currentText() == "home"


def test_a_deck_that_cannot_be_used_keeps_the_deck_the_camera_had(panel, qtbot,
                                                                   data_dir) -> None:
    broken = data_dir / "decks" / "broken"
    broken.mkdir(parents=True)
    (broken / FILE_NAME).write_bytes(b"not an adaptation")
    panel.fill_decks()
    recognizer = panel.reader.recognizer
    panel.deck_box.setFocus()
    qtbot.keyClick(panel.deck_box, Qt.Key.Key_Down)  # the standard deck, then "broken"
    qtbot.waitUntil(lambda: bool(storage_dialogs(panel)))
    box = storage_dialogs(panel)[0]
    assert box.windowTitle() == "This deck cannot be used"
    assert "Teach the deck again" in box.informativeText()
    assert panel.deck_box.currentText() == STANDARD_DECK
    assert panel.reader.recognizer is recognizer


def test_without_a_camera_the_deck_controls_are_off(qtbot) -> None:
    panel = CameraPanel(seats=6)
    qtbot.addWidget(panel)
    assert not panel.deck_box.isEnabled() and not panel.teach_button.isEnabled()
    assert panel.teach_button.toolTip() == "needs a camera"


def test_the_camera_keeps_the_deck_of_last_time(panel, photos, qtbot, data_dir) -> None:
    save_deck(photos, "home")
    panel.fill_decks()
    panel.deck_box.setFocus()
    qtbot.keyClick(panel.deck_box, Qt.Key.Key_Down)
    assert panel.deck_box.currentText() == "home"
    # the tablet restarts: a new panel on a new camera reader starts on that deck
    again = CameraPanel(reader=LiveReader(), seats=6)
    qtbot.addWidget(again)
    assert again.deck_box.currentText() == "home"
    assert isinstance(again.reader.recognizer.index, AdaptedIndexReader)
    # the deck's file is damaged meanwhile: the standard deck, and a dialog that says so
    (data_dir / "decks" / "home" / FILE_NAME).write_bytes(b"damaged")
    third = CameraPanel(reader=LiveReader(), seats=6)
    qtbot.addWidget(third)
    assert third.deck_box.currentText() == STANDARD_DECK
    assert [box.windowTitle() for box in third.findChildren(QMessageBox)] == [
        "This deck cannot be used"]
    assert not isinstance(third.reader.recognizer.index, AdaptedIndexReader)


def test_no_card_is_proposed_or_auto_dealt_while_a_deck_is_taught(photos, qtbot,
                                                                  data_dir) -> None:
    settings = LiveSettings(auto_accept=True, auto_accept_threshold=0.5)
    reader = LiveReader(settings=settings)
    panel = CameraPanel(reader=reader, seats=4)
    qtbot.addWidget(panel)
    panel.show()
    dealt = []
    panel.card_confirmed.connect(lambda seat, code: dealt.append(code))
    dialog = open_dialog(panel, qtbot)
    for _ in range(4):  # the 13 spades laid out for the dialog, frame after frame
        panel.show_update(reader.process(photos[0][0]))
    assert dealt == [] and panel.pending_code is None
    assert not panel.confirm_button.isEnabled()
    assert panel.detail_label.text() == "teaching a deck: no card is proposed"
    qtbot.mouseClick(dialog.capture_button, CLICK)  # the frame is still the dialog's
    assert dialog.step_label.text() == "Photo 2 of 4: hearts"
    qtbot.mouseClick(dialog.cancel_button, CLICK)
    panel.show_update(reader.process(photos[0][0]))  # the dialog closed: a deal again
    assert dealt  # sure readings of the spades are auto-accepted as before


def test_the_dialog_names_the_cards_it_did_not_find(panel, photos, qtbot) -> None:
    shown = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"]  # no J, Q, K
    frame, _outlines = deck_photo(np.random.default_rng(12), scenes.load_faces(DECK), shown)
    dialog = open_dialog(panel, qtbot)
    panel.reader.process(frame)
    qtbot.mouseClick(dialog.capture_button, CLICK)
    assert "indices of 10 of the 13 cards found. Not found: J♠ Q♠ K♠" in \
        dialog.status_label.text()
    panel.reader.process(photos[1][0])  # the hearts: asked for now
    qtbot.mouseClick(dialog.capture_button, CLICK)
    assert "Not found" not in dialog.status_label.text()
    panel.reader.process(photos[1][0])  # the hearts again, when diamonds are asked for
    qtbot.mouseClick(dialog.capture_button, CLICK)
    assert "other cards (A♥ 2♥ 3♥ 4♥ 5♥ …), not the diamonds" in dialog.status_label.text()


def test_a_deck_choice_that_cannot_be_remembered_is_a_dialog_and_the_deck_is_used(
        panel, photos, qtbot, data_dir, monkeypatch) -> None:
    save_deck(photos, "home")
    panel.fill_decks()
    choice = data_dir / calibration.CHOICE_FILE
    before = choice.read_bytes() if choice.exists() else None

    monkeypatch.setattr(Path, "replace", read_only_replace)  # the data folder turned read-only
    panel.deck_box.setFocus()
    qtbot.keyClick(panel.deck_box, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: bool(storage_dialogs(panel)))
    box = storage_dialogs(panel)[0]
    assert box.windowTitle() == "The deck choice was not remembered"
    assert "reads with 'home' now" in box.error.what and 'home' in box.text()
    assert "Make the folder writable" in box.informativeText()
    # the deck is used all the same; last time's choice is as it was, nothing half-written
    assert panel.deck_box.currentText() == "home"
    assert isinstance(panel.reader.recognizer.index, AdaptedIndexReader)
    assert (choice.read_bytes() if choice.exists() else None) == before
    assert not choice.with_suffix(".tmp").exists()
    qtbot.mouseClick(box.ok_button, CLICK)


def test_opening_on_the_deck_of_last_time_writes_nothing(panel, photos, qtbot, data_dir,
                                                         monkeypatch) -> None:
    """At start-up the remembered deck is only read: a read-only data folder opens no dialog."""
    save_deck(photos, "home")
    calibration.remember_deck("home")

    monkeypatch.setattr(Path, "replace", read_only_replace)
    again = CameraPanel(reader=LiveReader(), seats=6)
    qtbot.addWidget(again)
    assert again.deck_box.currentText() == "home"
    assert again.findChildren(QMessageBox) == []
