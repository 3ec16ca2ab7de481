"""What the learned reader of stale facts (``llm.stale_reader``) sees of a pair: one sentence of
the person's and one stored line (a profile or facts line, a knowledge entry, an app memory).

Features are read from structure, not from lists of wordings:

- the sentence's own words and word pairs, hashed (what it is about and how it says it);
- what the sentence and the line share: content words, the words of the line's label, values
  of one shape (``core.values``) that the line holds and the sentence holds with the same or
  another value, and slots (``core.slots.claims_in``, ``slots_named_in``, a label's slot)
  both fill or name, the sentence with another value;
- what the project's readers say of the sentence: a question, a supposition, a plan or a
  later date (``core.slots.mood_at``, ``later_claims``, ``placed_later``), a statement of change
  (``says_change``), a value said to hold once (``for_once``), someone else's news
  (``core.whose``), and of the line: past already (``marked_past``), someone else's
  (``line_owner``);
- the sentence's words again, hashed together with whether the pair shares a word or a
  value's shape, so a word can count for a change only where the line is concerned.
- the words around each place the sentence names what the line holds ("out of the … house"):
  how the sentence speaks of that thing, whatever the thing is;
- how the pair stands among the conversation's other pairs (``compared``): whether the line is
  the one the sentence is closest to of all stored lines, by how much, and the sentence the one
  closest to the line of all the person's sentences; whether the line is the only one holding a
  value of a shape the sentence holds, and the only one whose label the sentence says.

The trainer (``scripts/train_stale_reader.py``) and the reader read pairs alike (``features``;
the reader sums the sentence's and the line's own parts once for each).
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from itertools import pairwise

from memdesk.core.search_text import STOPWORDS
from memdesk.core.slots import (
    LABELS,
    claims_in,
    for_once,
    later_claims,
    marked_past,
    mood_at,
    placed_later,
    says_change,
    slots_named_in,
    stem,
)
from memdesk.core.values import values_in
from memdesk.core.whose import line_owner, says_own, told_of_another
from memdesk.llm.contact_lines import LINE_WORDS

BUCKETS = 1 << 15  # hashed word features; the structural ones have names of their own
_WORD = re.compile(r"[^\W\d_][\w'’-]*|\d+(?:[.:,]\d+)*[a-z]*")
_LABEL = re.compile(r"[ \t]*(?:[-*•][ \t]+)?([A-Za-z][A-Za-z /-]{0,30}?)[ \t]*:\s")
_PEOPLE = frozenset(
    word
    for word, slot in LABELS.items()
    if slot in {"partner", "child", "children", "sibling", "parent", "pet"}
)
TIED, APART = "tied", "apart"  # a pair sharing a word, a value's kind or a slot, or not
_NOT_A_CHANGE = frozenset({"question", "mood", "later", "once", "someone-else"})
_NOT_MARKED = frozenset({"line-past", "line-someone-else"})
_AROUND = 3  # words each side of a shared word that say what happens to it
_OPENING = 4  # words of a line that say whose it is ("Grandma Zainab's number: …")
_MARGIN = 2  # closeness ahead of or behind the closest other, at most, as a feature
_AHEAD = 2  # others closer than this one, at most, as a feature


@dataclass(frozen=True)
class Sentence:
    """What the readers say of a sentence of the person's, read once for every line."""

    words: tuple[str, ...]  # lowercased, in order
    stems: frozenset[str]  # of its content words
    values: frozenset[tuple[str, str]]  # (shape, key)
    slots: frozenset[tuple[str, str]]  # (slot, value) it fills or names (value "")
    flags: tuple[str, ...]


@dataclass(frozen=True)
class Line:
    """What is read of a stored line once for every sentence."""

    stems: frozenset[str]
    label: frozenset[str]
    values: frozenset[tuple[str, str]]
    slots: frozenset[tuple[str, str]]
    flags: tuple[str, ...]


