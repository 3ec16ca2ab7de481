"""What the timeline says about an item in words: its tooltip. No Qt."""

from __future__ import annotations

import html
from datetime import datetime

from memdesk.core.items import ItemKind
from memdesk.core.timefmt import format_minute
from memdesk.services.expiry import ExpiringItem, until

TOOLTIP_TEXT_CHARS = 300


def when_text(when: datetime) -> str:
    return f"{format_minute(when)} UTC"


def ago(when: datetime, now: datetime) -> str:
    """``3 days ago`` (the mirror of ``until``)."""
    if (now - when).total_seconds() < 60:
        return "just now"
    return until(now + (now - when), now).removeprefix("in ") + " ago"


def expiry_line(item: ExpiringItem, now: datetime) -> str:
    verb = "purged" if item.kind == ItemKind.TRASH else "expires"
    if item.end is None:
        return "pinned: never expires"
    if item.expired_at_now:
        past = "purge was due" if item.kind == ItemKind.TRASH else "expired"
        return f"{past} {when_text(item.end)} ({ago(item.end, now)})"
    return f"{verb} {when_text(item.end)} ({until(item.end, now)})"


def bar_label(item: ExpiringItem) -> str:
    """The text on a bar; an app memory's row is under its app's header, so just its words."""
    if item.kind == ItemKind.APP_MEMORY:
        return " ".join(item.text.split())
    return item.label


def tooltip_html(item: ExpiringItem, now: datetime) -> str:
    """Rich text (so Qt wraps it), with every piece of stored text escaped."""
    written = "deleted" if item.kind == ItemKind.TRASH else "written"
    text = " ".join(item.text.split())
    if len(text) > TOOLTIP_TEXT_CHARS:
        text = text[: TOOLTIP_TEXT_CHARS - 1] + "…"
    lines = [
        f"<b>{html.escape(item.label)}</b>",
        f"{written} {when_text(item.start)}",
        html.escape(expiry_line(item, now)),
    ]
    if text:
        lines.append(f"<br>{html.escape(text)}")
    return "<p style='white-space:pre-wrap'>" + "<br>".join(lines) + "</p>"
