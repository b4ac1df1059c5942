"""The ``dealer-assist vision`` sub-command hook."""

from __future__ import annotations

import argparse
import errno
import json
from pathlib import Path

import cv2
import pytest

from dealer_assist.cards import parse_cards
from dealer_assist.vision import cli, synth
from dealer_assist.vision.adapt import DeckAdaptation
from dealer_assist.vision.labels import write_image


def run(argv: list[str]) -> int:
    """Parse like the main CLI does: ``dealer-assist vision ...``."""
    parser = argparse.ArgumentParser(prog="dealer-assist")
    sub = parser.add_subparsers(dest="command", required=True)
    cli.add_arguments(sub.add_parser("vision"))
    return cli.run(parser.parse_args(["vision", *argv]))


@pytest.fixture
def table_photo(tmp_path: Path) -> Path:
    cards = parse_cards("KS 5D")
    quads = [synth.card_quad((400, 480), 400, 10), synth.card_quad((900, 480), 400, -15)]
    path = tmp_path / "table.png"
    write_image(path, synth.scene(cards, quads))
    return path


def test_read_prints_cards(table_photo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["read", str(table_photo)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{table_photo}: ")
    assert sorted(out.split(": ")[1].split()) == ["5D", "KS"]


def test_read_json(table_photo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["read", "--json", str(table_photo)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sorted(c["card"] for c in data["cards"]) == ["5D", "KS"]
    assert all(c["source"] == "visual" and 0 < c["confidence"] <= 1 for c in data["cards"])


def test_read_missing_image_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["read", str(tmp_path / "nope.jpg")]) == 2
    assert "cannot read image" in capsys.readouterr().err


@pytest.fixture
def photos(tmp_path: Path) -> Path:
    """A folder of two one-card photos named by their card (AS.png, 8H.png)."""
    folder = tmp_path / "photos"
    folder.mkdir()
    for card in parse_cards("AS 8H"):
        write_image(folder / f"{card.code}.png",
                    synth.scene([card], [synth.card_quad((640, 480), 450, 5)]))
    return folder


def test_calibrate_and_list_decks(photos: Path, data_dir: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["calibrate", str(photos), "--deck", "home"]) == 0
    assert "deck 'home' saved" in capsys.readouterr().out
    assert run(["decks"]) == 0
    assert capsys.readouterr().out.split() == ["home"]
    assert run(["read", "--deck", "nope", str(photos / "AS.png")]) == 2


def test_adapt_on_a_full_disk_is_refused_and_keeps_the_saved_deck(
        photos: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["adapt", str(photos), "--deck", "home"]) == 0
    saved = (data_dir / "decks" / "home" / "adaptation.npz").read_bytes()
    real_save = DeckAdaptation.save

    def full(self, path: Path) -> None:  # written, then the disk fills up
        real_save(self, path)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(DeckAdaptation, "save", full)
    write_image(photos / "QD.png",  # one more photo: the new deck would differ
                synth.scene(parse_cards("QD"), [synth.card_quad((640, 480), 450, -4)]))
    capsys.readouterr()
    assert run(["adapt", str(photos), "--deck", "home"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("The disk is full:") and "Free some space" in err
    assert (data_dir / "decks" / "home" / "adaptation.npz").read_bytes() == saved
    assert sorted(p.name for p in (data_dir / "decks").iterdir()) == ["home"]


def test_watch_prints_each_settled_card_once(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (1280, 960))
    quads = [synth.card_quad((300, 600), 360, 5), synth.card_quad((950, 600), 360, -8)]
    for i in range(10):  # the 9C lies there from the start, the 2H comes at frame 5
        cards = parse_cards("9C 2H") if i >= 4 else parse_cards("9C")
        writer.write(synth.scene(cards, quads[:len(cards)], seed=i, noise=3))
    writer.release()
    assert run(["watch", str(path), "--seats", "2"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(d["card"], d["seat"]) for d in lines] == [("9C", 1), ("2H", 2)]
    assert lines[0]["frame"] == 3  # three agreeing frames settle a card
    assert lines[1]["frame"] == 7


def test_watch_missing_source_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["watch", str(tmp_path / "nope.mp4")]) == 2
    assert "error" in capsys.readouterr().err
