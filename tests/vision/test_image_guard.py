"""`vision read` refuses images over the pixel budget from their header, before decoding,
and tiny or needle-thin ones; one line each, exit 2, never a cv2 traceback."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np
import pytest

from dealer_assist.cli import main
from dealer_assist.vision.image_guard import MAX_PIXELS, check_image


def png_header_only(path, width, height):
    """A PNG whose header claims width×height and whose data is one tiny compressed row."""
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
                     + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))
    return path


@pytest.mark.parametrize("width, height, words", [
    (60000, 60000, "far over the pixel budget"),  # the 60000×60000 claim
    (30000, 30000, "far over the pixel budget"),  # the 30000×30000 (13.3 GB decoded)
    (10000, 10000, "over the budget"),
    (1, 100000, "too small"),
    (40, 100000, "not a photo of a table"),
    (5, 5, "too small"),
])
def test_refused_from_the_header(tmp_path, capsys, width, height, words):
    path = png_header_only(tmp_path / "x.png", width, height)
    with pytest.raises(ValueError, match=words):
        check_image(path)
    assert main(["vision", "read", str(path)]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and err.count("\n") == 1


def test_a_real_needle_thin_image_is_refused_before_opencv(tmp_path, capsys):
    path = tmp_path / "strip.png"
    cv2.imwrite(str(path), np.zeros((1, 100000, 3), np.uint8))
    assert main(["vision", "read", str(path)]) == 2
    assert "too small" in capsys.readouterr().err


def test_an_ordinary_photo_passes_and_a_non_image_is_unreadable(tmp_path, capsys):
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 40, np.uint8))
    assert check_image(photo) == (640, 480) and MAX_PIXELS > 640 * 480
    assert main(["vision", "read", str(photo)]) == 0
    text = tmp_path / "notes.png"
    text.write_text("hello")
    assert main(["vision", "read", str(text)]) == 2
    assert "not a readable image" in capsys.readouterr().err
