"""Checking that what a model wrote comes from what it read.

Small models invent: a trip to Spain nobody mentioned, "<name>" left where a name should
be, a sentence repeated nine times. Compaction holds the conversation the model read, so
every specific the model's text names — people, places, organisations, numbers, dates,
times, quoted values, file paths, URLs, e-mail addresses — is looked for in it. Pure: no
I/O, no state; ``Sources`` is built once per conversation and checks many texts.

Comparing with care, so faithful text passes:
- names ignore case and simple inflection ("Saturdays" ~ "Saturday", "Priya's" ~ "Priya");
- numbers compare by value, whether the source wrote them in digits or words ("three"),
  and a quantity may use another unit of the same kind ("2 hours" ~ "120 minutes"); a
  number of six digits or more compares by its digits, however grouped or spoken
  ("0113 4960771" ~ "0113 496 0771", "oh 7 9 0 0…" ~ "07900…"); thousands grouped by dots
  read both ways ("10.000" ~ "10,000"), and two groups said in words also as hundreds, or as
  units and hundredths, the way prices and years are said ("three ten a month" ~ "$310",
  "nineteen ninety-nine", "two-fifty a punnet" ~ "£2.50"), and pence or cents as hundredths
  ("11p" ~ "£0.11");
- dates compare by day, month and year as far as the text gives them ("May 2023" ~
  "6 May 2023", "2023-05-06"), and the conversation's relative dates count as the absolute
  dates ``core.dates`` makes of them ("last month" in November 2026 ~ "October 2026"), and a
  day said alone is of any month they give ("19 June … no, it's the 21st" ~ "21 June"), and
  the end or the start of a month is its last or first day ("till end of September 2025" ~
  "30 September 2025");
- the messages' own days and times, and today, count as said.

Text in another language is checked the same way: names and numbers are compared as
written, so a translated name ("Spanien" for "Spain") is marked.
"""

from __future__ import annotations

import calendar
import functools
import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum

from text_to_num import alpha2digit

from memdesk.core.dates import MONTHS, WEEKDAY_NAMES, WEEKDAYS, annotate
from memdesk.core.values import CLOCK_ZONE


class MarkKind(StrEnum):
    UNGROUNDED = "ungrounded"  # a specific the sources do not hold
    PLACEHOLDER = "placeholder"  # "<name>", "[user]"
    PROMPT = "prompt"  # words of the instructions the model was given
    DIALOGUE = "dialogue"  # lines of a conversation that did not happen
    LOOP = "loop"  # a sentence again and again


@dataclass(frozen=True)
class Mark:
    """One thing the text should not say, as written, and where (offsets into the text)."""

    kind: MarkKind
    words: str
    start: int
    end: int


_SHINGLE = 6  # words in a row that count as repeating the instructions
_EXCERPT_CHARS = 50
_MONTH_NUMBER = {name.lower(): number for number, name in enumerate(MONTHS, 1)}
_MONTH_NUMBER |= {name[:3].lower(): number for name, number in list(_MONTH_NUMBER.items())}
_MONTH_NUMBER["sept"] = 9
_MONTH = r"(?:" + "|".join(sorted(_MONTH_NUMBER, key=len, reverse=True)) + r")\.?"
_ORDINAL = r"(?:st|nd|rd|th)?"

_URL = r"(?:https?://|www\.)[^\s<>\"'`)\]]+"
_EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_PATH = (
    r"(?<![\w/@.])(?:~|\.{1,2})?/?(?:[\w.@+-]+/)+[\w.@+-]+/?"
    r"|[A-Za-z]:\\[^\s\"'`]+"
    r"|(?<![\w/@.])[\w-]+\.(?:py|js|ts|tsx|jsx|md|txt|json|jsonl|toml|yaml|yml|ini|cfg|conf|csv|sql|sh|"
    r"html|css|rs|go|java|c|h|cpp|rb|php|lock|log|xml|pdf|docx?|xlsx?|png|jpe?g|gif|svg|zip|env)\b"
)
_QUOTE = r"\"([^\"\n]{2,160})\"|“([^”\n]{2,160})”|`([^`\n]{1,160})`"
# A year after a day or a month: four digits that can be one, and not a clock time with its zone
# ("19 Nov, 0630 UTC").
_YEAR = rf"(?:1[6-9]|2\d)\d\d\b(?!\s?{CLOCK_ZONE})"
_ISO_DATE = r"\b(?P<iy>\d{4})-(?P<im>\d{1,2})-(?P<id>\d{1,2})\b"
_DAY_MONTH = rf"\b(?P<dd>\d{{1,2}}){_ORDINAL}\s+(?:of\s+)?(?P<dm>{_MONTH})(?:,?\s+(?P<dy>{_YEAR}))?\b"
_MONTH_DAY = rf"\b(?P<mm>{_MONTH})\s+(?P<md>\d{{1,2}}){_ORDINAL}(?:,?\s+(?P<my>{_YEAR}))?\b(?!:)"
_MONTH_YEAR = rf"\b(?P<ym>{_MONTH})\s+(?:of\s+)?(?P<yy>{_YEAR})"
_SLASH_DATE = r"\b(?P<s1>\d{1,2})/(?P<s2>\d{1,2})/(?P<s3>\d{2}(?:\d{2})?)\b"
_TIME = (
    r"\b(?P<th>\d{1,2})(?::(?P<tm>\d{2}))?\s*(?P<ap>[ap])\.?\s?m\b"
    r"|\b(?P<h24>\d{1,2}):(?P<m24>\d{2})\b"
)
# The languages besides English whose number words text2num reads (English is read here).
_OTHER_LANGUAGES = ("fr", "es", "pt", "de", "nl", "it", "da")
_WRITTEN_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_DOT_GROUPED = re.compile(r"\d{1,3}(?:\.\d{3})+")
# "End of September 2025" names the month's last day, "the start of May 2026" its first.
_MONTH_EDGE = re.compile(r"(?i:\b(?P<edge>end|start|beginning)\s+of\s+(?:the\s+)?)$")
_EDGE_REACH = 20  # characters before a month looked at for those words
_ORDINAL_DAY = re.compile(r"(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)", re.IGNORECASE)
# A currency sign may follow letters that name the dollar's country: "HK$10,500", "A$40".
_NUMBER = r"(?:[$£€]|(?<![\w.]))(?P<n>\d+(?:,\d{3})*(?:\.\d+)?)(?P<k>k\b)?(?:%|st|nd|rd|th)?(?![\w.]\d)"


