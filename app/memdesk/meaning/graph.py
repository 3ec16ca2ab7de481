"""Run a TensorFlow.js graph model (``model.json`` and its weight shards) with numpy.

Only the operations the sentence encoder's graph uses are implemented; a graph needing
another one fails to load with a clear error instead of giving wrong vectors.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

Array = np.ndarray
Node = dict[str, Any]

_DTYPES = {1: np.float32, 3: np.int32, 9: np.int64, 10: np.bool_}  # TensorFlow's DataType enum
_WEIGHT_DTYPES = {"float32": np.float32, "int32": np.int32}


class GraphError(Exception):
    """The model files are missing, damaged or use an operation this runner lacks."""


def _attr(node: Node, key: str, default: Any = None) -> Any:
    value = node.get("attr", {}).get(key)
    if value is None:
        return default
    if "i" in value:
        return int(value["i"])
    if "b" in value:
        return bool(value["b"])
    if "list" in value:
        return [int(item) for item in value["list"].get("i", [])]
    if "type" in value:
        return int(value["type"])
    return default


def _strided_slice(node: Node, x: Array, begin: Array, end: Array, strides: Array) -> Array:
    if _attr(node, "ellipsis_mask", 0) or _attr(node, "new_axis_mask", 0):
        raise GraphError(f"{node['name']}: ellipsis and new-axis masks are not supported")
    begin_mask, end_mask = _attr(node, "begin_mask", 0), _attr(node, "end_mask", 0)
    shrink = _attr(node, "shrink_axis_mask", 0)
    index: list[int | slice] = []
    for axis in range(len(begin)):
        if shrink >> axis & 1:
            index.append(int(begin[axis]))
            continue
        start = None if begin_mask >> axis & 1 else int(begin[axis])
        stop = None if end_mask >> axis & 1 else int(end[axis])
        index.append(slice(start, stop, int(strides[axis])))
    return np.asarray(x[tuple(index)])


def _reduce(function: Callable[..., Array]) -> Callable[..., Array]:
    def reduce(node: Node, x: Array, axes: Array) -> Array:
        axis = tuple(int(a) for a in np.ravel(axes))
        return np.asarray(function(x, axis=axis, keepdims=_attr(node, "keep_dims", False)), dtype=x.dtype)

    return reduce


def _scatter_nd(node: Node, indices: Array, updates: Array, shape: Array) -> Array:
    out = np.zeros(tuple(int(s) for s in shape), dtype=updates.dtype)
    out[tuple(np.moveaxis(indices, -1, 0))] = updates
    return out


def _sparse_to_dense(node: Node, indices: Array, shape: Array, values: Array, default: Array) -> Array:
    out = np.full(tuple(int(s) for s in shape), default, dtype=values.dtype)
    out[tuple(indices.T)] = values
    return out


def _matmul(node: Node, a: Array, b: Array) -> Array:
    if _attr(node, "transpose_a", False) or _attr(node, "adj_x", False):
        a = np.swapaxes(a, -1, -2)
    if _attr(node, "transpose_b", False) or _attr(node, "adj_y", False):
        b = np.swapaxes(b, -1, -2)
    return a @ b


def _pointwise_conv(node: Node, x: Array, kernel: Array) -> Array:
    # The encoder's 2-D convolutions are 1x1 with stride 1: a matrix product on the last axis.
    if kernel.shape[:2] != (1, 1) or _attr(node, "strides", [1, 1, 1, 1]) != [1, 1, 1, 1]:
        raise GraphError(f"{node['name']}: only 1x1 convolutions with stride 1 are supported")
    return x @ kernel[0, 0]


def _softmax(node: Node, x: Array) -> Array:
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def _split(node: Node, x: Array, sizes: Array, axis: Array) -> tuple[Array, ...]:
    return tuple(np.split(x, np.cumsum([int(s) for s in sizes])[:-1], axis=int(axis)))


_OPS: dict[str, Callable[..., Any]] = {
    "Add": lambda n, a, b: a + b,
    "BiasAdd": lambda n, a, b: a + b,
    "Sub": lambda n, a, b: a - b,
    "Mul": lambda n, a, b: a * b,
    "RealDiv": lambda n, a, b: a / b,
    "Maximum": lambda n, a, b: np.maximum(a, b),
    "Less": lambda n, a, b: a < b,
    "Greater": lambda n, a, b: a > b,
    "LogicalNot": lambda n, a: ~a,
    "Square": lambda n, a: a * a,
    "Rsqrt": lambda n, a: 1 / np.sqrt(a),
    "Relu": lambda n, a: np.maximum(a, 0),
    "Tanh": lambda n, a: np.tanh(a),
    "Sin": lambda n, a: np.sin(a),
    "Cos": lambda n, a: np.cos(a),
    "Cast": lambda n, a: a.astype(_DTYPES[_attr(n, "DstT")]),
    "Shape": lambda n, a: np.array(a.shape, dtype=np.int32),
    "Reshape": lambda n, a, shape: a.reshape([int(s) for s in np.ravel(shape)]),
    "ExpandDims": lambda n, a, axis: np.expand_dims(a, int(axis)),
    "Squeeze": lambda n, a: np.squeeze(a, axis=tuple(_attr(n, "squeeze_dims", []))),
    "Transpose": lambda n, a, perm: np.transpose(a, perm),
    "Pack": lambda n, *items: np.stack(items, axis=_attr(n, "axis", 0)),
    "ConcatV2": lambda n, *items: np.concatenate(items[:-1], axis=int(items[-1])),
    "StridedSlice": _strided_slice,
    "Slice": lambda n, a, begin, size: a[
        tuple(slice(int(b), None if s == -1 else int(b + s)) for b, s in zip(begin, size, strict=True))
    ],
    "GatherV2": lambda n, a, indices, axis: np.take(a, indices, axis=int(axis)),
    "GatherNd": lambda n, a, indices: a[tuple(np.moveaxis(indices, -1, 0))],
    "ScatterNd": _scatter_nd,
    "SparseToDense": _sparse_to_dense,
    "Where": lambda n, a: np.argwhere(a).astype(np.int64),
    "Mean": _reduce(np.mean),
    "Sum": _reduce(np.sum),
    "Max": _reduce(np.max),
    "Prod": _reduce(np.prod),
    "Range": lambda n, start, stop, step: np.arange(start, stop, step),
    "MatMul": _matmul,
    "BatchMatMul": _matmul,
    "Conv2D": _pointwise_conv,
    "Softmax": _softmax,
    "SplitV": _split,
}


class GraphModel:
    """A TensorFlow.js graph and its weights, run for one output by demand from it."""

    def __init__(self, folder: Path) -> None:
        try:
            model = json.loads((folder / "model.json").read_text(encoding="utf-8"))
            manifest = model["weightsManifest"][0]
            data = b"".join((folder / name).read_bytes() for name in manifest["paths"])
            self.nodes: dict[str, Node] = {node["name"]: node for node in model["modelTopology"]["node"]}
            self.output = model["modelTopology"]["node"][-1]["name"]
            self.constants = self._weights(manifest["weights"], data)
        except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
            raise GraphError(f"cannot read the model in {folder}: {error}") from error
        missing = {node["op"] for node in self.nodes.values()} - set(_OPS) - {"Const", "Placeholder"}
        if missing:
            raise GraphError(f"the model uses operations this runner lacks: {', '.join(sorted(missing))}")

    @staticmethod
    def _weights(specs: list[dict[str, Any]], data: bytes) -> dict[str, Array]:
        weights: dict[str, Array] = {}
        offset = 0
        for spec in specs:
            dtype = np.dtype(_WEIGHT_DTYPES[spec["dtype"]])
            count = int(np.prod(spec["shape"])) if spec["shape"] else 1
            weights[spec["name"]] = np.frombuffer(data, dtype, count, offset).reshape(spec["shape"])
            offset += dtype.itemsize * count
        if offset != len(data):
            raise ValueError(f"the weights hold {len(data)} bytes, the manifest names {offset}")
        return weights

    def run(self, inputs: dict[str, Array]) -> Array:
        values: dict[str, Any] = dict(inputs)
        order = self._order(inputs)
        for name in order:
            node = self.nodes[name]
            if node["op"] == "Const":
                values[name] = self.constants[name]
                continue
            arguments = [self._value(values, ref) for ref in node.get("input", []) if not ref.startswith("^")]
            values[name] = _OPS[node["op"]](node, *arguments)
        return values[self.output]

    @staticmethod
    def _value(values: dict[str, Any], ref: str) -> Any:
        name, _, port = ref.partition(":")
        value = values[name]
        return value[int(port or 0)] if isinstance(value, tuple) else value

    def _order(self, inputs: dict[str, Array]) -> list[str]:
        """The nodes the output needs, each after its inputs (depth first, without recursion)."""
        order: list[str] = []
        done: set[str] = set(inputs)
        stack: list[tuple[str, bool]] = [(self.output, False)]
        while stack:
            name, expanded = stack.pop()
            if name in done:
                continue
            if expanded:
                done.add(name)
                order.append(name)
                continue
            stack.append((name, True))
            for ref in self.nodes[name].get("input", []):
                parent = ref.lstrip("^").partition(":")[0]
                if parent not in done:
                    stack.append((parent, False))
        return order
