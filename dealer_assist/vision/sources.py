"""Frame sources with one interface: a camera, a video file, a folder of images.

Every source is an iterator of BGR numpy frames and a context manager::

    with open_source("0") as frames:          # camera 0; or "table.mp4", or "shots/"
        for frame in frames:
            ...

A camera is read by a worker thread that keeps only the newest frame, so a slow consumer never
sees stale frames piling up.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

import cv2
import numpy as np

from dealer_assist.errors import InputError
from dealer_assist.vision.image_guard import MAX_PIXELS, check_pixels

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
                except (InputError, FileNotFoundError):
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


# What a camera is asked for: the reader's work size (indices.WORK_LONG_SIDE). Left alone, most
# webcams give 640×480, where a card's index has half the pixels the reader was built and
# measured for (bench_vision --perturb small; the small indices are the ones lost, issue 16,
# twenty-ninth step). A camera without this size gives its nearest (often 1280×720).
CAMERA_WIDTH, CAMERA_HEIGHT = 1280, 960
# ...in Motion-JPEG, asked for before the size: many USB webcams give 1280×720 uncompressed at
# 5-10 frames a second only, and at 30 in MJPG (USB 2's bandwidth). A camera without it keeps
# its own format.
CAMERA_FOURCC = "MJPG"


class CameraSource(FrameSource):
    """A camera chosen by index, read by a worker thread; iteration yields the newest frame.
    ``width``/``height``: the size asked for, ``fourcc`` the format (None: the camera's own)."""

    def __init__(self, index: int = 0, width: int | None = CAMERA_WIDTH,
                 height: int | None = CAMERA_HEIGHT, timeout: float = 2.0,
                 fourcc: str | None = CAMERA_FOURCC) -> None:
        self.index = index
        self.timeout = timeout
        self._cap = cv2.VideoCapture(index)
        if not self._cap.isOpened():
            raise OSError(f"cannot open camera {index}")
        if fourcc:  # before the size: the size a camera offers depends on its format
            self._cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*fourcc))
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


CAMERA_ENV = "DEALER_ASSIST_CAMERA"


def camera_spec() -> str:
    """The camera the app opens: ``$DEALER_ASSIST_CAMERA`` (a camera index, an image folder, a
    video file or an image: see :func:`open_source`) if set, else camera 0."""
    return os.environ.get(CAMERA_ENV, "").strip() or "0"


def open_source(spec: str | int | Path, loop: bool = False) -> FrameSource:
    """A source from a spec: a camera index (``0``), an image folder, or a video file."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        return CameraSource(int(spec))
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path, loop=loop)
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return _SingleImage(path, loop=loop)
    return VideoFileSource(path, loop=loop)


class _SingleImage(FrameSource):
    """One image: one frame, or (``loop``) the same frame again and again, as a still camera
    would give it (the app's camera loops its source: the voter needs several frames)."""

    def __init__(self, path: Path, loop: bool = False) -> None:
        self.frame = read_image(path)
        self.loop = loop

    def frames(self) -> Iterator[np.ndarray]:
        yield self.frame
        while self.loop:
            yield self.frame


def read_image(path: str | Path, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """One image file as a BGR frame.

    Raises :class:`ImageTooLarge` (before decoding) if its header claims more than
    ``max_pixels`` pixels, InputError if the header cannot be read (OpenCV would allocate what
    a truncated header claims), and FileNotFoundError if OpenCV cannot decode it.
    """
    if not Path(path).is_file():
        raise FileNotFoundError(f"cannot read image {path}")
    check_pixels(path, max_pixels)
    frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if frame is None:
        raise FileNotFoundError(f"cannot read image {path}")
    return frame
