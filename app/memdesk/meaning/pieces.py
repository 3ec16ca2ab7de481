"""Split text into the word pieces of a unigram vocabulary (the SentencePiece scheme the
sentence encoder was trained with): the split whose pieces' log-probabilities sum highest."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

WORD_START = "\u2581"  # marks a piece that begins a word
UNKNOWN = 0
RESERVED = 6  # the vocabulary's first ids are control symbols, never matched in text


class PieceVocabulary:
    def __init__(self, path: Path) -> None:
        entries = json.loads(path.read_text(encoding="utf-8"))
        self.scores: dict[str, tuple[float, int]] = {
            piece: (float(score or 0.0), index)
            for index, (piece, score) in enumerate(entries)
            if index >= RESERVED
        }
        self.longest = max(len(piece) for piece in self.scores)

    def ids(self, text: str) -> list[int]:
        """The piece ids of ``text``; a character no piece starts with is one unknown id, and
        unknown ids in a row count once."""
        normal = unicodedata.normalize("NFKC", text)
        if not normal:
            return []
        marked = WORD_START + normal.replace(" ", WORD_START)
        size = len(marked)
        # Every piece that can end at each position, with where it starts.
        ending: list[list[tuple[int, float, int]]] = [[] for _ in range(size + 1)]
        for start in range(size):
            found = False
            for length in range(1, min(self.longest, size - start) + 1):
                known = self.scores.get(marked[start : start + length])
                if known is not None:
                    ending[start + length].append((start, *known))
                    found = True
            if not found:
                ending[start + 1].append((start, 0.0, UNKNOWN))
        best: list[float | None] = [0.0] + [None] * size
        back: list[tuple[int, int]] = [(0, UNKNOWN)] * (size + 1)
        for end in range(1, size + 1):
            for start, score, index in ending[end]:
                before = best[start]
                if before is None:
                    continue
                total = before + score
                current = best[end]
                if current is None or total >= current:
                    best[end], back[end] = total, (start, index)
        pieces: list[int] = []
        end = size
        while end > 0:
            end, index = back[end]
            pieces.append(index)
        pieces.reverse()
        return [
            index
            for i, index in enumerate(pieces)
            if not (index == UNKNOWN and i and pieces[i - 1] == UNKNOWN)
        ]
