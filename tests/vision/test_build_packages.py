"""The model builds name the packages their files depend on and warn of any that is not at
uv.lock's version (fifty-fifth step: a render with OpenCV 5.1 is not one with the locked 5.0)."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.build_index_model import BUILD_PACKAGES, build_packages

OPENCV = metadata.version("opencv-python-headless")


def lock(tmp_path: Path, **versions: str) -> Path:
    path = tmp_path / "uv.lock"
    path.write_text("".join(f'[[package]]\nname = "{name.replace("_", "-")}"\n'
                            f'version = "{version}"\n\n' for name, version in versions.items()))
    return path


def test_packages_at_the_locked_versions_are_named_without_a_warning(tmp_path) -> None:
    line, warnings = build_packages(lock(tmp_path, opencv_python_headless=OPENCV))
    assert f"opencv-python-headless {OPENCV}" in line
    assert all(name in line for name in BUILD_PACKAGES)
    assert warnings == []


def test_another_opencv_than_the_locked_one_is_warned_of(tmp_path) -> None:
    _line, warnings = build_packages(lock(tmp_path, opencv_python_headless="4.0.0.21"))
    assert len(warnings) == 1
    assert f"opencv-python-headless {OPENCV} here, 4.0.0.21 in uv.lock" in warnings[0]
    assert "train_venv.sh" in warnings[0]


def test_torch_and_missing_packages_are_not_checked(tmp_path) -> None:
    _line, warnings = build_packages(lock(tmp_path, torch="0.1.0",
                                          opencv_python_headless=OPENCV))
    assert warnings == []
    assert build_packages(tmp_path / "no.lock")[1] == []


def test_the_projects_own_environment_has_the_locked_packages() -> None:
    assert build_packages()[1] == []
