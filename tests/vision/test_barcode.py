"""QR card labels: payload format, reading labels in frames, and the printable sheet."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from dealer_assist.cards import FULL_DECK, parse_card, parse_cards
from dealer_assist.vision import barcode, synth
from dealer_assist.vision.barcode import (
    decode_payload,
    encode_payload,
    finder_patterns,
    labels_anywhere,
    read_barcodes,
)
from dealer_assist.vision.detect import find_card_quads
from dealer_assist.vision.labels import label_image, label_sheet
from dealer_assist.vision.recognizer import Recognizer
from dealer_assist.vision.sources import read_image

ROOT = Path(__file__).resolve().parents[2]


def test_payload_round_trip() -> None:
    assert encode_payload("qs") == "31DA:QS"
    assert encode_payload(parse_card("Th")) == "31DA:10H"
    assert decode_payload(b"31DA:10H") == parse_card("10H")
    assert decode_payload("31da:qs") == parse_card("QS")
    assert decode_payload("QS") == parse_card("QS")  # bare code accepted


@pytest.mark.parametrize("payload", ["31DA:ZZ", "hello world", "https://example.com/QS", "", "1X"])
def test_other_payloads_are_ignored(payload: str) -> None:
    assert decode_payload(payload) is None


def test_reads_label_sheet() -> None:
    cards = parse_cards("QS 10H AC 2D 9C")
    found = read_barcodes(label_sheet(cards, columns=3, module_px=6))
    assert sorted(p.code for p in found) == sorted(c.code for c in cards)
    assert all(p.source == "barcode" and p.confidence == 1.0 for p in found)


def card_with_label(code: str, printed: str) -> np.ndarray:
    """A card showing ``printed`` with a QR label for ``code`` stuck on its middle."""
    img = synth.render_card(parse_card(printed))
    label = label_image(parse_card(code), module_px=4)
    h, w = label.shape[:2]
    y, x = (420 - h) // 2, (300 - w) // 2
    img[y:y + h, x:x + w] = label
    return img


def test_barcode_on_card_beats_visual_reading() -> None:
    frame = synth.place(synth.table((1280, 960)), card_with_label("KD", "3C"),
                        synth.card_quad((640, 480), 520, 15))
    proposals = Recognizer().read(frame)
    assert [(p.code, p.source) for p in proposals] == [("KD", "barcode")]


@pytest.mark.parametrize(("height", "angle", "blur"), [(300, 40, 0.8), (380, -100, 0.0),
                                                      (520, 175, 1.2)])
def test_labelled_card_turned_and_small(height: float, angle: float, blur: float) -> None:
    frame = synth.place(synth.table((1280, 960)), card_with_label("2S", "2S"),
                        synth.card_quad((640, 480), height, angle))
    proposals = Recognizer().read(synth.degrade(frame, blur=blur, noise=3))
    assert [(p.code, p.source) for p in proposals] == [("2S", "barcode")]


def test_finder_pattern_test_tells_labels_from_cards() -> None:
    assert finder_patterns(label_image(parse_card("QS"), module_px=4)[..., 0]) >= 3
    for code in ("QS", "10H", "8C", "AD"):
        assert finder_patterns(synth.render_card(parse_card(code))[..., 0]) == 0


def test_label_alone_in_frame_is_read() -> None:
    frame = np.full((960, 1280, 3), 90, np.uint8)
    label = label_image(parse_card("7H"), module_px=10)
    frame[200:200 + label.shape[0], 300:300 + label.shape[1]] = label
    proposals = Recognizer().read(frame)
    assert [p.code for p in proposals] == ["7H"]
    x, y, w, h = proposals[0].box
    assert 250 < x < 400 and 150 < y < 300  # placed where the label is, in frame pixels
    assert 150 < w < 400 and 150 < h < 400  # the code, or the white label around it


def test_label_filling_the_frame_is_read_without_a_card_outline() -> None:
    """A label held close to the camera: no card-shaped outline, the whole-frame search reads it."""
    label = label_image(parse_card("JS"), module_px=12)
    frame = np.full((960, 1280, 3), 250, np.uint8)
    h, w = label.shape[:2]
    frame[(960 - h) // 2:(960 + h) // 2, (1280 - w) // 2:(1280 + w) // 2] = label
    assert find_card_quads(frame) == []
    assert [(p.code, p.source) for p in Recognizer().read(frame)] == [("JS", "barcode")]


def test_zbar_does_not_run_on_a_frame_without_finder_patterns(monkeypatch) -> None:
    """Most frames without a card outline are fans and piles without labels: zbar (~5 ms a
    frame) runs only where the cheap finder-pattern test sees a possible QR code."""
    calls = []
    real = barcode.pyzbar.decode
    monkeypatch.setattr(barcode.pyzbar, "decode", lambda *a, **k: calls.append(1) or real(*a, **k))
    fan = synth.table((640, 480))
    for i, code in enumerate(("QS", "10H", "8C", "5D")):
        fan = synth.place(fan, synth.render_card(parse_card(code)),
                          synth.card_quad((260 + 40 * i, 240), 300, -30 + 20 * i))
    assert labels_anywhere(fan) == [] and calls == []
    label = label_image(parse_card("4D"), module_px=6)
    page = np.full((480, 640, 3), 250, np.uint8)
    page[40:40 + label.shape[0], 60:60 + label.shape[1]] = label
    assert [p.code for p in labels_anywhere(page)] == ["4D"] and calls == [1]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_qr_deck_png(tmp_path: Path) -> None:
    out = tmp_path / "deck.png"
    assert _script("make_qr_deck").main([str(out), "--cards", "AS KH 10D"]) == 0
    found = read_barcodes(read_image(out))
    assert sorted(p.code for p in found) == ["10D", "AS", "KH"]


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_make_qr_deck_pdf_is_readable_when_printed(tmp_path: Path) -> None:
    script = _script("make_qr_deck")
    out = tmp_path / "deck.pdf"
    assert script.main([str(out)]) == 0
    dpi = 150
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-f", "1", "-l", "1", str(out),
                    str(tmp_path / "page")], check=True)
    page = read_image(next(tmp_path.glob("page*.png")))
    # zbar mixes up finder patterns of many codes in a grid, so read label by label, as on cards
    px = dpi / 25.4
    cell_w, cell_h = (24 + 4) * px, (24 + 10) * px
    codes = []
    for r in range(2):
        for c in range(6):
            x, y = int((script.MARGIN * px) + c * cell_w), int((script.MARGIN * px) + r * cell_h)
            codes += [p.code for p in read_barcodes(page[y:y + int(cell_h), x:x + int(cell_w)])]
    assert codes == [c.code for c in FULL_DECK[:12]]
