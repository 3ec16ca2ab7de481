"""Turning any user text into a safe full-text query, and documents into searchable pieces.

User text never reaches FTS5 syntax directly: words are extracted and each is quoted, so
quotes, operators (AND, NEAR, *), punctuation, emoji and any script are harmless.

A query word is what the index's tokenizer (``store.fulltext``) keeps as one token: letters and
digits plus ``+`` and ``#`` (``c++``, ``c#``); a dotted name (``node.js``) stays whole and
FTS5 reads it as a phrase. Question words and chat filler are stop words. A lone ASCII
letter is dropped unless written as a capital (``R``, ``C``), the way languages are named.
"""

from __future__ import annotations

import re

# Han, kana, Hangul, Thai, Lao, Myanmar, Khmer: scripts whose words are not split by spaces.
NO_SPACE_CHARS = (
    "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
)
# "?" and the full-width "？" of Chinese and Japanese: a text holding one asks something.
QUESTION_MARKS = ("?", "\uff1f")
_TERM = re.compile(r"[\w+#]+(?:\.[\w+#]+)*", re.UNICODE)
_NO_SPACE_RUN = re.compile(f"[{NO_SPACE_CHARS}]+")
_MAX_TERMS = 32
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
STOPWORDS = frozenset(
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
        # question words and chat filler
        "actually",
        "also",
        "anything",
        "describe",
        "either",
        "else",
        "even",
        "ever",
        "everything",
        "get",
        "gets",
        "got",
        "haha",
        "hey",
        "hi",
        "hmm",
        "kind",
        "know",
        "let",
        "like",
        "likely",
        "lol",
        "lot",
        "lots",
        "many",
        "mention",
        "mentioned",
        "might",
        "much",
        "must",
        "oh",
        "ok",
        "okay",
        "one",
        "please",
        "pretty",
        "quite",
        "really",
        "recently",
        "said",
        "say",
        "shall",
        "something",
        "sort",
        "sure",
        "tell",
        "thanks",
        "thing",
        "things",
        "told",
        "type",
        "uh",
        "um",
        "us",
        "well",
        "whose",
        "wow",
        "yeah",
        "yep",
        "yes",
    ]
)


def asks(text: str) -> bool:
    """Whether ``text`` asks something (recall ranks the entry written after it as its answer)."""
    return any(mark in text for mark in QUESTION_MARKS)


def query_words(text: str) -> list[str]:
    """Distinct meaningful words of ``text``, in order, lowercased."""
    seen: dict[str, None] = {}
    for raw in _TERM.findall(text):
        word = raw.lower()
        if word in STOPWORDS or not any(ch.isalnum() for ch in word):
            continue
        if len(word) == 1 and word.isascii() and not raw.isupper():
            continue
        seen.setdefault(word, None)
        if len(seen) == _MAX_TERMS:
            break
    return list(seen)


def no_space_runs(text: str) -> list[str]:
    """Distinct runs of scripts written without spaces (Chinese, Japanese, Thai…), in order."""
    return list(dict.fromkeys(_NO_SPACE_RUN.findall(text)))[:_MAX_TERMS]


def fts_query(words: list[str]) -> str | None:
    """An FTS5 MATCH expression that ORs the quoted words, or None when there are none."""
    if not words:
        return None
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in words)


def prefix_query(word: str) -> str:
    """An FTS5 prefix term for a word being typed, robust to the index's stemmer.

    The index holds stems (``running`` -> ``run``), and FTS5 stems the typed prefix too, so
    ``runn`` or ``happine`` would miss ``run`` and ``happi``. Shorter prefixes of a longer
    word (down to three characters, at most three fewer) are ORed in.
    """
    shortest = max(3, len(word) - 3)
    prefixes = [word[:end] for end in range(len(word), shortest - 1, -1)] if len(word) > 3 else [word]
    terms = ['"' + prefix.replace('"', '""') + '"*' for prefix in prefixes]
    return terms[0] if len(terms) == 1 else "(" + " OR ".join(terms) + ")"


def like_pattern(word: str) -> str:
    """A LIKE pattern (with ESCAPE '\\') matching ``word`` anywhere."""
    escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def bullet_of(line: str) -> str:
    """The list marker a line opens with, indent and space included ("- ", "  1. "), or ""."""
    found = _BULLET.match(line)
    return found.group(0) if found else ""


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
