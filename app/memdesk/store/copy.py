"""Copy a whole store into another, on any engine: every table, history and Trash included.

The copy runs in one write transaction on the target, so it lands whole or not at all. Ids
are kept, so history and undo still point at the right rows; PostgreSQL's id sequences are
moved past them. Rows are read in batches and written in bulk (PostgreSQL's ``COPY``), so
a million entries take a minute or two, most of it the server building the search index.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Table, func, select, update
from sqlalchemy.orm import Session

from memdesk.errors import StoreError
from memdesk.store.engine import Store
from memdesk.store.models import Base, Meta

BATCH_ROWS = 5000
# Rows a new, empty store already has: its own bookkeeping, not data.
_BOOKKEEPING = {Meta.__tablename__}


@dataclass(frozen=True)
class TableCopied:
    table: str
    source_rows: int
    target_rows: int

    @property
    def complete(self) -> bool:
        return self.source_rows == self.target_rows


def data_tables() -> list[Table]:
    """Every table, parents before the tables that point at them."""
    return list(Base.metadata.sorted_tables)


def row_counts(store: Store) -> dict[str, int]:
    with store.read() as session:
        return {
            table.name: session.scalar(select(func.count()).select_from(table)) or 0
            for table in data_tables()
        }


def copy_store(
    source: Store, target: Store, progress: Callable[[str, int], None] = lambda _table, _rows: None
) -> list[TableCopied]:
    """Copy ``source`` into ``target`` (an empty store) and check every table's row count."""
    held = {name: rows for name, rows in row_counts(target).items() if rows and name not in _BOOKKEEPING}
    if held:
        listed = ", ".join(f"{rows:,} {name}" for name, rows in sorted(held.items()))
        raise StoreError(
            f"{target.where} already holds a Memdesk store with data ({listed})",
            "copy into a new, empty database, so nothing there is overwritten",
        )
    source_counts = row_counts(source)
    with source.read() as reading, target.write() as writing:
        into = writing.connection()
        for table in data_tables():
            if table.name == Meta.__tablename__:
                _copy_meta(reading, writing)
                continue
            rows = reading.connection().execution_options(yield_per=BATCH_ROWS).execute(select(table))
            copied = 0
            for batch in rows.partitions(BATCH_ROWS):
                target.engine.bulk_insert(into, table, [tuple(row) for row in batch])
                copied += len(batch)
                progress(table.name, copied)
        target.engine.after_bulk_insert(into, data_tables())
    target_counts = row_counts(target)
    results = [
        TableCopied(table.name, source_counts[table.name], target_counts[table.name])
        for table in data_tables()
    ]
    missing = [result for result in results if not result.complete]
    if missing:
        raise StoreError(
            "the copy is incomplete: "
            + ", ".join(f"{r.table} has {r.target_rows:,} of {r.source_rows:,} rows" for r in missing),
            f"nothing else was changed in {source.where}; empty the target and copy again",
        )
    return results


def _copy_meta(reading: Session, writing: Session) -> None:
    """The source's revision counter (the schema version is the target's own, and the same)."""
    revision = reading.scalar(select(Meta.value).where(Meta.key == "revision"))
    writing.execute(update(Meta).where(Meta.key == "revision").values(value=str(revision or 0)))
