"""Case-insensitive patterns that run on lowercased text.

``re.IGNORECASE`` makes every position of a long text several times slower to scan, so the
keyword patterns of compaction are written in lower case and run on ``text.lower()``.
"""

from __future__ import annotations

import re

_UPPER_ESCAPE = re.compile(r"\\[A-Z]")  # \S, \W, \D, \B would change meaning once lowercased


def lowercase(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled to match lowercased text: call it with ``text.lower()``."""
    if _UPPER_ESCAPE.search(pattern) or "(?P" in pattern:
        raise ValueError(f"pattern uses an upper-case escape or a named group: {pattern!r}")
    return re.compile(pattern.lower())
