"""Frame sources: image folder, video file, single image, and the spec dispatcher."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.vision.sources import (
    ImageFolderSource,
    VideoFileSource,
    open_source,
    read_image,
)


def frame(value: int) -> np.ndarray:
    img = np.zeros((120, 160, 3), np.uint8)
    img[:, :] = (value, 255 - value, 128)
    return img


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for i, v in enumerate([10, 120, 240]):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), frame(v))
    (tmp_path / "notes.txt").write_text("not an image")
    return tmp_path


def test_image_folder_yields_images_in_name_order(folder: Path) -> None:
    with ImageFolderSource(folder) as source:
        frames = list(source)
    assert [int(f[0, 0, 0]) for f in frames] == [10, 120, 240]
    assert frames[0].shape == (120, 160, 3)


def test_image_folder_loops(folder: Path) -> None:
    it = iter(ImageFolderSource(folder, loop=True))
    assert [int(next(it)[0, 0, 0]) for _ in range(5)] == [10, 120, 240, 10, 120]


def test_empty_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        ImageFolderSource(tmp_path)


def write_video(path: Path, values: list[int]) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    assert writer.isOpened()
    for v in values:
        writer.write(frame(v))
    writer.release()


def test_video_file_yields_its_frames(tmp_path: Path) -> None:
    path = tmp_path / "table.avi"
    values = [0, 50, 100, 150, 200, 250]
    write_video(path, values)
    with VideoFileSource(path) as source:
        frames = list(source)
    assert len(frames) == len(values)
    assert [int(f[60, 80, 0]) for f in frames] == pytest.approx(values, abs=6)


def test_open_source_dispatches_on_spec(folder: Path, tmp_path: Path) -> None:
    assert isinstance(open_source(folder), ImageFolderSource)
    video = tmp_path / "v.avi"
    write_video(video, [1, 2])
    assert isinstance(open_source(str(video)), VideoFileSource)
    single = list(open_source(folder / "f1.png"))
    assert len(single) == 1 and int(single[0][0, 0, 0]) == 120


def test_a_single_image_loops_when_asked_as_the_apps_camera_does(folder: Path) -> None:
    # the app opens its camera with loop=True: an image is then a still camera, frame after
    # frame, so that the voter gets the votes it needs (before, one frame and the panel waited)
    frames = iter(open_source(folder / "f1.png", loop=True))
    again = [next(frames) for _ in range(5)]
    assert all(int(f[0, 0, 0]) == 120 for f in again)


def test_missing_files_are_reported(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_image(tmp_path / "nope.jpg")
    with pytest.raises(FileNotFoundError):
        open_source(tmp_path / "nope.mp4")


def test_camera_that_does_not_exist_is_refused() -> None:
    with pytest.raises(OSError):
        open_source("97")


class FakeCapture:
    """Stands in for cv2.VideoCapture: a camera that delivers ``n`` frames, then stops."""

    def __init__(self, index: int, n: int = 4) -> None:
        self.index, self.left, self.released = index, n, False
        self.settings: dict[int, float] = {}
        self.order: list[int] = []

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        self.order.append(prop)
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.left == 0:
            return False, None
        self.left -= 1
        return True, frame(200 - 40 * self.left)

    def release(self) -> None:
        self.released = True


def test_camera_source_reads_in_a_worker_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    from dealer_assist.vision import sources

    made: list[FakeCapture] = []
    monkeypatch.setattr(sources.cv2, "VideoCapture",
                        lambda index: made.append(FakeCapture(index)) or made[-1])
    with open_source("2") as camera:
        assert isinstance(camera, sources.CameraSource)
        frames = list(camera)  # ends when the camera stops delivering
    assert made[0].index == 2 and made[0].released
    assert 1 <= len(frames) <= 4  # only the newest frame is kept, older ones may be skipped
    assert int(frames[-1][0, 0, 0]) == 200  # the last frame the camera gave
    values = [int(f[0, 0, 0]) for f in frames]
    assert values == sorted(values)  # never an older frame after a newer one


def test_a_camera_is_asked_for_the_readers_work_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Left alone most webcams give 640×480: half the pixels per index the reader expects."""
    from dealer_assist.vision import sources
    from dealer_assist.vision.indices import WORK_LONG_SIDE

    made: list[FakeCapture] = []
    monkeypatch.setattr(sources.cv2, "VideoCapture",
                        lambda index: made.append(FakeCapture(index, n=0)) or made[-1])
    with open_source("0"):
        pass
    asked = made[0].settings
    assert asked[cv2.CAP_PROP_FRAME_WIDTH] == WORK_LONG_SIDE == sources.CAMERA_WIDTH
    assert asked[cv2.CAP_PROP_FRAME_HEIGHT] == sources.CAMERA_HEIGHT
    with sources.CameraSource(1, width=None, height=None, fourcc=None):  # the camera's own
        pass
    assert made[1].settings == {}


def test_a_camera_is_asked_for_motion_jpeg_before_its_size(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Uncompressed, many webcams give 1280×720 at 5-10 frames a second; in MJPG at 30."""
    from dealer_assist.vision import sources

    made: list[FakeCapture] = []
    monkeypatch.setattr(sources.cv2, "VideoCapture",
                        lambda index: made.append(FakeCapture(index, n=0)) or made[-1])
    with open_source("0"):
        pass
    asked = made[0]
    fourcc = int(asked.settings[cv2.CAP_PROP_FOURCC])
    assert "".join(chr(fourcc >> 8 * i & 0xFF) for i in range(4)) == "MJPG"
    assert asked.order[0] == cv2.CAP_PROP_FOURCC  # the sizes a camera offers depend on it
