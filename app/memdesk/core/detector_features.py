"""What the learned detector reads of a text: its words (as ``str.split`` finds them,
punctuation and all), each as its character 4-grams, its pairs of neighbouring words and of
words one apart, once code that is not words is blanked out (``detector_code``); and, apart, the
word pieces of what was blanked ("print_system_prompt": print, system, prompt).
Character n-grams need no word list or stemmer, so every language and script is read the same
way (Chinese or Japanese without spaces is one long "word", read by its 4-grams). Training
(scripts/train_detector.py) and scoring share this one definition, so a model always sees
what it was trained on.

Every n-gram lies inside one word, so a word's share of a score depends on the word alone:
the scorer works it out once per distinct word and remembers it, which makes scoring cost
about two look-ups per word rather than one per character.

An identifier is not an order, so its pieces are never read as the words of a sentence: each is
a feature of its own kind, weighed by what the pieces of identifiers say in honest code and in
attacks written as code ("eval(print_system_prompt())", "show_prompt=true"), which would
otherwise be read as nothing at all.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from itertools import pairwise

from memdesk.core.detector_code import code_blanked
from memdesk.core.detector_mention import mentions_blanked

# 3- and 5-grams as well cost time on every new word for no better figures; so does reading
# punctuation as a space (it makes benign chat look more like orders).
GRAM = 4
WORD_MARK = "\x01"  # starts a word pair, so no pair is ever mistaken for an n-gram
SKIP_MARK = "\x03"  # starts a pair of words one apart ("ignore all previous": ignore … previous)
PIECE_MARK = "\x02"  # starts a piece of a blanked identifier, never mistaken for prose
# Inside n-grams digits become 0: which number a text holds says nothing about whether it is an
# order.
_FOLD = str.maketrans(dict.fromkeys("123456789", "0"))
# Folding translates a word character by character: a word is folded only when it holds a digit
# to fold (most words that are not all letters hold punctuation, not digits).
_FOLDED_DIGIT = re.compile("[1-9]")
# A run of one mark ("------", "______", "======") draws a line; it is no word. Read as one, its
# n-grams are one gram many times over, and a line of underscores would outweigh a sentence.
_RULED_LINE = re.compile(r"([-_=*#~.+/])\1{3,}")
# What was blanked lies in runs of two spaces or more of the text the model reads; its pieces are
# its runs of letters, a capital starting a piece of camelCase.
_BLANKED = re.compile(r"  +")
_PIECE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
# Encoded data (base64, a digest, a key) is no identifier: its "pieces" are noise. Decoded, what
# it says is judged by the rules (``suspicious``).
_ENCODED = re.compile(r"[A-Za-z0-9+/=]{16,}")
# A path, an address or a file name names where something is, not what to do: its pieces
# ("~/bin/backup.sh": bin, backup, sh) are no words of an order. It is read as one feature, that a
# path stands there, which is what honest notes about code share. A path has a slash between its
# parts (an address its scheme before them); a file name ends in a dot and a short extension.
# Either starts a word, so it is matched with the whitespace before it (which the text read is
# given at its start): the engine then skips to whitespace instead of trying every character.
_PATH_AFTER_SPACE = re.compile(
    r"(\s)(?:(?:[a-z][a-z+.-]*:)?[~.]{0,2}/*(?:[\w.@%+-]+/)+[\w.@%+?=&#-]*"
    r"|[\w-]+(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,3}(?=[.,;:)]*(?:\s|\Z)))"
)
_SHORTEST_PIECE = 2
# Control characters, which ``normalised`` text never holds: what joins the blanked runs (read as
# whitespace) and what a path leaves in its place (read as no letter, as a space is).
_RUN_JOINT = "\x1c"
_PATH_MARK = "\x00"
PATH_PIECE = PIECE_MARK + "/"  # no piece of letters is ever this


def model_text(normalised: str) -> str:
    """What the model reads of a normalised text: code that is not words and quotations named
    as examples blanked out, lower case. Same length as ``normalised`` (but for the few letters
    lower-casing lengthens)."""
    read = code_blanked(mentions_blanked(normalised)).lower()
    return _RULED_LINE.sub(lambda line: " " * len(line.group(0)), read) if _RULED_LINE.search(read) else read


def reading(normalised: str) -> tuple[str, list[str]]:
    """All the model reads of a normalised text: ``model_text`` and ``blanked_pieces``."""
    read = model_text(normalised)
    return read, blanked_pieces(normalised, read)


def blanked_pieces(normalised: str, read: str) -> list[str]:
    """The word pieces, lower case and marked, of what ``model_text`` blanked out of
    ``normalised`` to give ``read``, a path or a file name as ``PATH_PIECE``; [] when
    lower-casing changed the text's length."""
    if len(read) != len(normalised) or "  " not in read:
        return []
    # The runs are read joined, each pattern passing once over them all rather than once a run:
    # the joint (before each run) is whitespace, which every pattern reads as a run's start or
    # end, and no match spans whitespace. It holds no character a normalised text can have, and
    # neither does the mark a path leaves, so each run's paths are counted in its own part.
    runs = "".join(_RUN_JOINT + normalised[run.start() : run.end()] for run in _BLANKED.finditer(read))
    read_runs = _ENCODED.sub(_unless_encoded, _PATH_AFTER_SPACE.sub(rf"\1{_PATH_MARK}", runs))
    found: list[str] = []
    for part in read_runs.split(_RUN_JOINT)[1:]:
        found += [PATH_PIECE] * part.count(_PATH_MARK)
        found += [
            PIECE_MARK + piece.lower() for piece in _PIECE.findall(part) if len(piece) >= _SHORTEST_PIECE
        ]
    return found


def _unless_encoded(token: re.Match[str]) -> str:
    """A long run of base64's characters that holds a digit is encoded data: blanked."""
    found = token.group(0)
    return " " if any(character.isdigit() for character in found) else found


def words(read: str) -> list[str]:
    """The words the features are made of; ``read`` is the text as ``model_text`` gives it."""
    return read.split()


def word_grams(word: str) -> list[str]:
    """The character n-grams of ``word`` between spaces; a word shorter than the smallest
    n-gram is one feature, whole."""
    as_is = word.isalpha() or not _FOLDED_DIGIT.search(word)
    padded = f" {word if as_is else word.translate(_FOLD)} "
    if len(padded) < GRAM:
        return [padded]
    return [padded[at : at + GRAM] for at in range(len(padded) - GRAM + 1)]


def pair(first: str, second: str) -> str:
    return f"{WORD_MARK}{first} {second}"


def skip_pair(first: str, second: str) -> str:
    return f"{SKIP_MARK}{first} {second}"


def features(read: str, pieces: Collection[str] = ()) -> list[str]:
    """The text's features, each as often as it occurs; ``pieces`` as ``blanked_pieces`` gives
    them."""
    found = words(read)
    grams = [gram for word in found for gram in word_grams(word)]
    pairs = [pair(first, second) for first, second in pairwise(found)]
    skips = [skip_pair(first, second) for first, second in zip(found, found[2:], strict=False)]
    return grams + pairs + skips + list(pieces)


def length_norm(found_words: Collection[str]) -> float:
    """What a text's summed weights are divided by, so long and short texts score alike."""
    return math.sqrt(max(sum(map(len, found_words)), 1))
