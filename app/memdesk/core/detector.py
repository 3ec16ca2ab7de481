"""The learned half of the suspicious-text check: a linear model over the features of
``detector_features``, trained by scripts/train_detector.py (see the manifest beside the
weights for its data and figures).

Pure Python: the weights are a dictionary from feature to a small integer, and a score is
their sum over the text's features, scaled by the text's length, through a logistic. A word's
n-grams add up to the same sum wherever it stands, so each distinct word is summed once and
remembered. The weights load on the first score, never at import, so starting ``memdesk
prompt`` or ``memdesk mcp`` costs nothing. A missing or damaged file turns the model off and
the rules decide alone; ``status()`` says why, for the window and ``memdesk review list``.
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
from bisect import bisect_left
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from itertools import compress, pairwise, repeat
from pathlib import Path

from memdesk.core.detector_features import SKIP_MARK, WORD_MARK, length_norm, word_grams, words
from memdesk.resources import resources_root

MAGIC = b"memdesk-detector 1\n"
WEIGHTS_NAME = "weights.bin"
# Points at another weights file (a rebuilt one, or none: tests of the fallback).
PATH_VARIABLE = "MEMDESK_DETECTOR_WEIGHTS"
# Longer texts are scored in windows of this many words and judged by the worst one, so an
# order buried in a long document is not diluted by the rest of it.
WINDOW = 200
_OVERLAP = 40
# The reason a person reads quotes the phrase of at most this many words that weighed most.
PHRASE_WORDS = 6
# Words remembered with their summed weights; past this many the memory starts again, so a
# long-running server's memory stays bounded whatever it reads.
_REMEMBERED_WORDS = 100_000
_WORD = re.compile(r"\S+")  # a word as ``str.split`` finds it, with where it is


class _WordWeights(dict[str, int]):
    """Each word's summed n-gram weights, worked out the first time the word is seen."""

    def __init__(self, weights: dict[str, int]) -> None:
        super().__init__()
        self._weights = weights

    def __missing__(self, word: str) -> int:
        if len(self) >= _REMEMBERED_WORDS:
            self.clear()
        value = sum(map(self._weights.get, word_grams(word), repeat(0)))
        self[word] = value
        return value


@dataclass(frozen=True)
class Phrase:
    """Where the words that weighed most are, as offsets into the text the model read."""

    start: int
    end: int
    # In a text longer than a window, the worst window: its first and last word, counted from
    # 1, and the text's words in all.
    window: tuple[int, int, int] | None


