"""When an item leaves the prompt: the one expiry rule, in Python.

Every expiring kind follows it: a pinned item never expires; an item with an expiry of its
own expires then; otherwise it expires ``retention`` after it was written when its kind has
a retention (timeline entries), and never when it has none. An item is live while it is
not in Trash and has not expired. ``memdesk.store.lifetime`` writes the same rule as SQL,
and a test proves the two agree.
"""

from __future__ import annotations

from datetime import datetime, timedelta

TIMELINE = "timeline"


def entry_retention(category: str, retention_days: int) -> timedelta | None:
    """Only timeline entries expire by retention; knowledge stays until given an expiry."""
    return timedelta(days=retention_days) if category == TIMELINE else None


def expires_at(
    pinned: bool, own_expiry: datetime | None, written_at: datetime, retention: timedelta | None = None
) -> datetime | None:
    """The moment the item expires, or None when it never does."""
    if pinned:
        return None
    if own_expiry is not None:
        return own_expiry
    if retention is not None:
        return written_at + retention
    return None


def has_expired(expiry: datetime | None, now: datetime) -> bool:
    return expiry is not None and expiry <= now


def is_live(deleted_at: datetime | None, expiry: datetime | None, now: datetime) -> bool:
    return deleted_at is None and not has_expired(expiry, now)
