"""A held write's text as rich text: the words the detector matched marked, and every
invisible or control character drawn as a visible tag, so a reviewer sees what the model
would read."""

from __future__ import annotations

import html
import unicodedata

from PySide6.QtGui import QColor

from memdesk.core.suspicious import INVISIBLE, Finding


def _hidden_tag(char: str) -> str:
    return f"⟦{unicodedata.name(char, f'U+{ord(char):04X}')}⟧"


def escaped(text: str, hidden: str) -> str:
    """Escape ``text``; invisible characters become tags in the ``hidden`` colour."""
    parts: list[str] = []
    last = 0
    for match in INVISIBLE.finditer(text):
        parts.append(html.escape(text[last : match.start()], quote=False))
        parts.append(f'<span style="color:{hidden}; font-weight:bold">{_hidden_tag(match.group())}</span>')
        last = match.end()
    parts.append(html.escape(text[last:], quote=False))
    return "".join(parts)


def marked_html(text: str, findings: list[Finding], mark: QColor, hidden: QColor) -> str:
    """``text`` with the spans of ``findings`` on a ``mark`` background (overlapping spans
    merged), line breaks kept."""
    spans: list[list[int]] = []
    for finding in sorted(findings, key=lambda f: f.start):
        if spans and finding.start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], finding.end)
        else:
            spans.append([finding.start, finding.end])
    parts: list[str] = []
    last = 0
    for start, end in spans:
        parts.append(escaped(text[last:start], hidden.name()))
        parts.append(
            f'<span style="background-color:{mark.name()}">{escaped(text[start:end], hidden.name())}</span>'
        )
        last = end
    parts.append(escaped(text[last:], hidden.name()))
    return f'<p style="white-space:pre-wrap">{"".join(parts)}</p>'
