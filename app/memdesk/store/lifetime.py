"""The expiry rule of ``memdesk.core.lifetime`` as SQL expressions, one per model.

Written as SQLAlchemy expressions so every engine gets the same rule; the only engine
dialect here is ``AddDays``, the date arithmetic an ordering by expiry needs.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import ColumnElement, DateTime, String, and_, case, literal_column, null, or_, true
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import aliased
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement

from memdesk.core.lifetime import TIMELINE
from memdesk.store.models import AppMemory, Document, Entry

Expiring = type[AppMemory] | type[Document] | type[Entry]


class AddDays(FunctionElement[datetime]):
    """``column`` plus a whole number of days."""

    type = DateTime()
    inherit_cache = True


@compiles(AddDays, "sqlite")
def _add_days_sqlite(element: AddDays, compiler: SQLCompiler, **kw: Any) -> str:
    column, days = (compiler.process(clause, **kw) for clause in element.clauses)
    # The stored text format (to the millisecond), so it orders among stored times.
    return f"strftime('%Y-%m-%d %H:%M:%f', {column}, '+' || {days} || ' days')"


@compiles(AddDays)
def _add_days_default(element: AddDays, compiler: SQLCompiler, **kw: Any) -> str:
    column, days = (compiler.process(clause, **kw) for clause in element.clauses)
    return f"({column} + make_interval(days => {days}))"


def _unexpired(
    model: Expiring, now: datetime | ColumnElement[datetime], without_own_expiry: ColumnElement[bool]
) -> ColumnElement[bool]:
    return or_(
        model.pinned.is_(True),
        model.expires_at > now,
        and_(model.expires_at.is_(None), without_own_expiry),
    )


def _entry_live_between(
    entry: Any, now: datetime | ColumnElement[datetime], cutoff: datetime | ColumnElement[datetime]
) -> ColumnElement[bool]:
    """Live at ``now`` when timeline entries written before ``cutoff`` are past retention."""
    return and_(
        entry.deleted_at.is_(None),
        or_(
            entry.pinned.is_(True),
            entry.expires_at > now,
            and_(entry.expires_at.is_(None), or_(entry.category != TIMELINE, entry.created_at > cutoff)),
        ),
    )


def entry_live(now: datetime, retention_days: int) -> ColumnElement[bool]:
    """Entries not in Trash and not expired at ``now``."""
    return _entry_live_between(Entry, now, now - timedelta(days=retention_days))


@cache
def entry_live_sql(alias: str, dialect: Dialect) -> str:
    """``entry_live`` as SQL text for ``dialect`` over the table aliased ``alias``, with the
    parameters ``:now`` and ``:cutoff`` (now less the retention), for hand-written full-text
    queries."""
    now, cutoff = literal_column(":now", DateTime()), literal_column(":cutoff", DateTime())
    condition = _entry_live_between(aliased(Entry, name=alias), now, cutoff)
    return str(condition.compile(dialect=dialect, compile_kwargs={"literal_binds": True}))


class Unindexed(FunctionElement[str]):
    """A column the query planner should not pick an index for (SQLite's unary ``+``)."""

    type = String()
    inherit_cache = True


@compiles(Unindexed, "sqlite")
def _unindexed_sqlite(element: Unindexed, compiler: SQLCompiler, **kw: Any) -> str:
    return "+" + compiler.process(element.clauses, **kw)


@compiles(Unindexed)
def _unindexed_default(element: Unindexed, compiler: SQLCompiler, **kw: Any) -> str:
    return compiler.process(element.clauses, **kw)


def entry_not_live_parts(
    now: datetime, retention_days: int, category: str
) -> tuple[ColumnElement[bool], ...]:
    """Disjoint conditions whose union is "not live" within ``category``, each served by a
    narrow index.

    A live count over a million rows is then the whole category's count less a few small ones.
    """
    kept = (Entry.deleted_at.is_(None), Entry.pinned.is_not(True))
    # Without this, SQLite walks the whole category by its index when the partial indexes
    # on deleted_at / expires_at reach the few rows directly.
    in_category = Unindexed(Entry.category) == category
    return (
        and_(Entry.deleted_at.is_not(None), in_category),
        and_(*kept, Entry.expires_at <= now, in_category),
        and_(
            *kept,
            Entry.expires_at.is_(None),
            Entry.category == TIMELINE,
            in_category,
            Entry.created_at <= now - timedelta(days=retention_days),
        ),
    )


def entry_expiry(retention_days: int) -> ColumnElement[datetime]:
    """When each entry expires (NULL when never), for ordering by it."""
    return case(
        (Entry.pinned.is_(True), null()),
        (Entry.expires_at.is_not(None), Entry.expires_at),
        (Entry.category == TIMELINE, AddDays(Entry.created_at, retention_days)),
        else_=null(),
    )


def memory_live(now: datetime | ColumnElement[datetime]) -> ColumnElement[bool]:
    """App memories not in Trash and not expired at ``now`` (a time, or a parameter for one)."""
    return and_(AppMemory.deleted_at.is_(None), _unexpired(AppMemory, now, true()))


def document_live(now: datetime) -> ColumnElement[bool]:
    """Documents not in Trash and not expired at ``now``."""
    return and_(Document.deleted_at.is_(None), _unexpired(Document, now, true()))
