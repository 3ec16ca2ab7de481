"""One row's change in a History step, as a person reads it: the item, what happened to it, and
its before and after with fields named in words. An assistant's held write reads as Review
shows it: who wrote it, where it goes, its text, why it was held and what was decided."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memdesk.gui.views.review import REPLACES_STORED, WANTS_TO, WHY_IT_WAITS
from memdesk.gui.widgets import display
from memdesk.services.history import ChangeInfo, item_label
from memdesk.services.memdesk import Memdesk
from memdesk.services.review import GOES_TO, HELD_WRITES, HeldInfo, recorded_held_info

TEXT = "content"  # every table's text column: shown last, on lines of its own
DELETED = "deleted_at"  # read as where the item is (Trash or not), not as a field
# What each table's columns are called, in the order they are read; None: bookkeeping, not
# shown. A column missing here is shown under its own name.
FIELD_NAMES: dict[str, dict[str, str | None]] = {
    "documents": {
        "namespace": "Document",
        "expires_at": "Expires",
        "pinned": "Pinned",
        "created_at": "Created",
    },
    "apps": {"app_id": "App", "name": "Name", "created_at": "Created"},
    "app_memories": {
        "app_id": "App",
        "importance": "Importance",
        "tags": "Tags",
        "source_session": "From conversation",
        "expires_at": "Expires",
        "pinned": "Pinned",
        "created_at": "Created",
    },
    "entries": {
        "key": "Entry",
        "category": "Category",
        "importance": "Importance",
        "session_id": "From conversation",
        "expires_at": "Expires",
        "pinned": "Pinned",
        "created_at": "Created",
    },
    "sessions": {
        "id": None,  # the item's own name
        "channel": "Channel",
        "app_id": "App",
        "created_at": "Started",
        "last_message_at": "Last message",
        "last_consolidated_at": "Last compacted",
        "last_consolidated_message_id": "Compacted up to message",
    },
    "messages": {"session_id": "Conversation", "role": "From", "created_at": "Sent"},
    "private_items": {"target": "Kept from every assistant", "created_at": "Since"},
    "health_findings": {
        "kind": "Finding",
        "slot": "About",
        "first_text": "One fact",
        "second_text": "The other",
        "state": "State",
        "found_at": "Found",
        "pair": None,  # a hash of the two facts
        "first": None,  # where each fact is kept, as references
        "second": None,
    },
}
# Bookkeeping every table has.
QUIET_FIELDS = ("id", "updated_at")
# Rows read whole on both sides: a finding's new state says nothing without its two facts.
READ_WHOLE = frozenset({"health_findings"})


@dataclass(frozen=True)
class ChangeRow:
    item: str
    what: str
    before: str
    after: str


def describe_change(change: ChangeInfo, app: Memdesk) -> ChangeRow:
    """One row's change, in words: for a held write both sides whole, as Review shows it; for
    any other row only the fields that changed (or all of them, when it was added or removed)."""
    item = item_label(change.table_name, change.item_key)
    if change.redacted:
        return ChangeRow(item, "removed from Trash for good", "(text removed)", "(text removed)")
    before, after = change.before, change.after
    if change.table_name == HELD_WRITES:
        return ChangeRow(item, _held_what(before, after), _held_text(before, app), _held_text(after, app))
    names = FIELD_NAMES.get(change.table_name, {})
    if before is None or after is None:
        values = after if before is None else before
        assert values is not None
        fields = [name for name in _shown(names, values) if values[name] not in (None, "", False)]
        what = "added" if before is None else "removed"
    else:
        fields = [name for name in _shown(names, after) if before.get(name) != after.get(name)]
        if fields == [DELETED]:
            what = "moved to Trash" if after[DELETED] else "restored from Trash"
        else:
            what = "changed " + ", ".join(_name(names, field).lower() for field in fields)
        if change.table_name in READ_WHOLE:
            fields = _shown(names, after)
    return ChangeRow(item, what, _fields_text(names, before, fields), _fields_text(names, after, fields))


def _shown(names: dict[str, str | None], values: dict[str, Any]) -> list[str]:
    """The columns a person reads, in the order ``names`` gives, then any it does not name."""
    known = [name for name in names if name in values and names[name] is not None]
    hidden = {*QUIET_FIELDS, *(name for name, label in names.items() if label is None)}
    rest = [name for name in values if name not in names and name not in hidden]
    return known + rest


def _name(names: dict[str, str | None], field: str) -> str:
    if field == TEXT:
        return "Text"
    return names.get(field) or field.removesuffix("_at").replace("_", " ").capitalize()


def _value(field: str, value: Any) -> str:
    if value is None:
        return "none"
    if field.endswith("_at") and isinstance(value, str):
        return display.when(datetime.fromisoformat(value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value if isinstance(value, str) else json.dumps(value)


def _fields_text(names: dict[str, str | None], values: dict[str, Any] | None, fields: list[str]) -> str:
    if values is None:
        return "(did not exist)"
    if fields == [TEXT]:
        return str(values.get(TEXT) or "")
    lines = []
    for field in fields:
        if field == DELETED:
            lines.append(
                f"in Trash since {_value(field, values[field])}" if values.get(field) else "not in Trash"
            )
        elif field != TEXT:
            lines.append(f"{_name(names, field)}: {_value(field, values.get(field))}")
    if TEXT in fields and values.get(TEXT):
        lines += ["", str(values[TEXT])]
    return "\n".join(lines)


def _decision(held: HeldInfo, rejected_at: str) -> str:
    if held.rejected:
        return f"rejected {rejected_at} (in Trash; it never reaches a prompt)"
    if held.state == "approved":
        return f"approved {display.when(held.decided_at)} (in memory)"
    return "none yet (it waits in Review and reaches no prompt until you approve it)"


def _held_text(values: dict[str, Any] | None, app: Memdesk) -> str:
    """The held write as Review shows it, and what was decided."""
    if values is None:
        return "(did not exist)"
    held = recorded_held_info(values)
    write = held.write
    lines = [
        f"{held.actor} {WANTS_TO} {write.title} · held {display.when(held.created_at)}",
        f"{GOES_TO}: {app.review.where(write)}",
        f"{WHY_IT_WAITS}:",
        *(f"  • {reason}" for reason in held.reasons),
        f"Decision: {_decision(held, _value(DELETED, values.get(DELETED)))}",
    ]
    replaced = write.arguments.get("replaces") or []
    if replaced:
        lines += [f"{REPLACES_STORED}:", *(f"  • {fact['text']}" for fact in replaced)]
    if write.content:
        lines += ["", write.content]
    return "\n".join(lines)


def _held_what(before: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    """What happened to a held write, in Review's words."""
    if before is None:
        return "held for review"
    if after is None:
        return "removed"
    was, now = recorded_held_info(before), recorded_held_info(after)
    if now.rejected != was.rejected:
        return "rejected (moved to Trash)" if now.rejected else "back in Review (restored from Trash)"
    if now.state != was.state:
        if now.state != "approved":
            return "back in Review"
        return "approved with your edit" if now.write.content != was.write.content else "approved"
    return "changed"
