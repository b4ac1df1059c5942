"""The shipped networks compute what their files say on every CPU (issue 16, forty-sixth step:
ONNX Runtime's fused int8 kernels saturate on AVX2 CPUs without VNNI; forty-seventh: its u8u8
kernels are tried before the unfused nodes)."""

from __future__ import annotations

import numpy as np
import pytest

from dealer_assist.vision import runtime
from dealer_assist.vision.ink_pairs import CROP_H, CROP_W
from dealer_assist.vision.model import model_path
from dealer_assist.vision.runtime import EXACT_TOLERANCE, KERNELS, OnnxNet, as_written


@pytest.mark.parametrize("name", [
    "index_cnn", "index_cnn_b", "index_cnn_c", "index_cnn_d", "index_cnn_e"])
def test_the_int8_networks_read_real_looking_crops_as_their_arithmetic_says(name: str) -> None:
    path = model_path(name, ".onnx")
    net, reference = OnnxNet(path), as_written(path)
    x = runtime.paper_and_ink(reference)  # not the probe's input: paper and ink, as crops are
    assert x.shape == (64, 3, CROP_H, CROP_W)
    got = net.run(x)
    want = reference.run([net.outputs[0]], {net.input: x})[0]
    assert np.abs(got - want).max() <= EXACT_TOLERANCE
    assert np.array_equal(got.argmax(axis=1), want.argmax(axis=1))
    assert runtime.deviation(path) == np.abs(got - want).max()


def test_a_float_network_keeps_its_fast_session() -> None:
    assert OnnxNet(model_path("index_det", ".onnx")).kernels == "fused"


class Off:
    """A session that runs as ``inner`` does, its first output off by ``by``."""

    def __init__(self, inner, by: float) -> None:
        self.inner, self.by = inner, by

    def get_inputs(self):
        return self.inner.get_inputs()

    def get_outputs(self):
        return self.inner.get_outputs()

    def run(self, names, feeds):
        first, *rest = self.inner.run(names, feeds)
        return [first + self.by, *rest]


@pytest.mark.parametrize(("off", "chosen"), [
    ({}, "fused"),
    ({"fused": 1.0}, "u8u8"),
    ({"fused": 1.0, "u8u8": 2 * EXACT_TOLERANCE}, "unfused"),
    ({"fused": 0.5 * EXACT_TOLERANCE, "u8u8": 1.0}, "fused"),
])
def test_a_network_runs_on_the_fastest_kernels_that_compute_its_file(
        monkeypatch: pytest.MonkeyPatch, off: dict[str, float], chosen: str) -> None:
    made = runtime._session

    def session(path, kernels: str):  # every kind as exact as the reference, bar ``off``
        return Off(made(path, "unfused"), off.get(kernels, 0.0))

    monkeypatch.setattr(runtime, "_session", session)
    path = model_path("index_cnn", ".onnx")
    net = OnnxNet(path)
    assert net.kernels == chosen and chosen in KERNELS
    x = np.zeros((2, 3, CROP_H, CROP_W), np.float32)
    want = made(path, "unfused").run(net.outputs[:1], {net.input: x})[0]
    assert np.allclose(net.run(x) - want, off.get(chosen, 0.0), atol=1e-6)
