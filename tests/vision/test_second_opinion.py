"""Issue 16, seventh step: a second index network (``models/index_cnn_b.onnx``) gives its opinion
on every crop the first finds card-like, and a crop's probability of each class is the lower of
the two networks'. Fifty-first step (rule DS): a third network (``models/index_cnn_c.onnx``, the
first's recipe with another training seed) is asked too, and the first and third's mean is the
opinion the second vetoes; fifty-third step (rule DZ): a fourth, the recipe's third seed, in
that mean."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from dealer_assist.vision import indices
from dealer_assist.vision.indices import CLASSES, IndexReader, softmax
from dealer_assist.vision.ink_pairs import CROP_H, CROP_W

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.bench_vision import synthetic_items
from scripts.vision_data import decks


class FixedNet:
    """Stands in for a network: the same logits for every crop, and a count of crops seen."""

    def __init__(self, logits: np.ndarray) -> None:
        self.logits, self.seen = logits, 0

    def run(self, x: np.ndarray) -> np.ndarray:
        self.seen += len(x)
        return np.repeat(self.logits[None], len(x), axis=0)


def one_hot_logits(card: str, strength: float = 20.0) -> np.ndarray:
    logits = np.zeros(len(CLASSES), np.float32)
    logits[CLASSES.index(card)] = strength
    return logits


def probs_of(rows: list[tuple[str, float]]) -> np.ndarray:
    """One row per (card, p): ``card`` at ``p``, the rest on 'none'."""
    out = np.zeros((len(rows), len(CLASSES)), np.float32)
    for i, (card, p) in enumerate(rows):
        out[i, CLASSES.index(card)] = p
        out[i, 0] += 1 - p
    return out


def test_the_shipped_reader_has_a_second_network() -> None:
    reader = IndexReader()
    assert reader.second is not None
    assert IndexReader(second=None).second is None


def test_the_second_opinion_is_the_lower_of_both_on_card_like_crops_only() -> None:
    reader = IndexReader(second=None, third=None)
    reader.second = second = FixedNet(one_hot_logits("QD"))
    first = probs_of([("10D", 0.99), ("7S", indices.SECOND_FROM), ("7S", 0.3), ("none", 1.0)])
    x = np.zeros((4, 3, CROP_H, CROP_W), np.float32)
    out = reader.second_opinion(x, first)
    assert second.seen == 2  # the two crops with a card at SECOND_FROM or more
    q = softmax(one_hot_logits("QD")[None])[0]
    assert np.allclose(out[:2], np.minimum(first[:2], q))
    assert np.allclose(out[2:], first[2:])
    # the networks disagree on the first crop: neither card is likely any more
    assert out[0, 1:].max() < 0.01


def test_crops_left_to_the_first_network_could_not_reach_the_second_look() -> None:
    """Below SECOND_FROM a crop's card stays below AGAIN_FROM (the lowest probability any rule
    starts from), so asking the second network there would not make it read."""
    lowest = min(indices.Acceptance().values())
    assert indices.SECOND_FROM <= indices.AGAIN_FROM <= lowest


@pytest.mark.parametrize("agree", [True, False])
def test_a_crop_is_read_only_when_both_networks_find_the_card(agree: bool) -> None:
    reader = IndexReader(second=None, third=None)
    crops = np.full((1, CROP_H, CROP_W, 3), 255, np.uint8)
    reader.net = FixedNet(one_hot_logits("10D"))
    reader.second = FixedNet(one_hot_logits("10D" if agree else "QD"))
    decisions, _probs = reader.classify(crops, [0.95])
    assert decisions[0][0] == (CLASSES.index("10D") if agree else 0)


class ShapeNet(FixedNet):
    """A FixedNet that keeps the crops it was shown."""

    def __init__(self, logits: np.ndarray) -> None:
        super().__init__(logits)
        self.inputs: list[np.ndarray] = []

    def run(self, x: np.ndarray) -> np.ndarray:
        self.inputs.append(x)
        return super().run(x)


def test_a_third_network_sees_around_the_index_and_the_lowest_of_three_counts() -> None:
    """Rule DC: a third network, asked about the crops the second is, cuts its own crops from
    the work image at the candidate's quad grown CONTEXT times (``ink_pairs.widened``)."""
    from dealer_assist.vision.ink_pairs import candidate, crop, widened

    reader = IndexReader(second=None, third=None, third_context=indices.CONTEXT,
                         combine="lowest")
    reader.second = second = FixedNet(one_hot_logits("10D"))
    reader.third = third = ShapeNet(one_hot_logits("10D", strength=2.0))
    image = np.random.default_rng(0).integers(0, 256, (200, 200, 3), np.uint8)
    cands = [candidate(np.array([100, 90], np.float32), np.array([100, 110], np.float32))] * 2
    first = probs_of([("10D", 0.99), ("none", 1.0)])
    x = np.zeros((2, 3, CROP_H, CROP_W), np.float32)
    out = reader.second_opinion(x, first, (image, cands))
    assert second.seen == third.seen == 1
    grown = indices.normalise(crop(image, widened(cands[0], indices.CONTEXT))[None])
    assert np.array_equal(third.inputs[0], grown)
    weak = softmax(one_hot_logits("10D", strength=2.0)[None])[0]
    assert np.isclose(out[0, CLASSES.index("10D")], weak[CLASSES.index("10D")])
    assert np.allclose(out[1], first[1])
    # without the work image the network that sees around the index is not asked
    reader.second_opinion(x, first)
    assert third.seen == 1 and second.seen == 2


