"""The pairs the learned reader of stale facts learns from: (a sentence of the person's, a stored
line) of the scenarios in ``tests/data/updates``: the splits, the training files of ``train/``
(one author each, written for the reader to learn from, never scored as splits) and
``cases.json``.

A pair is positive when the scenario's ``gold`` edit targets the line and quotes the sentence
(or part of it, or a passage the sentence is part of) as its evidence; every other sentence
and line of a scenario, and every sentence and line of a control, is a negative.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from memdesk.core.slots import household_names
from memdesk.llm.changes import said_in
from memdesk.llm.stale_features import compared, features, hashed, markable, read_line, read_sentence

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "updates"
TRAINING = DATA / "train"
CASES = "cases"  # the project's own cases: always learned from, never held out
SAID = datetime(2026, 3, 1, 18, 0)  # when the protocol logs the conversation


@dataclass(frozen=True)
class Pair:
    split: str  # the source: "a".."i", a training file's name, or "cases"
    author: str  # who wrote the scenario
    scenario: str
    sentence: int  # its index among the scenario's sentences of the person's
    line: int  # its index among the scenario's stored lines
    buckets: list[int]
    positive: bool
    markable: bool  # the reader may mark the line for the sentence at all (``markable``)


@dataclass(frozen=True)
class Stored:
    where: str
    ref: str  # the line itself, the entry's key or the memory's text: as ``gold.target``
    text: str


def sources() -> list[Path]:
    """The data files, in a fixed order."""
    return [*sorted(DATA.glob("split-*.json")), *sorted(TRAINING.glob("*.json")), DATA / "cases.json"]


def training_only(path: Path) -> bool:
    """Whether ``path`` is a training file: learned from, never one of the scored splits."""
    return path.parent == TRAINING


def split_name(path: Path) -> str:
    return path.stem.removeprefix("split-")


def stored_lines(scenario: dict[str, Any]) -> list[Stored]:
    """Every line, entry and memory the protocol writes for the scenario."""
    store = scenario.get("store") or {}
    where, old = scenario["where"], scenario["old"]
    documents = {part: store.get(part) or "" for part in ("profile", "facts")}
    entries = dict(store.get("entries") or {})
    memories = {app: list(texts) for app, texts in (store.get("memories") or {}).items()}
    if where in documents:
        documents[where] = old
    elif where == "entry":
        entries[scenario["key"]] = old
    else:
        memories.setdefault(scenario["app"], []).append(old)
    found = [
        Stored(part, line.strip(), line.strip())
        for part, text in documents.items()
        for line in text.splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    found += [Stored("entry", key, text) for key, text in entries.items()]
    found += [Stored("app", text, text) for texts in memories.values() for text in texts]
    return found


def _quoted(sentence: str, evidence: str) -> bool:
    a, b = " ".join(sentence.split()), " ".join(evidence.split())
    return bool(a) and bool(b) and (b in a or a in b)


def scenario_pairs(split: str, author: str, scenario: dict[str, Any]) -> list[Pair]:
    lines = stored_lines(scenario)
    said = said_in([(role, text, SAID) for role, text in scenario["turns"]])
    texts = tuple(line.text for line in lines)
    messages: dict[int, str] = {}
    for s in said:
        messages[s.turn] = f"{messages.get(s.turn, '')} {s.text}".strip()
    profile = "\n".join(line.text for line in lines if line.where == "profile")
    household = household_names(profile)
    gold = [
        (edit["where"], edit["target"].strip(), edit.get("evidence") or "")
        for edit in scenario.get("gold") or []
    ]
    sentences = [read_sentence(s.text, messages[s.turn], texts, s.at) for s in said]
    reads = [read_line(line.text, line.where, household) for line in lines]
    standing = compared(sentences, reads)
    pairs = []
    for i, (s, sentence) in enumerate(zip(said, sentences, strict=True)):
        for j, (line, read) in enumerate(zip(lines, reads, strict=True)):
            positive = any(
                where == line.where and target == line.ref.strip() and _quoted(s.text, evidence)
                for where, target, evidence in gold
            )
            buckets = hashed([*features(sentence, read), *standing[i][j]])
            pairs.append(
                Pair(split, author, scenario["id"], i, j, buckets, positive, markable(sentence, read))
            )
    return pairs


def all_pairs() -> tuple[list[Pair], dict[str, int], dict[str, int]]:
    """Every pair; the number of scenarios and of gold edits of each split."""
    pairs: list[Pair] = []
    scenarios: dict[str, int] = {}
    edits: dict[str, int] = {}
    for path in sources():
        split = split_name(path)
        document = json.loads(path.read_text(encoding="utf-8"))
        data = document["scenarios"]
        scenarios[split] = len(data)
        edits[split] = sum(len(s.get("gold") or []) for s in data)
        for scenario in data:
            # A split's scenarios name their authors; a training file has one, named once.
            author = scenario.get("author") or document.get("author") or split
            pairs += scenario_pairs(split, author, scenario)
    return pairs, scenarios, edits
