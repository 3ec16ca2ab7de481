"""One search box across every kind of memory, results grouped by kind."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import text

from memdesk.core.search_text import fts_query, query_words
from memdesk.services.context import Context


@dataclass(frozen=True)
class SearchResult:
    kind: str  # "knowledge", "timeline", "app", "document"
    ref: str  # entry id, app memory id, or namespace: what the GUI opens
    title: str
    snippet: str


_QUERIES = {
    "entries": """
        SELECT e.category, e.id, e.key, snippet(entries_fts, 1, '[', ']', '…', 12)
        FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid
        WHERE entries_fts MATCH :query AND e.deleted_at IS NULL
        ORDER BY rank LIMIT :limit""",
    "app": """
        SELECT 'app', m.id, m.app_id, snippet(app_memories_fts, 0, '[', ']', '…', 12)
        FROM app_memories_fts JOIN app_memories m ON m.id = app_memories_fts.rowid
        WHERE app_memories_fts MATCH :query AND m.deleted_at IS NULL
        ORDER BY rank LIMIT :limit""",
    "document": """
        SELECT 'document', d.namespace, d.namespace, snippet(pieces_fts, 0, '[', ']', '…', 12)
        FROM pieces_fts JOIN document_pieces p ON p.id = pieces_fts.rowid
        JOIN documents d ON d.id = p.document_id
        WHERE pieces_fts MATCH :query AND d.deleted_at IS NULL
        ORDER BY rank LIMIT :limit""",
}

KIND_ORDER = ("document", "knowledge", "timeline", "app")


class Search:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def search(self, query: str, limit_per_kind: int = 20) -> dict[str, list[SearchResult]]:
        match = fts_query(query_words(query))
        grouped: dict[str, list[SearchResult]] = {kind: [] for kind in KIND_ORDER}
        if match is None:
            return grouped
        with self.ctx.store.read() as session:
            for statement in _QUERIES.values():
                rows = session.execute(text(statement), {"query": match, "limit": limit_per_kind * 2})
                for kind, ref, title, snippet in rows:
                    bucket = grouped[kind]
                    if len(bucket) < limit_per_kind and all(r.ref != str(ref) for r in bucket):
                        bucket.append(SearchResult(kind, str(ref), str(title), snippet))
        return grouped
