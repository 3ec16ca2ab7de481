"""What the learned detector reads of a text: its character 4-grams and its pairs of words.
Character n-grams need no word list or tokenizer, so every language and script is read the
same way. Training (scripts/train_detector.py) and scoring share this one
definition, so a model always sees what it was trained on.
"""

from __future__ import annotations

import re
from itertools import pairwise

CHAR_SIZES = (4,)  # 3-grams as well, or single words, cost time for no better figures
WORD_MARK = "\x01"  # starts a word pair, so no pair is ever mistaken for a 4-gram
# Lengths stay as they are (offsets into the text still hold): whitespace becomes a space,
# digits become 0 (which number a text holds says nothing about whether it is an order).
_FOLD = str.maketrans({**{c: " " for c in "\t\n\r\f\v\u00a0"}, **{d: "0" for d in "123456789"}})
WORDS = re.compile(r"\w+")


def folded(lowered: str) -> str:
    """The lower-cased text as the features read it: same length, so offsets still hold."""
    return lowered.translate(_FOLD)


def features(lowered: str) -> set[str]:
    """The text's distinct features; ``lowered`` is the normalised, lower-cased text."""
    text = f" {folded(lowered)} "
    found: set[str] = set()
    for size in CHAR_SIZES:
        found.update([text[i : i + size] for i in range(len(text) - size + 1)])
    # Single words add nothing the 4-grams do not already say; pairs do ("previous instructions").
    found.update([f"{WORD_MARK}{first} {second}" for first, second in pairwise(WORDS.findall(text))])
    return found
