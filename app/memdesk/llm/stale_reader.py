"""The learned reader of stale facts: offline, which stored lines a sentence of the person's says
are no longer current, when no rule changed them.

A logistic regression over ``llm.stale_features`` (trained by
``scripts/train_stale_reader.py`` on the scenario splits and training files of
``tests/data/updates``; its manifest names the sources, the split and its leave-one-source-out
figures) gives each pair of a sentence and a stored line the probability that the sentence
states the line's change. For each candidate line no rule edits, its likeliest sentence is
read; past the shipped threshold (chosen for precision on sources, each of its own authors,
the model did not learn from), the line is proposed marked past with the person's words and
the date, never rewritten, as a suggestion only: ``compact --yes`` leaves it out. A question, a
supposition, a plan or a later date, someone else's news, a line already past or someone else's
line are never marked.

Where the mark goes: after a one-fact line, or after the clause of a line of several facts that
the sentence clearly shares words or a value's shape with; after an entry or a memory. When no
clause is clearly the one, the line is left and the pair is only listed in the notes.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from memdesk.core.dates import MONTHS, WRITTEN_DATE
from memdesk.core.slots import household_names
from memdesk.llm.changes import Edit, Known, Said
from memdesk.llm.stale_features import (
    APART,
    BUCKETS,
    TIED,
    compared,
    hashed,
    line_features,
    markable,
    pair_features,
    read_line,
    read_sentence,
    sentence_features,
)
from memdesk.resources import resources_root

WEIGHTS, MANIFEST = "weights.json", "manifest.json"
PATH_VARIABLE = "MEMDESK_STALE_READER"  # a folder of other weights (a split held out, for the benchmark)
_CLAUSE_END = re.compile(r"\.\s+|;\s+|,\s+|\s+[—–]\s+")
_TRAILING = re.compile(r"[\s.;,]*$")


@dataclass(frozen=True)
class Reader:
    weights: list[float]
    threshold: float


@dataclass(frozen=True)
class Suggested:
    """What the reader proposes: the lines it marks (numbered after the others), the edits that
    mark them, and the pairs it only lists."""

    known: list[Known]
    edits: list[Edit]
    notes: list[str]


def probability(weights: Sequence[float], buckets: Sequence[int]) -> float:
    return _logistic(sum(weights[bucket] for bucket in buckets))


def _logistic(score: float) -> float:
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, score))))


def _sum(model: Reader, named: list[str]) -> float:
    weights = model.weights
    return sum(weights[bucket] for bucket in hashed(named))


def weights_dir() -> Path:
    override = os.environ.get(PATH_VARIABLE)
    return Path(override) if override else resources_root() / "stale_reader"


@lru_cache(maxsize=4)
def _load(folder: Path) -> Reader | None:
    try:
        stored = json.loads((folder / WEIGHTS).read_text(encoding="utf-8"))
        threshold = float(json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["threshold"])
    except (OSError, ValueError, KeyError):
        return None  # no reader: the rules alone, as before it was trained
    weights = [0.0] * BUCKETS
    for bucket, weight in stored.items():
        weights[int(bucket)] = float(weight)
    return Reader(weights, threshold)


def reader() -> Reader | None:
    """The reader of ``weights_dir()``; None when its files are missing or unreadable."""
    return _load(weights_dir())


def suggestions(
    said: Sequence[Said],
    candidates: Sequence[Known],
    rules: Sequence[tuple[str, str]],
    first: int,
    memory_chars: int,
) -> Suggested:
    """The marks the reader proposes on ``candidates``, numbered from ``first``. ``rules``: the
    (line, evidence) of each edit a rule made; neither that line, nor another holding a value it
    holds (the rules chose the place), nor any line for a sentence that is a rule's evidence or
    whose likeliest line a rule edits, is marked. An app memory the mark would make longer than
    ``memory_chars`` is only listed."""
    found = Suggested([], [], [])
    model = reader()
    if model is None or not said:
        return found
    household = household_names("\n".join(fact.text for fact in candidates if fact.where == "profile"))
    lines = tuple(fact.text for fact in candidates)
    # Read as the person wrote it, without the dates the store wrote after relative ones: so the
    # reader learned it (and they are no words of the person's to quote).
    typed = [WRITTEN_DATE.sub("", s.text).strip() for s in said]
    messages: dict[int, str] = {}
    for s, text in zip(said, typed, strict=True):
        messages[s.turn] = f"{messages.get(s.turn, '')} {text}".strip()
    sentences = [
        (s, read_sentence(text, messages[s.turn], lines, s.at)) for s, text in zip(said, typed, strict=True)
    ]
    edited = {line for line, _evidence in rules}
    used = {evidence for _line, evidence in rules}
    open_facts = [(fact, read_line(fact.text, fact.where, household)) for fact in candidates]
    # A value a rule changes in one place and kept in another: the rules chose the place.
    decided = {value for fact, line in open_facts if fact.text in edited for value in line.values}
    # Each pair the reader may mark, scored; a line is marked for its likeliest sentence only
    # when that sentence is likeliest for no other line.
    # The sentence's and the line's own features are summed once each, tied or apart.
    by_sentence = [
        {r: _sum(model, sentence_features(read, r)) for r in (TIED, APART)} for _s, read in sentences
    ]
    by_line = [{r: _sum(model, line_features(line, r)) for r in (TIED, APART)} for _fact, line in open_facts]
    standing = compared([read for _s, read in sentences], [line for _fact, line in open_facts])
    scored = []
    for i, (_s, read) in enumerate(sentences):
        for j, (_fact, line) in enumerate(open_facts):
            if markable(read, line):
                related, shared = pair_features(read, line)
                score = (
                    _sum(model, [*shared, *standing[i][j]]) + by_sentence[i][related] + by_line[j][related]
                )
                scored.append((_logistic(score), i, j))
    best_of_line: dict[int, float] = {}
    best_of_sentence: dict[int, float] = {}
    for p, i, j in scored:
        best_of_line[j] = max(p, best_of_line.get(j, 0.0))
        best_of_sentence[i] = max(p, best_of_sentence.get(i, 0.0))
    marked: set[int] = set()
    for p, i, j in scored:
        (s, read), (fact, line) = sentences[i], open_facts[j]
        if p < model.threshold or j in marked or p < best_of_line[j] or p < best_of_sentence[i]:
            continue
        marked.add(j)
        if fact.text in edited or s.text in used or decided & line.values:
            continue
        quote = WRITTEN_DATE.sub("", s.text).strip()
        mark = f" (until {s.at.day} {MONTHS[s.at.month - 1]} {s.at.year}: “{quote}”)"
        new_text = _marked(fact, read.stems, read.values, mark)
        said_of = f"“{fact.text}” — the person said: “{quote}”"
        if new_text is None or (fact.where == "app" and len(new_text) > memory_chars):
            found.notes.append(
                f"May be out of date: {said_of}; it is left as it is (which of its facts ended is "
                "not clear, or the mark does not fit)."
            )
            continue
        number = first + len(found.known)
        found.known.append(Known(number, fact.where, fact.ref, fact.text))
        why = (
            f"May be out of date: {said_of} (read by the learned reader, {p:.0%} likely; "
            "marked past, not rewritten)"
        )
        found.edits.append(Edit("retire", number, new_text, why, evidence=s.text, sure=False))
    return found


def _marked(fact: Known, stems: frozenset[str], values: frozenset[tuple[str, str]], mark: str) -> str | None:
    """The fact with ``mark`` after it, or after the clause the sentence clearly concerns;
    None when it holds several and none is clearly the one."""
    text = fact.text.rstrip()
    if fact.where in ("entry", "app"):
        return _TRAILING.sub("", text) + mark + text[len(_TRAILING.sub("", text)) :]
    ends = [m.start() for m in _CLAUSE_END.finditer(text)]
    if not ends:
        body = _TRAILING.sub("", text)
        return body + mark + text[len(body) :]
    starts = [0, *(m.end() for m in _CLAUSE_END.finditer(text))]
    clauses = [(start, end) for start, end in zip(starts, [*ends, len(text)], strict=True)]
    kinds = {kind for kind, _key in values}
    scores = []
    for start, end in clauses:
        clause = read_line(text[start:end], fact.where, frozenset())
        other = {kind for kind, key in clause.values if kind in kinds and (kind, key) not in values}
        scores.append(len(clause.stems & stems) + 2 * len(other))
    ranked = sorted(scores, reverse=True)
    if ranked[0] == 0 or ranked[0] == ranked[1]:
        return None
    _start, end = clauses[scores.index(ranked[0])]
    body = _TRAILING.sub("", text[:end])
    return body + mark + text[len(body) :]
