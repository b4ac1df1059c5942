"""``scripts/build_index_model.py quantize``: the int8 copy of an index network (the shipped
second network is one, see docs/vision.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from dealer_assist.vision.indices import CLASSES, normalise
from dealer_assist.vision.ink_pairs import CROP_H, CROP_W
from dealer_assist.vision.model import model_path
from dealer_assist.vision.runtime import FEATURES, OnnxNet
from scripts import build_index_model as build


def float_network(path: Path) -> None:
    """A small float index network: a 3×3 convolution, ReLU, average pool and a dense layer to
    the 53 classes (random weights, seeded), with the shipped networks' input."""
    rng = np.random.default_rng(1)
    weights = [numpy_helper.from_array(rng.normal(0, 0.3, shape).astype(np.float32), name)
               for name, shape in (("w", (8, 3, 3, 3)), ("b", (8,)), ("d", (8, len(CLASSES))),
                                   ("e", (len(CLASSES),)))]
    nodes = [helper.make_node("Conv", ["crop", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("GlobalAveragePool", ["r"], ["p"]),
             helper.make_node("Flatten", ["p"], ["f"]),
             helper.make_node("Gemm", ["f", "d", "e"], ["logits"])]
    graph = helper.make_graph(
        nodes, "net", [helper.make_tensor_value_info("crop", TensorProto.FLOAT,
                                                     ["n", 3, CROP_H, CROP_W])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", len(CLASSES)])],
        weights)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def crops(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (n, CROP_H, CROP_W, 3), np.uint8)


@pytest.fixture
def render(tmp_path: Path) -> Path:
    """A render's folder: two validation chunks and three training chunks of crops."""
    data = tmp_path / "data"
    data.mkdir()
    for k in range(5):
        np.savez(data / f"chunk-{k:04d}.npz", x=crops(300, k), y=np.zeros(300, np.int16))
    return data


def quantize(data: Path, model: Path, out: Path) -> int:
    return build.main(["quantize", "--data", str(data), "--model", str(model), "--out", str(out)])


def refusal(data: Path, model: Path, out: Path, capsys: pytest.CaptureFixture) -> str:
    """What ``quantize`` says when it refuses (exit 2, no file written)."""
    with pytest.raises(SystemExit) as stop:
        quantize(data, model, out)
    assert stop.value.code == 2
    assert not out.exists()
    return capsys.readouterr().err


def test_the_int8_copy_computes_what_the_float_network_does(render: Path, tmp_path: Path
                                                            ) -> None:
    float_network(tmp_path / "float.onnx")
    out = tmp_path / "int8.onnx"
    assert quantize(render, tmp_path / "float.onnx", out) == 0
    ops = {node.op_type for node in onnx.load(out).graph.node}
    assert {"QuantizeLinear", "DequantizeLinear", "Conv"} <= ops
    x = normalise(crops(64, 9))
    a, b = OnnxNet(tmp_path / "float.onnx").run(x), OnnxNet(out).run(x)
    assert np.abs(a - b).max() <= 0.05 * np.abs(a).max()  # int8 rounding, not another network
    assert not out.with_suffix(".tmp.onnx").exists()


def test_a_copy_the_kernels_do_not_run_as_written_is_refused(
        render: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sixty-second step: PV1's int8 copy ran 0.16 off its own arithmetic; quantize says so
    (exit 1) and writes nothing, with the way out."""
    from dealer_assist.vision import runtime

    float_network(tmp_path / "float.onnx")
    monkeypatch.setattr(runtime, "deviation", lambda path: 0.16)
    out = tmp_path / "int8.onnx"
    with pytest.raises(SystemExit) as stop:
        quantize(render, tmp_path / "float.onnx", out)
    message = str(stop.value.code)
    assert "does not run this int8 copy as written" in message and "0.160" in message
    assert "try --reduce-range" in message
    assert not out.exists() and not out.with_suffix(".tmp.onnx").exists()


def test_reduce_range_quantizes_the_weights_to_seven_bits(render: Path, tmp_path: Path) -> None:
    float_network(tmp_path / "float.onnx")
    for name, args in (("eight.onnx", []), ("seven.onnx", ["--reduce-range"])):
        assert build.main(["quantize", "--data", str(render), "--model",
                           str(tmp_path / "float.onnx"), "--out", str(tmp_path / name),
                           *args]) == 0
    widest = {name: max(int(np.abs(numpy_helper.to_array(w).astype(np.int16)).max())
                        for w in onnx.load(tmp_path / name).graph.initializer
                        if w.data_type == TensorProto.INT8)
              for name in ("eight.onnx", "seven.onnx")}
    assert widest["eight.onnx"] > 64 >= widest["seven.onnx"]


def test_the_same_files_give_the_same_bytes(render: Path, tmp_path: Path) -> None:
    float_network(tmp_path / "float.onnx")
    for name in ("one.onnx", "two.onnx"):
        quantize(render, tmp_path / "float.onnx", tmp_path / name)
    assert (tmp_path / "one.onnx").read_bytes() == (tmp_path / "two.onnx").read_bytes()


def test_it_calibrates_on_training_chunks_only(render: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The validation chunks (0 and 1) measure the network: they never set its ranges."""
    seen: list[Path] = []
    load = build.load_files
    monkeypatch.setattr(build, "load_files", lambda files: seen.extend(files) or load(files))
    float_network(tmp_path / "float.onnx")
    quantize(render, tmp_path / "float.onnx", tmp_path / "int8.onnx")
    assert [p.name for p in seen] == ["chunk-0002.npz", "chunk-0003.npz", "chunk-0004.npz"]


@pytest.mark.parametrize("missing", ["model", "chunks"])
def test_without_a_model_or_training_chunks_it_is_refused(
        missing: str, tmp_path: Path, render: Path, capsys: pytest.CaptureFixture) -> None:
    float_network(tmp_path / "float.onnx")
    empty = tmp_path / "empty"
    empty.mkdir()
    model = tmp_path / ("none.onnx" if missing == "model" else "float.onnx")
    data = empty if missing == "chunks" else render
    err = refusal(data, model, tmp_path / "int8.onnx", capsys)
    assert ("--model" if missing == "model" else "no training chunks") in err


def test_the_shipped_networks_are_int8_copies_that_give_their_features() -> None:
    """Rule AV (twenty-fifth step): the second network ships in int8, about half its float
    time; rule CH (thirty-seventh step): the first too, at its float time, since it is wider;
    rule DS (fifty-first step): the third, the first's recipe; rule DZ (fifty-third step): the
    fourth, its third seed; rule EB (fifty-fourth): the fifth, its fourth seed. The first gives
    deck adaptation its embedding (vision/adapt.py)."""
    for name in ("index_cnn", "index_cnn_b", "index_cnn_c", "index_cnn_d",
                 "index_cnn_e"):
        assert "QuantizeLinear" in {n.op_type for n in onnx.load(model_path(name, ".onnx"))
                                    .graph.node}
    assert OnnxNet(model_path("index_cnn", ".onnx")).outputs == ["logits", FEATURES]


def test_the_features_are_the_input_of_the_last_layer_and_change_no_logit(tmp_path: Path
                                                                          ) -> None:
    path = tmp_path / "float.onnx"
    float_network(path)
    x = normalise(crops(16, 4))
    before = OnnxNet(path).run(x)
    build.with_features(path)
    build.with_features(path)  # a network that has them is left as it is
    net = OnnxNet(path)
    assert net.outputs == ["logits", FEATURES]
    logits, feats = net.run_outputs(x, net.outputs)
    assert np.array_equal(logits, before) and np.array_equal(net.run(x), before)
    weights = {w.name: numpy_helper.to_array(w) for w in onnx.load(path).graph.initializer}
    assert np.allclose(feats @ weights["d"] + weights["e"], logits, atol=1e-5)


def test_the_int8_copy_keeps_the_features(render: Path, tmp_path: Path) -> None:
    float_network(tmp_path / "float.onnx")
    build.with_features(tmp_path / "float.onnx")
    out = tmp_path / "int8.onnx"
    quantize(render, tmp_path / "float.onnx", out)
    x = normalise(crops(16, 5))
    a, b = OnnxNet(tmp_path / "float.onnx"), OnnxNet(out)
    assert b.outputs == ["logits", FEATURES]
    fa, fb = a.run_outputs(x, [FEATURES])[0], b.run_outputs(x, [FEATURES])[0]
    assert np.abs(fa - fb).max() <= 0.05 * np.abs(fa).max()


def test_a_file_that_is_no_onnx_network_is_refused(render: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "notes.onnx").write_text("not a network")
    assert "not an ONNX network" in refusal(render, tmp_path / "notes.onnx",
                                            tmp_path / "int8.onnx", capsys)


def test_a_network_without_a_dense_layer_is_refused(render: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture) -> None:
    """Its int8 copy could give deck adaptation no features."""
    graph = helper.make_graph(
        [helper.make_node("Relu", ["crop"], ["logits"])], "net",
        [helper.make_tensor_value_info("crop", TensorProto.FLOAT, ["n", 3, CROP_H, CROP_W])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", 3, CROP_H, CROP_W])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
              tmp_path / "relu.onnx")
    assert "no fully connected layer" in refusal(render, tmp_path / "relu.onnx",
                                                 tmp_path / "int8.onnx", capsys)
