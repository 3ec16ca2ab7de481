"""Small text helpers shared by the offline steps and the reply parsers."""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+")
_TRAILING = " \t.,;:!-–—"


def clip_at_word(text: str, limit: int) -> str:
    """One line of at most ``limit`` characters, cut at a word boundary with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]  # leave room for the ellipsis
    space = cut.rfind(" ")
    if space > 0:
        cut = cut[:space]
    return cut.rstrip(_TRAILING) + "…"


def dedupe_key(text: str) -> str:
    """Texts that differ only in case, spacing or final punctuation share a key."""
    return " ".join(text.lower().split()).rstrip(_TRAILING)


def word_set(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.lower()))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """Share of distinct words two texts have in common (0 for two empty texts)."""
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def rewritten_span(old: str, new: str) -> tuple[int, int]:
    """The span of ``old`` that ``new`` rewrites: what lies between their common start and end
    (an empty span where text is inserted)."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    return start, len(old) - end