@dataclass(frozen=True)
class Model:
    weights: dict[str, int]
    scale: float  # a stored integer times scale is the feature's weight
    bias: float
    threshold: float  # a score at or above it flags the text
    _word_weights: _WordWeights = field(init=False, repr=False, compare=False)
    # The weights of pairs of neighbouring words and of words one apart, keyed by the two words
    # (no string to build per pair).
    _pair_weights: dict[tuple[str, str], int] = field(init=False, repr=False, compare=False)
    _skip_weights: dict[tuple[str, str], int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pairs, skips = {}, {}
        for name, value in self.weights.items():
            if name.startswith((WORD_MARK, SKIP_MARK)):
                first, _space, second = name[1:].partition(" ")
                (pairs if name[0] == WORD_MARK else skips)[first, second] = value
        # A frozen dataclass sets its derived fields this way.
        object.__setattr__(self, "_word_weights", _WordWeights(self.weights))
        object.__setattr__(self, "_pair_weights", pairs)
        object.__setattr__(self, "_skip_weights", skips)

    def score(self, read: str, pieces: Collection[str] = ()) -> float:
        """How much ``read`` (the text as the model reads it: ``model_text``) reads like an order
        to an assistant, 0–1; ``pieces`` are what was blanked out of it (``blanked_pieces``).
        A text longer than a window is judged by its windows of words alone."""
        found = words(read)
        if _one_window(found):
            return self._score(found, pairwise(found), zip(found, found[2:], strict=False), pieces)
        return max(self._window_scores(found))

    def _window_scores(self, found: list[str]) -> list[float]:
        """The score of each window of a long text's words, in order. In a window each word and
        pair counts once: honest text repeated around an order must not outweigh it."""
        # Each pair's weight is looked up once for the whole text (a word is in one or two
        # windows), and a window sums those of its distinct pairs that weigh anything: found
        # among the few pairs that do (about one in five of prose's), not among all of them.
        pairs = _Weighing(found, 1, self._pair_weights)
        skips = _Weighing(found, 2, self._skip_weights)
        scores = []
        for start in _window_starts(len(found)):
            stop = start + WINDOW
            window = set(found[start:stop])
            total = sum(map(self._word_weights.__getitem__, window))
            total += pairs.distinct_sum(start, stop - 1) + skips.distinct_sum(start, stop - 2)
            scores.append(self._probability(total, window))
        return scores

    def _score(
        self,
        found: Collection[str],
        pairs: Iterable[tuple[str, str]],
        skips: Iterable[tuple[str, str]],
        pieces: Collection[str],
    ) -> float:
        if not found and not pieces:
            return 0.0
        total = sum(map(self._word_weights.__getitem__, found))
        total += sum(map(self._pair_weights.get, pairs, repeat(0)))
        total += sum(map(self._skip_weights.get, skips, repeat(0)))
        if pieces:
            total += sum(map(self.weights.get, pieces, repeat(0)))
        return self._probability(total, found)

    def _probability(self, total: int, found: Collection[str]) -> float:
        """The score of a text whose features' weights sum to ``total``; ``found``: its words."""
        logit = self.bias + self.scale * total / length_norm(found)
        return 1.0 / (1.0 + math.exp(-max(min(logit, 60.0), -60.0)))

    def weightiest_phrase(self, read: str) -> Phrase | None:
        """The run of up to ``PHRASE_WORDS`` neighbouring words of ``read`` (the text as the model
        reads it) that pushed the score up most; in a long text, within its worst window."""
        located = list(_WORD.finditer(read))
        found = [word.group(0) for word in located]
        window = None
        if len(located) > WINDOW:
            total = len(found)
            starts = _window_starts(total)
            scores = self._window_scores(found)
            worst = starts[scores.index(max(scores))]
            located, found = located[worst : worst + WINDOW], found[worst : worst + WINDOW]
            window = (worst + 1, worst + len(found), total)
        values = [float(self._word_weights[word]) for word in found]
        # Half of each pair's weight goes to each of its words.
        for apart, weights in ((1, self._pair_weights), (2, self._skip_weights)):
            for at, value in enumerate(map(weights.get, zip(found, found[apart:], strict=False), repeat(0))):
                values[at] += value / 2
                values[at + apart] += value / 2
        best, first, last = 0.0, -1, -1
        for start in range(len(values)):
            total = 0.0
            for end in range(start, min(start + PHRASE_WORDS, len(values))):
                total += values[end]
                if total > best:
                    best, first, last = total, start, end
        if first < 0:
            return None
        return Phrase(located[first].start(), located[last].end(), window)


def reads_pieces(read: str) -> bool:
    """Whether ``Model.score`` reads what was blanked out of ``read`` (``blanked_pieces``): a text
    longer than a window is judged by its windows of words alone, so its pieces need not be
    worked out."""
    # A word and the whitespace after it take two characters at least: a text this short holds
    # no more than a window of words, and is not split to count them. A longer one is split no
    # further than one word past a window (``words`` is ``str.split``).
    return len(read) <= 2 * WINDOW or len(read.split(maxsplit=WINDOW)) <= WINDOW


class _Weighing:
    """The pairs of a text's words ``apart`` words apart (1: neighbours) that weigh anything in
    ``weights``: where each starts, the pair and its weight, in order."""

    def __init__(self, found: list[str], apart: int, weights: dict[tuple[str, str], int]) -> None:
        values = list(map(weights.get, zip(found, found[apart:], strict=False), repeat(0)))
        self.starts = list(compress(range(len(values)), values))
        self.pairs = [(found[at], found[at + apart]) for at in self.starts]
        self.values = list(compress(values, values))

    def distinct_sum(self, begin: int, end: int) -> int:
        """The weights of the pairs that start in ``begin`` … ``end`` - 1, each pair counted once."""
        first, last = bisect_left(self.starts, begin), bisect_left(self.starts, end)
        return sum(dict(zip(self.pairs[first:last], self.values[first:last], strict=True)).values())


def _one_window(found: list[str]) -> bool:
    return len(found) <= WINDOW


def _window_starts(count: int) -> list[int]:
    """Where each window of ``count`` words starts: windows overlap by ``_OVERLAP`` words, so an
    order shorter than that always lies whole in one of them."""
    step = WINDOW - _OVERLAP
    return list(range(0, max(count - _OVERLAP, 1), step))


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
    """ "" when the model is on; otherwise one sentence saying it is off and why."""
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
