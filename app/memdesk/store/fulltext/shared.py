"""SQL both engines' full-text modules write the same way: the entry filters and the LIKE
fallback's patterns."""

from __future__ import annotations

from memdesk.core.search_text import like_pattern


def entry_filters(alias: str) -> str:
    """The entry filters over the entries table aliased ``alias``.

    The casts name each parameter's type where nothing else does (PostgreSQL asks for it)."""
    return f"""
    AND (CAST(:category AS VARCHAR) IS NULL OR {alias}.category = :category)
    AND (CAST(:since AS TIMESTAMP) IS NULL OR {alias}.created_at >= :since)
    AND (CAST(:until AS TIMESTAMP) IS NULL OR {alias}.created_at <= :until)
"""


ENTRY_FILTERS = entry_filters("e")

# The entry ``e`` written right after each entry ``a`` chosen by ``{anchors}``: both engines'
# ids grow with each insert, so it is the next id.
WRITTEN_AFTER = """SELECT e.key, e.content, e.category, e.created_at, a.key
    FROM entries a JOIN entries e ON e.id = a.id + 1
    WHERE {anchors} AND {live} """ + ENTRY_FILTERS


def like_clause(column: str, count: int, operator: str = "LIKE") -> str:
    """``column`` contains any of ``count`` words (parameters ``:w0``… from ``like_params``)."""
    return "(" + " OR ".join(f"{column} {operator} :w{i} ESCAPE '\\'" for i in range(count)) + ")"


def like_params(words: list[str]) -> dict[str, str]:
    return {f"w{i}": like_pattern(word) for i, word in enumerate(words)}
