"""How much of a question a recalled text covers: the share of its words found in the text.

FTS5 scores (BM25) depend on each table's statistics, so a paragraph and an entry scored by
two tables are not comparable; coverage is (0..1 for any text), which makes lists mergeable.
Words are compared by a rough root (``painting``/``paints``/``painted`` -> ``paint``) close
to what the index's stemmer does; scripts without spaces are compared by two-character pieces.
"""

from __future__ import annotations

import re

_TEXT_WORD = re.compile(r"[\w+#]+", re.UNICODE)
_SUFFIXES = ("ingly", "edly", "ing", "ed", "ly")


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


def coverage(words: list[str], runs: list[str], text: str) -> float:
    """Share of ``words`` (as roots; dotted ones by every part) and of ``runs`` found in ``text``."""
    if not words and not runs:
        return 0.0
    lowered = text.lower()
    roots = {word_root(token) for token in _TEXT_WORD.findall(lowered)}
    found = 0.0
    for word in words:
        parts = [part for part in word.split(".") if part]
        found += all(word_root(part) in roots for part in parts)
    for run in runs:
        pieces = _pieces(run)
        found += sum(piece in text for piece in pieces) / len(pieces)
    return found / (len(words) + len(runs))