def test_the_shipped_reader_has_a_third_network_at_the_first_networks_crop() -> None:
    reader = IndexReader()
    assert reader.third is not None and reader.combine == "seed-mean"
    assert reader.contexts == (1.0, 1.0)
    assert IndexReader(third=None).third is None


def test_the_shipped_further_seeds_come_with_the_shipped_third_and_mean() -> None:
    """Rules DZ and EB: the recipe's third and fourth seeds (``models/index_cnn_d.onnx``,
    ``models/index_cnn_e.onnx``) are in the shipped mean; a reader without the shipped third
    network or the seed-mean has no further seeds."""
    assert [p.name for p in indices.shipped_seeds()] == ["index_cnn_d.onnx", "index_cnn_e.onnx"]
    assert len(IndexReader().more_seeds) == 2
    first = Path(indices.model_path("index_cnn", ".onnx"))
    for reader in (IndexReader(third=None), IndexReader(combine="lowest"),
                   IndexReader(third=first), IndexReader(more_seeds=[])):
        assert reader.more_seeds == []


@pytest.mark.parametrize("either", [False, True])
def test_with_either_the_third_network_can_stand_in_for_the_second(either: bool) -> None:
    """Rule DD: min(first, max(second, third)); by default the lowest of the three."""
    from dealer_assist.vision.ink_pairs import candidate

    reader = IndexReader(second=None, third=None, third_context=indices.CONTEXT,
                         combine="either" if either else "lowest")
    reader.second = FixedNet(one_hot_logits("QD"))
    reader.third = FixedNet(one_hot_logits("10D"))
    image = np.full((100, 100, 3), 200, np.uint8)
    cands = [candidate(np.array([50, 40], np.float32), np.array([50, 60], np.float32))]
    first = probs_of([("10D", 0.99)])
    out = reader.second_opinion(np.zeros((1, 3, CROP_H, CROP_W), np.float32), first,
                                (image, cands))
    ten = CLASSES.index("10D")
    assert (out[0, ten] == first[0, ten]) == either
    assert out[0, 1:].max() < (1 if either else 0.01)


