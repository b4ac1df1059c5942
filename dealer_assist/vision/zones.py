"""Table zones, one per seat: which seat a card belongs to, from where it lies in the frame.

Zone polygons are in frame fractions (0..1 across and down), so they fit any camera resolution.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np


@dataclass(frozen=True)
class Zone:
    """The table area of one seat: a polygon of (x, y) fractions of the frame."""

    seat: int
    polygon: tuple[tuple[float, float], ...]

    def __post_init__(self) -> None:
        if len(self.polygon) < 3:
            raise ValueError(f"zone of seat {self.seat} needs at least 3 points")

    def pixels(self, frame_size: tuple[int, int]) -> np.ndarray:
        """The polygon in pixels of a frame of ``frame_size`` = (width, height)."""
        w, h = frame_size
        return (np.array(self.polygon, np.float32) * [w, h]).astype(np.float32)

    def contains(self, point: tuple[float, float], frame_size: tuple[int, int]) -> bool:
        poly = self.pixels(frame_size).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), False) >= 0


class ZoneMap:
    """The seats' zones; :meth:`seat_at` says whose zone a point (a card's centre) is in."""

    def __init__(self, zones: Sequence[Zone]) -> None:
        seats = [z.seat for z in zones]
        if len(set(seats)) != len(seats):
            raise ValueError("one zone per seat")
        self.zones = tuple(zones)

    def seat_at(self, point: tuple[float, float], frame_size: tuple[int, int]) -> int | None:
        """The seat whose zone contains ``point`` (pixels), or None (first zone wins on overlap)."""
        for zone in self.zones:
            if zone.contains(point, frame_size):
                return zone.seat
        return None

    @classmethod
    def strips(cls, seats: int, top: float = 0.0, bottom: float = 1.0) -> ZoneMap:
        """``seats`` side-by-side strips, seat 1 on the left (a dealer facing a row of players)."""
        if seats < 1:
            raise ValueError("at least one seat")
        zones = []
        for i in range(seats):
            x0, x1 = i / seats, (i + 1) / seats
            zones.append(Zone(i + 1, ((x0, top), (x1, top), (x1, bottom), (x0, bottom))))
        return cls(zones)

    def to_json(self) -> str:
        return json.dumps([{"seat": z.seat, "polygon": [list(p) for p in z.polygon]}
                           for z in self.zones])

    @classmethod
    def from_json(cls, text: str) -> ZoneMap:
        return cls([Zone(int(d["seat"]), tuple((float(x), float(y)) for x, y in d["polygon"]))
                    for d in json.loads(text)])

    def save(self, path: Path) -> None:
        path.write_text(self.to_json())

    @classmethod
    def load(cls, path: Path) -> ZoneMap:
        return cls.from_json(path.read_text())
