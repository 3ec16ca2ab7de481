"""Which of a question's words a recalled text holds, measured the same way for any text.

FTS5 scores (BM25) depend on each table's statistics, so a paragraph and an entry scored by
two tables are not comparable; which words they hold is (see ``services.recall_rank``).
Words are compared by a rough root (``painting``/``paints``/``painted`` -> ``paint``) close
to what the index's stemmer does; scripts without spaces are compared by two-character pieces.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

_NON_WORD = re.compile(r"[^\w+#]+")
_SUFFIXES = ("ingly", "edly", "ing", "ed", "ly")


@lru_cache(maxsize=65_536)
def word_root(word: str) -> str:
    if word.endswith(("ies", "ied")) and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("sses", "xes", "zes", "ches", "shes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        word = word[:-1]
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "aeiosl":
        word = word[:-1]  # running -> runn -> run
    if len(word) > 3 and word[-1] in "ey":
        word = word[:-1]  # bake/baked, party/parties
    return word


def _pieces(run: str) -> list[str]:
    return [run[i : i + 2] for i in range(len(run) - 1)] or [run]


def _near(spaced: str, first: str, second: str, reach: int) -> bool:
    start = spaced.find(first)
    while start != -1:
        if second in spaced[start + len(first) : start + len(first) + reach]:
            return True
        start = spaced.find(first, start + 1)
    return False


class TermMatch:
    """Which of a question's ``words`` then ``runs`` a text holds: their roots and pieces worked
    out once for every text measured."""

    def __init__(self, words: list[str], runs: list[str], reach: int = 20) -> None:
        self.word_roots = [[" " + word_root(part) for part in word.split(".") if part] for word in words]
        self.run_pieces = [_pieces(run) for run in runs]
        roots = [" " + word_root(word) for word in words if "." not in word]
        self.pairs = list(pairwise(roots))
        self.reach = reach

    def __call__(self, text: str) -> tuple[list[float], float]:
        """How much of each word then run ``text`` holds (0..1), and the share of neighbouring
        words that stand within ``reach`` characters of each other in it.

        A word counts when a word of the text starts with its root (a dotted word: every
        part); a run of a script without spaces by the share of its two-character pieces found.
        """
        spaced = " " + _NON_WORD.sub(" ", text.lower())
        hits = [float(all(root in spaced for root in roots)) for roots in self.word_roots]
        for pieces in self.run_pieces:
            hits.append(sum(piece in text for piece in pieces) / len(pieces))
        reach = self.reach
        together = sum(_near(spaced, a, b, reach) or _near(spaced, b, a, reach) for a, b in self.pairs)
        return hits, together / len(self.pairs) if self.pairs else 0.0
