"""The learned half of the suspicious-text check: a linear model over the features of
``detector_features``, trained by scripts/train_detector.py (see the manifest beside the
weights for its data and figures).

Pure Python: the weights are a dictionary from feature to a small integer, and a score is
their sum over the text's features, scaled by the number of features, through a logistic.
The weights load on the first score, never at import, so starting ``memdesk prompt`` or
``memdesk mcp`` costs nothing. A missing or damaged file turns the model off and the rules
decide alone; ``status()`` says why, for the window and ``memdesk review list``.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import threading
import zlib
from array import array
from dataclasses import dataclass
from itertools import pairwise, repeat
from pathlib import Path

from memdesk.core.detector_features import CHAR_SIZES, WORD_MARK, WORDS, features, folded
from memdesk.resources import resources_root

MAGIC = b"memdesk-detector 1\n"
WEIGHTS_NAME = "weights.bin"
# Points at another weights file (a rebuilt one, or none: tests of the fallback).
PATH_VARIABLE = "MEMDESK_DETECTOR_WEIGHTS"
# Longer texts are scored in windows and judged by the worst one, so an order buried in a long
# document is not diluted by the rest of it.
WINDOW = 1200
_OVERLAP = 240
_MARKED_WORDS = 4
# Chinese and Japanese have no spaces between words: their characters are weighed in pairs.
_TOKENS = r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]{1,2}|[^\W_]+"


@dataclass(frozen=True)
class Model:
    weights: dict[str, int]
    scale: float  # a stored integer times scale is the feature's weight
    bias: float
    threshold: float  # a score at or above it flags the text

    def score(self, lowered: str) -> float:
        """How much ``lowered`` (normalised, lower-cased) reads like an order to an assistant, 0–1."""
        if len(lowered) <= WINDOW:
            return self._score(lowered)
        return max(self._score(lowered[start : start + WINDOW]) for start in _window_starts(lowered))

    def _score(self, lowered: str) -> float:
        found = features(lowered)
        if not found:
            return 0.0
        total = sum(map(self.weights.get, found, repeat(0)))
        logit = self.bias + self.scale * total / math.sqrt(len(found))
        return 1.0 / (1.0 + math.exp(-max(min(logit, 60.0), -60.0)))

    def weighty_spans(self, lowered: str) -> list[tuple[int, int]]:
        """Where the words that pushed the score up most are, as (start, end) into ``lowered``;
        in a long text, those of its worst window."""
        if len(lowered) <= WINDOW:
            return self._spans(lowered)
        worst = max(_window_starts(lowered), key=lambda start: self._score(lowered[start : start + WINDOW]))
        return [(worst + start, worst + end) for start, end in self._spans(lowered[worst : worst + WINDOW])]

    def _spans(self, lowered: str) -> list[tuple[int, int]]:
        text = folded(lowered)
        weight = [0.0] * len(text)
        padded = f" {text} "
        for size in CHAR_SIZES:
            for at in range(len(padded) - size + 1):
                value = self.weights.get(padded[at : at + size], 0)
                if value:
                    # The padding space before the text shifts offsets by one.
                    for char in range(max(at - 1, 0), min(at - 1 + size, len(text))):
                        weight[char] += value / size
        words = list(WORDS.finditer(text))
        for first, second in pairwise(words):
            value = self.weights.get(f"{WORD_MARK}{first.group(0)} {second.group(0)}", 0)
            if value:
                span = range(first.start(), second.end())
                for char in span:
                    weight[char] += value / len(span)
        tokens = [(sum(weight[t.start() : t.end()]), t.start(), t.end()) for t in re.finditer(_TOKENS, text)]
        best = sorted((token for token in tokens if token[0] > 0), reverse=True)[:_MARKED_WORDS]
        return sorted((start, end) for _value, start, end in best)


def _window_starts(lowered: str) -> list[int]:
    """Where each window starts: windows overlap by ``_OVERLAP``, so an order shorter than that
    always lies whole in one of them."""
    step = WINDOW - _OVERLAP
    return list(range(0, max(len(lowered) - _OVERLAP, 1), step))


def encode(model: Model) -> bytes:
    """The weights file's bytes (deterministic: the same model gives the same bytes)."""
    grams = sorted(model.weights)
    values = array("h", (model.weights[gram] for gram in grams))
    if sys.byteorder != "little":
        values.byteswap()
    names = "\n".join(grams).encode("utf-8")
    header = {
        "scale": model.scale,
        "bias": model.bias,
        "threshold": model.threshold,
        "count": len(grams),
        "names_bytes": len(names),
    }
    body = MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + names + values.tobytes()
    return zlib.compress(body, 9)


def decode(data: bytes) -> Model:
    """The model in a weights file; ValueError saying what is wrong when it is not one."""
    try:
        body = zlib.decompress(data)
    except zlib.error as error:
        raise ValueError(f"not a compressed weights file ({error})") from None
    if not body.startswith(MAGIC):
        raise ValueError("not a Memdesk detector weights file")
    line_end = body.find(b"\n", len(MAGIC))
    try:
        header = json.loads(body[len(MAGIC) : line_end])
        count, names_bytes = int(header["count"]), int(header["names_bytes"])
        scale, bias, threshold = float(header["scale"]), float(header["bias"]), float(header["threshold"])
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(f"its header is damaged ({error})") from None
    names_end = line_end + 1 + names_bytes
    values = array("h")
    values.frombytes(body[names_end:] if (len(body) - names_end) % 2 == 0 else b"")
    if sys.byteorder != "little":
        values.byteswap()
    names = body[line_end + 1 : names_end].decode("utf-8", "replace").split("\n")
    if count == 0 or len(names) != count or len(values) != count:
        raise ValueError(f"it should hold {count} weights but holds {len(values)}")
    return Model(dict(zip(names, values, strict=True)), scale, bias, threshold)


def weights_path() -> Path:
    override = os.environ.get(PATH_VARIABLE)
    if override:
        return Path(override)
    return resources_root() / "detector" / WEIGHTS_NAME


_lock = threading.Lock()
_loaded: tuple[Model | None, str] | None = None


def model() -> Model | None:
    """The model, loaded on first use; None when it is off (``status()`` says why)."""
    global _loaded
    if _loaded is None:
        with _lock:
            if _loaded is None:
                _loaded = _load(weights_path())
    return _loaded[0]


def status() -> str:
    """"" when the model is on; otherwise one sentence saying it is off and why."""
    model()
    assert _loaded is not None
    return _loaded[1]


def reload() -> None:
    """Forget the loaded model, so the next use reads the weights file again."""
    global _loaded
    with _lock:
        _loaded = None


def _load(path: Path) -> tuple[Model | None, str]:
    off = "The learned detector is off, so rules alone decide which writes wait"
    try:
        data = path.read_bytes()
    except OSError as error:
        return None, f"{off}: its weights file {path} cannot be read ({error.strerror or error})."
    try:
        return decode(data), ""
    except ValueError as error:
        return None, f"{off}: its weights file {path} is damaged: {error}."
