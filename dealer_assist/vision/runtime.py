"""The shipped networks (``models/*.onnx``) run by ONNX Runtime on the CPU.

One thread, which never waits by spinning: the networks are small, the camera reader runs on one
core beside the GUI, and ONNX Runtime runs them about three times faster than OpenCV's ``cv2.dnn``
(measured on one core: the index detector 3 against 9 ms a 640×480 frame, the index network 1.8
against 6 ms for 60 crops; outputs agree to 1e-5). ONNX Runtime also runs the second index
network's int8 copy (quantize-dequantize nodes) in about half its float time, where its fused
int8 kernels are exact; on AVX2 CPUs without VNNI they saturate, and a network then runs on
ONNX Runtime's slower u8u8 kernels (which do not saturate) or, if they too differ from the
file's arithmetic, its nodes unfused (forty-sixth and forty-seventh steps; :class:`OnnxNet`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

# the index network's second output, the input of its last fully connected layer: the embedding
# deck adaptation compares (vision/adapt.py; added by scripts/build_index_model.py)
FEATURES = "features"


# the largest difference of an output (logits) between ONNX Runtime's fused int8 kernels and the
# quantize-dequantize arithmetic they stand for that is taken as the same (issue 16, forty-sixth
# step: on an AVX2 CPU without VNNI the fused kernels' int16 sums saturate, and the shipped int8
# networks then named another card than their own arithmetic on 7 % and 13 % of real crops)
EXACT_TOLERANCE = 0.05


# how a session runs a network's quantize-dequantize nodes, fastest first: fused into ONNX
# Runtime's int8 kernels (u8s8: their int16 pair sums saturate on x86 CPUs without VNNI), fused
# into its u8u8 kernels (``session.x64quantprecision``: slower, and do not saturate), unfused
# (each node as written: the reference, the slowest)
KERNELS = ("fused", "u8u8", "unfused")


def _session(path: Path | str, kernels: str):
    """An ONNX Runtime session on one thread that never spins, running quantize-dequantize
    nodes as ``kernels`` (one of KERNELS) says."""
    # imported here: the training scripts use this package's geometry in a torch venv that
    # need not have ONNX Runtime until a network is run
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    if kernels == "u8u8":
        options.add_session_config_entry("session.x64quantprecision", "1")
    elif kernels == "unfused":
        options.add_session_config_entry("session.disable_quant_qdq", "1")
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def probe_input(session) -> np.ndarray:
    """A seeded input of the session's input shape (a free batch size 8, other free sizes 32)."""
    dims = [d if isinstance(d, int) and d > 0 else (8 if i == 0 else 32)
            for i, d in enumerate(session.get_inputs()[0].shape)]
    return np.random.default_rng(0).uniform(-1, 1, dims).astype(np.float32)


class OnnxNet:
    """A network with one input: :meth:`run` maps an input array to its first output,
    :meth:`run_outputs` to the outputs it names (``outputs``: the names it has, in order).

    It runs on the fastest KERNELS that compute what the file says on a probe input (within
    EXACT_TOLERANCE of the unfused nodes): ``kernels`` says which; a float network's are
    "fused" (it has nothing to fuse)."""

    def __init__(self, path: Path | str) -> None:
        reference = _session(path, "unfused")
        self.input = reference.get_inputs()[0].name
        self.outputs = [o.name for o in reference.get_outputs()]
        x = probe_input(reference)
        want = reference.run(self.outputs[:1], {self.input: x})[0]
        self.kernels, self.session = "unfused", reference
        for kernels in KERNELS[:-1]:
            session = _session(path, kernels)
            got = session.run(self.outputs[:1], {self.input: x})[0]
            if np.abs(got - want).max() <= EXACT_TOLERANCE:
                self.kernels, self.session = kernels, session
                break

    def run(self, x: np.ndarray) -> np.ndarray:
        return self.session.run(self.outputs[:1], {self.input: x})[0]

    def run_outputs(self, x: np.ndarray, names: list[str]) -> list[np.ndarray]:
        return self.session.run(names, {self.input: x})


def paper_and_ink(session, n: int = 64, seed: int = 7) -> np.ndarray:
    """A seeded batch of ``n`` inputs of the session's shape, as crops are: bright paper (1) with
    dark ink (-1) on a fifth of the values, the extremes a calibration may leave out."""
    dims = [n, *(d if isinstance(d, int) and d > 0 else 32
                 for d in session.get_inputs()[0].shape[1:])]
    return np.where(np.random.default_rng(seed).random(dims) < 0.8, 1.0, -1.0).astype(np.float32)


def as_written(path: Path | str):
    """A session that runs the file's arithmetic as written, no graph optimisation at all: the
    reference the kernels are judged by."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def deviation(path: Path | str) -> float:
    """How far the kernels :class:`OnnxNet` runs ``path`` on are from the file as written
    (:func:`as_written`): the largest difference of its first output on :func:`paper_and_ink`
    inputs (at most EXACT_TOLERANCE: the same network)."""
    written = as_written(path)
    net = OnnxNet(path)
    x = paper_and_ink(written)
    want = written.run(net.outputs[:1], {net.input: x})[0]
    return float(np.abs(net.run(x) - want).max())


def load_error(path: Path | str) -> str | None:
    """Why ONNX Runtime cannot load the network ``path`` (a short message), or None if it can."""
    from onnxruntime.capi import onnxruntime_pybind11_state as ort_state

    try:
        OnnxNet(path)
    except (ort_state.Fail, ort_state.InvalidArgument, ort_state.InvalidGraph,
            ort_state.InvalidProtobuf, ort_state.NoModel, ort_state.NoSuchFile) as error:
        return str(error).splitlines()[0]
    return None
