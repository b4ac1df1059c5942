"""Deck adaptation: a few labelled photos of a deck the network never saw make the recogniser
read more of that deck, never a wrong card; the stored adaptation and the ``adapt`` command."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pytest

from dealer_assist import cli as main_cli
from dealer_assist.cards import parse_card
from dealer_assist.vision import calibration, cli, synth
from dealer_assist.vision.adapt import (
    FILE_NAME,
    AdaptationError,
    AdaptedIndexReader,
    DeckAdaptation,
    Embedder,
    Sample,
    adapt_frames,
)
from dealer_assist.vision.calibration import calibrate, load_deck
from dealer_assist.vision.indices import IndexRead, IndexReader, normalise
from dealer_assist.vision.ink_pairs import CROP_H, CROP_W, candidate
from dealer_assist.vision.labels import write_image
from dealer_assist.vision.recognizer import Recognizer
from dealer_assist.vision.runtime import FEATURES

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.vision_data import decks, scenes
from scripts.vision_data.deck_photos import deck_photos

needs_decks = pytest.mark.skipif(not decks.held_out_decks(),
                                 reason="no SVG deck installed (kdegames-card-data-kf5)")
DECK = "tigullio-international"  # held out of training


def run(argv: list[str]) -> int:
    """Parse like the main CLI does: ``dealer-assist vision ...``."""
    parser = argparse.ArgumentParser(prog="dealer-assist")
    sub = parser.add_subparsers(dest="command", required=True)
    cli.add_arguments(sub.add_parser("vision"))
    return cli.run(parser.parse_args(["vision", *argv]))


@pytest.fixture(scope="module")
def adapted() -> DeckAdaptation:
    if DECK not in decks.held_out_decks():
        pytest.skip("held-out deck not installed")
    deck, report = adapt_frames(deck_photos(DECK, 6, seed=11))
    assert len(report["cards"]) >= 48  # 6 photos show all 52 cards
    return deck


def test_the_embedding_is_the_input_of_the_networks_last_layer() -> None:
    """The first network's logits are an affine map of its embedding (up to the int8 file's
    rounding of the logits), and its probabilities are the reader's first opinion."""
    embedder = Embedder()
    assert embedder.dim == 128
    crops = np.random.default_rng(1).integers(0, 255, (400, CROP_H, CROP_W, 3), np.uint8)
    crops[::2] = np.clip(crops[::2] // 4 + 180, 0, 255)  # pale, paper-like crops too
    probs, feats = embedder.forward(crops)
    assert np.allclose(probs, IndexReader(second=None).first_opinion(normalise(crops)))
    assert np.allclose(np.linalg.norm(feats, axis=1), 1, atol=1e-5)
    net = embedder.net
    logits, raw = net.run_outputs(normalise(crops), [net.outputs[0], FEATURES])
    design = np.hstack([raw, np.ones((len(raw), 1), np.float32)])
    fit = design @ np.linalg.lstsq(design, logits, rcond=None)[0]
    assert np.abs(fit - logits).max() < 0.01 * np.ptp(logits)


def test_a_network_without_features_cannot_be_adapted_to(tmp_path: Path) -> None:
    import onnx

    model = onnx.load(IndexReader().path)
    del model.graph.output[1]
    onnx.save(model, tmp_path / "plain.onnx")
    with pytest.raises(AdaptationError, match="no 'features' output"):
        Embedder(IndexReader(tmp_path / "plain.onnx", second=None))


@needs_decks
def test_adaptation_reads_cards_of_an_unseen_deck_it_did_not_read_before(
        adapted: DeckAdaptation) -> None:
    faces = scenes.load_faces(DECK)
    anchors = scenes.anchors_of(DECK, faces)
    rng = np.random.default_rng(4242)  # not the photos' seed
    plain, adapt = Recognizer(), Recognizer(adaptation=adapted)
    before = after = 0
    for i in range(16):  # 8 until the twenty-first step's network, which reads 3 of their cards
        sc = scenes.make_scene(rng, faces, (1280, 960), kind=("single", "fan")[i % 2],
                               max_tilt=25, mild=True)
        on_table = {c.code for c in sc.cards}
        legible = {m.code for m in scenes.visible_indices(sc, anchors) if m.legible()}
        read_before = {p.code for p in plain.read(sc.image) if p.code}
        read_after = {p.code for p in adapt.read(sc.image) if p.code}
        assert read_after <= on_table, f"scene {i}: wrong {read_after - on_table}"
        before += len(read_before & legible)
        after += len(read_after & legible)
    # 3 more until the thirty-eighth step's first network, which reads alone what the one
    # before read adapted (55 of these cards; adapted 57, the one before 52 -> 55; rule CI);
    # 2 more until the sixty-fifth step's networks (rule FC), which read 56 alone and 57 adapted
    assert after >= before + 1


def test_a_misread_rank_is_untrusted_in_every_suit_a_misread_suit_only_itself() -> None:
    """``from_samples``: a sample the network alone was sure was another card marks that card
    untrusted, and with a misread rank (a German B read as 8) every suit of the rank."""
    rng = np.random.default_rng(3)
    feature = {code: v / np.linalg.norm(v) for code, v in
               zip(("JD", "QS", "7H"), rng.normal(size=(3, 128)), strict=True)}
    samples = [Sample("JD", feature["JD"], (0, 0), read_as="8D"),  # rank misread
               Sample("QS", feature["QS"], (0, 0), read_as="QC"),  # suit misread
               Sample("7H", feature["7H"], (0, 0), read_as="7H"),  # read right
               Sample("7H", feature["7H"], (0, 0))]  # not sure of any card
    deck = DeckAdaptation.from_samples(samples, "0" * 64)
    assert deck.untrusted == {"8S", "8H", "8D", "8C", "QC"}


def test_a_german_deck_reads_after_adapting(data_dir: Path, tmp_path: Path) -> None:
    """Index letters the network never learned (B for Bube): unknown before, read after, with
    the glyph samples kept from single-card photos."""
    german = {"J": "B", "Q": "D"}
    folder = tmp_path / "photos"
    folder.mkdir()
    for i, code in enumerate(["JH", "QS", "JC", "QD", "JD", "8D", "7S", "10H"]):
        card = calibration.parse_card(code)
        img = synth.render_card(card, index_text=german.get(card.rank))
        write_image(folder / f"{code}-{i}.png", synth.degrade(synth.place(
            synth.table((960, 720), seed=i), img, synth.card_quad((480, 360), 440, 8)), seed=i,
            noise=4))
    frame_card = calibration.parse_card("JD")
    frame = synth.degrade(synth.place(synth.table((960, 720), seed=40), synth.render_card(
        frame_card, index_text="B"), synth.card_quad((480, 360), 440, -20)), seed=9, noise=4)
    assert [p.code for p in Recognizer().read(frame)] in ([None], [])
    calibrate(folder, "german")
    assert [p.code for p in load_deck("german").recognizer().read(frame)] == ["JD"]


@needs_decks
def test_adapt_command_saves_a_deck_that_read_uses(adapted: DeckAdaptation, tmp_path: Path,
                                                   data_dir: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    rows = ["file,cards"]
    for i, (img, cards) in enumerate(deck_photos(DECK, 4, seed=12)):
        write_image(folder / f"p{i}.jpg", img)
        rows.append(f"p{i}.jpg,{' '.join(sorted(cards))}")
    (folder / "labels.csv").write_text("\n".join(rows) + "\n")
    assert run(["adapt", str(folder), "--deck", "tigullio"]) == 0
    assert "deck 'tigullio' saved" in capsys.readouterr().out
    saved = data_dir / "decks" / "tigullio" / FILE_NAME
    assert saved.exists() and saved.stat().st_size < 200_000
    deck = load_deck("tigullio")
    assert isinstance(deck.recognizer().index, AdaptedIndexReader)
    assert run(["decks"]) == 0
    assert capsys.readouterr().out.split() == ["tigullio"]
    assert run(["read", "--deck", "tigullio", str(folder / "p0.jpg")]) == 0


def _deck_with(data_dir: Path, content: bytes | None = None, **arrays) -> Path:
    folder = data_dir / "decks" / "home"
    folder.mkdir(parents=True)
    if content is not None:
        (folder / FILE_NAME).write_bytes(content)
    else:
        np.savez(folder / FILE_NAME, **arrays)
    return folder / FILE_NAME


@pytest.mark.parametrize("kind", ["garbage", "foreign", "other_model"])
def test_a_corrupt_or_foreign_adaptation_is_a_clear_error(kind: str, data_dir: Path,
                                                         tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    if kind == "garbage":
        path = _deck_with(data_dir, b"PK\x03\x04 not really a zip")
    elif kind == "foreign":
        path = _deck_with(data_dir, weights=np.zeros((3, 3)))
    else:
        feats = np.eye(2, 128, dtype=np.float16)
        path = _deck_with(data_dir, format=np.array("dealer-assist deck adaptation 1"),
                          model_sha256=np.array("0" * 64), codes=np.array(["QS", "7H"]),
                          features=feats, untrusted=np.array([], dtype="<U3"))
    with pytest.raises(AdaptationError) as err:
        load_deck("home")
    assert str(path) in str(err.value) and "adapt the deck again" in str(err.value)
    image = tmp_path / "t.png"
    write_image(image, synth.table((320, 240)))
    assert run(["read", "--deck", "home", str(image)]) == 2
    message = capsys.readouterr().err
    assert message.startswith("error: ") and "Traceback" not in message
    if kind == "other_model":
        assert "another index network" in message


def test_adapt_exit_statuses(tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    blank = tmp_path / "blank"
    blank.mkdir()
    write_image(blank / "QS.png", synth.table((640, 480)))  # labelled, but no card in view
    assert run(["adapt", str(blank), "--deck", "home"]) == 1
    assert capsys.readouterr().err.startswith("refused: no card index")
    assert not (data_dir / "decks" / "home").exists()  # nothing saved
    assert run(["calibrate", str(tmp_path / "missing"), "--deck", "home"]) == 2
    assert "no folder" in capsys.readouterr().err
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "labels.csv").write_text("file,cards\na.png,ZZ\n")
    assert run(["adapt", str(bad), "--deck", "home"]) == 2

    def broken(*_a, **_k):
        raise RuntimeError("boom")

    monkeypatch.setattr(calibration, "adapt_frames", broken)
    write_image(blank / "7H.png", synth.scene([calibration.parse_card("7H")],
                                              [synth.card_quad((320, 240), 300, 0)], (640, 480)))
    assert main_cli.main(["vision", "adapt", str(blank), "--deck", "home"]) == 3
    err = capsys.readouterr().err
    assert "internal error" in err and "boom" in err and "Traceback" not in err


@needs_decks
def test_second_look_never_reads_a_card_the_decks_prototypes_deny(
        adapted: DeckAdaptation, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second look can agree with itself on a systematic misread (a held-out deck's Q♥ read
    as 10♥ beside a card's edge): with an adaptation, a card the deck has prototypes of is read
    by it only where the crop's nearest prototype is that card; an untrusted card never. (The
    index network shipped until issue 16's twenty-first step misread this deck's queens as 10s
    in the adaptation photos, so its adaptation marked the 10s untrusted; today's does not, so
    they are marked here as it did.)"""
    faces = scenes.load_faces(DECK)
    rank_x, rank_y, suit_x, suit_y = scenes.anchors_of(DECK, faces)["QH"]
    face = scenes.on_white(faces["QH"])
    index = candidate(np.float32([rank_x, rank_y]), np.float32([suit_x, suit_y]))
    deck = DeckAdaptation(adapted.codes, adapted.features, adapted.model_sha256,
                          adapted.untrusted | {"10S", "10H", "10D", "10C"})
    reader = AdaptedIndexReader(deck)
    trusted = [c for c in ("JH", "KH", "9H", "QD") if c not in deck.untrusted]
    assert trusted and "10H" in deck.cards  # 10H has prototypes, yet is untrusted
    looked = [IndexRead(parse_card(code), 0.97, index) for code in ("QH", "10H", trusted[0])]
    assert [r.card.code for r in reader.vetted(face, looked, 1.0)] == ["QH"]
    plain = IndexReader()
    assert plain.vetted(face, looked, 1.0) == looked


@needs_decks
@pytest.mark.parametrize("way", ["_group_reads", "_second_looks", "_stretched_looks"])
def test_every_look_the_networks_make_alone_is_vetted_by_the_deck(
        adapted: DeckAdaptation, monkeypatch: pytest.MonkeyPatch, way: str) -> None:
    """The group, second and stretched looks read with the networks alone: on an adapted deck
    none of them gives a card the network misreads on it (the fifty-ninth step's detector
    showed a stretched look reading a German B as an 8 the adaptation had marked untrusted)."""
    faces = scenes.load_faces(DECK)
    rank_x, rank_y, suit_x, suit_y = scenes.anchors_of(DECK, faces)["QH"]
    index = candidate(np.float32([rank_x, rank_y]), np.float32([suit_x, suit_y]))
    deck = DeckAdaptation(adapted.codes, adapted.features, adapted.model_sha256,
                          adapted.untrusted | {"10H"})
    frame = scenes.on_white(faces["QH"])
    monkeypatch.setattr(IndexReader, way,
                        lambda *_args: [IndexRead(parse_card("10H"), 0.99, index)])
    assert "10H" in [r.card.code for _w, r in IndexReader().readings(frame)]
    assert "10H" not in [r.card.code for _w, r in AdaptedIndexReader(deck).readings(frame)]