def read_sentence(text: str, message: str, lines: tuple[str, ...], at: date) -> Sentence:
    """``text`` with the ``message`` (all the person's sentences of its turn) it is part of,
    the stored ``lines`` (which tell a name the store knows from a newcomer's), and the day it
    was said (which tells a later date from a past one)."""
    words = tuple(word.lower() for word in _WORD.findall(text))
    flags = []
    if text.rstrip().endswith("?"):
        flags.append("question")
    if mood_at(text, len(text)):
        flags.append("mood")
    if later_claims(text) or placed_later(text, (0, len(text)), at):
        flags.append("later")
    if says_change(text):
        flags.append("change-cue")
    if for_once(message):
        flags.append("once")
    if told_of_another(text, message, lines, LINE_WORDS):
        flags.append("someone-else")
    if text.lstrip().startswith(">"):  # a message forwarded: someone else's words
        flags.append("someone-else")
    if says_own(text):
        flags.append("own")
    if len(words) <= 3:
        flags.append("short")
    values = frozenset((v.kind, v.key) for v in values_in(text) if not v.denied)
    flags += [f"said:{kind}" for kind in sorted({kind for kind, _key in values})]
    slots = {(claim.slot.partition(":")[0], claim.value) for claim in claims_in(text) if claim.slot}
    slots |= {(slot, "") for slot in slots_named_in(text)}
    return Sentence(words, _content_stems(words), values, frozenset(slots), tuple(flags))


@lru_cache(maxsize=4096)
def read_line(text: str, where: str, household: frozenset[str]) -> Line:
    """A stored line of ``where`` (profile, patterns, facts, entry, app); ``household``: the
    first names the profile gives the person's family (``core.slots.household_names``)."""
    words = [word.lower() for word in _WORD.findall(text)]
    label = _LABEL.match(text)
    flags = [f"where:{where}"]
    if marked_past(text):
        flags.append("line-past")
    opening = " ".join(text.split()[:_OPENING])
    if line_owner(opening, _PEOPLE | household, stem):
        flags.append("line-someone-else")
    if len(text) > 120:
        flags.append("line-long")
    values = frozenset((v.kind, v.key) for v in values_in(text))
    slots = {(claim.slot.partition(":")[0], claim.value) for claim in claims_in(text) if claim.slot}
    if label and label.group(1).lower() in LABELS:
        slots.add((LABELS[label.group(1).lower()], ""))
    return Line(
        _content_stems(words),
        _content_stems(label.group(1).lower().split()) if label else frozenset(),
        values,
        frozenset(slots),
        tuple(flags),
    )


def markable(sentence: Sentence, line: Line) -> bool:
    """Whether the reader may mark ``line`` for ``sentence`` at all: never for a question, a
    supposition, a plan or a later date, a value said to hold once or someone else's news,
    and never a line already past or someone else's."""
    return _NOT_A_CHANGE.isdisjoint(sentence.flags) and _NOT_MARKED.isdisjoint(line.flags)


def features(sentence: Sentence, line: Line) -> list[str]:
    """Every named feature of the pair; each occurrence counts 1."""
    related, shared = pair_features(sentence, line)
    return [*shared, *sentence_features(sentence, related), *line_features(line, related)]


def pair_features(sentence: Sentence, line: Line) -> tuple[str, list[str]]:
    """Whether the pair is tied (shares a word, a value's kind or a slot) or apart, and the
    features of what it shares; the rest of its features are the sentence's and the line's own
    (``sentence_features``, ``line_features``), read once each for a conversation."""
    shared = sentence.stems & line.stems
    found = ["bias", f"shared:{min(len(shared), 4)}"]
    if line.stems:
        found.append(f"covered:{min(4, int(5 * len(shared) / len(line.stems)))}")
    if line.label & sentence.stems:
        found.append("label-said")
    line_kinds = {kind for kind, _key in line.values}
    same = {kind for kind, key in sentence.values if (kind, key) in line.values}
    other = {kind for kind, _key in sentence.values if kind in line_kinds} - same
    found += [f"same:{kind}" for kind in sorted(same)]
    found += [f"other:{kind}" for kind in sorted(other)]
    if other:
        found.append("other-value")
    if same:
        found.append("same-value")
    line_slots = {slot for slot, _value in line.slots}
    filled = {slot for slot, _value in sentence.slots if slot in line_slots}
    refilled = {slot for slot, value in sentence.slots if value and slot in line_slots} - {
        slot for slot, value in sentence.slots if value and (slot, value) in line.slots
    }
    found += [f"slot:{slot}" for slot in sorted(filled)]
    if filled:
        found.append("slot-shared")
    if refilled:
        found.append("slot-refilled")
    found += [f"s:{word}" for word in sorted(shared)]
    found += [f"near:{word}" for word in _near(sentence.words, shared)]
    related = TIED if shared or other or filled else APART
    found.append(related)
    return related, found


