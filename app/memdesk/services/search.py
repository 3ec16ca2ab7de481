"""One search box across every kind of memory, results grouped by kind."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import text

from memdesk.core.items import ItemKind, ItemRef
from memdesk.core.search_text import fts_query, query_words
from memdesk.services.context import Context


@dataclass(frozen=True)
class SearchResult:
    group: str  # one of GROUP_ORDER: the heading it is listed under
    item: ItemRef  # what the GUI opens
    title: str
    snippet: str

    @property
    def ref(self) -> str:
        return self.item.ref


_QUERIES = {
    ItemKind.ENTRY: """
        SELECT e.category, e.id, e.key, snippet(entries_fts, 1, '[', ']', '…', 12)
        FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid
        WHERE entries_fts MATCH :query AND e.deleted_at IS NULL
        ORDER BY rank LIMIT :limit""",
    ItemKind.APP_MEMORY: """
        SELECT 'app_memory', m.id, m.app_id, snippet(app_memories_fts, 0, '[', ']', '…', 12)
        FROM app_memories_fts JOIN app_memories m ON m.id = app_memories_fts.rowid
        WHERE app_memories_fts MATCH :query AND m.deleted_at IS NULL
        ORDER BY rank LIMIT :limit""",
    ItemKind.DOCUMENT: """
        SELECT 'document', d.namespace, d.namespace, snippet(pieces_fts, 0, '[', ']', '…', 12)
        FROM pieces_fts JOIN document_pieces p ON p.id = pieces_fts.rowid
        JOIN documents d ON d.id = p.document_id
        WHERE pieces_fts MATCH :query AND d.deleted_at IS NULL
        ORDER BY rank LIMIT :limit""",
}

# Entries are listed by category; everything else under its kind.
GROUP_ORDER = (ItemKind.DOCUMENT, "knowledge", "timeline", ItemKind.APP_MEMORY)


class Search:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def search(self, query: str, limit_per_kind: int = 20) -> dict[str, list[SearchResult]]:
        match = fts_query(query_words(query))
        grouped: dict[str, list[SearchResult]] = {group: [] for group in GROUP_ORDER}
        if match is None:
            return grouped
        with self.ctx.store.read() as session:
            for kind, statement in _QUERIES.items():
                rows = session.execute(text(statement), {"query": match, "limit": limit_per_kind * 2})
                for group, ref, title, snippet in rows:
                    bucket = grouped[group]
                    if len(bucket) < limit_per_kind and all(r.ref != str(ref) for r in bucket):
                        bucket.append(SearchResult(group, ItemRef(kind, str(ref)), str(title), snippet))
        return grouped
