"""Frame sources with one interface: a camera, a video file, a folder of images.

Every source is an iterator of BGR numpy frames and a context manager::

    with open_source("0") as frames:          # camera 0; or "table.mp4", or "shots/"
        for frame in frames:
            ...

A camera is read by a worker thread that keeps only the newest frame, so a slow consumer never
sees stale frames piling up.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

import cv2
import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


class FrameSource:
    """Base class: iterate to get frames; ``close()`` releases the device or file."""

    def frames(self) -> Iterator[np.ndarray]:
        raise NotImplementedError

    def __iter__(self) -> Iterator[np.ndarray]:
        return self.frames()

    def close(self) -> None:
        """Release resources (idempotent)."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class ImageFolderSource(FrameSource):
    """The images in a folder, in name order (unreadable files are skipped)."""

    def __init__(self, folder: str | Path, loop: bool = False) -> None:
        self.folder = Path(folder)
        self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise FileNotFoundError(f"no images in {self.folder}")
        self.loop = loop

    def frames(self) -> Iterator[np.ndarray]:
        while True:
            for path in self.paths:
                try:
                    check_pixels(path)
                except (ImageTooLarge, FileNotFoundError):
                    continue  # over the pixel budget or unreadable: skipped like other bad files
                frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
                if frame is not None:
                    yield frame
            if not self.loop:
                return


class VideoFileSource(FrameSource):
    """The frames of a video file."""

    def __init__(self, path: str | Path, loop: bool = False) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise FileNotFoundError(self.path)
        self.loop = loop
        self._cap: cv2.VideoCapture | None = None

    def frames(self) -> Iterator[np.ndarray]:
        while True:
            self._cap = cv2.VideoCapture(str(self.path))
            if not self._cap.isOpened():
                raise OSError(f"cannot open video {self.path}")
            try:
                while True:
                    ok, frame = self._cap.read()
                    if not ok:
                        break
                    yield frame
            finally:
                self.close()
            if not self.loop:
                return

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class CameraSource(FrameSource):
    """A camera chosen by index, read by a worker thread; iteration yields the newest frame."""

    def __init__(self, index: int = 0, width: int | None = None, height: int | None = None,
                 timeout: float = 2.0) -> None:
        self.index = index
        self.timeout = timeout
        self._cap = cv2.VideoCapture(index)
        if not self._cap.isOpened():
            raise OSError(f"cannot open camera {index}")
        if width:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height:
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._latest: np.ndarray | None = None
        self._seq = 0
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"camera-{index}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            ok, frame = self._cap.read()
            with self._cond:
                if not ok:
                    self._stop.set()
                else:
                    self._latest, self._seq = frame, self._seq + 1
                self._cond.notify_all()

    def frames(self) -> Iterator[np.ndarray]:
        seen = 0
        while True:
            with self._cond:
                fresh = self._cond.wait_for(
                    lambda last=seen: self._seq > last or self._stop.is_set(), self.timeout)
                if not fresh or self._seq == seen:
                    return  # the camera stopped delivering frames
                seen, frame = self._seq, self._latest
            assert frame is not None
            yield frame

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=self.timeout)
        self._cap.release()


def open_source(spec: str | int | Path, loop: bool = False) -> FrameSource:
    """A source from a spec: a camera index (``0``), an image folder, or a video file."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        return CameraSource(int(spec))
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path, loop=loop)
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return _SingleImage(path)
    return VideoFileSource(path, loop=loop)


class _SingleImage(FrameSource):
    def __init__(self, path: Path) -> None:
        self.frame = read_image(path)

    def frames(self) -> Iterator[np.ndarray]:
        yield self.frame


MAX_PIXELS = 50_000_000  # a 50-megapixel photo (150 MB as BGR); more is refused before decoding


class ImageTooLarge(ValueError):
    """An image whose header claims more pixels than the budget (it is not decoded)."""


def read_image(path: str | Path, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """One image file as a BGR frame.

    Raises FileNotFoundError if it cannot be read, and :class:`ImageTooLarge` (before decoding)
    if its header claims more than ``max_pixels`` pixels or cannot be parsed for a known format.
    """
    check_pixels(path, max_pixels)
    frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if frame is None:
        raise FileNotFoundError(f"cannot read image {path}")
    return frame


def check_pixels(path: str | Path, max_pixels: int = MAX_PIXELS) -> None:
    """Refuse a file whose header claims more than ``max_pixels`` pixels."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(64 * 1024)
    except OSError as exc:
        raise FileNotFoundError(f"cannot read image {path}: {exc.strerror}") from None
    size = header_size(head)
    if size is not None and size[0] * size[1] > max_pixels:
        w, h = size
        raise ImageTooLarge(f"{path}: {w}x{h} is {w * h:,} pixels, over the budget of "
                            f"{max_pixels:,}; scale the photo down")


def header_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) from the first bytes of a PNG, JPEG, GIF, BMP, WebP or TIFF file, else
    None (OpenCV then decides whether it is an image at all)."""
    try:
        if head[:8] == b"\x89PNG\r\n\x1a\n":
            return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        if head[:6] in (b"GIF87a", b"GIF89a"):
            return int.from_bytes(head[6:8], "little"), int.from_bytes(head[8:10], "little")
        if head[:2] == b"BM":
            w = int.from_bytes(head[18:22], "little", signed=True)
            h = int.from_bytes(head[22:26], "little", signed=True)
            return abs(w), abs(h)
        if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
            kind = head[12:16]
            if kind == b"VP8X":
                return (int.from_bytes(head[24:27], "little") + 1,
                        int.from_bytes(head[27:30], "little") + 1)
            if kind == b"VP8L":
                bits = int.from_bytes(head[21:25], "little")
                return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
            if kind == b"VP8 ":
                return (int.from_bytes(head[26:28], "little") & 0x3FFF,
                        int.from_bytes(head[28:30], "little") & 0x3FFF)
        if head[:2] == b"\xff\xd8":
            return _jpeg_size(head)
        if head[:4] in (b"II*\x00", b"MM\x00*"):
            return _tiff_size(head)
    except (IndexError, ValueError):
        return None
    return None


def _jpeg_size(head: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 9 < len(head):
        if head[i] != 0xFF:
            i += 1
            continue
        marker = head[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        length = int.from_bytes(head[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE,
                      0xCF):
            h = int.from_bytes(head[i + 5:i + 7], "big")
            w = int.from_bytes(head[i + 7:i + 9], "big")
            return w, h
        i += 2 + length
    return None


def _tiff_size(head: bytes) -> tuple[int, int] | None:
    order = "little" if head[:2] == b"II" else "big"
    ifd = int.from_bytes(head[4:8], order)
    n = int.from_bytes(head[ifd:ifd + 2], order)
    size: dict[int, int] = {}
    for k in range(n):
        e = ifd + 2 + 12 * k
        tag, typ = int.from_bytes(head[e:e + 2], order), int.from_bytes(head[e + 2:e + 4], order)
        if tag in (256, 257):
            width = 2 if typ == 3 else 4
            size[tag] = int.from_bytes(head[e + 8:e + 8 + width], order)
    return (size[256], size[257]) if len(size) == 2 else None
