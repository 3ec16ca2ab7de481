"""Full-text search, one module per engine: SQLite's FTS5 (``sqlite``) and PostgreSQL's
``tsvector`` (``postgresql``). Services ask through ``FullText`` and never write engine SQL.

Every operation takes the words of any user text (``core.search_text.query_words``), or
runs of a script written without spaces, and builds its query from them safely: no input
can raise a syntax error. Rows come back as plain tuples:

- entry rows: ``(key, content, category, created_at, score)``, higher score is better;
- next rows: ``(key, content, category, created_at, key of the entry written before)``;
- piece rows: ``(namespace, text, score)``;
- search rows: ``(group, ref, title, snippet)`` with ``[``/``]`` around the matched words.

``filters`` of entry queries: ``now``, ``cutoff`` (now less the timeline retention),
``category``, ``since``, ``until`` (each may be None but ``now`` and ``cutoff``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from memdesk.core.items import ItemKind

Row = tuple[Any, ...]


class FullText(Protocol):
    def create_indexes(self, conn: Connection) -> None: ...

    def best_entries(
        self, session: Session, words: list[str], depth: int, top: int, filters: dict[str, Any]
    ) -> tuple[list[tuple[int, float]], list[Row], dict[str, Row | None]]:
        """The ``depth`` best matching entry ids (any state) with their relevance, best first;
        the rows of the first ``top`` of them that pass ``filters``; and, where an engine
        reads them in the same round trip, for rows of those that ask something
        (``core.search_text.asks``), by key, the next row written after it that passes
        ``filters`` (None when there is none). Recall looks up the answers not given here
        with ``entries_written_after``."""
        ...

    def entries_by_id(
        self, session: Session, ranked: list[tuple[int, float]], filters: dict[str, Any]
    ) -> list[Row]:
        """Entry rows of ``ranked`` that pass ``filters``, scored by their relevance there."""
        ...

    def ranked_entries(
        self, session: Session, words: list[str], filters: dict[str, Any], limit: int
    ) -> list[Row]:
        """The best matching entries that pass ``filters``."""
        ...

    def entries_with_runs(
        self, session: Session, runs: list[str], filters: dict[str, Any], limit: int
    ) -> list[Row]:
        """Entries holding any of ``runs`` (text without spaces) that pass ``filters``, score 0."""
        ...

    def entries_like(
        self, session: Session, words: list[str], filters: dict[str, Any], limit: int
    ) -> list[Row]:
        """The fallback: entries whose key or text contains a word, most important first, score 0."""
        ...

    def newest_entries(self, session: Session, filters: dict[str, Any], limit: int) -> list[Row]:
        """The ``limit`` entries written last that pass ``filters``, score 0."""
        ...

    def entries_written_after(self, session: Session, keys: list[str], filters: dict[str, Any]) -> list[Row]:
        """The entry written right after each of ``keys`` (the next id), when it passes ``filters``."""
        ...

    def ranked_pieces(
        self, session: Session, words: list[str], namespaces: Sequence[str], limit: int
    ) -> list[Row]: ...

    def pieces_with_runs(
        self, session: Session, runs: list[str], namespaces: Sequence[str], limit: int
    ) -> list[Row]: ...

    def pieces_like(
        self, session: Session, words: list[str], namespaces: Sequence[str], limit: int
    ) -> list[Row]: ...

    def search(self, session: Session, kind: ItemKind, words: list[str], limit: int) -> list[Row]:
        """Items of ``kind`` (entries, app memories, documents) not in Trash, best first."""
        ...

    def matches(self, session: Session, kind: ItemKind, words: list[str], cap: int) -> int:
        """How many items of ``kind`` the index finds for any of ``words`` (in any state), counted
        up to ``cap``: what ranking them would read."""
        ...

    def entry_prefix_filter(self, words: list[str]) -> tuple[str, dict[str, Any]]:
        """A condition over the ``entries`` table: every word is the start of a word in the
        key or text (for a filter box being typed in), and its parameters."""
        ...
