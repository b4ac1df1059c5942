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
from dealer_assist.vision.runtime import OnnxNet
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


def test_the_int8_copy_computes_what_the_float_network_does(render: Path, tmp_path: Path
                                                            ) -> None:
    float_network(tmp_path / "float.onnx")
    out = tmp_path / "int8.onnx"
    assert build.main(["quantize", "--data", str(render), "--model", str(tmp_path / "float.onnx"),
                       "--out", str(out)]) == 0
    ops = {node.op_type for node in onnx.load(out).graph.node}
    assert {"QuantizeLinear", "DequantizeLinear", "Conv"} <= ops
    x = normalise(crops(64, 9))
    a, b = OnnxNet(tmp_path / "float.onnx").run(x), OnnxNet(out).run(x)
    assert np.abs(a - b).max() <= 0.05 * np.abs(a).max()  # int8 rounding, not another network
    assert not out.with_suffix(".tmp.onnx").exists()


def test_the_same_files_give_the_same_bytes(render: Path, tmp_path: Path) -> None:
    float_network(tmp_path / "float.onnx")
    for name in ("one.onnx", "two.onnx"):
        build.main(["quantize", "--data", str(render), "--model", str(tmp_path / "float.onnx"),
                    "--out", str(tmp_path / name)])
    assert (tmp_path / "one.onnx").read_bytes() == (tmp_path / "two.onnx").read_bytes()


def test_it_calibrates_on_training_chunks_only(render: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The validation chunks (0 and 1) measure the network: they never set its ranges."""
    seen: list[Path] = []
    load = build.load_files
    monkeypatch.setattr(build, "load_files", lambda files: seen.extend(files) or load(files))
    float_network(tmp_path / "float.onnx")
    build.main(["quantize", "--data", str(render), "--model", str(tmp_path / "float.onnx"),
                "--out", str(tmp_path / "int8.onnx")])
    assert [p.name for p in seen] == ["chunk-0002.npz", "chunk-0003.npz", "chunk-0004.npz"]


@pytest.mark.parametrize("missing", ["model", "chunks"])
def test_without_a_model_or_training_chunks_it_is_refused(
        missing: str, tmp_path: Path, render: Path, capsys: pytest.CaptureFixture) -> None:
    float_network(tmp_path / "float.onnx")
    empty = tmp_path / "empty"
    empty.mkdir()
    model = tmp_path / ("none.onnx" if missing == "model" else "float.onnx")
    data = empty if missing == "chunks" else render
    with pytest.raises(SystemExit) as stop:
        build.main(["quantize", "--data", str(data), "--model", str(model),
                    "--out", str(tmp_path / "int8.onnx")])
    assert stop.value.code == 2
    assert ("--model" if missing == "model" else "no training chunks") in capsys.readouterr().err
    assert not (tmp_path / "int8.onnx").exists()


def test_the_shipped_second_network_is_an_int8_copy() -> None:
    """Rule AV (twenty-fifth step): the second network ships in int8, about half its float
    time; the first network gains nothing from it and ships in float."""
    second = {n.op_type for n in onnx.load(model_path("index_cnn_b", ".onnx")).graph.node}
    first = {n.op_type for n in onnx.load(model_path("index_cnn", ".onnx")).graph.node}
    assert "QuantizeLinear" in second and "QuantizeLinear" not in first


def test_a_file_that_is_no_onnx_network_is_refused(render: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "notes.onnx").write_text("not a network")
    with pytest.raises(SystemExit) as stop:
        build.main(["quantize", "--data", str(render), "--model", str(tmp_path / "notes.onnx"),
                    "--out", str(tmp_path / "int8.onnx")])
    assert stop.value.code == 2
    assert "not an ONNX network" in capsys.readouterr().err
    assert not (tmp_path / "int8.onnx").exists()
