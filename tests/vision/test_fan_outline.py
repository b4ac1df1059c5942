"""A fan whose cards' paper makes one card-shaped outline (issue 16, rule CA): the whole-card
reading of that outline does not silence the other cards' indices read inside it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from dealer_assist.vision import recognizer
from dealer_assist.vision.recognizer import Recognizer

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.vision_data import decks, scenes

# where `bench_vision.py --synthetic training --seed 20261303` is when it draws its scene 91 (the
# fan of the thirty-fifth step's diagnostic): one scene drawn, not the 91 before it
SCENE_91 = {"bit_generator": "PCG64",
            "state": {"state": 195401480113705349630197252692129594566,
                      "inc": 265302590816199476964866990077805223577},
            "has_uint32": 1, "uinteger": 3046830518}


def fan_scene():
    rng = np.random.default_rng()
    rng.bit_generator.state = SCENE_91
    return scenes.make_scene(rng, scenes.load_faces("ancient-egyptians"), (1280, 960), mild=True)


@pytest.mark.skipif("ancient-egyptians" not in decks.deck_files(),
                    reason="no SVG deck installed (kdegames-card-data-kf5)")
def test_a_fan_found_as_one_outline_is_read_card_by_card(monkeypatch) -> None:
    scene = fan_scene()
    assert sorted(c.code for c in scene.cards) == ["10C", "7H", "8H", "9H", "JH"]
    reader = Recognizer()
    # the outline holds the fan: its whole card is read, and so are the indices along its edge
    assert any(len({r.card for r in reads_inside}) >= 3 for reads_inside in _reads_per_outline(
        reader, scene.image))
    assert sorted(p.code for p in reader.read(scene.image) if p.code) == \
        ["10C", "7H", "8H", "9H", "JH"]
    # before rule CA the whole-card reading outvoted the 7H, 8H and 9H as misreads of its face
    # (and, since the fifty-first step's networks, the 10C too)
    monkeypatch.setattr(recognizer, "_unread_if_several", lambda p, _reads: p)
    before = {p.code for p in reader.read(scene.image) if p.code}
    assert "JH" in before <= {"10C", "JH"}


def _reads_per_outline(reader: Recognizer, frame: np.ndarray) -> list[list]:
    """The index readings inside each card outline found in ``frame``."""
    frame = recognizer.exposed(frame)
    outlines = recognizer.find_cards(frame)
    reads = reader.index.read(frame, outlines.small, outlines.mask)
    return [[r for r in reads if recognizer._inside(r.candidate.centre, quad)]
            for quad in outlines.quads]
