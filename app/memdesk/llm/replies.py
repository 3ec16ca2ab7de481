"""Turning model replies into values, with the documented fallbacks when a reply is unusable.

Each step asks for one shape: notes in prose (summary; several parts' notes under part
headings), a list of short statements
(facts), a few sentences (app memory), the decision object (compaction decision), or a
JSON list of changes to stored facts (changes).
A reply of another shape raises BadReply, which the steps treat as a failed call. A reply
that is too long is cut to the step's budget, and the cut is described in a note.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from memdesk.errors import BadInputError
from memdesk.llm.changes import Edit
from memdesk.llm.prompts import NO_FACTS
from memdesk.llm.results import Decision
from memdesk.llm.text import clip_at_word, dedupe_key

T = TypeVar("T")

MIN_APP_MEMORY_CHARS = 10
CHANGE_MAX_CHARS = 2000  # an updated fact's text: a line, an entry or a memory
FACT_MAX_CHARS = 300
MAX_FACTS_PER_REPLY = 50
NEEDS_EXISTING = "A compaction decision needs at least one existing memory."
_LIST_MARKER = re.compile(r"^(?:[-*•]|\d+[.)])\s+")
# Control characters cannot be stored (NUL) or shown, nor can lone surrogates (JSON may
# carry them as \ud800 escapes) be encoded; tabs and newlines are kept.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
# Wrappers a model may put around data: chat/tool tags, template tokens, code fences.
_WRAPPERS = re.compile(r"</?[a-z_]+>|<\|[^|>\n]{1,40}\|>|^```[a-z]*\s*$", re.IGNORECASE | re.MULTILINE)
_DECISION_KEYS = frozenset({"action", "targetMemoryId"})
# ``prompts.PART_HEADING``, read leniently: any run of "=", any case, spaces around.
_PART_HEADING = re.compile(r"^\s*=+\s*part\s+(\d+)\s*=+\s*$", re.IGNORECASE | re.MULTILINE)
_JSON_SCAN_CHARS = 50_000
_JSON_SCAN_TRIES = 50


class BadReply(Exception):
    """A reply of the wrong shape for its step; ``reason`` says how, in a clause."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Shaped(Generic[T]):
    """A reply read into a value; ``note`` says what was cut from it ("" when nothing was)."""

    value: T
    note: str = ""


def clean(reply: str) -> str:
    """The reply without control characters or surrounding blank space."""
    return _CONTROL.sub("", reply).strip()


def check_prose(reply: str, asked: str) -> str:
    """The cleaned reply; BadReply when it is empty or data (JSON, a tool call) instead of text."""
    text = clean(reply)
    if not text:
        raise BadReply("it was empty")
    if _is_decision(text):
        raise BadReply(f"it was a compaction decision, not {asked}")
    if _is_data(text):
        raise BadReply(f"it was JSON or tool-call markup, not {asked}")
    return text


def shape_summary(reply: str, max_chars: int) -> Shaped[str]:
    """Notes in prose, cut at a line (or word) boundary to ``max_chars``."""
    text = check_prose(reply, "notes in prose")
    if len(text) <= max_chars:
        return Shaped(text)
    return Shaped(cut_text(text, max_chars), _cut_note("summary", len(text), max_chars))


def shape_part_notes(reply: str, numbers: Sequence[int], max_chars: int) -> Shaped[list[str]]:
    """The notes under each part heading, for the parts ``numbers`` in that order, each cut
    to ``max_chars``; BadReply when a part has no notes."""
    text = check_prose(reply, "notes in prose")
    marks = list(_PART_HEADING.finditer(text))
    found: dict[int, str] = {}
    for index, mark in enumerate(marks):
        end = marks[index + 1].start() if index + 1 < len(marks) else len(text)
        found[int(mark.group(1))] = text[mark.end() : end].strip()
    missing = [number for number in numbers if not found.get(number)]
    if missing:
        raise BadReply(f"it gave no notes for part {missing[0]}")
    shaped = [shape_summary(found[number], max_chars) for number in numbers]
    return Shaped([part.value for part in shaped], " ".join(part.note for part in shaped if part.note))


def shape_facts(reply: str) -> Shaped[list[str]]:
    """Short statements, one per line (list markers and headings dropped); ``NO FACTS`` → [].

    BadReply when the reply is data rather than a list.
    """
    if clean(reply).rstrip(".").upper() == NO_FACTS:
        return Shaped([])
    text = check_prose(reply, "a list of facts")
    facts: list[str] = []
    seen: set[str] = set()
    clipped = 0
    for line in text.splitlines():
        fact = _LIST_MARKER.sub("", line.strip()).strip()
        key = dedupe_key(fact)
        # A line ending in ":" introduces the list rather than stating a fact.
        if not fact or fact.endswith(":") or key == NO_FACTS.lower() or key in seen:
            continue
        seen.add(key)
        if len(fact) > FACT_MAX_CHARS:
            fact = clip_at_word(fact, FACT_MAX_CHARS)
            clipped += 1
        facts.append(fact)
    notes = []
    if clipped:
        notes.append(
            f"{clipped} of the model's facts {'was' if clipped == 1 else 'were'} longer than "
            f"{FACT_MAX_CHARS} characters and cut to that length."
        )
    if len(facts) > MAX_FACTS_PER_REPLY:
        notes.append(
            f"Only the first {MAX_FACTS_PER_REPLY} of the {len(facts):,} facts in the reply were kept."
        )
        facts = facts[:MAX_FACTS_PER_REPLY]
    return Shaped(facts, " ".join(notes))