def test_with_the_mean_one_network_doubts_but_does_not_veto() -> None:
    """Rule DE: the mean of the two networks' probabilities, a distribution again; a card both
    find likely stays likely, and one the second network doubts drops to half way."""
    reader = IndexReader(second=None, third=None, combine="mean")
    reader.second = second = FixedNet(np.log(np.maximum(probs_of([("10D", 0.9)])[0], 1e-30)))
    first = probs_of([("10D", 0.99), ("QD", 0.99), ("7S", 0.3)])
    out = reader.second_opinion(np.zeros((3, 3, CROP_H, CROP_W), np.float32), first)
    assert second.seen == 2  # not the crop under SECOND_FROM
    ten, queen = CLASSES.index("10D"), CLASSES.index("QD")
    assert np.isclose(out[0, ten], (0.99 + 0.9) / 2)
    assert np.isclose(out[1, queen], 0.99 / 2) and np.isclose(out[1, ten], 0.9 / 2)
    assert np.allclose(out.sum(axis=1), 1) and np.allclose(out[2], first[2])
    # the lowest (the shipped reader's with two networks) would have vetoed the queen outright
    assert np.isclose(indices.combined(first, second=out, third=None, how="lowest")[1, queen],
                      min(0.99, out[1, queen]))


def test_with_seed_mean_the_first_and_third_are_one_opinion_the_second_vetoes() -> None:
    """Rule DS: min(mean(first, third), second); the third network on the first's crop."""
    reader = IndexReader(second=None, third=None)  # the shipped combination and context
    reader.second = FixedNet(np.log(np.maximum(probs_of([("10D", 0.9)])[0], 1e-30)))
    reader.third = third = ShapeNet(np.log(np.maximum(probs_of([("10D", 0.5)])[0], 1e-30)))
    first = probs_of([("10D", 0.99), ("10D", 0.3)])
    x = np.random.default_rng(1).random((2, 3, CROP_H, CROP_W)).astype(np.float32)
    out = reader.second_opinion(x, first)  # no work image needed at the plain crop
    ten = CLASSES.index("10D")
    assert third.seen == 1 and np.array_equal(third.inputs[0], x[:1])
    assert np.isclose(out[0, ten], (0.99 + 0.5) / 2)  # the seeds' mean, under the second's 0.9
    assert np.allclose(out[1], first[1])  # under SECOND_FROM: the first network's alone
    reader.second = FixedNet(np.log(np.maximum(probs_of([("10D", 0.6)])[0], 1e-30)))
    assert np.isclose(reader.second_opinion(x, first)[0, ten], 0.6)  # the second's veto
    reader.third = None  # without a third network: the lower of the first two, as before
    assert np.isclose(reader.second_opinion(x, first)[0, ten], 0.6)
    reader.second = FixedNet(np.log(np.maximum(probs_of([("10D", 0.995)])[0], 1e-30)))
    assert np.isclose(reader.second_opinion(x, first)[0, ten], 0.99)


def test_more_seeds_are_averaged_with_the_first_and_third() -> None:
    """Rule DU: min(mean(first, third, *more seeds), second), each seed shown the first's
    crop; more seeds with another combination are refused."""
    reader = IndexReader(second=None, third=None)
    reader.second = FixedNet(np.log(np.maximum(probs_of([("10D", 0.9)])[0], 1e-30)))
    reader.third = FixedNet(np.log(np.maximum(probs_of([("10D", 0.6)])[0], 1e-30)))
    reader.more_seeds = [ShapeNet(np.log(np.maximum(probs_of([("10D", 0.3)])[0], 1e-30)))]
    first = probs_of([("10D", 0.99), ("10D", 0.3)])
    x = np.random.default_rng(2).random((2, 3, CROP_H, CROP_W)).astype(np.float32)
    out = reader.second_opinion(x, first)
    ten = CLASSES.index("10D")
    assert np.array_equal(reader.more_seeds[0].inputs[0], x[:1])
    assert np.isclose(out[0, ten], (0.99 + 0.6 + 0.3) / 3) and np.allclose(out[1], first[1])
    with pytest.raises(ValueError, match="seed-mean"):
        IndexReader(second=None, combine="lowest", more_seeds=[Path("any.onnx")])


