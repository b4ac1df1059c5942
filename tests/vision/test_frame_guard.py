"""Frames of any size never make the recogniser raise; images over the pixel budget are refused
before they are decoded."""

from __future__ import annotations

import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.errors import InputError
from dealer_assist.vision import sources
from dealer_assist.vision.image_guard import ImageTooLarge, image_size
from dealer_assist.vision.recognizer import Recognizer
from dealer_assist.vision.sources import read_image


def card_white_in_corner(h: int, w: int, corner: int) -> np.ndarray:
    """A dark frame with card-white (and some ink) touching one corner's two edges."""
    frame = np.full((h, w, 3), 35, np.uint8)
    ys = slice(h // 2, h) if corner in (2, 3) else slice(0, max(1, h // 2))
    xs = slice(w // 2, w) if corner in (1, 2) else slice(0, max(1, w // 2))
    frame[ys, xs] = 245
    frame[ys, xs][::7, ::5] = 20
    return frame


def test_the_reported_crash_sizes_read() -> None:
    recognizer = Recognizer()
    for h, w in [(963, 1280), (3508, 2480)]:  # issue 16: 1280x963, a 300 dpi A4 page
        for corner in range(4):
            assert isinstance(recognizer.read(card_white_in_corner(h, w, corner)), list)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(h=st.one_of(st.integers(1, 64), st.integers(65, 4000)),
       w=st.one_of(st.integers(1, 64), st.integers(65, 4000)),
       corner=st.integers(0, 3), kind=st.sampled_from(["white", "noise", "blank"]))
def test_frames_of_any_size_never_raise(h: int, w: int, corner: int, kind: str) -> None:
    if kind == "white":
        frame = card_white_in_corner(h, w, corner)
    elif kind == "noise":
        frame = np.random.default_rng(h * 4001 + w).integers(0, 256, (h, w, 3), dtype=np.uint8)
    else:
        frame = np.zeros((h, w, 3), np.uint8)
    proposals = _RECOGNIZER.read(frame)
    assert all(p.card is None or p.code for p in proposals)


_RECOGNIZER = Recognizer()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")


def png_header(width: int, height: int) -> bytes:
    """A small, well-formed PNG that claims ``width`` x ``height`` (a decompression bomb)."""
    ihdr = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr)
            + _chunk(b"IDAT", zlib.compress(bytes(1000))) + _chunk(b"IEND", b""))


def test_a_huge_png_is_refused_before_decoding(tmp_path: Path, monkeypatch) -> None:
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_header(30000, 30000))
    decoded = []
    monkeypatch.setattr(sources.cv2, "imread", lambda *a, **k: decoded.append(a) or None)
    with pytest.raises(ImageTooLarge, match="pixel budget"):
        read_image(bomb)
    truncated = tmp_path / "truncated.png"  # only the header: OpenCV would allocate what it claims
    truncated.write_bytes(png_header(30000, 30000)[:33])
    with pytest.raises(InputError, match="not a readable image"):
        read_image(truncated)
    assert decoded == []  # never handed to the decoder


@pytest.mark.parametrize("ext", [".png", ".jpg", ".bmp", ".tiff", ".webp"])
def test_the_header_gives_the_size_of_real_files(tmp_path: Path, ext: str) -> None:
    path = tmp_path / f"frame{ext}"
    assert cv2.imwrite(str(path), np.zeros((123, 457, 3), np.uint8))
    assert image_size(path) == (457, 123)
    assert read_image(path).shape == (123, 457, 3)
    with pytest.raises(ImageTooLarge):
        read_image(path, max_pixels=457 * 123 - 1)


def test_an_image_folder_skips_a_file_over_the_budget(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((10, 10, 3), np.uint8))
    (tmp_path / "b.png").write_bytes(png_header(30000, 30000))
    with sources.ImageFolderSource(tmp_path) as frames:
        assert [f.shape for f in frames] == [(10, 10, 3)]
