"""The index reader's acceptance thresholds (``indices.Acceptance``): the shipped values, a
rule's scaled copy, and a reader that takes every threshold from the one it is given."""

from __future__ import annotations

import numpy as np
import pytest

from dealer_assist.vision import indices
from dealer_assist.vision.indices import CLASSES, Acceptance, IndexReader, read_again
from dealer_assist.vision.ink_pairs import candidate

# The documented constants, the thresholds every rule before rule DV scaled
DOCUMENTED = Acceptance(indices.MIN_PROB, indices.DETECTOR_PAIR_PROB, indices.CLASSICAL_PROB,
                        indices.ANCHORED_PROB, indices.GROUP_PROB, indices.AGAIN_MEAN)


def test_the_shipped_thresholds_are_the_documented_constants_loosened_by_rule_eb() -> None:
    shipped = Acceptance()
    assert indices.DOUBT == 1.9
    assert shipped.values() == pytest.approx(DOCUMENTED.scaled(1.9).values())
    assert shipped.values() == pytest.approx((0.905, 0.943, 0.943, 0.981, 0.81, 0.81))
    reader = IndexReader(second=None)
    assert reader.acceptance == shipped and reader.min_prob == shipped.blob_pair


def test_a_factor_moves_every_threshold_towards_certainty_or_away_from_it() -> None:
    shipped = Acceptance()
    assert shipped.scaled(1.0).values() == pytest.approx(shipped.values())
    # factors compose: the shipped reader's factor undone is the documented one
    assert shipped.scaled(1 / 1.9).values() == pytest.approx(DOCUMENTED.values())
    # rule BU's d = 1.25 (of the documented thresholds): a quarter further from 1
    looser = DOCUMENTED.scaled(1.25)
    assert looser.blob_pair == pytest.approx(0.9375)
    assert looser.detector_pair == pytest.approx(0.9625)
    assert looser.anchored == pytest.approx(0.9875)
    assert looser.group == pytest.approx(0.875) and looser.again_mean == pytest.approx(0.875)
    # rule BP's d = 0.6: each threshold 40 % nearer to 1
    stricter = shipped.scaled(0.6)
    assert all(s > p for s, p in zip(stricter.values(), shipped.values(), strict=True))
    assert stricter.scaled(1 / 0.6).values() == pytest.approx(shipped.values())


@pytest.mark.parametrize("factor", [0.0, -1.0, 11.0, 20.0])
def test_a_factor_that_takes_a_threshold_out_of_0_to_1_is_refused(factor: float) -> None:
    with pytest.raises(ValueError, match="factor"):
        Acceptance().scaled(factor)


def detected_index_frame() -> np.ndarray:
    """A white card with a printed 7 over a heart at its corner, on green felt."""
    import cv2

    frame = np.full((480, 640, 3), (40, 110, 30), np.uint8)
    cv2.rectangle(frame, (200, 100), (420, 400), (245, 245, 245), -1)
    cv2.putText(frame, "7", (214, 140), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (20, 20, 200), 3)
    cv2.circle(frame, (228, 162), 9, (20, 20, 200), -1)
    return frame


def test_what_a_crop_needs_comes_from_the_readers_acceptance() -> None:
    frame = detected_index_frame()
    for detector_pair in (0.5, 0.999):
        acceptance = Acceptance(blob_pair=0.91, detector_pair=detector_pair)
        cands = IndexReader(second=None, acceptance=acceptance).candidates(frame)
        needs = {(c.detected, c.anchored, group >= 0): need for c, need, group in cands}
        assert needs, "nothing proposed on the card"
        for (detected, anchored, in_group), need in needs.items():
            if detected:  # the detector's own pair: never below a blob pair's need
                assert need == max(0.91, detector_pair)
            elif anchored:
                assert need == max(0.91, acceptance.anchored)
            elif in_group:  # a detected index's blob pair
                assert need == 0.91
            else:  # a whole-frame pair
                assert need == acceptance.whole_frame


def test_the_group_rule_reads_at_the_readers_group_threshold() -> None:
    """Two crops of one detected index that name 7♠ first at a mean of 0.88: read by a reader
    whose group threshold is 0.875, not by one whose threshold is the documented 0.9."""
    cands = [(candidate(np.array([10.0, 10.0]), np.array([10.0, 22.0])), 0.95, 0)] * 2
    probs = np.zeros((2, len(CLASSES)), np.float32)
    probs[:, CLASSES.index("7S")] = (0.87, 0.89)
    probs[:, 0] = 1 - probs[:, CLASSES.index("7S")]
    best = probs.argmax(axis=1)
    for group, reads in ((0.875, 1), (indices.GROUP_PROB, 0)):
        reader = IndexReader(second=None, acceptance=Acceptance(group=group))
        found = reader._group_reads(cands, probs, best, 1.0)
        assert len(found) == reads
        assert all(r.card.code == "7S" for r in found)


def test_a_second_look_needs_the_mean_it_is_given() -> None:
    n = len(indices.LOOKS)
    first = np.zeros(len(CLASSES), np.float32)
    first[CLASSES.index("7H")], first[0] = 0.8, 0.2
    seen = np.zeros((n, len(CLASSES)), np.float32)
    seen[:, CLASSES.index("7H")], seen[:, 0] = 0.89, 0.11
    mean = (0.8 + n * 0.89) / (n + 1)  # about 0.878
    assert read_again(first, seen, indices.AGAIN_MEAN) is None  # the documented 0.9
    assert read_again(first, seen, 0.875) == pytest.approx(mean)
