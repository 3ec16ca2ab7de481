"""Everyday English for the detector: the example sentences of WordNet 3.0's glosses ("the
train was late", "she ignored his advice"), read where Debian's ``wordnet-base`` installs them
and never copied.

WordNet's words have their everyday senses beside any other ("train", "ignore", "override",
"pretend"), and its examples use them in short, ordinary sentences: honest text the developer
text and the chat lack. Only the examples are read; the definitions are fragments worded as
commands ("teach new skills", "refuse to acknowledge"), not what a person writes.

The split is by lexicographer file (the part of speech and the field of a synset: verbs of
communication, nouns of food...), a hash of its name, so the held-out figures measure whole
fields the model never read, never other sentences of a field it trained on.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from scripts.detector_split import split_of

WORDNET_DIR = Path(os.environ.get("MEMDESK_WORDNET_DIR", "/usr/share/wordnet"))
PARTS_OF_SPEECH = ("noun", "verb", "adj", "adv")
LICENCE = (
    "WordNet 3.0 licence (use, copy, modify and distribute with its notice; WordNet 3.0 Copyright"
    " 2006 by Princeton University), as Debian's wordnet-base installs it; example sentences only;"
    " split by lexicographer file"
)
# The lexicographer files, in the order of their numbers in the data files (lexnames(5WN)).
LEXICOGRAPHER_FILES = (
    "adj.all",
    "adj.pert",
    "adv.all",
    "noun.Tops",
    "noun.act",
    "noun.animal",
    "noun.artifact",
    "noun.attribute",
    "noun.body",
    "noun.cognition",
    "noun.communication",
    "noun.event",
    "noun.feeling",
    "noun.food",
    "noun.group",
    "noun.location",
    "noun.motive",
    "noun.object",
    "noun.person",
    "noun.phenomenon",
    "noun.plant",
    "noun.possession",
    "noun.process",
    "noun.quantity",
    "noun.relation",
    "noun.shape",
    "noun.state",
    "noun.substance",
    "noun.time",
    "verb.body",
    "verb.change",
    "verb.cognition",
    "verb.communication",
    "verb.competition",
    "verb.consumption",
    "verb.contact",
    "verb.creation",
    "verb.emotion",
    "verb.motion",
    "verb.perception",
    "verb.possession",
    "verb.social",
    "verb.stative",
    "verb.weather",
    "adj.ppl",
)
# An example is the gloss's quoted part; the gloss follows the synset's pointers after " | ".
_EXAMPLE = re.compile(r'"([^"]+)"')


@dataclass(frozen=True)
class Example:
    text: str
    field: str  # its synset's lexicographer file
    split: str


def data_files() -> list[Path]:
    return [WORDNET_DIR / f"data.{part}" for part in PARTS_OF_SPEECH]


def missing() -> str:
    """Why WordNet cannot be read, or "" when it can."""
    absent = [str(path) for path in data_files() if not path.is_file()]
    if absent:
        return f"no WordNet 3.0 data at {', '.join(absent)} (Debian: apt-get install wordnet-base)"
    return ""


def sources() -> dict[str, str]:
    """Each data file, as "where: sha256", for the manifest."""
    return {str(path): hashlib.sha256(path.read_bytes()).hexdigest() for path in data_files()}




def examples() -> Iterator[Example]:
    """Every example sentence, in the data files' order."""
    if missing():
        raise SystemExit(missing())
    for path in data_files():
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                if line.startswith("  "):  # the licence at the head of each file
                    continue
                head, _, gloss = line.partition(" | ")
                field = LEXICOGRAPHER_FILES[int(head.split()[1])]
                for text in _EXAMPLE.findall(gloss):
                    yield Example(text.strip(), field, split_of(field))
