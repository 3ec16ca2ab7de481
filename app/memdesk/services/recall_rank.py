"""One scale for recall candidates from different indexes.

Each candidate list (entries, document paragraphs, the trigram index) is scored by its own
FTS5 table, and BM25 from two tables is not comparable. So every candidate gets

    score = (BM25_WEIGHT * bm25 / best bm25 of its list + coverage + PAIR_WEIGHT * pairs)
            * time boost

where ``coverage`` is the weighted share of the question's words the text holds and
``pairs`` the share of neighbouring question words that stand close together in it
(``core.term_match``), the same measures for every source. A word's weight falls with the
share of all candidates holding it, so a name found everywhere counts little next to a rarer
word. A strong paragraph thus beats a weak entry and vice versa.
A date named in the question multiplies the score of entries written in that window; it
never removes anything. Ties go to the newer entry; a document paragraph (no time of its own:
the document is kept current) counts as newest.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from memdesk.core.query_dates import TimeWindow
from memdesk.core.term_match import match

BM25_WEIGHT = 0.25
WINDOW_BOOST = 1.0
PAIR_WEIGHT = 0.2


@dataclass(frozen=True)
class Candidate:
    kind: str
    ref: str
    label: str
    text: str
    bm25: float  # relevance from its own table, higher is better; 0 when not from FTS
    created_at: datetime | None = None


@dataclass(frozen=True)
class Terms:
    words: list[str]
    runs: list[str]  # parts written without spaces (see ``core.search_text.no_space_runs``)
    window: TimeWindow | None


def normalised(candidates: list[Candidate]) -> list[tuple[Candidate, float]]:
    """Each candidate with its BM25 as a share of the best in its list (0..1)."""
    best = max((c.bm25 for c in candidates), default=0.0)
    return [(c, c.bm25 / best if best > 0 else 0.0) for c in candidates]


def _weights(found: list[list[float]]) -> list[float]:
    """Per query word: ``log(1 + n / (1 + candidates holding it))``, an IDF over the candidates."""
    count = len(found)
    return [math.log(1 + count / (1 + sum(row[i] for row in found))) for i in range(len(found[0]))]


def rank(lists: Iterable[list[Candidate]], terms: Terms) -> list[tuple[Candidate, float]]:
    """Candidates of every list on one scale, best first, each once (at its best score)."""
    scored = [pair for candidates in lists for pair in normalised(candidates)]
    if not scored:
        return []
    matched = [match(terms.words, terms.runs, candidate.text) for candidate, _share in scored]
    found = [hits for hits, _together in matched]
    weights = _weights(found) if found[0] else []
    total = sum(weights) or 1.0
    best: dict[tuple[str, str, str], tuple[Candidate, float]] = {}
    for (candidate, share), (hits, together) in zip(scored, matched, strict=True):
        coverage = sum(w * h for w, h in zip(weights, hits, strict=True)) / total
        score = BM25_WEIGHT * share + coverage + PAIR_WEIGHT * together
        if terms.window is not None and terms.window.contains(candidate.created_at):
            score *= 1 + WINDOW_BOOST
        ident = (candidate.kind, candidate.ref, candidate.text)
        if ident not in best or best[ident][1] < score:
            best[ident] = (candidate, score)
    return sorted(best.values(), key=lambda pair: (pair[1], pair[0].created_at or datetime.max), reverse=True)