def sentence_features(sentence: Sentence, related: str) -> list[str]:
    """The sentence's own features, and its words and flags again with ``related``."""
    words = sentence.words
    found = [*sentence.flags, *(f"{related}&{flag}" for flag in sentence.flags)]
    found += [f"w:{word}" for word in words]
    found += [f"b:{a}_{b}" for a, b in pairwise(words)]
    found += [f"{related}&w:{word}" for word in words]
    return found


def line_features(line: Line, related: str) -> list[str]:
    return [*line.flags, *(f"{related}&{flag}" for flag in line.flags)]


def _near(words: tuple[str, ...], shared: frozenset[str]) -> list[str]:
    """The words around each place the sentence names what the line holds ("moved out of the
    headingley house"): how it speaks of that thing, whatever the thing is."""
    if not shared:
        return []  # most pairs share nothing: no word of the sentence is read again
    at = [i for i, word in enumerate(words) if len(word) > 2 and stem(word) in shared]
    around = {j for i in at for j in range(max(0, i - _AROUND), min(len(words), i + _AROUND + 1))}
    return sorted({words[j] for j in around.difference(at)})


def compared(sentences: Sequence[Sentence], lines: Sequence[Line]) -> list[list[list[str]]]:
    """For each sentence and line, how their pair stands among the others: the line's rank and
    margin among every line for the sentence by ``_closeness``, the sentence's among every
    sentence for the line; for each shape of value both hold, whether the line is the only one
    holding it; whether the sentence says the line's label, and of that line only."""
    closeness = [[_closeness(sentence, line) for line in lines] for sentence in sentences]
    holders = Counter(kind for line in lines for kind in {kind for kind, _key in line.values})
    found = []
    for i, sentence in enumerate(sentences):
        labelled = sum(1 for line in lines if line.label & sentence.stems)
        kinds = {kind for kind, _key in sentence.values}
        row = []
        for j, line in enumerate(lines):
            mine = closeness[i][j]
            named = _standing("line", mine, closeness[i], j)
            named += _standing("sentence", mine, [of_sentence[j] for of_sentence in closeness], i)
            held = kinds & {kind for kind, _key in line.values}
            named += [f"shape-held:{'only' if holders[kind] == 1 else 'several'}" for kind in sorted(held)]
            if line.label & sentence.stems:
                named.append(f"label-topic:{'only' if labelled == 1 else 'several'}")
            row.append(named)
        found.append(row)
    return found


def _closeness(sentence: Sentence, line: Line) -> int:
    """Content words shared, a value of a shape the line holds said with another value (twice),
    the line's label said."""
    kinds = {kind for kind, _key in line.values}
    other = {kind for kind, key in sentence.values if kind in kinds and (kind, key) not in line.values}
    return len(sentence.stems & line.stems) + 2 * len(other) + (1 if line.label & sentence.stems else 0)


def _standing(of: str, mine: int, row: Sequence[int], at: int) -> list[str]:
    """How ``mine`` (``row[at]``) ranks among the rest of ``row``: how many are closer, whether
    one is as close, and the margin to the closest other."""
    if not mine:
        return [f"{of}-rank:none"]
    others = [value for k, value in enumerate(row) if k != at]
    ahead = sum(1 for value in others if value > mine)
    tied = "tied" if mine in others else "alone"
    margin = max(-_MARGIN, min(_MARGIN, mine - max(others, default=0)))
    return [f"{of}-rank:{min(ahead, _AHEAD)}:{tied}", f"{of}-margin:{margin}"]


def hashed(named: Iterable[str]) -> list[int]:
    """The features' buckets, one for each occurrence: the same on every machine and every run
    (CRC-32, not ``hash``)."""
    return [zlib.crc32(feature.encode("utf-8")) % BUCKETS for feature in named]


def _content_stems(words: Iterable[str]) -> frozenset[str]:
    return frozenset(stem(word) for word in words if len(word) > 2 and word not in STOPWORDS)
