"""Where a match of a rule's regular expression can begin, so that it is tried only there.

A rule's pattern is read once, as the regular expression engine parses it (``re._parser``), for
the text every match must open with: ``\\b(?:show|tell\\s+me)`` opens with the word "show" or
"tell". Such a pattern is then tried (``Pattern.match``) only where one of these openings stands
in a piece of text, instead of searched for from every character: the engine cannot skip ahead
to a choice of words, so a search tries each of them at every word of a long note. An opening
that is a whole word is looked for only when the piece's set of words holds it, and then by an
expression that opens with its first letter, which the engine does skip to. Trying the pattern
at every place where a match can open, in order, finds the same first match as a search, and
the same later ones as ``finditer``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cache
from re import _constants as sre
from re import _parser

# What the text's words are made of (``suspicious._words``): any other character ends a word.
_WORD_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")
# Past this many openings under way, each is cut where it stands: a shorter opening is found at
# every place a longer one is, and more.
_MOST_OPENINGS = 400
# An opening found by its text alone and shorter than this ("i", "the") stands inside most words:
# the pattern is searched for instead.
_SHORTEST_FOUND = 4


@dataclass(frozen=True)
class _Way:
    """One way a match can open: its literal text so far, and what is known around it."""

    text: str
    growing: bool  # later literals of the pattern still extend it
    after_boundary: bool  # a word boundary stands before its first character
    word_ends: bool  # a character that ends a word follows its text


@dataclass(frozen=True)
class Opening:
    literal: str  # every match that opens here starts with this text
    # A word boundary stands before it, and it starts with a letter, digit or underscore: it
    # opens a word of the text.
    starts_word: bool
    # The word the text's words must hold for such a match: the literal's leading word when it
    # starts a word and the word provably ends; None otherwise.
    word: str | None


def openings(source: str) -> tuple[Opening, ...] | None:
    """The openings of every match of ``source`` (compiled with ``re.MULTILINE``); None when a
    match may open with any character (a class, a wildcard) and so anywhere."""
    ways = _walk(_parser.parse(source, re.MULTILINE).data, {_Way("", True, False, False)})
    found: set[Opening] = set()
    for way in ways:
        if not way.text:
            return None
        starts_word = way.after_boundary and way.text[0] in _WORD_CHARACTERS
        run = _leading_word(way.text)
        whole = starts_word and (len(run) < len(way.text) or way.word_ends)
        found.add(Opening(way.text, starts_word, run if whole else None))
    return tuple(sorted(found, key=lambda opening: opening.literal))


def _leading_word(text: str) -> str:
    """The letters, digits and underscores ``text`` starts with."""
    return text[: next((at for at, char in enumerate(text) if char not in _WORD_CHARACTERS), len(text))]


def _walk(items: list[tuple[object, object]], ways: set[_Way]) -> set[_Way]:
    """The ways after the parsed ``items`` of a pattern, from ``ways`` (only growing ones change)."""
    for op, argument in items:
        growing = {way for way in ways if way.growing}
        if not growing:
            break
        ways = (ways - growing) | _step(op, argument, growing)
        if len(ways) > _MOST_OPENINGS:
            ways = {_Way(way.text, False, way.after_boundary, way.word_ends) for way in ways}
    return ways


def _step(op: object, argument: object, ways: set[_Way]) -> set[_Way]:
    if op is sre.AT:
        if argument is not sre.AT_BOUNDARY:
            return ways  # any other anchor consumes nothing and says nothing of words
        return {
            _Way(way.text, True, way.after_boundary or not way.text, way.word_ends or _ends_in_word(way.text))
            for way in ways
        }
    if op in (sre.ASSERT, sre.ASSERT_NOT):
        return ways  # a look ahead or behind consumes nothing
    if op is sre.LITERAL:
        return {_Way(way.text + chr(argument), True, way.after_boundary, way.word_ends) for way in ways}
    if op is sre.SUBPATTERN and not argument[1] and not argument[2]:  # a group without flags
        return _walk(argument[3].data, ways)
    if op is sre.BRANCH:
        return set().union(*(_walk(choice.data, ways) for choice in argument[1]))
    if op is sre.IN and _only_literals(argument):
        # A small class of characters opens one way for each.
        return set().union(*(_step(sre.LITERAL, value, ways) for _literal, value in argument))
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        least, most, item = argument
        if most == 1:  # an optional part: with it or without, the opening goes on
            return _walk(item.data, ways) | (set() if least else ways)
        taken = {_stopped(way) for way in _walk(item.data, ways)}
        if least:
            return taken
        # Left out, an optional part lets the next one open the match, if nothing came before.
        return taken | {way if not way.text else _stopped(way) for way in ways}
    ends = op is sre.IN and _no_word_character(argument)
    return {_stopped(way, ends) for way in ways}


def _stopped(way: _Way, ends_word: bool = False) -> _Way:
    return _Way(way.text, False, way.after_boundary, way.word_ends or (ends_word and _ends_in_word(way.text)))


def _ends_in_word(text: str) -> bool:
    return bool(text) and text[-1] in _WORD_CHARACTERS


def _only_literals(members: list[tuple[object, object]]) -> bool:
    return len(members) <= 8 and all(op is sre.LITERAL for op, _value in members)


def _no_word_character(members: list[tuple[object, object]]) -> bool:
    """Whether a class (not negated) holds only whitespace and marks, no character of a word."""
    return all(
        (op is sre.CATEGORY and value is sre.CATEGORY_SPACE)
        or (op is sre.LITERAL and chr(value) not in _WORD_CHARACTERS and not chr(value).isalnum())
        for op, value in members
    )


class Opened:
    """A compiled pattern tried only where its matches can open; a plain search when they may
    open anywhere, or with a short run of letters found inside most words."""

    def __init__(self, source: str) -> None:
        self.pattern = re.compile(source, re.MULTILINE)
        found = openings(source) or ()
        # Each whole word an opening is, with what finds it.
        self._whole_words = {
            opening.word: _word_finder(opening.word, True) for opening in found if opening.word is not None
        }
        self._words = frozenset(self._whole_words)
        # Openings that start a word but may go on into a longer one, found by that word's start.
        starts = {_leading_word(way.literal) for way in found if way.starts_word and way.word is None}
        self._word_starts = [_word_finder(start, False) for start in starts]
        self._by_text = [opening.literal for opening in found if not opening.starts_word]
        self._anywhere = not found or any(len(literal) < _SHORTEST_FOUND for literal in self._by_text)

    def search(self, text: str, begin: int, end: int, words: Collection[str] | None) -> re.Match[str] | None:
        """The first match in ``text[begin:end]`` (``Pattern.search``); ``words``: the piece's
        set of words (``suspicious._words``) when ``text`` is the lower-case text they came
        from, None to look for every opening in the text."""
        if self._anywhere:
            return self.pattern.search(text, begin, end)
        match = self.pattern.match
        for at in self._places(text, begin, end, words):
            found = match(text, at, end)
            if found:
                return found
        return None

    def finditer(
        self, text: str, begin: int, end: int, words: Collection[str] | None
    ) -> Iterator[re.Match[str]]:
        """The matches in ``text[begin:end]``, as ``Pattern.finditer`` gives them."""
        if self._anywhere:
            yield from self.pattern.finditer(text, begin, end)
            return
        match = self.pattern.match
        after = begin  # where the last match ended: the next one opens there or later
        for at in self._places(text, begin, end, words):
            # Every match opens with a literal, so none is empty (which finditer treats apart).
            found = match(text, at, end) if at >= after else None
            if found:
                yield found
                after = found.end()

    def _places(self, text: str, begin: int, end: int, words: Collection[str] | None) -> list[int]:
        """Where in ``text[begin:end]`` an opening stands, in order."""
        places: list[int] = []
        find = text.find
        for literal in self._by_text:
            at = find(literal, begin, end)
            while at != -1:
                places.append(at)
                at = find(literal, at + 1, end)
        for finder in self._word_starts:
            places += map(_START, finder.finditer(text, begin, end))
        for word in self._words if words is None else self._words.intersection(words):
            places += map(_START, self._whole_words[word].finditer(text, begin, end))
        return sorted(set(places))


_START = re.Match.start


@cache
def _word_finder(word: str, whole: bool) -> re.Pattern[str]:
    """Finds ``word`` at the start of a word of the text, or ``whole`` standing alone: where a
    match of an opening that starts (or is) this word can stand. Its first letter opens the
    expression, what stands around is checked from there, so the engine skips ahead to it."""
    escaped = re.escape(word)
    return re.compile(f"{escaped}(?<![a-z0-9_]{escaped})" + ("(?![a-z0-9_])" if whole else ""))