def test_a_mean_averages_every_network_further_seeds_too() -> None:
    """Rule ED's candidate: ``combine="mean"`` with further seeds is the plain mean of all the
    networks' probabilities, the second's a voice among them rather than a veto."""
    reader = IndexReader(second=None, third=None, combine="mean")
    reader.second = FixedNet(np.log(np.maximum(probs_of([("10D", 0.2)])[0], 1e-30)))
    reader.third = FixedNet(np.log(np.maximum(probs_of([("10D", 0.9)])[0], 1e-30)))
    reader.more_seeds = [ShapeNet(np.log(np.maximum(probs_of([("10D", 0.8)])[0], 1e-30)))]
    first = probs_of([("10D", 0.9)])
    x = np.random.default_rng(3).random((1, 3, CROP_H, CROP_W)).astype(np.float32)
    out = reader.second_opinion(x, first)
    assert np.isclose(out[0, CLASSES.index("10D")], (0.9 + 0.2 + 0.9 + 0.8) / 4)


def test_second_seeds_are_one_veto_their_mean() -> None:
    """Rule EY's candidate: the second network's seeds asked as one network (SeedMean), whose
    opinion is their mean softmax, and that mean vetoes the first network's seeds' mean."""
    low = FixedNet(np.log(np.maximum(probs_of([("10D", 0.5)])[0], 1e-30)))
    high = FixedNet(np.log(np.maximum(probs_of([("10D", 0.9)])[0], 1e-30)))
    x = np.random.default_rng(4).random((2, 3, CROP_H, CROP_W)).astype(np.float32)
    mean = indices.opinion(indices.SeedMean([low, high]), x)
    ten = CLASSES.index("10D")
    assert np.allclose(mean[:, ten], 0.7) and np.allclose(mean.sum(axis=1), 1)
    reader = IndexReader(second=None, third=None)
    reader.second = indices.SeedMean([low, high])
    first = probs_of([("10D", 0.99), ("10D", 0.99)])
    assert np.allclose(reader.second_opinion(x, first)[:, ten], 0.7)  # their mean vetoes
    with pytest.raises(ValueError, match="second network"):
        IndexReader(second=None, second_seeds=[Path("any.onnx")])


def test_the_shipped_second_network_with_itself_as_a_seed_reads_as_shipped() -> None:
    """A seed mean of one network and a copy of it is that network: the reader reads the same."""
    item = next(iter(synthetic_items("drawn-fans", 1, 5)))
    shipped, doubled = IndexReader(), IndexReader(
        second_seeds=[indices.model_path(indices.SECOND_MODEL, ".onnx")])
    assert isinstance(doubled.second, indices.SeedMean)

    def cards(reader: IndexReader) -> list[tuple[str, float]]:
        return sorted((str(r.card), round(r.prob, 5)) for r in reader.read(item.frame))

    assert cards(shipped) and cards(doubled) == cards(shipped)


def test_an_unknown_combination_is_refused() -> None:
    with pytest.raises(ValueError, match="combine"):
        IndexReader(second=None, combine="max")


@pytest.mark.skipif(not decks.held_out_decks(), reason="no SVG deck installed")
def test_sharp_mean_reads_sharp_frames_as_the_mean_and_blurred_ones_as_shipped() -> None:
    """Rule EK's candidate: a frame read unsharpened is read as the plain mean of every network
    at the scaled thresholds (rule EJ's reader); a blurred one as the shipped reader reads it."""
    import cv2

    from dealer_assist.vision.exposure import blurred

    item = next(iter(synthetic_items("heldout", 1, 20261124)))
    sharp = item.frame
    soft = cv2.GaussianBlur(sharp, (0, 0), 2.5)
    assert not blurred(sharp) and blurred(soft)
    seeds = indices.shipped_seeds()
    ek = IndexReader(sharp_mean=0.7895)
    ej = IndexReader(combine="mean", more_seeds=seeds,
                     acceptance=indices.Acceptance().scaled(0.7895))
    shipped = IndexReader()

    def cards(reader: IndexReader, frame: np.ndarray) -> list[tuple[str, float]]:
        return sorted((str(r.card), round(r.prob, 6)) for r in reader.read(frame))

    assert cards(ek, sharp) == cards(ej, sharp)
    assert cards(ek, soft) == cards(shipped, soft)
    assert (ek.combine, ek.acceptance) == (shipped.combine, shipped.acceptance)  # restored
