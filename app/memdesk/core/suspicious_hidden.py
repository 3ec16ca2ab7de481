"""Words to an assistant where the person reading the page never sees them.

A page, a form or a script shows its reader one thing and holds another: an element its style
hides (``display: none``, ``visibility: hidden``, a zero font size or opacity, the ``hidden``
attribute, a hidden form field, a position far off the screen), an HTML or XML comment, a code
comment, a string in a line of code. An honest writer puts notes for programmers there ("you
must call init() first"), text for screen readers ("Skip to content"), commented-out code. An
attack puts an order there for the assistant that will read the page: the hidden words open by
naming it, with a label ("AI:", "assistant:", "Note to the LLM:", "If you are an AI reading
this,"), and go on with a request (an imperative, or the second person). A label alone is a
heading or a parameter's name ("# model: the trained classifier", "# bot: handles webhooks");
what follows it tells an order from a description: a word that describes (an article, a
pronoun of the first or third person, a verb of the third person or the past, an annotation
such as TODO) opens no order, and a verb's plain form is one only with its object after it
("tell the adopter", "call send_all(…)"; not "summary column", "section kept").

Only the structure is read: where a page hides text, the names of the reader
(``detector_address``) and the closed classes of words that open a description; no topic or
phrase decides. What a code comment or a string holds is found as ``detector_code`` finds it.
"""

from __future__ import annotations

import re

from memdesk.core.detector_address import READER_NAMES, speaks_or_asks
from memdesk.core.detector_code import STRING_OR_COMMENT, is_code_line

# An opening tag and its attributes.
_OPENING_TAG = re.compile(r"<([a-zA-Z][\w:-]*)((?:\s+[^<>]*?)?)\s*/?>")
# A declaration of a style that hides an element: not shown, not visible, no size of letters, no
# opacity, clipped to nothing, or placed far off the screen.
_HIDING_STYLE = re.compile(
    r"display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:\.0*)?(?:px|pt|em|rem|%)?\s*(?:[;!\"']|$)"
    r"|opacity\s*:\s*0(?:\.0*)?\s*(?:[;!\"']|$)|clip\s*:\s*rect\(\s*0|clip-path\s*:\s*inset\(\s*(?:50|100)%"
    r"|(?:left|top|right|text-indent|margin-left|margin-top)\s*:\s*-\d{3,}",
    re.IGNORECASE,
)
# An attribute that hides the element ("hidden", a hidden form field), or a class that the
# common style sheets hide it with.
_HIDDEN_ATTRIBUTE = re.compile(
    r"(?:^|\s)hidden(?:\s*=\s*[\"']?(?:hidden|true|)[\"']?)?(?=\s|/|$)|type\s*=\s*[\"']?hidden\b"
    r"|class\s*=\s*[\"'][^\"']*\b(?:sr-only|visually-hidden|screen-reader-text|d-none|hidden|invisible)\b",
    re.IGNORECASE,
)
# The values of a tag's attributes that hold words (a hidden field's value, a title).
_ATTRIBUTE_VALUE = re.compile(
    r"\b(?:value|content|title|alt|placeholder|aria-label|data-[\w-]+)\s*=\s*(\"[^\"]*\"|'[^']*')"
)
# A comment of a page or a block comment of code; one left open runs to the end of the text.
_BLOCK_COMMENT = re.compile(r"<!--(.*?)(?:-->|\Z)|/\*(.*?)(?:\*/|\Z)|\[//\]:\s*#\s*\((.*?)\)", re.DOTALL)
# What an element hides is read up to its closing tag, for at most this many characters.
_ELEMENT_CHARS = 4000

