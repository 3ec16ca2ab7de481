"""Full-text recall: BM25 over FTS5, with a LIKE match as the fallback.

Queries are built from the words of any user text (see ``core.search_text``), so no input
can raise a syntax error.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam, text
from sqlalchemy.orm import Session

from memdesk.core.search_text import fts_query, like_pattern, query_words
from memdesk.core.timefmt import naive_utc
from memdesk.errors import BadInputError
from memdesk.services.context import Context
from memdesk.services.entries import check_category


@dataclass(frozen=True)
class Hit:
    kind: str  # "knowledge", "timeline", "app", "document"
    ref: str  # entry key, app memory id, or namespace
    label: str  # what the prompt shows before the text
    text: str
    score: float  # lower is better (BM25 as FTS5 reports it); 0 for LIKE matches


_LIVE_ENTRY = """
    e.deleted_at IS NULL
    AND (e.pinned = 1 OR e.expires_at > :now
         OR (e.expires_at IS NULL AND (e.category != 'timeline' OR e.created_at > :cutoff)))
"""
_ENTRY_FILTERS = """
    AND (:category IS NULL OR e.category = :category)
    AND (:since IS NULL OR e.created_at >= :since)
    AND (:until IS NULL OR e.created_at <= :until)
"""
_ENTRIES_FTS = f"""
    SELECT e.key, e.content, e.category, bm25(entries_fts) AS score
    FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid
    WHERE entries_fts MATCH :query AND {_LIVE_ENTRY} {_ENTRY_FILTERS}
    ORDER BY score LIMIT :limit
"""
_PIECES_FTS = """
    SELECT d.namespace, p.text, bm25(pieces_fts) AS score
    FROM pieces_fts JOIN document_pieces p ON p.id = pieces_fts.rowid
    JOIN documents d ON d.id = p.document_id
    WHERE pieces_fts MATCH :query AND d.deleted_at IS NULL AND d.namespace IN :namespaces
    ORDER BY score LIMIT :limit
"""


def _like_clause(column: str, count: int) -> str:
    return "(" + " OR ".join(f"{column} LIKE :w{i} ESCAPE '\\'" for i in range(count)) + ")"


def _like_params(words: list[str]) -> dict[str, str]:
    return {f"w{i}": like_pattern(word) for i, word in enumerate(words)}


class Recall:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def _entry_params(
        self, now: datetime, category: str | None, since: datetime | None, until: datetime | None
    ) -> dict[str, object]:
        retention = self.ctx.settings.memory.timeline_retention_days
        return {
            "now": now,
            "cutoff": now - timedelta(days=retention),
            "category": category,
            "since": since,
            "until": until,
        }

    def entries(
        self,
        query: str,
        limit: int = 5,
        category: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        now: datetime | None = None,
    ) -> list[Hit]:
        """Live entries matching ``query``, best first.

        ``since``, ``until`` and ``now``: an aware time is converted to UTC, a naive one means UTC.
        """
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
            raise BadInputError(f"limit must be a whole number from 1 to 1000, not {limit!r}")
        if category is not None:
            check_category(category)
        words = query_words(query)
        since, until = naive_utc(since), naive_utc(until)
        params = self._entry_params(naive_utc(now) or self.ctx.now(), category, since, until)
        with self.ctx.store.read() as session:
            return self._entries(session, words, params, limit)

    def _entries(
        self, session: Session, words: list[str], params: dict[str, object], limit: int
    ) -> list[Hit]:
        match = fts_query(words)
        if match is None:
            return []
        rows = session.execute(text(_ENTRIES_FTS), {**params, "query": match, "limit": limit}).all()
        if not rows:
            like = f"""SELECT e.key, e.content, e.category, 0.0 FROM entries e
                WHERE {_LIVE_ENTRY} {_ENTRY_FILTERS}
                AND ({_like_clause("e.key", len(words))} OR {_like_clause("e.content", len(words))})
                ORDER BY e.importance DESC, e.updated_at DESC LIMIT :limit"""
            rows = session.execute(text(like), {**params, **_like_params(words), "limit": limit}).all()
        return [Hit(row[2], row[0], row[0], row[1], float(row[3])) for row in rows]

    def for_prompt(self, message: str, namespace: str, limit: int, now: datetime) -> list[Hit]:
        """Knowledge entries and paragraphs of ``{ns}/patterns`` and ``{ns}/facts``, best first."""
        words = query_words(message)
        match = fts_query(words)
        if match is None:
            return []
        namespaces = [f"{namespace}/patterns", f"{namespace}/facts"] if namespace else []
        params = self._entry_params(now, "knowledge", None, None)
        with self.ctx.store.read() as session:
            hits = self._entries(session, words, params, limit)
            if namespaces:
                hits += self._pieces(session, words, match, namespaces, limit)
        return sorted(hits, key=lambda hit: hit.score)[:limit]

    @staticmethod
    def _pieces(
        session: Session, words: list[str], match: str, namespaces: list[str], limit: int
    ) -> list[Hit]:
        statement = text(_PIECES_FTS).bindparams(bindparam("namespaces", expanding=True))
        rows = session.execute(statement, {"query": match, "namespaces": namespaces, "limit": limit}).all()
        if not rows:
            like = text(
                f"""SELECT d.namespace, p.text, 0.0 FROM document_pieces p
                JOIN documents d ON d.id = p.document_id
                WHERE d.deleted_at IS NULL AND d.namespace IN :namespaces
                AND {_like_clause("p.text", len(words))} ORDER BY d.namespace, p.position LIMIT :limit"""
            ).bindparams(bindparam("namespaces", expanding=True))
            rows = session.execute(
                like, {"namespaces": namespaces, "limit": limit, **_like_params(words)}
            ).all()
        return [Hit("document", row[0], row[0], row[1], float(row[2])) for row in rows]