def _named(*patterns: tuple[str, str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in patterns), re.IGNORECASE)


# One pattern tried at every position is slow, so each kind is looked for where it can begin:
# addresses around a "/", "@", "\\" or a file extension, quotes at quote marks, the rest at digits.
_ADDRESS_HINT = re.compile(r"[/@\\]|www\.|\.[a-z]{1,5}\b", re.IGNORECASE)
_ADDRESS = _named(("url", _URL), ("email", _EMAIL), ("path", _PATH))
_QUOTED = _named(("quote", _QUOTE))
_DIGITS = re.compile(r"\d+")
_AT_DIGITS = _named(
    ("iso", _ISO_DATE), ("daymonth", _DAY_MONTH), ("slash", _SLASH_DATE), ("time", _TIME), ("number", _NUMBER)
)
_MONTH_BEFORE = re.compile(rf"\b{_MONTH}\s+(?:of\s+)?$", re.IGNORECASE)
_MONTH_FIRST = _named(("monthday", _MONTH_DAY), ("monthyear", _MONTH_YEAR))
_WEEKDAY = re.compile(WEEKDAY_NAMES)
_TOKEN_EDGES = "\"'“”‘’()[]<>{}.,;:!?*"
_UNIT_AFTER = re.compile(r"\s*-?\s*([^\W\d_]+)")
_WORD_NEXT = re.compile(r"\s+[^\W\d_]")
# A scale after an amount in digits: "10 thousand", "1.5 million".
_SCALE_AFTER = re.compile(r"\s?(?i:(hundred|thousand|million|billion))\b")
# A coin worth a hundredth of its currency, after an amount: "11p", "90 cents", "50 centavos".
_HUNDREDTH = re.compile(r"\s?(?i:p|pence|c|cents?|ct|centavos?|centimes?|céntimos?|kopecks?)\b")
_WORDS = re.compile(r"[^\W\d_]+")
# A word of two letters or more whose first is not a-z: a capital, or a letter beyond ASCII
# (then checked). One capital letter ("I", "A") names nothing.
_CAPITALISED = re.compile(r"(?<![^\W\d_])[^\W\da-z_][^\W\d_]+")
_PLAIN_WORDS = re.compile(r"\w+")
_SENTENCE_EDGES = " .!?-*•\"“”'’()[]"
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)", re.MULTILINE)
_BULLET_NUMBER = re.compile(r"^\s*\d+[.)]\s", re.MULTILINE)
# A number said as a run of digit groups, however grouped or spoken ("07521 388046", "oh 7 8 2
# 2 6 0 4"): a phone number, an account or a code. Written the model's way ("07521 388 046") it
# is the same number when its digits run the same.
_ZERO_WORD = r"(?i:oh|o|zero)"
_SPOKEN_ZERO = re.compile(_ZERO_WORD)
_DIGIT_RUN = re.compile(
    rf"(?<![\w.])(?:\d++|{_ZERO_WORD}(?=[ \t.-]*\d))(?:[ \t]*[.-]?[ \t]*(?:\d++|{_ZERO_WORD}\b))*"
)
_RUN_DIGITS = 6  # fewer digits in a run are a sum, a time or a date, compared by value
_PLACEHOLDER = re.compile(
    r"<\s*[A-Za-z][\w .'-]{0,30}?\s*>|\[\s*[A-Za-z][\w .'-]{1,30}?\s*\](?!\()"
    r"|\{\{?\s*[A-Za-z_][\w .-]{0,30}\}\}?"
)
_ROLES = "user|assistant|human|ai|bot|chatbot|model|person|me|you|q|a"
_SPEAKER = re.compile(
    rf"^[ \t]*(?:[-*•][ \t]+)?(?:\*\*)?(?P<who>{_ROLES}|[A-Z][^\W\d_]{{1,20}})(?:\*\*)?[ \t]*:(?:\*\*)?[ \t]*"
    r"(?P<said>\S[^\n]*)",
    re.MULTILINE | re.IGNORECASE,
)
_SPEAKER_ROLES = frozenset(_ROLES.split("|"))
_INLINE_SPEAKER = re.compile(r"\b(?:user|assistant|human|ai|bot|chatbot|model)\s*:", re.IGNORECASE)
_OPENERS = frozenset("\"“‘'(*#>-•[]_)")  # what may stand between a sentence's start and its first word
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|me|my|we|you|your)\b", re.IGNORECASE)

# Units by kind and their size in the kind's base unit (value × size compares across units).
_UNITS: dict[str, tuple[str, float]] = {}
for _kind, _sizes in (
    (
        "time",
        {
            "second": 1,
            "sec": 1,
            "s": 1,
            "minute": 60,
            "min": 60,
            "mins": 60,
            "hour": 3600,
            "hr": 3600,
            "hrs": 3600,
            "h": 3600,
            "day": 86400,
            "week": 604800,
            "month": 2629800,
            "year": 31557600,
        },
    ),
    (
        "length",
        {
            "mm": 0.001,
            "millimetre": 0.001,
            "millimeter": 0.001,
            "cm": 0.01,
            "centimetre": 0.01,
            "centimeter": 0.01,
            "m": 1,
            "metre": 1,
            "meter": 1,
            "km": 1000,
            "kilometre": 1000,
            "kilometer": 1000,
            "mile": 1609.344,
            "mi": 1609.344,
            "ft": 0.3048,
            "foot": 0.3048,
            "feet": 0.3048,
            "inch": 0.0254,
            "inches": 0.0254,
            "in": 0.0254,
        },
    ),
    (
        "mass",
        {
            "mg": 0.001,
            "g": 1,
            "gram": 1,
            "gramme": 1,
            "kg": 1000,
            "kilo": 1000,
            "kilogram": 1000,
            "lb": 453.592,
            "lbs": 453.592,
            "pound": 453.592,
            "oz": 28.3495,
            "ounce": 28.3495,
        },
    ),
    (
        "data",
        {
            "kb": 1e3,
            "kilobyte": 1e3,
            "mb": 1e6,
            "megabyte": 1e6,
            "gb": 1e9,
            "gigabyte": 1e9,
            "gig": 1e9,
            "tb": 1e12,
            "terabyte": 1e12,
        },
    ),
):
    _UNITS |= {unit: (_kind, float(size)) for unit, size in _sizes.items()}


def _listed(words: str) -> list[str]:
    return words.split()


