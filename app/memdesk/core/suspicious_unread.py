"""An assistant addressed in a language the check cannot read, found by the shape of the address.

The rules read English and ten other languages, and the learned model reads the letters it was
trained on. A text in any other language or script passes them unread, so an order to an
assistant written in one, often inside an ordinary English note, would be stored. What such an
order keeps, whatever its language, is its address: the assistant's name in Latin letters ("AI",
"GPT", "chatbot"…) in a short label that opens a sentence and ends in a colon or a comma ("ผู้ช่วย
AI:", "Olùrànlọ́wọ́ AI,"), and after it a request in words the check cannot read. Nothing of any
language is listed: a passage is unread when most of its words are written in a script the check
does not read, or in Latin letters outside those of the languages it reads (ẹ, ọ, ơ, ɗ…).

The address alone may be a heading ("AI course: starts on Monday"), so it holds a note only
with two more signs of an order: something said before it (the address arrives in the middle of
a note about something else), and an outside address (an e-mail address, a link or a domain) in
the request. A heading with an address that opens no note, or one that asks for nothing outside,
is let through; one in the middle of a note that gives a course's sign-up address is held, as
the words that tell a course from an assistant are the ones the check cannot read.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Scripts whose languages the rules or the model read: Latin (up to Latin Extended-A, which
# holds the letters of the European languages read), Cyrillic, and Chinese and Japanese.
_READ_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "CJK", "HIRAGANA", "KATAKANA"})
_LAST_READ_LATIN = 0x017F
# The end of a sentence in any script: Latin, Devanagari (।), Myanmar (။), Khmer (។), Ethiopic
# (።), Tibetan (།), Armenian (։), Arabic (؟ ۔), Chinese and Japanese (。), and a line break.
_SENTENCE_END = ".!?\n\u0964\u0965\u104a\u104b\u17d4\u17d5\u1362\u0f0d\u0589\u061f\u06d4\u3002"
# A colon or a comma in any script: Latin, Arabic (، ؛), Ethiopic (፣ ፤ ፥ ፦), Khmer (៖),
# Armenian (՝ ։ is an end), Chinese (，：), and a dash.
_LABEL_END = ":,\u060c\u061b\u1363\u1364\u1365\u1366\u17d6\u055d\uff0c\uff1a\u2014\u2013"
# The assistant's name as written in Latin letters in another language's text. Looked for from
# its first letter (a class the engine skips through fast), its edges checked after.
_NAME = re.compile(r"AI|A\.I\.|GPT|ChatGPT|[Cc]hat[Bb]ot|[Bb]ot|LLM|Claude|Gemini|Copilot|[Aa]ssistant")
_NAME_FROM_FIRST = re.compile(r"[ABCGLabc](?:I|\.I\.|PT|hatGPT|hat[Bb]ot|ot|LM|laude|emini|opilot|ssistant)")
# English's commonest words, which a sentence of a few words in English is unlikely to lack.
_ENGLISH = frozenset(
    {"the", "to", "of", "and", "is", "are", "you", "your", "for", "with", "this", "that", "it", "be", "will"}
    | {"from", "have", "was", "not", "please", "all", "my", "me", "we", "our", "on"}
)
_PUNCTUATION = ".,;:!?'\"()[]{}«»“”‘’"
_PLAIN_WORDS = 4
_LABEL_WORDS = 3
_LABEL_CHARS = 40
_REQUEST_LETTERS = 15
_REQUEST_CHARS = 400
# An e-mail address, a link or a domain name.
_OUTSIDE = re.compile(r"https?://|www\.|[\w.+-]+@[\w-]+\.\w|\b[\w-]+(?:\.[\w-]+)*\.[a-z]{2,12}\b")
_COMMAS = ",\u060c\uff0c"


def unread_word(word: str) -> bool:
    """Whether ``word`` holds a letter the check cannot read: of a script it does not read, or
    a Latin letter outside the alphabets of the languages it reads."""
    return any(_unread_letter(char) for char in word if not char.isascii())


@lru_cache(maxsize=4096)
def _unread_letter(char: str) -> bool:
    if not (char.isalpha() or unicodedata.category(char).startswith("M")):
        return False
    name = unicodedata.name(char, "")
    script = name.split(" ", 1)[0]
    if script == "LATIN":
        return ord(char) > _LAST_READ_LATIN
    if script in {"COMBINING", "MODIFIER"}:
        return True  # a tone or a dot placed on a letter: not how the languages read write
    return bool(script) and script not in _READ_SCRIPTS


def unread(passage: str) -> bool:
    """Whether ``passage`` is in a language the check cannot read: half of its words or more are
    written in letters it cannot read, or it is a sentence of Latin letters without a word of
    English's commonest (Hausa, Swahili or Tagalog written in plain letters)."""
    found = [word for word in passage.split() if any(char.isalpha() for char in word)]
    if not found:
        return False
    if 2 * sum(map(unread_word, found)) >= len(found):
        return True
    return len(found) >= _PLAIN_WORDS and not english(found)


