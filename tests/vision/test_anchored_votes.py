"""Issue 16's fifty-eighth step, rule EQ's candidate: a crop cut on one glyph and the detector's
step (an anchored crop) votes in its detected index's group, so the detector's own crop and it
can read a card together that neither reads alone (``IndexReader(anchored_votes=True)``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from dealer_assist.vision import indices
from dealer_assist.vision.indices import CLASSES, IndexReader
from dealer_assist.vision.ink_pairs import candidate


@pytest.fixture
def one_merged_index(monkeypatch: pytest.MonkeyPatch):
    """A frame whose detector finds one index with no blob pair, and one anchored crop."""
    rank, suit = np.float32([50, 50]), np.float32([50, 66])

    def patch(reader: IndexReader) -> None:
        monkeypatch.setattr(reader.detector, "peaks", lambda *_a: [(0.9, rank, suit)])
        monkeypatch.setattr(reader, "_zoomed_peaks", lambda *_a: [])
        monkeypatch.setattr(indices, "local_pairs", lambda *_a, **_k: [])
        monkeypatch.setattr(indices, "anchored_pairs",
                            lambda *_a: [replace(candidate(rank + 1, suit + 1),
                                                         anchored=True)])
    return patch


@pytest.mark.parametrize("votes", [False, True])
def test_an_anchored_crop_is_in_its_detected_indexs_group_only_when_it_votes(
        one_merged_index, votes: bool) -> None:
    reader = IndexReader(proposals="learned", anchored_votes=votes)
    one_merged_index(reader)
    frame = np.full((120, 120, 3), 255, np.uint8)
    cands = reader.candidates(frame, paper=np.full((60, 60), 255, np.uint8))
    (own, _own_need, own_group), (anchored, need, group) = cands
    assert own.detected and own_group == 0
    assert anchored.anchored
    assert need == pytest.approx(max(reader.min_prob, reader.acceptance.anchored))
    assert group == (0 if votes else -1)
    # the detector's crop at 0.83 and the anchored one at 0.95 name 3S: a group read if it votes
    probs = np.zeros((2, len(CLASSES)), np.float32)
    probs[:, CLASSES.index("3S")] = (0.83, 0.95)
    probs[:, 0] = 1 - probs[:, CLASSES.index("3S")]
    reads = reader._group_reads(cands, probs, probs.argmax(axis=1), 1.0)
    assert [r.card.code for r in reads] == (["3S"] if votes else [])