_NUMBER_WORDS = {
    word: value
    for value, word in enumerate(
        _listed(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen"
        )
    )
}
_TENS = _listed("twenty thirty forty fifty sixty seventy eighty ninety")
_NUMBER_WORDS |= {word: 10 * tens for tens, word in enumerate(_TENS, 2)}
# A clock time said in words: "half past seven", "quarter to nine", "twenty-five past 6",
# "half seven" (half past, as said in Britain and Ireland), "noon"; morning or afternoon.
_UNITS_WORDS = "|".join(word for word, value in _NUMBER_WORDS.items() if 0 < value < 10)
_SPOKEN_NUMBER = (
    rf"\d{{1,2}}|(?:{'|'.join(_TENS)})(?:[- ](?:{_UNITS_WORDS}))?"
    rf"|{'|'.join(sorted((w for w, v in _NUMBER_WORDS.items() if v < 20), key=len, reverse=True))}"
)
_SPOKEN_TIME = re.compile(
    rf"\b(?P<by>half|quarter|{_SPOKEN_NUMBER})\s+(?:minutes\s+)?(?P<way>past|after|to|till|til)\s+"
    rf"(?P<hour>{_SPOKEN_NUMBER})\b|\bhalf\s+(?P<half>{_SPOKEN_NUMBER})\b|\b(?P<noon>noon|midday|midnight)\b",
    re.IGNORECASE,
)
_ORDINAL_WORDS = {
    word: value
    for value, word in enumerate(
        _listed("zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth")
    )
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
# A fraction after a whole number said in words: "and a half", "and three quarters".
_FRACTION_AFTER = re.compile(r"and (?P<count>a|an|one|three) (?P<part>half|quarters?)\b")
_AMOUNT_WORDS = {"dozen": 12, "couple": 2, "pair": 2, "half": 0.5, "twice": 2, "once": 1, "both": 2}

# Words that open sentences and headings; capitalised there, they are not names.
_COMMON = frozenset(
    _listed(
        """
    a about above across after again against all almost also although always am an and another any
    anything are around as at away back be because been before being below besides best better
    between both but by can could did do does doing done down during each either else even ever
    every everything few for from further had has have having he her here hers herself him himself
    his how however i if in into is it its itself just last later least less like likes liked
    loves loved many may maybe me might mine more most much must my myself near neither never new
    next no none nor not nothing now of off often on once one only or other others our ours
    ourselves out over own per perhaps please rather really recently same several she should since
    so some something sometimes soon still such than that the their theirs them themselves then
    there these they this those though through thus to today together tomorrow too toward towards
    under unless until up upon us usually very was we well were what whatever when whenever where
    whether which while who whom whose why will with within without would yes yesterday yet you
    your yours yourself yourselves
    asked added agreed aims asks considering currently decided decisions details discussed
    discussing enjoys expressed feels finished has keeps key learned lives mentioned needs noted
    note notes open ongoing plans prefers preferences reported said says shared started states
    summary talked thinks told tried uses wants wishes works
    conversation person user assistant people someone everyone they've i'm i've i'd i'll
    action activities background career context current discussion education events facts family
    follow friends goals health highlights hobbies home information interests items job location
    memory overview personal pets plan points profile progress project projects questions
    relationships status steps tasks threads timeline todo topics travel updates work
    """
    )
)
_SUBJECT_NEXT = re.compile(
    r"['’]s\b|\s+(?:is|was|has|had|and|said|says|will|would|can|could|who|also|went|got|made|took|met|came|"
    r"left|told|thought|felt|found|gave|began|became|loves|likes|wants|lives|works|plays|enjoys|goes|gets|"
    r"makes|takes|thinks|feels|knows|needs|helps|uses|runs)\b|\s+[a-z]+ed\b"
)
# Words capitalised at a sentence's start that are never part of the name after them.
_LEADING = frozenset(
    _listed(
        "a an and at but by for from his her in its my of on or our so that the their then these this "
        "those to when while with your also after before"
    )
)
_NOT_NAME_ENDINGS = ("ing", "ed", "ly", "ies", "ful", "ous", "ive", "ment", "tion", "ness")
_ROLE_WORDS = frozenset({"user", "assistant", "system", "tool"})
# A word cut short: at least four letters of it, and at least two fifths ("econ", "Economics").
_CLIPPED_MIN = 4
_CLIPPED_SHARE = 0.4
# A word typed with one letter wrong, added or left out ("practise", "adress") is the word
# spelt right, when it is long enough that one letter does not make another word of it.
_MISTYPED_MIN = 7
# Words joined by slashes, none of them a path's part ("Wed/Thu/Fri", "won/month", "HRA/80C"):
# each word is read as written alone. Each holds a letter: "2024/05" is no list of words.
_SLASHED_PART = r"(?=\w*[^\W\d_])[^\W_]+"
_SLASHED_WORDS = re.compile(rf"{_SLASHED_PART}(?:/{_SLASHED_PART})+")
# A number written as rounded: "about 35 km/h" for "avg 35.1 km/h".
_ROUGHLY = re.compile(r"(?i:\b(?:about|around|roughly|approx(?:imately|\.)?|nearly|almost)\s+|~\s*)$")
_ROUGHLY_REACH = 16  # characters before a number looked at for those words
# Numbers between slashes are numbers or a date, not a path: "squat 205/215/222.5", "3/4 done".
_NUMBERS_SLASHED = re.compile(r"\d[\d.,]*(?:/\d[\d.,]*)+")


@dataclass(frozen=True)
class _Date:
    year: int | None
    month: int | None
    day: int | None


class _ReadWhenAsked:
    """What a text says that is slow to find and seldom needed: numbers in the words of the
    other languages text2num reads ("três dias" holds 3) and clock times said in words ("half
    past seven"). Read on the first question a text's other readings cannot answer, once:
    reading a long conversation in seven languages costs more than all the rest of its sources."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._numbers: set[float] | None = None
        self._minutes: set[int] | None = None

    def numbers(self) -> set[float]:
        if self._numbers is None:
            self._numbers = set()
            for language in _OTHER_LANGUAGES:
                written = alpha2digit(self._text, language, threshold=0)
                if written != self._text:
                    self._numbers.update(_value_of(digits) for digits in _WRITTEN_NUMBER.findall(written))
        return self._numbers

    def minutes(self) -> set[int]:
        """The clock times said in words, in the morning and in the afternoon."""
        if self._minutes is None:
            self._minutes = set()
            for match in _SPOKEN_TIME.finditer(self._text):
                self._minutes |= _spoken_minutes(match)
        return self._minutes


class Sources:
    """What a model read: the conversation (each message with its time), any stored text the
    change updates, today, and the instructions the model was given (prompts)."""

    def __init__(
        self,
        messages: Iterable[tuple[str, datetime | date | None]],
        today: date | datetime,
        prompts: Iterable[str] = (),
    ) -> None:
        texts: list[str] = []
        days: list[date] = [today.date() if isinstance(today, datetime) else today]
        self.minutes: set[int] = set()
        for text, at in messages:
            # Idempotent: a text whose relative dates already carry their date is left alone.
            texts.append(annotate(text, at) if at is not None else text)
            if at is not None:
                days.append(at.date() if isinstance(at, datetime) else at)
                if isinstance(at, datetime):
                    self.minutes.add(at.hour * 60 + at.minute)
        self.stems: set[str] = set()
        self.read_stems: set[str] = set()  # the words of the texts, not of the instructions
        self.clipped: set[str] = set()  # words written in lower case: maybe a longer word cut short
        self.flat = ""
        self.numbers: set[float] = set()
        self.read_when_asked: tuple[_ReadWhenAsked, ...] = ()
        self.bare_numbers: set[float] = set()  # said with no unit after them: "7 till 5", "at two"
        self.days_alone: set[int] = set()  # days of a month said without it: "it's the 21st"
        self.labels: set[str] = set()  # the labels a stored text's lines open with: "Notary:"
        self.quantities: set[tuple[str, float]] = set()
        self.dates: set[_Date] = set()
        self.digit_runs = " "  # every run of digits said, its digits alone, each between spaces
        self._add("\n".join(texts))
        for day in days:
            self._add_date(_Date(day.year, day.month, day.day))
        # A day of a month said without its year ("from 10th March") is of a year it was said in.
        for said in [found for found in self.dates if found.year is None and found.month and found.day]:
            for year in {day.year for day in days}:
                self._add_date(_Date(year, said.month, said.day))
        prompt_text = "\n".join(prompts)
        # Words of the instructions (headings the prompt suggests, its examples) are no names.
        self.prompt_stems = {_stem(word) for word in _WORDS.findall(prompt_text)}
        self.stems |= self.prompt_stems
        self.prompt_shingles = _shingles(_flatten(prompt_text)) - _shingles(self.flat)
        self.prompt_pairs = {shingle[:2] for shingle in self.prompt_shingles}

    @functools.cached_property
    def plain_words(self) -> str:
        """The words of the texts alone, in order, each between spaces (made when first asked)."""
        return f" {' '.join(_PLAIN_WORDS.findall(self.flat))} "

    def _add(self, text: str) -> None:
        words = set(_WORDS.findall(text))  # each word once: a long conversation repeats most
        read = {_stem(word) for word in words}
        self.stems |= read
        self.read_stems |= read
        self.clipped |= {w for w in words if w.islower() and len(w) >= _CLIPPED_MIN}
        self.flat += " " + _flatten(text) + " "
        self.digit_runs += " ".join(_digit_runs(text)) + " "
        self._add_specifics(text)
        self._add_number_words(text)
        self.read_when_asked += (_ReadWhenAsked(text),)

    def _add_specifics(self, text: str) -> None:
        """The numbers, times and dates ``text`` gives, those of a passage it quotes included
        (a forwarded confirmation: "Your policy … renews on 2 May next year")."""
        for match in _find_specifics(text):
            kind = match.lastgroup
            if kind == "quote":
                self._add_specifics(_quoted_text(match))
            elif kind == "number":
                values = _values(match)
                self.numbers |= values
                unit = _unit(text, match.end())
                if unit:
                    self.quantities |= {(unit[0], value * unit[1]) for value in values}
                else:
                    self.bare_numbers |= values
                scale = _SCALE_AFTER.match(text, match.end())
                if scale:  # "10 thousand a week" is 10,000; "1.5 million"
                    scaled = {value * _SCALES[scale.group(1).lower()] for value in values}
                    self.numbers |= scaled
                    self.bare_numbers |= scaled
                if _HUNDREDTH.match(text, match.end()):  # "11p" is £0.11
                    self.numbers |= {round(value / 100, 2) for value in values}
                if _ORDINAL_DAY.fullmatch(match.group()):
                    self.days_alone.add(int(match.group("n")))
            elif kind == "time":
                self.minutes |= _times_meant(match)
            elif kind in _DATE_KINDS:
                edge = _MONTH_EDGE.search(text, max(0, match.start() - _EDGE_REACH), match.start())
                for found in _dates(match):
                    self._add_date(found)
                    if edge and found.year and found.month and found.day is None:
                        self._add_date(_edge_day(found.year, found.month, edge.group("edge")))

    def _add_date(self, found: _Date) -> None:
        self.dates.add(found)
        if found.year is not None:
            self.numbers.add(found.year)
        if found.day is not None:
            self.numbers.add(found.day)
        if found.month is not None:
            self.stems.add(MONTHS[found.month - 1].lower())
            if found.year is not None and found.day is not None:
                self.stems.add(WEEKDAYS[date(found.year, found.month, found.day).weekday()])

    def _add_number_words(self, text: str) -> None:
        words = _WORDS.findall(text.lower())
        for index, word in enumerate(words):
            value = _NUMBER_WORDS.get(word, _ORDINAL_WORDS.get(word, _AMOUNT_WORDS.get(word)))
            following = words[index + 1] if index + 1 < len(words) else ""
            if value is None and word in ("a", "an") and following in _SCALES:
                value = 1  # "a thousand flat" is 1,000
            if value is None:
                continue
            if word in _NUMBER_WORDS and following in _NUMBER_WORDS and _NUMBER_WORDS[following] < 10:
                value += _NUMBER_WORDS[following]  # "twenty five"
            # "three ten a month", "nineteen ninety-nine"; "two-fifty a punnet"
            for grouped in _said_in_two_groups(words, index):
                self.numbers.add(grouped)
                self.bare_numbers.add(grouped)
            if following in _SCALES:
                value *= _SCALES[following]
            fraction = _FRACTION_AFTER.match(" ".join(words[index + 1 : index + 5]))
            if fraction and word in _NUMBER_WORDS:  # "two and three quarters" is 2.75
                whole = value + _fraction(fraction)
                self.numbers.add(whole)
                self.bare_numbers.add(whole)
            self.numbers.add(value)
            unit = _UNITS.get(_singular(following)) if following else None
            if unit:
                self.quantities.add((unit[0], value * unit[1]))
            else:
                self.bare_numbers.add(value)

    def said_number(self, value: float) -> bool:
        """Whether ``value`` was said, in digits or in the words of any language read."""
        return value in self.numbers or any(value in texts.numbers() for texts in self.read_when_asked)

    def said_rounded(self, value: float) -> bool:
        """Whether a number said with a fraction rounds to the whole ``value`` ("avg 35.1 km/h"
        for "about 35 km/h")."""
        fractions = (said for said in self.numbers if not float(said).is_integer())
        return float(value).is_integer() and any(round(said) == value for said in fractions)

    def said_time(self, minutes: int) -> bool:
        """Whether a clock time ``minutes`` after midnight was said, in digits or in words."""
        return minutes in self.minutes or any(minutes in texts.minutes() for texts in self.read_when_asked)

    def with_text(self, text: str) -> Sources:
        """These sources and ``text`` (a stored fact the change updates), without rebuilding."""
        if not text.strip():
            return self
        other = object.__new__(Sources)
        other.__dict__ = {
            key: (set(value) if isinstance(value, set) else value)
            for key, value in self.__dict__.items()
            if key != "plain_words"  # made again from the longer text when asked
        }
        other._add(text)
        other.labels |= {match.group("who").lower() for match in _SPEAKER.finditer(text)}
        said = self.prompt_shingles & _shingles(_flatten(text))
        if said:  # the stored text says some of the instructions' words itself
            other.prompt_shingles = self.prompt_shingles - said
            other.prompt_pairs = {shingle[:2] for shingle in other.prompt_shingles}
        return other


_ADDRESSES = frozenset({"url", "email", "path"})
_DATE_KINDS = frozenset({"iso", "daymonth", "monthday", "monthyear", "slash"})


def check(text: str, sources: Sources) -> list[Mark]:
    """Everything in ``text`` that ``sources`` do not support, in the order it appears."""
    marks = _specifics(text, sources)
    marks += _placeholders(text, sources)
    marks += _prompt_repeats(text, sources)
    marks += _dialogue(text, sources)
    marks += _loops(text)
    return sorted(marks, key=lambda mark: (mark.start, mark.end))


def unread_words(text: str, sources: Sources) -> list[str]:
    """The words of ``text`` that the texts of ``sources`` never use, in any case or form (the
    instructions' words do not count as read): the writer's own."""
    return [
        word
        for word in _WORDS.findall(text)
        if _stem(word) not in sources.read_stems and word.lower() not in _COMMON
    ]


def describe(marks: Sequence[Mark]) -> str:
    """What a reviewer is told: "not in the conversation: Spain, Europe, New York; …"."""
    by_kind: dict[MarkKind, list[str]] = {}
    for mark in marks:
        words = by_kind.setdefault(mark.kind, [])
        if mark.words not in words:
            words.append(mark.words)
    parts: list[str] = []
    for kind, words in by_kind.items():
        if kind is MarkKind.UNGROUNDED:
            parts.append("not in the conversation: " + ", ".join(words))
        elif kind is MarkKind.PLACEHOLDER:
            parts.append("placeholder left in: " + ", ".join(words))
        elif kind is MarkKind.PROMPT:
            parts.append("repeats its instructions: " + _quoted(words[0]))
        elif kind is MarkKind.DIALOGUE:
            parts.append("dialogue not in the conversation: " + _quoted(words[0]))
        else:
            counts = Counter(mark.words for mark in marks if mark.kind is MarkKind.LOOP)
            parts.append(
                "repeats " + ", ".join(f"{_quoted(words_)} {counts[words_] + 1} times" for words_ in words)
            )
    return "; ".join(parts)


def once_each(text: str) -> str:
    """``text`` keeping the first copy of each looping sentence (what the check marks)."""
    loops = _loops(text)
    if not loops:
        return text
    pieces: list[str] = []
    done = 0
    for mark in loops:
        pieces.append(text[done : mark.start])
        done = mark.end
    pieces.append(text[done:])
    lines = [line.rstrip() for line in "".join(pieces).splitlines()]
    kept = [line for line in lines if line.strip(" -*•") or not line.strip()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


# --- specifics ------------------------------------------------------------------------


def _specifics(text: str, sources: Sources) -> list[Mark]:
    marks: list[Mark] = []
    taken: list[tuple[int, int]] = []
    numbered = {match.start() for match in _BULLET_NUMBER.finditer(text)}
    runs_said = [
        run.span()
        for run in _DIGIT_RUN.finditer(text)
        if len(digits := _run_digits(run.group())) >= _RUN_DIGITS and f" {digits} " in sources.digit_runs
    ]
    for match in _find_specifics(text):
        if any(start <= match.start() and match.end() <= end for start, end in runs_said):
            taken.append(match.span())
            continue
        # A number's unit ("1Gb", "40 mg") is part of it, not a name of its own.
        unit = _unit_after(text, match.end()) if match.lastgroup == "number" else None
        taken.append((match.start(), unit.end() if unit else match.end()))
        if not _grounded(match, text, sources, numbered):
            # A sentence's full stop after a path or address is not part of it.
            marks.append(Mark(MarkKind.UNGROUNDED, match.group(), *match.span()))
    marks += _names(text, sources, taken)
    return marks


def _find_specifics(text: str) -> list[re.Match[str]]:
    """Addresses, quotes, dates, times and numbers in ``text``, in order, none overlapping."""
    found = _addresses(text) if _ADDRESS_HINT.search(text) else []
    if '"' in text or "“" in text or "`" in text:
        found += _QUOTED.finditer(text)
    found.sort(key=lambda match: match.start())
    taken = [match.span() for match in found]
    numeric: list[re.Match[str]] = []
    after = 0  # the end of the last numeric match
    index = 0
    for digits in _DIGITS.finditer(text):
        start = digits.start()
        while index < len(taken) and taken[index][1] <= start:
            index += 1
        if start < after or (index < len(taken) and taken[index][0] <= start):
            continue
        if start and text[start - 1] in "$£€":
            start -= 1
        month = _MONTH_BEFORE.search(text, max(0, start - 14), start)
        match = (_MONTH_FIRST.match(text, month.start()) if month else None) or _AT_DIGITS.match(text, start)
        if match is not None and (not numeric or match.start() >= after):
            numeric.append(match)
            after = match.end()
    return sorted(found + numeric, key=lambda match: match.start())


def _digit_runs(text: str) -> list[str]:
    """The digits of each run of digit groups in ``text`` long enough to name one thing."""
    # A run has no more digits than characters, so a short one is not read further.
    runs = (_run_digits(run.group()) for run in _DIGIT_RUN.finditer(text) if len(run.group()) >= _RUN_DIGITS)
    return [digits for digits in runs if len(digits) >= _RUN_DIGITS]


def _run_digits(run: str) -> str:
    """A run's digits alone, a spoken zero as "0" ("oh 7 9-0" → "0790")."""
    return "".join(_SPOKEN_ZERO.sub("0", run).split()).replace("-", "").replace(".", "")


def _addresses(text: str) -> list[re.Match[str]]:
    """URLs, e-mail addresses and paths: the words around each hint that read as one."""
    found: list[re.Match[str]] = []
    end = 0
    for hint in _ADDRESS_HINT.finditer(text):
        if hint.start() < end:
            continue
        start = max(text.rfind(" ", 0, hint.start()), text.rfind("\n", 0, hint.start())) + 1
        end = min(
            (at for at in (text.find(" ", hint.end()), text.find("\n", hint.end())) if at != -1),
            default=len(text),
        )
        while start < end and text[start] in _TOKEN_EDGES:
            start += 1
        while end > start and text[end - 1] in _TOKEN_EDGES:
            end -= 1
        match = _ADDRESS.fullmatch(text, start, end) if start < end else None
        if match is not None and not _NUMBERS_SLASHED.fullmatch(match.group()):
            found.append(match)
    return found


def _grounded(match: re.Match[str], text: str, sources: Sources, numbered: set[int]) -> bool:
    kind = match.lastgroup
    if kind == "path" and _SLASHED_WORDS.fullmatch(match.group()):
        return all(_slashed_word_grounded(word, sources) for word in match.group().split("/"))
    if kind in _ADDRESSES:
        return _flatten(match.group()) in sources.flat
    if kind == "quote":
        return _flatten(_quoted_text(match)).strip(" .,;:!?") in sources.flat
    if kind == "time":
        return sources.said_time(_minutes(match)) or _hour_said(match, sources)
    if kind == "number":
        line_start = text.rfind("\n", 0, match.start()) + 1
        if line_start in numbered and not text[line_start : match.start()].strip():
            return True  # a list's own numbering
        values = _values(match)
        if any(sources.said_number(value) for value in values):
            return True
        if _ROUGHLY.search(text, max(0, match.start() - _ROUGHLY_REACH), match.start()) and any(
            sources.said_rounded(value) for value in values
        ):
            return True
        unit = _unit(text, match.end())
        return unit is not None and any((unit[0], value * unit[1]) in sources.quantities for value in values)
    return any(_date_known(found, sources) for found in _dates(match))


def _quoted_text(match: re.Match[str]) -> str:
    """What a quote match holds between its quote marks."""
    return next(group for group in match.groups()[match.re.groupindex["quote"] :] if group)


def _date_known(found: _Date, sources: Sources) -> bool:
    return any(
        (found.year is None or found.year == known.year)
        and (found.month is None or found.month == known.month)
        and (found.day is None or found.day == known.day or found.day in sources.days_alone)
        for known in sources.dates
    )


def _edge_day(year: int, month: int, edge: str) -> _Date:
    """The last day of the month for "end", else its first."""
    return _Date(year, month, calendar.monthrange(year, month)[1] if edge.lower() == "end" else 1)


def _dates(match: re.Match[str]) -> list[_Date]:
    """The dates a date match may mean (a slashed date may be day-first or month-first), those
    with no month past December ("10/15/25" is month-first only)."""
    return [found for found in _readings(match) if found.month is None or 1 <= found.month <= len(MONTHS)]


def _readings(match: re.Match[str]) -> list[_Date]:
    group = match.group
    kind = match.lastgroup
    if kind == "iso":
        return [_Date(int(group("iy")), int(group("im")), int(group("id")))]
    if kind == "daymonth":
        return [_Date(_year(group("dy")), _month(group("dm")), int(group("dd")))]
    if kind == "monthday":
        return [_Date(_year(group("my")), _month(group("mm")), int(group("md")))]
    if kind == "monthyear":
        return [_Date(int(group("yy")), _month(group("ym")), None)]
    first, second, year = int(group("s1")), int(group("s2")), _year(group("s3"))
    return [_Date(year, second, first), _Date(year, first, second)]


def _year(raw: str | None) -> int | None:
    if raw is None:
        return None
    return int(raw) + 2000 if len(raw) == 2 else int(raw)


def _month(raw: str) -> int:
    return _MONTH_NUMBER[raw.lower().rstrip(".")]


def _spoken_minutes(match: re.Match[str]) -> set[int]:
    """The minutes after midnight a clock time said in words means, morning and afternoon."""
    if match.group("noon"):
        return {0 if match.group("noon").lower() == "midnight" else 12 * 60}
    hour = _said_number(match.group("hour") or match.group("half"))
    by = (match.group("by") or "half").lower()
    minutes = {"half": 30, "quarter": 15}.get(by, _said_number(by))
    if hour is None or minutes is None or not 1 <= hour <= 12 or not 0 < minutes < 60:
        return set()
    at = hour * 60 + (
        -minutes if (match.group("way") or "past").lower() in ("to", "till", "til") else minutes
    )
    return {at % (12 * 60), at % (12 * 60) + 12 * 60}


def _minutes(match: re.Match[str]) -> int:
    if match.group("h24") is not None:
        return int(match.group("h24")) * 60 + int(match.group("m24"))
    hour = int(match.group("th")) % 12 + (12 if match.group("ap").lower() == "p" else 0)
    return hour * 60 + int(match.group("tm") or 0)


def _times_meant(match: re.Match[str]) -> set[int]:
    """The times of day (minutes after midnight) a clock time says: "6:30", said with no
    morning or afternoon and no leading zero, is either ("practice at 6:30" ~ "6:30pm"), as a
    time said in words is; "06:30", "18:30" and "6:30am" are one."""
    said = _minutes(match)
    hour = match.group("h24")
    if hour is None or hour.startswith("0") or not 1 <= int(hour) <= 12:
        return {said}
    return {said % (12 * 60), said % (12 * 60) + 12 * 60}


def _hour_said(match: re.Match[str], sources: Sources) -> bool:
    """A whole hour of the clock ("7am", "2pm", "17:00") whose hour was said as a number with
    no unit ("7 till 5", "two o'clock", "pings from 8"; not "3 hours"): morning or afternoon,
    or the 24-hour clock, is how the hour is read, not a value of its own."""
    hour, minutes = (match.group("th"), match.group("tm")) if match.group("th") else match.group("h24", "m24")
    if int(minutes or 0):
        return False
    return (int(hour) - 1) % 12 + 1 in sources.bare_numbers


def _number_group(words: list[str], index: int) -> tuple[int, int] | None:
    """The whole number below a hundred said in words from ``index`` ("seven", "ninety nine")
    and how many words it takes."""
    value = _NUMBER_WORDS.get(words[index]) if index < len(words) else None
    if value is None:
        return None
    units = _NUMBER_WORDS.get(words[index + 1]) if index + 1 < len(words) else None
    if value >= 20 and value % 10 == 0 and units is not None and 0 < units < 10:
        return value + units, 2
    return value, 1


def _fraction(found: re.Match[str]) -> float:
    """The fraction ``_FRACTION_AFTER`` found: a half, a quarter or three quarters."""
    if found.group("part") == "half":
        return 0.5
    return 0.75 if found.group("count") == "three" else 0.25


def _said_in_two_groups(words: list[str], index: int) -> tuple[float, ...]:
    """A number said as two groups, the way prices and years are ("three ten" for 310, "twelve
    fifty" for 1,250, "nineteen ninety-nine"; "two-fifty" for 2.50, "minus two seventy-five" for
    a lens's -2.75): read as hundreds and the rest, and as units and hundredths, besides each."""
    first = _number_group(words, index)
    if first is None or not 1 <= first[0] <= 99:
        return ()
    second = _number_group(words, index + first[1])
    if second is None or not 10 <= second[0] <= 99:
        return ()
    return first[0] * 100 + second[0], round(first[0] + second[0] / 100, 2)


def _said_number(said: str) -> int | None:
    """A whole number said in digits or in English words ("7", "seven", "twenty-five")."""
    if said.isdigit():
        return int(said)
    words = re.split(r"[- ]", said.lower())
    if not all(word in _NUMBER_WORDS for word in words):
        return None
    return sum(_NUMBER_WORDS[word] for word in words)


def _values(match: re.Match[str]) -> set[float]:
    """What a number match may mean: as read, and grouped by dots in the way much of the world
    writes thousands ("10.000", "1.250.000"), which reads as a decimal too."""
    raw = match.group("n")
    readings = {_value_of(raw)} | ({float(raw.replace(".", ""))} if _DOT_GROUPED.fullmatch(raw) else set())
    scale = 1000 if match.group("k") else 1
    return {value * scale for value in readings}


def _value_of(raw: str) -> float:
    return float(raw.replace(",", ""))


def _unit(text: str, at: int) -> tuple[str, float] | None:
    match = _unit_after(text, at)
    return _UNITS[_singular(match.group(1).lower())] if match else None


def _unit_after(text: str, at: int) -> re.Match[str] | None:
    """The unit written right after a number at ``at``, if any. "in" apart from the number
    and before another word is the preposition ("10 in the morning", "3 in a row"), not
    inches ("27in", "a 27 in. screen")."""
    match = _UNIT_AFTER.match(text, at)
    if match is None or _singular(match.group(1).lower()) not in _UNITS:
        return None
    if match.group(1).lower() == "in" and match.start(1) > at and _WORD_NEXT.match(text, match.end()):
        return None
    return match


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


# --- names ----------------------------------------------------------------------------


def _names(text: str, sources: Sources, taken: list[tuple[int, int]]) -> list[Mark]:
    """Capitalised words and runs of them ("New York") the sources never use."""
    marks: list[Mark] = []
    run: list[re.Match[str]] = []

    def close() -> None:
        while len(run) > 1 and run[0].group().lower() in _LEADING:
            del run[0]  # "Then Spain": the name is "Spain"
        if run and not _run_grounded(text, run, sources):
            marks.append(
                Mark(MarkKind.UNGROUNDED, text[run[0].start() : run[-1].end()], run[0].start(), run[-1].end())
            )
        run.clear()

    spans = iter(sorted(taken))
    skip = next(spans, None)
    for match in _CAPITALISED.finditer(text):
        while skip is not None and skip[1] <= match.start():
            skip = next(spans, None)
        if (skip is not None and skip[0] <= match.start() < skip[1]) or not match.group()[0].isupper():
            close()
            continue
        # Words between two capitalised ones (lower-case or not words) end a run.
        if run and text[run[-1].end() : match.start()] not in (" ", "-"):
            close()
        run.append(match)
    close()
    return marks


def _run_grounded(text: str, run: list[re.Match[str]], sources: Sources) -> bool:
    if len(run) > 1 and all(match.group().isupper() for match in run):
        return True  # SHOUTED WORDS, not a name
    for match in run:
        word = match.group()
        lower = word.lower()
        if _word_grounded(word, sources) or lower in _ROLE_WORDS:
            continue
        # A word that opens a sentence is capitalised anyway ("Delete every…"): it counts as
        # a name only when the sentence goes on as about someone or something ("Jake helped",
        # "Spain is", "Egypt's").
        if (
            len(run) == 1
            and _opens_sentence(text, match.start())
            and (lower.endswith(_NOT_NAME_ENDINGS) or not _SUBJECT_NEXT.match(text, match.end()))
        ):
            continue
        return False
    return True


def _word_grounded(word: str, sources: Sources) -> bool:
    """Whether the sources use ``word`` in any case or form, cut short or mistyped, or it is
    a common word ("The", "Personal Details": a run of them counts for its other words)."""
    lower = word.lower()
    return (
        _stem(word) in sources.stems
        or lower in _COMMON
        or _cut_short(lower, sources)
        or _mistyped(lower, sources)
    )


def _slashed_word_grounded(word: str, sources: Sources) -> bool:
    """A word of a slashed list: a word as ``_word_grounded`` reads it, or a code of letters and
    digits ("80C") the sources write as one word."""
    if word.isalpha():
        return _word_grounded(word, sources)
    return f" {word.lower()} " in sources.plain_words


def _mistyped(word: str, sources: Sources) -> bool:
    """Whether the sources hold ``word`` typed in lower case with one letter wrong, added or
    left out ("cherry tree practise" for "Practice")."""
    if len(word) < _MISTYPED_MIN:
        return False
    return any(
        abs(len(typed) - len(word)) <= 1 and len(typed) >= _MISTYPED_MIN and _one_letter_apart(word, typed)
        for typed in sources.clipped
    )


def _one_letter_apart(first: str, second: str) -> bool:
    """One letter replaced, added or left out (not the same word)."""
    if first == second:
        return False
    if len(first) > len(second):
        first, second = second, first
    start = 0
    while start < len(first) and first[start] == second[start]:
        start += 1
    if len(first) == len(second):
        return first[start + 1 :] == second[start + 1 :]
    return first[start:] == second[start + 1 :]


def _cut_short(word: str, sources: Sources) -> bool:
    """Whether the sources hold ``word`` cut short, in lower case, as people shorten a word
    they type ("econ" for "Economics", "uni" is too short to say which word it is); a
    name written with its capital ("Jean") is a name of its own, not a shortened one."""
    shortest = max(_CLIPPED_MIN, math.ceil(len(word) * _CLIPPED_SHARE))
    return any(word[:length] in sources.clipped for length in range(shortest, len(word)))


def _opens_sentence(text: str, at: int) -> bool:
    """Whether the word at ``at`` opens a sentence, a line, a list item or a heading."""
    index = at - 1
    while index >= 0:
        char = text[index]
        if char == "\n" or char in ".!?:;":
            return True
        if not (char.isspace() or char.isdigit() or char in _OPENERS):
            return False
        index -= 1
    return True


@functools.lru_cache(maxsize=8192)
def _stem(word: str) -> str:
    """Close enough for comparing words: lower case, without a plural, tense or possessive ending."""
    word = word.lower()
    # A weekday or a month as it is shortened ("thurs", "Thu", "Sept") is the day or month.
    if _WEEKDAY.fullmatch(word):
        return WEEKDAYS[[day[:3] for day in WEEKDAYS].index(word[:3])]
    if word in _MONTH_NUMBER:
        return MONTHS[_MONTH_NUMBER[word] - 1].lower()
    for suffix, replacement in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + replacement
            break
    return word.rstrip("e") if len(word) > 3 else word


# --- placeholders, instructions, dialogue, loops -------------------------------------


def _placeholders(text: str, sources: Sources) -> list[Mark]:
    if "<" not in text and "[" not in text and "{" not in text:
        return []
    return [
        Mark(MarkKind.PLACEHOLDER, match.group(), *match.span())
        for match in _PLACEHOLDER.finditer(text)
        if _flatten(match.group()) not in sources.flat
    ]


def _prompt_repeats(text: str, sources: Sources) -> list[Mark]:
    if not sources.prompt_shingles:
        return []
    lowered = text.lower()
    # Lower case rarely changes a text's length; when it does, words are found as written.
    same = len(lowered) == len(text)
    words = _PLAIN_WORDS.findall(lowered) if same else [word.lower() for word in _PLAIN_WORDS.findall(text)]
    pairs, shingles = sources.prompt_pairs, sources.prompt_shingles
    hits = [
        index
        for index, pair in enumerate(itertools.pairwise(words))
        if pair in pairs and tuple(words[index : index + _SHINGLE]) in shingles
    ]
    if not hits:
        return []
    places = [match.span() for match in _PLAIN_WORDS.finditer(lowered if same else text)]
    spans: list[list[int]] = []
    for index in hits:
        start, end = places[index][0], places[index + _SHINGLE - 1][1]
        if spans and start <= spans[-1][1]:
            spans[-1][1] = end
        else:
            spans.append([start, end])
    return [Mark(MarkKind.PROMPT, text[start:end], start, end) for start, end in spans]


def _dialogue(text: str, sources: Sources) -> list[Mark]:
    """Lines of made-up talk: "User: …", "Assistant: …", or "Priya: I …" (a label and then
    someone speaking, unlike "Location: Bristol")."""
    marks: list[Mark] = []
    for match in _SPEAKER.finditer(text):
        who = match.group("who").lower()
        if who not in _SPEAKER_ROLES and (
            _stem(who) in sources.prompt_stems
            or who in sources.labels  # the stored line's own label ("Notary: Me Paquette")
            or not _FIRST_PERSON.search(match.group("said"))
        ):
            continue
        turns = _INLINE_SPEAKER.split(match.group("said"))
        if all(_quotes(turn, sources) for turn in turns):
            continue  # quoting what was said
        marks.append(Mark(MarkKind.DIALOGUE, match.group().strip(), match.start("who"), match.end()))
    return marks


def _quotes(turn: str, sources: Sources) -> bool:
    """Whether ``turn`` is what the conversation says: word for word, its marks aside. A quote
    may leave out emphasis (``**``) and stop short with "…", as the offline summary's do."""
    if _flatten(turn).strip(' .!?"“”') in sources.flat:
        return True
    words = _PLAIN_WORDS.findall(_flatten(turn))
    return bool(words) and f" {' '.join(words)} " in sources.plain_words


def _loops(text: str) -> list[Mark]:
    """Each copy after the first of a sentence said again (of 3 words or more, or 3 times)."""
    sentences = list(_SENTENCE.finditer(text))
    # Compared in lower case, with spacing and the marks around it ignored.
    keys = [" ".join(match.group().lower().split()).strip(_SENTENCE_EDGES) for match in sentences]
    counts = Counter(keys)
    if len(counts) == len(keys):
        return []
    seen: set[str] = set()
    marks: list[Mark] = []
    for key, match in zip(keys, sentences, strict=True):
        if not key:
            continue
        if counts[key] < 2 or (len(key.split()) < 3 and counts[key] < 3):
            continue
        if key in seen:
            start = match.start() + len(match.group()) - len(match.group().lstrip(" \t-*•"))
            marks.append(Mark(MarkKind.LOOP, text[start : match.end()].strip(), start, match.end()))
        seen.add(key)
    return marks


# --- helpers --------------------------------------------------------------------------


def _flatten(text: str) -> str:
    """Lower case with runs of white space as one space, for finding one text in another."""
    return " ".join(text.lower().split())


def _shingles(flat: str) -> set[tuple[str, ...]]:
    words = _PLAIN_WORDS.findall(flat)
    return {tuple(words[index : index + _SHINGLE]) for index in range(len(words) - _SHINGLE + 1)}


def _quoted(words: str) -> str:
    words = " ".join(words.split())
    return f"“{words if len(words) <= _EXCERPT_CHARS else words[: _EXCERPT_CHARS - 1] + '…'}”"
