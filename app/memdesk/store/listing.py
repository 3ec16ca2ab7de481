"""The SQL text of a Knowledge or timeline table's listing, without SQLAlchemy.

The entries service runs it through the store and the window's first page through plain
``sqlite3``: both read the same columns, in the same order, from the same statement.
Only these fragments and the sort columns the service allows reach the text; values are bound.
"""

from __future__ import annotations

from memdesk.core.entry_rows import StoredEntry

ENTRY_ROW_COLUMNS = ", ".join(StoredEntry._fields)
LISTED_ENTRIES = "category = :category AND deleted_at IS NULL"  # a table's entries before its filter
PRIVATE_TARGETS = "SELECT target FROM private_items"
SCHEMA_VERSION_SQL = "SELECT value FROM meta WHERE key = 'schema_version'"
# Sort keys to columns.
ENTRY_SORT_COLUMNS: dict[str, str] = {
    "key": "key",
    "content": "content",
    "importance": "importance",
    "session": "session_id",
    "created": "created_at",
    "updated": "updated_at",
}


def ordered_entries(columns: str, where: str, sort: str, descending: bool, limited: bool) -> str:
    """``columns`` of the entries ``where`` selects, sorted by ``sort`` (ties by id), at most
    ``:limit`` of them when ``limited``."""
    order = "DESC" if descending else "ASC"
    # Empty values first going up, last going down, whatever the engine's default.
    nulls = "NULLS LAST" if descending else "NULLS FIRST"
    sql = f"SELECT {columns} FROM entries WHERE {where} ORDER BY {sort} {order} {nulls}, id {order}"
    return f"{sql} LIMIT :limit" if limited else sql
