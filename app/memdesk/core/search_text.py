"""Turning any user text into a safe full-text query, and documents into searchable pieces.

User text never reaches FTS5 syntax directly: words are extracted and each is quoted, so
quotes, operators (AND, NEAR, *), punctuation, emoji and any script are harmless.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+", re.UNICODE)
_MAX_TERMS = 32
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
    ]
)


def query_words(text: str) -> list[str]:
    """Distinct meaningful words of ``text``, in order, lowercased."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(text.lower()):
        if word in _STOPWORDS or (len(word) == 1 and word.isascii()):
            continue
        seen.setdefault(word, None)
        if len(seen) == _MAX_TERMS:
            break
    return list(seen)


def fts_query(words: list[str]) -> str | None:
    """An FTS5 MATCH expression that ORs the quoted words, or None when there are none."""
    if not words:
        return None
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in words)


def like_pattern(word: str) -> str:
    """A LIKE pattern (with ESCAPE '\\') matching ``word`` anywhere."""
    escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def split_pieces(markdown: str) -> list[str]:
    """Split a document into the paragraphs and bullets recall ranks, headings left out."""
    pieces: list[str] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            pieces.append(" ".join(paragraph))
            paragraph.clear()

    for line in markdown.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            flush()
        elif _BULLET.match(line):
            flush()
            pieces.append(_BULLET.sub("", line).strip())
        elif pieces and not paragraph and line[:1].isspace():
            pieces[-1] += " " + stripped  # continuation of the previous bullet
        else:
            paragraph.append(stripped)
    flush()
    return [piece for piece in pieces if piece]
