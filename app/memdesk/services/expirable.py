"""The expiry actions every expiring kind shares: extend by N days, pin, expire now."""

from __future__ import annotations

from datetime import datetime, timedelta

from memdesk.store.models import AppMemory, Document, Entry

Expirable = Document | Entry | AppMemory


def adjust_expiry(
    row: Expirable,
    now: datetime,
    current_expiry: datetime | None,
    extend_days: int = 0,
    pin: bool = False,
    expire: bool = False,
) -> None:
    """Change ``row`` in place. Extending counts from now when it has already expired."""
    if extend_days:
        row.expires_at = max(current_expiry or now, now) + timedelta(days=extend_days)
        row.pinned = False
    if pin:
        row.pinned = True
    if expire:
        row.pinned = False
        row.expires_at = now
