"""Cutting text that is too long for one model call into parts that fit."""

from __future__ import annotations

from collections.abc import Sequence

from memdesk.core.tokens import CHARS_PER_TOKEN, estimate_tokens


def split_to_fit(text: str, max_tokens: int) -> list[str]:
    """Consecutive parts of at most ``max_tokens`` (estimated), cut at line ends if possible.

    Joining the parts gives back ``text`` exactly.
    """
    limit = max(1, max_tokens * CHARS_PER_TOKEN)
    if len(text) <= limit:
        return [text]
    parts: list[str] = []
    current: list[str] = []
    size = 0
    for line in text.splitlines(keepends=True):
        if size + len(line) > limit and current:
            parts.append("".join(current))
            current, size = [], 0
        while len(line) > limit:  # a single line longer than a part: cut it at a space
            cut = line.rfind(" ", 0, limit) + 1 or limit
            parts.append(line[:cut])
            line = line[cut:]
        current.append(line)
        size += len(line)
    if current:
        parts.append("".join(current))
    return parts


def runs_to_fit(texts: Sequence[str], max_tokens: int) -> list[range]:
    """Consecutive index ranges of ``texts`` whose joined size fits ``max_tokens``; a text
    too big on its own is a range of its own."""
    runs: list[range] = []
    start, size = 0, 0
    for index, text in enumerate(texts):
        tokens = estimate_tokens(text)
        if index > start and size + tokens > max_tokens:
            runs.append(range(start, index))
            start, size = index, 0
        size += tokens
    if texts:
        runs.append(range(start, len(texts)))
    return runs


def group_to_fit(texts: Sequence[str], max_tokens: int) -> list[list[str]]:
    """Consecutive groups whose joined size fits ``max_tokens``.

    When no two neighbours fit together, texts are paired anyway (overflowing), so that
    merging group by group always shrinks the list and ends.
    """
    groups = [list(texts[run.start : run.stop]) for run in runs_to_fit(texts, max_tokens)]
    if len(groups) > 1 and all(len(group) == 1 for group in groups):
        return [list(texts[start : start + 2]) for start in range(0, len(texts), 2)]
    return groups