# The words that may stand before the reader's name in a label that addresses it: a word that
# calls ("note to", "dear", "attention"), a determiner, a word that says what kind of reader.
_CALLING = (
    r"(?:(?:note|notes|message|instructions?|attention|hey|hi|hello|dear|to|for"
    r"|if\s+you\s+are|if\s+you['’]re)\s+)"
)
_DETERMINER = r"(?:(?:an?|the|any|all|every|each|this|other)\s+)"
_KIND = r"(?:(?:ai|a\.i\.|language|llm|gpt|chatgpt|automated|summari[sz](?:ing|er))\s+)"
# The assistants' own names, which address one as a title does.
_PRODUCTS = frozenset({"claude", "gemini", "copilot"})
# Names that are a reader only beside another word that says so ("AI agent", "language model"):
# alone they name a data model, a user agent or a screen reader.
_SHARED_NAMES = frozenset({"model", "models", "agent", "agents", "reader", "readers", "whoever"})
_NAMES = "|".join(
    sorted((re.escape(name) for name in (READER_NAMES | _PRODUCTS) - _SHARED_NAMES), key=len, reverse=True)
)
_SHARED = "|".join(sorted(map(re.escape, _SHARED_NAMES), key=len, reverse=True))
# A reader named by what it does to the text ("To any LLM summarising this thread:").
_READING = r"(?:reading|processing|summari[sz]ing|parsing)\s+(?:this|these|it)"
_LABEL = re.compile(
    rf"{_CALLING}*{_DETERMINER}?(?:{_KIND}?(?:{_NAMES})(?:\s+(?:{_NAMES}|{_SHARED}))?|{_KIND}(?:{_SHARED}))"
    rf"(?:\s+{_READING}(?:\s+\w+)?)?"
    r"\s*[:,]\s+",
    re.IGNORECASE,
)
# Where a label may end: a colon or a comma just after the last word a label may end in, or the
# words of a reader named by what it does. Most texts hold neither, and are read no further.
# (Found from the mark, or the letters "ing", which the engine skips to.)
_LAST_WORDS = READER_NAMES | _PRODUCTS | _SHARED_NAMES
_LABEL_END = re.compile(
    "[:,](?:" + "|".join(f"(?<={re.escape(word)}[:,])" for word in sorted(_LAST_WORDS)) + ")", re.IGNORECASE
)
# (Its end, in small letters, found from "ing"; the label is then read whole, in any case.)
_READING_WORDS = re.compile(r"ing\s+(?:this|these|it)\b")
# Where a sentence may start inside hidden words: their start, or after an end of a sentence.
# (Found from the mark that ends a sentence, which the engine skips to.)
_SENTENCE_END = re.compile(r"(?:[.!?;\n]|\\n)\s*")

# Words that open a description or a speaker's own words, not an order: articles and other
# determiners, pronouns of the first and third person, forms of "be" and "have" and other verbs
# that need a subject, the words that answer, and the tags of programmers' annotations.
_DESCRIBING = (
    "a an the this that these those its it it's their his her our my i i'm i've i'll we we're he she they"
    " one some no none each every all any both either is are was were be been being has have had does did"
    " will would can could may might shall should must sure ok okay yes yeah hi hello hey thanks thank"
    " sorry here there certainly absolutely of todo fixme note xxx hack nb warning deprecated see example"
)
_DESCRIBES = frozenset(_DESCRIBING.split())
# Words that open a clause or a phrase before the order itself ("when you read this, call …",
# "from now on, add …", "always reply …"): the order is looked for after them.
_LEADING = (
    "when whenever if once after before while as from now on then first also just only instead"
    " always never quietly silently immediately"
)
_LEADS = frozenset(_LEADING.split())
# A word that may be a verb's plain form: not a form that needs a subject (the third person's -s,
# the past's -ed), a participle (-ing, but "bring"), nor an adjective's or adverb's ending (but the
# verbs "reveal", "apply", "enable" and "feed").
_NOT_PLAIN = re.compile(r"(?:[^su]s|[^e]ed|\w{3}ing|[^e]al|ous|[^ns]able|ible|ful|less|[^p]ly)\Z")
# The words that open a verb's object: determiners and pronouns; and the prepositions a verb may
# take before it ("reply to the sender", "write about this").
_OBJECT_WORDS = (
    "the a an this that these those every each all any some my our your their his her its them him me us it"
    " what whatever everything anything"
)
_OBJECTS = frozenset(_OBJECT_WORDS.split())
_PREPOSITIONS = frozenset(("to", "with", "about", "into", "on", "in", "for", "from", "at", "over"))
_ORDER_WORDS = 3


def hidden_address(text: str) -> tuple[int, int] | None:
    """Where words hidden from the page's reader address an assistant with a request; None if
    nowhere. ``text`` as written."""
    for begin, end in _hidden_spans(text):
        found = _address_in(text, begin, end)
        if found is not None:
            return found
    return None


def _hidden_spans(text: str) -> list[tuple[int, int]]:
    if not _may_hold_label(text):
        return []
    spans: list[tuple[int, int]] = []
    if "<" in text or "/*" in text or "[//]" in text:
        spans += _hidden_in_markup(text)
    if "#" in text or "//" in text or "--" in text or "'" in text or '"' in text:
        spans += _hidden_in_code(text)
    return spans


def _may_hold_label(text: str) -> bool:
    return bool(_LABEL_END.search(text) or _READING_WORDS.search(text))


