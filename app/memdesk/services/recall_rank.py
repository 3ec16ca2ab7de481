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
never removes anything. A text that marks itself as past ("(until March 2026)", "formerly",
``core.slots.marked_past``) counts ``PAST_WEIGHT`` of its score, so the current fact it
was replaced by ranks above it. Ties go to the newer entry; a document paragraph (no time of its own:
the document is kept current) counts as newest.

A question and the fact that answers it often share no word ("Which gym am I at?", "Goes to
Planet Fitness in Burbank"). So when recall by meaning is on, every paragraph of the documents
is also measured by how alike its sentence vector is to the question's (``memdesk.meaning``):
what it has above ``MEANING_FLOOR`` counts ``MEANING_WEIGHT``. When the words leave places of
the prompt free, the latest knowledge entries are measured the same way. Those candidates are
scored after the word weights are set, so they never change how much a word counts.

An answer seldom repeats the question's words. So when an entry asks something, the entry
written right after it in the same conversation (its ``Answer``) gets most of the asking
entry's score (``ANSWER_WEIGHT``) on top of its own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from memdesk.core.query_dates import TimeWindow
from memdesk.core.search_text import asks
from memdesk.core.slots import marked_past
from memdesk.core.term_match import TermMatch

BM25_WEIGHT = 0.25
WINDOW_BOOST = 1.0
PAIR_WEIGHT = 0.2
ANSWER_WEIGHT = 0.8
PAST_WEIGHT = 0.5
MEANING_WEIGHT = 1.0
MEANING_FLOOR = 0.2  # unrelated sentences still have vectors about this alike

Ident = tuple[str, str, str]
# What ``TermMatch`` finds in a text, and whether the text marks itself as past.
Measure = tuple[list[float], float, bool]


@dataclass(frozen=True)
class Candidate:
    kind: str
    ref: str
    label: str
    text: str
    bm25: float  # relevance from its own table, higher is better; 0 when not from FTS
    created_at: datetime | None = None

    @property
    def ident(self) -> Ident:
        return (self.kind, self.ref, self.text)

    @property
    def asks(self) -> bool:
        return asks(self.text)


@dataclass(frozen=True)
class Terms:
    words: list[str]
    runs: list[str]  # parts written without spaces (see ``core.search_text.no_space_runs``)
    window: TimeWindow | None


@dataclass(frozen=True)
class Answer:
    """An entry written right after one that asks something, in the same conversation."""

    question: Candidate
    reply: Candidate


def normalised(candidates: list[Candidate]) -> list[tuple[Candidate, float]]:
    """Each candidate with its BM25 as a share of the best in its list (0..1)."""
    best = max((c.bm25 for c in candidates), default=0.0)
    return [(c, c.bm25 / best if best > 0 else 0.0) for c in candidates]


def _weights(found: list[list[float]]) -> list[float]:
    """Per query word: ``log(1 + n / (1 + candidates holding it))``, an IDF over the candidates."""
    count = len(found)
    return [math.log(1 + count / (1 + sum(row[i] for row in found))) for i in range(len(found[0]))]


class Ranking:
    """The candidates of every list on one scale; word weights come from these candidates."""

    def __init__(
        self,
        lists: Iterable[list[Candidate]],
        terms: Terms,
        by_meaning: list[Candidate] | None = None,
        likeness: Mapping[str, float] | None = None,
    ) -> None:
        """``by_meaning``: more candidates, measured after the word weights are set;
        ``likeness``: each paragraph's text with how alike it is to the question."""
        self.terms = terms
        self.likeness = likeness or {}
        self.match = TermMatch(terms.words, terms.runs)
        # By text: one found by two lists (a date's window and the best of all time) is measured once.
        self.measures: dict[str, Measure] = {}
        scored = [pair for candidates in lists for pair in normalised(candidates)]
        matched = [self._measure(candidate.text) for candidate, _share in scored]
        found = [hits for hits, _together, _past in matched]
        self.weights = _weights(found) if found and found[0] else []
        self.total = sum(self.weights) or 1.0
        self.best: dict[Ident, tuple[Candidate, float]] = {}
        for (candidate, share), measure in zip(scored, matched, strict=True):
            self._keep(candidate, self._score(candidate, share, measure))
        for candidate in by_meaning or []:
            if candidate.ident not in self.best:
                self._keep(candidate, self._score(candidate, 0.0, self._measure(candidate.text)))

    def _measure(self, text: str) -> Measure:
        if text not in self.measures:
            self.measures[text] = (*self.match(text), marked_past(text))
        return self.measures[text]

    def _score(self, candidate: Candidate, share: float, measure: Measure) -> float:
        hits, together, past = measure
        # No word weights when nothing matched a word: then only meaning can rank.
        weights = self.weights or [0.0] * len(hits)
        coverage = sum(w * h for w, h in zip(weights, hits, strict=True)) / self.total
        score = BM25_WEIGHT * share + coverage + PAIR_WEIGHT * together
        score += MEANING_WEIGHT * max(0.0, self.likeness.get(candidate.text, 0.0) - MEANING_FLOOR)
        if self.terms.window is not None and self.terms.window.contains(candidate.created_at):
            score *= 1 + WINDOW_BOOST
        if past:
            score *= PAST_WEIGHT
        return score

    def _keep(self, candidate: Candidate, score: float) -> None:
        if candidate.ident not in self.best or self.best[candidate.ident][1] < score:
            self.best[candidate.ident] = (candidate, score)

    def score_of(self, candidate: Candidate) -> float:
        """The score of a ranked candidate, or of any other text by the same measures."""
        if candidate.ident in self.best:
            return self.best[candidate.ident][1]
        return self._score(candidate, 0.0, self._measure(candidate.text))

    def ranked(self) -> list[tuple[Candidate, float]]:
        """Best first, each candidate once (at its best score)."""
        return sorted(
            self.best.values(), key=lambda pair: (pair[1], pair[0].created_at or datetime.max), reverse=True
        )

    def with_answers(self, answers: Iterable[Answer]) -> list[tuple[Candidate, float]]:
        """``ranked`` after each reply has taken its share of its question's score."""
        scores: dict[Ident, tuple[Candidate, float]] = {}
        for answer in answers:
            reply, lent = answer.reply, ANSWER_WEIGHT * self.score_of(answer.question)
            scores[reply.ident] = (reply, self.score_of(reply) + lent)
        for reply, score in scores.values():
            self._keep(reply, score)
        return self.ranked()
