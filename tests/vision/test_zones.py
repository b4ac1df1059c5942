"""Seat zones on the table image."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_assist.vision.zones import Zone, ZoneMap


def test_strips_assign_seats_left_to_right() -> None:
    zones = ZoneMap.strips(4, top=0.5)
    size = (1280, 960)
    assert zones.seat_at((10, 900), size) == 1
    assert zones.seat_at((330, 700), size) == 2
    assert zones.seat_at((1270, 950), size) == 4
    assert zones.seat_at((640, 100), size) is None  # above the zones: the dealer's area


def test_polygon_zone_contains_centre_in_any_resolution() -> None:
    zone = Zone(3, ((0.1, 0.1), (0.4, 0.1), (0.25, 0.5)))
    zones = ZoneMap([zone])
    assert zones.seat_at((250, 200), (1000, 1000)) == 3
    assert zones.seat_at((125, 100), (500, 500)) == 3
    assert zones.seat_at((100, 450), (1000, 1000)) is None


def test_json_round_trip(tmp_path: Path) -> None:
    zones = ZoneMap([Zone(1, ((0, 0), (0.5, 0), (0.5, 1), (0, 1))),
                     Zone(2, ((0.5, 0), (1, 0), (1, 1), (0.5, 1)))])
    path = tmp_path / "zones.json"
    zones.save(path)
    loaded = ZoneMap.load(path)
    assert loaded.zones == zones.zones
    assert loaded.seat_at((900, 10), (1000, 100)) == 2


def test_bad_zones_are_refused() -> None:
    with pytest.raises(ValueError):
        Zone(1, ((0, 0), (1, 1)))
    with pytest.raises(ValueError):
        ZoneMap([Zone(1, ((0, 0), (1, 0), (1, 1))), Zone(1, ((0, 0), (1, 0), (0, 1)))])
    with pytest.raises(ValueError):
        ZoneMap.strips(0)