def _hidden_in_markup(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for comment in _BLOCK_COMMENT.finditer(text):
        group = next(index for index in (1, 2, 3) if comment.group(index) is not None)
        spans.append(comment.span(group))
    for tag in _OPENING_TAG.finditer(text):
        attributes = tag.group(2)
        if not attributes or not (_HIDING_STYLE.search(attributes) or _HIDDEN_ATTRIBUTE.search(attributes)):
            continue
        for value in _ATTRIBUTE_VALUE.finditer(attributes):
            spans.append((tag.start(2) + value.start(1) + 1, tag.start(2) + value.end(1) - 1))
        if tag.group(0).endswith("/>"):
            continue
        closing = re.compile(rf"</{re.escape(tag.group(1))}\s*>", re.IGNORECASE).search(
            text, tag.end(), tag.end() + _ELEMENT_CHARS
        )
        spans.append((tag.end(), closing.start() if closing else min(len(text), tag.end() + _ELEMENT_CHARS)))
    return spans


def _hidden_in_code(text: str) -> list[tuple[int, int]]:
    """The comments, and the strings of a line of code (as ``detector_code`` reads them), without
    their marks; only those where a label may end. (Neither a comment nor
    a string runs past its line, so they are looked for in the whole text at once.)"""
    spans: list[tuple[int, int]] = []
    for found in STRING_OR_COMMENT.finditer(text):
        part = found.group(0)
        if not _may_hold_label(part):
            continue
        if part[0] in "\"'`":
            line_start = text.rfind("\n", 0, found.start()) + 1
            line_end = text.find("\n", found.end())
            if not is_code_line(text[line_start : len(text) if line_end == -1 else line_end]):
                continue
            spans.append((found.start() + 1, found.end() - 1))
        else:
            spans.append((found.start() + (1 if part[0] == "#" else 2), found.end()))
    return spans


def _address_in(text: str, begin: int, end: int) -> tuple[int, int] | None:
    """Where, in ``text[begin:end]``, a sentence opens with a label naming the reader and goes on
    with a request."""
    hidden = _without_tags(text[begin:end])
    if ":" not in hidden and "," not in hidden:
        return None
    starts = [len(hidden) - len(hidden.lstrip())] + [mark.end() for mark in _SENTENCE_END.finditer(hidden)]
    for start in starts:
        label = _LABEL.match(hidden, start) if start < len(hidden) and hidden[start].isalpha() else None
        if label is None:
            continue
        rest = hidden[label.end() :]
        if _asks(rest):
            return begin + start, min(end, begin + label.end() + len(rest.split("\n", 1)[0]))
    return None


def _without_tags(hidden: str) -> str:
    """``hidden`` with markup tags as spaces (the same length)."""
    if "<" not in hidden:
        return hidden
    return re.sub(r"<[^<>]*>", lambda tag: " " * len(tag.group(0)), hidden)


def _asks(rest: str) -> bool:
    """Whether ``rest``, the words after a label that names the reader, ask it for something:
    they speak to it in the second person, or open with a verb's plain form, as an order does."""
    words = [word.strip(".,;:!?\"'()[]").lower() for word in rest.split()[:40]]
    words = [word for word in words if word]
    if len(words) < _ORDER_WORDS or words[0] in _DESCRIBES:
        return False
    if speaks_or_asks(" ".join(words)):
        return True
    # Past a clause or an adverb that leads ("when you read this, call …", "always add …"), to
    # the verb of the order: the word after the clause's comma, or after the leading adverbs.
    at = 0
    if words[0] in _LEADS:
        clause = rest.split("\n", 1)[0].split(",", 1)
        at = len(clause[0].split()) if len(clause) == 2 else 0
        while at < len(words) - 1 and words[at] in _LEADS:
            at += 1
    if at >= len(words):
        return False
    word = words[at]
    if word in ("do", "don't", "dont"):
        return True
    plain = word.isalpha() and word.isascii() and word not in _DESCRIBES and not _NOT_PLAIN.search(word)
    return plain and _object_follows(rest.split()[at + 1 : at + 3])


def _object_follows(after: list[str]) -> bool:
    """Whether the words after a verb open its object, as an order's do ("tell the adopter",
    "call send_all(…)", "reply to them"): a determiner or a pronoun, perhaps after a preposition,
    or code. A noun after a noun ("summary column") or a participle ("section kept") opens none."""
    if not after:
        return False
    first = after[0].lower()
    if "(" in first or "`" in first:
        return True
    if first in _PREPOSITIONS and len(after) > 1:
        first = after[1].lower()
    return first.split("'", 1)[0].split("’", 1)[0] in _OBJECTS
