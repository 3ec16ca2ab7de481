"""Turning model replies into values, with the documented fallbacks when a reply is unusable."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from memdesk.errors import BadInputError
from memdesk.llm.prompts import NO_FACTS
from memdesk.llm.results import Decision
from memdesk.llm.text import clip_at_word, dedupe_key

MIN_APP_MEMORY_CHARS = 10
NEEDS_EXISTING = "A compaction decision needs at least one existing memory."
_LIST_MARKER = re.compile(r"^(?:[-*•]|\d+[.)])\s+")


def parse_facts(reply: str) -> list[str]:
    """One fact per non-empty line; list markers and headings dropped; ``NO FACTS`` → []."""
    if reply.strip().rstrip(".").upper() == NO_FACTS:
        return []
    facts: list[str] = []
    seen: set[str] = set()
    for line in reply.splitlines():
        fact = _LIST_MARKER.sub("", line.strip()).strip()
        key = dedupe_key(fact)
        # A line ending in ":" introduces the list rather than stating a fact.
        if not fact or fact.endswith(":") or key == NO_FACTS.lower() or key in seen:
            continue
        seen.add(key)
        facts.append(fact)
    return facts


def parse_app_memory(reply: str, max_chars: int) -> str | None:
    """The record, capped at ``max_chars``; None when it is too short to be worth keeping."""
    text = clip_at_word(reply.strip().strip('"'), max_chars)
    return text if len(text) >= MIN_APP_MEMORY_CHARS else None


def fifo_decision(existing: Sequence[tuple[int, str]], why: str) -> Decision:
    """Remove the oldest existing memory (``existing`` is oldest first); never the new one."""
    if not existing:
        raise BadInputError(NEEDS_EXISTING)
    oldest = existing[0][0]
    return Decision("delete", oldest, None, f"Removed the oldest memory ({oldest}) because {why}.", True)


def parse_decision(reply: str, existing: Sequence[tuple[int, str]], new_id: int | None) -> Decision:
    """Read ``{"action", "targetMemoryId", "newContent", "reason"}`` or fall back to FIFO."""
    raw = first_json_object(reply)
    if raw is None:
        return fifo_decision(existing, "the reply held no JSON object")
    try:
        data = json.loads(raw)
    except ValueError:
        return fifo_decision(existing, "the reply's JSON could not be read")
    if not isinstance(data, dict):
        return fifo_decision(existing, "the reply's JSON was not an object")
    missing = [key for key in ("action", "targetMemoryId", "reason") if key not in data]
    if missing:
        return fifo_decision(existing, "the reply left out " + ", ".join(missing))
    action = data["action"]
    if action not in ("delete", "edit"):
        return fifo_decision(existing, f"the reply asked for an unknown action {action!r}")
    target = _as_id(data["targetMemoryId"])
    if target is None:
        return fifo_decision(existing, "the reply's targetMemoryId was not a memory id")
    if new_id is not None and target == new_id:
        return fifo_decision(existing, "the reply picked the new memory, which is always kept")
    if target not in {mem_id for mem_id, _ in existing}:
        return fifo_decision(existing, f"the reply named memory {target}, which does not exist")
    new_content = data.get("newContent")
    if action == "edit" and not (isinstance(new_content, str) and new_content.strip()):
        return fifo_decision(existing, "the reply asked for an edit without newContent")
    return Decision(
        action,
        target,
        new_content.strip() if action == "edit" else None,
        str(data["reason"]).strip(),
    )


def first_json_object(text: str) -> str | None:
    """The first balanced ``{...}`` in ``text``; braces inside JSON strings do not count."""
    start = text.find("{")
    while start != -1:
        depth, in_string, escaped = 0, False, False
        for index in range(start, len(text)):
            char = text[index]
            if in_string:
                if escaped:
                    escaped = False
                elif char == "\\":
                    escaped = True
                elif char == '"':
                    in_string = False
            elif char == '"':
                in_string = True
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    return text[start : index + 1]
        start = text.find("{", start + 1)
    return None


def _as_id(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None
