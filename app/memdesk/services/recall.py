"""Full-text recall: candidates from FTS5 (stemmed words) and the trigram index (scripts
without spaces), ranked on one scale (``recall_rank``), with a LIKE match as the fallback.

Queries are built from the words of any user text (see ``core.search_text``), so no input
can raise a syntax error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam, text
from sqlalchemy.orm import Session

from memdesk.core.query_dates import find_date
from memdesk.core.search_text import fts_query, like_pattern, no_space_runs, query_words
from memdesk.core.timefmt import naive_utc
from memdesk.errors import BadInputError
from memdesk.services.context import Context
from memdesk.services.entries import check_category
from memdesk.services.recall_rank import Candidate, Terms, rank
from memdesk.store.lifetime import entry_live_sql


@dataclass(frozen=True)
class Hit:
    kind: str  # "knowledge", "timeline", "app", "document"
    ref: str  # entry key, app memory id, or namespace
    label: str  # what the prompt shows before the text
    text: str
    score: float  # higher is better; comparable between entries and document paragraphs


# Candidates taken from each index before ranking: enough for coverage and dates to reorder.
CANDIDATES = 30
# Best full-text matches looked at before the entry filters (live, category, dates) apply.
# Filtering every match costs one row read per match, most of the time at a million
# entries; the top fifty almost always hold the candidates. When the filters leave
# too few of them, every match is ranked (``_ENTRIES_FTS``).
FTS_TOP = 50
# For a date named in the question: how deep in the ranking to look for what it covers.
WINDOW_TOP = 500

_LIVE_ENTRY = entry_live_sql("e")
_ENTRY_FILTERS = """
    AND (:category IS NULL OR e.category = :category)
    AND (:since IS NULL OR e.created_at >= :since)
    AND (:until IS NULL OR e.created_at <= :until)
"""
_ENTRY_COLUMNS = "e.key, e.content, e.category, e.created_at"
_ENTRIES_FTS = f"""
    SELECT {_ENTRY_COLUMNS}, -entries_fts.rank AS score
    FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid
    WHERE entries_fts MATCH :query AND {_LIVE_ENTRY} {_ENTRY_FILTERS}
    ORDER BY score DESC LIMIT :limit
"""
_FTS_TOP = "SELECT rowid, -rank FROM entries_fts WHERE entries_fts MATCH :query ORDER BY rank LIMIT :top"
_ENTRIES_BY_ID = f"""
    SELECT e.id, {_ENTRY_COLUMNS} FROM entries e
    WHERE e.id IN (SELECT value FROM json_each(:ids)) AND {_LIVE_ENTRY} {_ENTRY_FILTERS}
"""
_PIECES_FTS = """
    SELECT d.namespace, p.text, -bm25(pieces_fts) AS score
    FROM pieces_fts JOIN document_pieces p ON p.id = pieces_fts.rowid
    JOIN documents d ON d.id = p.document_id
    WHERE pieces_fts MATCH :query AND d.deleted_at IS NULL AND d.namespace IN :namespaces
    ORDER BY score DESC LIMIT :limit
