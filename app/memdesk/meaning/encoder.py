"""Texts to sentence vectors with the shipped encoder."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from memdesk.meaning.graph import GraphError, GraphModel
from memdesk.meaning.pieces import UNKNOWN, PieceVocabulary
from memdesk.resources import resources_root

MODEL_DIR = "meaning"  # inside the resources: model.json, its weight shards, vocab.json
MANIFEST = "manifest.json"  # written by scripts/fetch_meaning_model.py: source, version, licence
BATCH = 32  # texts per run: one run's padding follows its longest text, so similar lengths go together
MAX_PIECES = 128  # a longer text is cut: its start says what it is about
# The encoder learned English. Text in a script its vocabulary lacks (Japanese, Cyrillic…)
# becomes a run of unknown pieces, and every such text the same vector: when more than this
# share of a text's pieces are unknown, it does not read the text at all.
UNREAD_SHARE = 0.2
DIMENSIONS = 512  # of the encoder's sentence vectors

_log = logging.getLogger(__name__)


class SentenceEncoder:
    def __init__(self, folder: Path) -> None:
        self.graph = GraphModel(folder)
        self.vocabulary = PieceVocabulary(folder / "vocab.json")
        self.manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        self._lock = threading.Lock()  # one run at a time: the graph keeps nothing, numpy threads itself

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """One unit-length row per text; a row of zeros for a text it does not read (``reads``),
        so that text is alike nothing."""
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        pieces = [self.vocabulary.ids(text)[:MAX_PIECES] for text in texts]
        order = sorted((i for i, ids in enumerate(pieces) if _read(ids)), key=lambda i: len(pieces[i]))
        for start in range(0, len(order), BATCH):
            chosen = order[start : start + BATCH]
            out[chosen] = self.run_pieces([pieces[i] for i in chosen])
        return out

    def reads(self, text: str) -> bool:
        """Whether the vector of ``text`` says something about it (see ``UNREAD_SHARE``)."""
        return _read(self.vocabulary.ids(text))

    def run_pieces(self, batch: list[list[int]]) -> np.ndarray:
        """The vectors of texts given as piece ids (each list non-empty)."""
        positions = np.array(
            [[row, col] for row, ids in enumerate(batch) for col in range(len(ids))], np.int64
        )
        values = np.array([piece for ids in batch for piece in ids], np.int64)
        with self._lock:
            return self.graph.run({"indices": positions, "values": values})


def _read(ids: list[int]) -> bool:
    return bool(ids) and ids.count(UNKNOWN) <= UNREAD_SHARE * len(ids)


@cache
def shared_encoder() -> SentenceEncoder | None:
    """The shipped encoder, loaded once; None when its files are not installed or unreadable
    (recall then ranks by words alone)."""
    folder = resources_root() / MODEL_DIR
    if not (folder / MANIFEST).is_file():
        return None
    try:
        return SentenceEncoder(folder)
    except (GraphError, OSError, ValueError) as error:
        _log.warning("recall by meaning is off: %s", error)
        return None
