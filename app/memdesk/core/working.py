"""The working-memory file format shared with Flynn memory folders.

# Working Memory
Updated: 2026-02-25T11:30:00Z
Expires: 2026-03-10T11:30:00Z

{content}
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from memdesk.core.timefmt import format_iso, parse_iso
from memdesk.errors import BadInputError

HEADER = "# Working Memory"


@dataclass(frozen=True)
class WorkingFile:
    content: str
    updated_at: datetime
    expires_at: datetime


def cut_to_budget(content: str, max_tokens: int) -> str:
    """Keep at most ``max_tokens * 4`` characters, as the working-memory budget says."""
    return content[: max_tokens * 4]


def render(content: str, updated_at: datetime, expires_at: datetime) -> str:
    return f"{HEADER}\nUpdated: {format_iso(updated_at)}\nExpires: {format_iso(expires_at)}\n\n{content}"


def parse(raw: str) -> WorkingFile:
    """Parse a working-memory file; raises BadInputError saying what is wrong with it."""
    lines = raw.replace("\r\n", "\n").split("\n")
    if not lines or lines[0].strip() != HEADER:
        raise BadInputError("working memory: missing '# Working Memory' header")
    fields: dict[str, str] = {}
    body_start = len(lines)
    for index, line in enumerate(lines[1:], start=1):
        if not line.strip():
            body_start = index + 1
            break
        name, sep, value = line.partition(":")
        if not sep:
            raise BadInputError(f"working memory: unexpected header line {line!r}")
        fields[name.strip().lower()] = value.strip()
    for name in ("updated", "expires"):
        if name not in fields:
            raise BadInputError(f"working memory: missing '{name.title()}:' line")
    updated = parse_iso(fields["updated"], "working memory Updated")
    expires = parse_iso(fields["expires"], "working memory Expires")
    return WorkingFile("\n".join(lines[body_start:]).strip(), updated, expires)