def english(found: list[str]) -> bool:
    """Whether one of ``found`` is among English's commonest words."""
    return any(word.strip(_PUNCTUATION).lower() in _ENGLISH for word in found)


def unread_address(text: str) -> tuple[int, int] | None:
    """Where an assistant is addressed, by a label with its name in Latin letters, and asked in
    words the check cannot read for something that names an outside address, inside a note that
    began with something else; None if nowhere. ``text`` as written."""
    first = None  # where the note's first word is, worked out when a label is first found
    for name in _NAME_FROM_FIRST.finditer(text):
        if not _alone(text, name):
            continue
        label_end = _label_end(text, name.end())
        begin = None if label_end is None else _sentence_start(text, name.start())
        if label_end is None or begin is None:
            continue
        label = text[begin:label_end].split()
        # A comma closes a vocative of a word or two ("Olùrànlọ́wọ́ AI,"); a colon a label of three.
        most = _LABEL_WORDS if text[label_end] not in _COMMAS else _LABEL_WORDS - 1
        if len(label) > most or english(label):
            continue
        end = _sentence_end(text, label_end + 1)
        request = text[label_end + 1 : end]
        if sum(map(str.isalpha, request)) < _REQUEST_LETTERS or not unread(request):
            continue
        if first is None:
            first = len(text) - len(text.lstrip())
        # Something said before it (the address arrives inside a note about something else),
        # and an outside address in the request: a heading ("AI course: …") has neither.
        if begin > first and _OUTSIDE.search(request):
            return begin, end
    return None


def _alone(text: str, name: re.Match[str]) -> bool:
    """Whether ``name`` is one of the names, a word of its own (not inside another)."""
    start, end = name.span()
    if (start and text[start - 1].isalpha()) or (end < len(text) and text[end].isalpha()):
        return False
    return _NAME.fullmatch(text, start, end) is not None


def _label_end(text: str, at: int) -> int | None:
    """Where the label that the name stands in ends (its colon or comma), when it ends within a
    few words of the name."""
    for index in range(at, min(len(text), at + _LABEL_CHARS)):
        char = text[index]
        if char in _LABEL_END:
            return index
        if char in _SENTENCE_END:
            return None
    return None


def _sentence_start(text: str, at: int) -> int | None:
    """Where the sentence holding ``at`` starts, its first word; None when that is more than a
    label's length before ``at``."""
    start = at
    while start > 0 and text[start - 1] not in _SENTENCE_END:
        start -= 1
        if at - start > _LABEL_CHARS:
            return None
    while start < at and text[start].isspace():
        start += 1
    return start


def _sentence_end(text: str, at: int) -> int:
    """Where the sentence that goes on from ``at`` ends, read for at most ``_REQUEST_CHARS``; a
    dot inside an address ("mail.example") does not end it."""
    stop = min(len(text), at + _REQUEST_CHARS)
    end = at
    while end < stop:
        char = text[end]
        inside_address = char == "." and end + 1 < len(text) and not text[end + 1].isspace()
        if char in _SENTENCE_END and not inside_address:
            break
        end += 1
    return end