"""


def _raw_rows(session: Session, sql: str, params: dict[str, object]) -> list:
    """Rows of the hot full-text query straight from the driver, without SQLAlchemy's per-call
    work (a sizeable share of a millisecond query). Times are passed as the text the store
    holds (SQLAlchemy's SQLite format)."""
    values = {
        key: value.isoformat(sep=" ", timespec="microseconds") if isinstance(value, datetime) else value
        for key, value in params.items()
    }
    return session.connection().connection.driver_connection.execute(sql, values).fetchall()


def _filtered(
    session: Session, ranked: list, params: dict[str, object], limit: int
) -> list[Candidate]:
    """The entries of ``ranked`` (rowid, relevance) that pass the filters, best first."""
    if not ranked:
        return []
    relevance = dict(ranked)
    ids = json.dumps(list(relevance))
    passed = _raw_rows(session, _ENTRIES_BY_ID, {**params, "ids": ids})
    rows = [(*row[1:], relevance[row[0]]) for row in passed]
    rows.sort(key=lambda row: row[4], reverse=True)
    return _entry_candidates(rows[:limit])


def _like_clause(column: str, count: int) -> str:
    return "(" + " OR ".join(f"{column} LIKE :w{i} ESCAPE '\\'" for i in range(count)) + ")"


def _like_params(words: list[str]) -> dict[str, str]:
    return {f"w{i}": like_pattern(word) for i, word in enumerate(words)}


def _run_match(runs: list[str]) -> tuple[str | None, list[str]]:
    """A trigram MATCH for the runs of three characters or more, and the shorter runs."""
    trigrams = [run[i : i + 3] for run in runs for i in range(len(run) - 2)]
    short = [run for run in runs if len(run) < 3]
    return fts_query(list(dict.fromkeys(trigrams))), short


def _no_space_clause(table: str, runs: list[str]) -> tuple[str, dict[str, str]]:
    """Rows of a trigram table holding any of ``runs``: by its index, or ``instr`` for short runs."""
    match, short = _run_match(runs)
    clauses = (
        [f"{table}.rowid IN (SELECT rowid FROM {table} WHERE {table} MATCH :cjk_match)"] if match else []
    )
    params = {"cjk_match": match} if match else {}
    for index, run in enumerate(short):
        clauses.append(f"instr({table}.text, :cjk{index}) > 0")
        params[f"cjk{index}"] = run
    return " OR ".join(clauses), params


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

    @staticmethod
    def terms(query: str, now: datetime) -> Terms:
        dated = find_date(query, now)
        return Terms(query_words(dated.text), no_space_runs(dated.text), dated.window)

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
        since, until = naive_utc(since), naive_utc(until)
        now = naive_utc(now) or self.ctx.now()
        terms = self.terms(query, now)
        params = self._entry_params(now, category, since, until)
        with self.ctx.store.read() as session:
            lists = self._entry_lists(session, terms, params, max(limit, CANDIDATES))
        return [_hit(candidate, score) for candidate, score in rank(lists, terms)[:limit]]

    def _entry_lists(
        self, session: Session, terms: Terms, params: dict[str, object], limit: int
    ) -> list[list[Candidate]]:
        lists: list[list[Candidate]] = []
        match = fts_query(terms.words)
        if match is not None:
            run = {**params, "query": match, "limit": limit}
            top = max(FTS_TOP, limit)
            # What a date named in the question covers may rank below the best of all time:
            # then one deeper pass serves both lists.
            explicit = params["since"] is not None or params["until"] is not None
            window = None if explicit else terms.window
            depth = top if window is None else max(top, WINDOW_TOP)
            ranked = _raw_rows(session, _FTS_TOP, {"query": match, "top": depth})
            found = _filtered(session, ranked[:top], run, limit)
            if len(found) < limit and len(ranked) >= top:
                found = _entry_candidates(_raw_rows(session, _ENTRIES_FTS, run))
            lists.append(found)
            if window is not None:
                within = {**run, "since": window.start, "until": window.end}
                lists.append(_filtered(session, ranked, within, limit))
        if terms.runs:
            clause, run_params = _no_space_clause("entries_cjk", terms.runs)
            statement = f"""SELECT {_ENTRY_COLUMNS}, 0.0 FROM entries_cjk JOIN entries e
                ON e.id = entries_cjk.rowid WHERE ({clause}) AND {_LIVE_ENTRY} {_ENTRY_FILTERS}
                LIMIT :limit"""
            rows = session.execute(text(statement), {**params, **run_params, "limit": limit}).all()
            lists.append(_entry_candidates(rows))
        if not any(lists):
            lists = [self._like_entries(session, terms, params, limit)]
        return lists

    @staticmethod
    def _like_entries(
        session: Session, terms: Terms, params: dict[str, object], limit: int
    ) -> list[Candidate]:
        words = terms.words + terms.runs
        if not words:
            return []
        like = f"""SELECT {_ENTRY_COLUMNS}, 0.0 FROM entries e
            WHERE {_LIVE_ENTRY} {_ENTRY_FILTERS}
            AND ({_like_clause("e.key", len(words))} OR {_like_clause("e.content", len(words))})
            ORDER BY e.importance DESC, e.updated_at DESC LIMIT :limit"""
        return _entry_candidates(
            session.execute(text(like), {**params, **_like_params(words), "limit": limit}).all()
        )

    def for_prompt(self, message: str, namespace: str, limit: int, now: datetime) -> list[Hit]:
        """Knowledge entries and paragraphs of ``{ns}/patterns`` and ``{ns}/facts``, best first."""
        terms = self.terms(message, now)
        if not terms.words and not terms.runs:
            return []
        namespaces = [f"{namespace}/patterns", f"{namespace}/facts"] if namespace else []
        params = self._entry_params(now, "knowledge", None, None)
        with self.ctx.store.read() as session:
            lists = self._entry_lists(session, terms, params, max(limit, CANDIDATES))
            if namespaces:
                lists += self._pieces(session, terms, namespaces, max(limit, CANDIDATES))
        return [_hit(candidate, score) for candidate, score in rank(lists, terms)[:limit]]

    @staticmethod
    def _pieces(session: Session, terms: Terms, namespaces: list[str], limit: int) -> list[list[Candidate]]:
        lists: list[list[Candidate]] = []
        params: dict[str, object] = {"namespaces": namespaces, "limit": limit}
        match = fts_query(terms.words)
        if match is not None:
            statement = text(_PIECES_FTS).bindparams(bindparam("namespaces", expanding=True))
            lists.append(_piece_candidates(session.execute(statement, {**params, "query": match}).all()))
        if terms.runs:
            clause, run_params = _no_space_clause("pieces_cjk", terms.runs)
            statement = text(
                f"""SELECT d.namespace, p.text, 0.0 FROM pieces_cjk
                JOIN document_pieces p ON p.id = pieces_cjk.rowid JOIN documents d ON d.id = p.document_id
                WHERE ({clause}) AND d.deleted_at IS NULL AND d.namespace IN :namespaces LIMIT :limit"""
            ).bindparams(bindparam("namespaces", expanding=True))
            lists.append(_piece_candidates(session.execute(statement, {**params, **run_params}).all()))
        if not any(lists) and terms.words:
            like = text(
                f"""SELECT d.namespace, p.text, 0.0 FROM document_pieces p
                JOIN documents d ON d.id = p.document_id
                WHERE d.deleted_at IS NULL AND d.namespace IN :namespaces
                AND {_like_clause("p.text", len(terms.words))}
                ORDER BY d.namespace, p.position LIMIT :limit"""
            ).bindparams(bindparam("namespaces", expanding=True))
            lists = [_piece_candidates(session.execute(like, {**params, **_like_params(terms.words)}).all())]
        return lists


def _entry_candidates(rows: list) -> list[Candidate]:
    return [
        Candidate(row[2], row[0], row[0], row[1], float(row[4]), datetime.fromisoformat(row[3]))
        for row in rows
    ]


def _piece_candidates(rows: list) -> list[Candidate]:
    return [Candidate("document", row[0], row[0], row[1], float(row[2])) for row in rows]


def _hit(candidate: Candidate, score: float) -> Hit:
    return Hit(candidate.kind, candidate.ref, candidate.label, candidate.text, score)