def shape_app_memory(reply: str, max_chars: int) -> Shaped[str | None]:
    """A few sentences as one line, cut at a word to ``max_chars``; None when too short to keep."""
    text = check_prose(reply, "a memory record").strip('"')
    flat = " ".join(text.split())
    record = clip_at_word(flat, max_chars)
    if len(record) < MIN_APP_MEMORY_CHARS:
        return Shaped(None)
    note = _cut_note("app memory", len(flat), max_chars) if record != flat else ""
    return Shaped(record, note)


@dataclass(frozen=True)
class ParsedChanges:
    """The usable edits of a changes reply, and why each unusable item was refused."""

    edits: list[Edit]
    refused: list[str]


def parse_changes(reply: str, targets: Sequence[int]) -> ParsedChanges:
    """The changes in a JSON list of ``{"action", "target", "text", "evidence"}`` items.

    BadReply when the reply is not such a list. An item that names a target outside
    ``targets``, names a target another item names too, lacks the text its action needs or
    carries data as its text is refused on its own; the others are kept.
    """
    items = _json_list(clean(reply))
    known = set(targets)
    edits: list[Edit] = []
    refused: list[str] = []
    for number, item in enumerate(items, 1):
        try:
            edit = _change_item(item, known)
        except BadReply as exc:
            refused.append(f"item {number} was refused: {exc.reason}")
            continue
        if edit is not None:
            edits.append(edit)
    named = Counter(edit.target for edit in edits if edit.target is not None)
    for target in sorted(t for t, count in named.items() if count > 1):
        refused.append(f"fact {target} was named by {named[target]} items, so none of them is used")
    return ParsedChanges([edit for edit in edits if named.get(edit.target, 0) <= 1], refused)


def _change_item(item: object, known: set[int]) -> Edit | None:
    """One item of a changes reply as an edit; None for "none"."""
    if not isinstance(item, dict):
        raise BadReply("it was not an object")
    action = item.get("action")
    if action == "none":
        return None
    if action not in ("update", "retire", "add"):
        raise BadReply(f"it asked for an unknown action {action!r}")
    text = item.get("text", "")
    if not isinstance(text, str) or len(text) > CHANGE_MAX_CHARS or _is_data(clean(text) or "x"):
        raise BadReply("it had no usable text")
    text = " ".join(clean(text).split()) if action == "add" else clean(text)
    if action in ("update", "add") and not text:
        raise BadReply(f"it asked to {action} without the text")
    if action == "add":
        return Edit("add", None, text, "The model found a new lasting fact.")
    target = _as_id(item.get("target"))
    if target not in known:
        raise BadReply(f"it named fact {item.get('target')!r}, which was not among the candidates")
    evidence = item.get("evidence", "")
    evidence = " ".join(clean(evidence).split()) if isinstance(evidence, str) else ""
    said = f" The person said: “{evidence}”" if evidence else ""
    why = f"The model found that the conversation {'changes' if action == 'update' else 'ends'} it.{said}"
    return Edit(action, target, text, why, evidence=evidence)


def _json_list(text: str) -> list[object]:
    body = _WRAPPERS.sub("", text).strip()
    start, end = body.find("["), body.rfind("]")
    if start < 0 or end < start:
        raise BadReply("it held no JSON list")
    try:
        data = json.loads(body[start : end + 1])
    except ValueError:
        raise BadReply("its JSON list could not be read") from None
    if not isinstance(data, list):
        raise BadReply("it held no JSON list")
    return data


def cut_text(text: str, max_chars: int) -> str:
    """At most ``max_chars``: whole lines while they fit, then the next line cut at a word."""
    if len(text) <= max_chars:
        return text
    kept: list[str] = []
    size = 0
    for line in text.splitlines():
        if size + len(line) + 1 > max_chars:
            room = max_chars - size
            # A sliver of a line says nothing; stop at the last whole line instead.
            if room > 40 or not kept:
                kept.append(clip_at_word(line, room))
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept).rstrip()


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
    if action == "edit" and (_is_data(clean(new_content)) or _is_decision(new_content)):
        return fifo_decision(existing, "the reply's newContent was data, not a memory record")
    return Decision(
        action,
        target,
        clean(new_content) if action == "edit" else None,
        str(data["reason"]).strip(),
    )


def first_json_object(text: str) -> str | None:
    """The first balanced ``{...}`` in ``text``; braces inside JSON strings do not count.

    Only the start of a long reply is searched, from a limited number of braces: each try
    reads to the end, so a reply full of unclosed braces would otherwise take minutes.
    """
    text = text[:_JSON_SCAN_CHARS]
    start = text.find("{")
    for _try in range(_JSON_SCAN_TRIES):
        if start == -1:
            break
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


def _is_decision(text: str) -> bool:
    """Holds a compaction decision object (only the decision step asks for one)."""
    raw = first_json_object(text)
    if raw is None:
        return False
    try:
        data = json.loads(raw)
    except ValueError:
        return False
    return isinstance(data, dict) and set(data) >= _DECISION_KEYS


def _is_data(text: str) -> bool:
    """Nothing but JSON once tags, template tokens and code fences are taken away."""
    body = _WRAPPERS.sub("", text).strip()
    if not body:
        return True  # only markup
    if body[0] not in "{[":
        return False
    try:
        json.loads(body)
    except ValueError:
        return False
    return True


def _cut_note(what: str, length: int, max_chars: int) -> str:
    return f"The model's {what} was {length:,} characters; it was cut to the limit of {max_chars:,}."
