"""Values a text holds, read by their shape alone: an e-mail or web address, a phone number,
an amount of money, a quantity with its unit, a percentage, a clock time or a range of two,
a weekday, an ordinal with what it counts, a person named with a title, a postal address.

No word list of what the value is about: "07700 900873" is a phone number wherever it is
said, "40 mg" a dose of something, "21:00–05:30" a range of hours. Each value has a kind and
a key that compares values of that kind written differently ("£1,220" and "£1220", "8am" and
"08:00", "Thurs" and "Thursdays"). A value said as not holding ("not the 60mg", "instead of
Tuesdays", "went up from £1,100") or as a bound ("until 10:45") is marked ``denied``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache

from memdesk.core.dates import MONTHS, WRITTEN_DATE
from memdesk.core.search_text import STOPWORDS

EMAIL, URL, PHONE, MONEY, PERCENT = "email", "url", "phone", "money", "percent"
CLOCK, HOURS = "clock", "hours"
# A clock-shaped reading that cannot be a time of day ("parkrun PB 26:10"): a duration, which
# replaces a duration, never a time.
DURATION = "duration"
# A number said alone ("so it's 100 now", "110, 2 puffs"): no unit and no noun after it. It
# may stand for an amount of a kind a stored fact gives with its unit ("50mg").
NUMBER = "number"
MEASURED = "quantity:"  # the kind of every quantity with a unit starts so
# An ordinal with what it counts ("12th floor", "2nd year"): its kind is "ordinal:<the noun>",
# so "19th floor" replaces "12th floor" and not "paid on the 15th".
ORDINAL = "ordinal:"
# A number with the word of what it counts or is paid in ("5000 som", "1,800 euros", "40
# customers", "3 cases"): its kind is "counted:<the word>", so "7000 som" replaces "5000 som" and
# not "40 customers". Words that say when or how often are no such thing.
COUNTED = "counted:"
_WHEN_WORDS = (
    "am",
    "pm",
    "time",
    "times",
    "day",
    "days",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "wk",
    "wks",
    "yr",
    "yrs",
)
_HOW_MUCH_WORDS = ("hour", "hours", "minute", "minutes", "percent", "per", "each", "every", "more", "less")
_NOT_COUNTED = "|".join(sorted({*STOPWORDS, *_WHEN_WORDS, *_HOW_MUCH_WORDS}, key=len, reverse=True))
# A person named with a title ("Dr Ingrid Lindqvist", "Mr. Achebe"): who holds a role for the
# person (their doctor, a child's teacher, a delegate); keyed by the surname.
TITLED = "titled"
# A weekday said as recurring ("Thursdays", "every Thursday") is a schedule's; one said once
# ("on Thursday", "thurs") is a day something happens or happened.
WEEKDAY, DAY = "weekday", "day"
# A day of the year, with its year when given: "14 March", "the 21st of May 2026", "March 4,
# 1981", "3 Feb". Keyed by month and day ("3-14", "1991-3-14"): "14 March" and "March 14" are one.
DATE = "date"
_MONTH_WORD = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?"
)
_MONTH_NUMBER = {month[:3].lower(): number for number, month in enumerate(MONTHS, 1)}
_DAY_OF_MONTH = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_DATE_YEAR = r"(?:,?\s+(?:19|20)\d\d\b)?"
_DATE = (
    rf"\b{_DAY_OF_MONTH}\s+(?:of\s+)?(?i:{_MONTH_WORD}){_DATE_YEAR}"
    rf"|\b(?i:{_MONTH_WORD})\s+{_DAY_OF_MONTH}\b(?![:.]\d){_DATE_YEAR}"
)
# A postal address: a house, flat or plot number with a street or place word after it ("9
# Marlowe Court", "Plot No. 17, Road No. 4"), or a street named before its number ("Calle
# Mayor 12", "Hauptstr. 5"). Names and words are capitalised, as an address writes them, and
# a street word after the number follows a name: "2 Close friends" and "3 way split" are not
# addresses, nor is a number with no such word ("Room 12", "10 Downing" said as a name).
ADDRESS = "address"
# Street and place words of the languages the rules read: those said after the number
# (English), those said before it (the others), and those said before it only after a plot's
# or flat's number ("Plot No. 17, Sector 4": "Block 2, 12th floor" of an office is no address).
_STREET_AFTER = (
    "Street St Road Rd Lane Ln Avenue Ave Close Court Ct Drive Way Walk Place Pl Square Sq"
    " Crescent Cres Terrace Gardens Grove Mews Row Hill Park Parade Rise View Green Wharf"
    " Apartments Flats Mansions House Cottages Estate Colony Nagar Marg Sector Block"
)
_STREET_BEFORE = (
    "Calle Avenida Av Carrer Plaza Paseo Rua Travessa Praça Via Viale Piazza Corso Rue Boulevard"
    " Chemin Allée Ulica Aleja Osiedle Straat Laan Plein"
)
_STREET_AFTER_UNIT = "Sector Block Phase Road Street Lane"
# German (and Dutch) names end in their street word: "Hauptstraße", "Hauptstr.", "Lindenweg".
_STREET_ENDING = r"straße strasse str\. weg platz gasse allee damm ring ufer gracht"
_STREET_NUMBER = r"\d{1,5}[A-Za-z]?(?:[/-]\d{1,4})?"
# The street and place words as the full-text index holds them: what finds an entry that may
# give an address before its shape is read.
STREET_WORDS = tuple(dict.fromkeys(f"{_STREET_AFTER} {_STREET_BEFORE} {_STREET_AFTER_UNIT}".lower().split()))
_AFTER, _BEFORE, _AFTER_UNIT, _ENDING = (
    "|".join(words.split()) for words in (_STREET_AFTER, _STREET_BEFORE, _STREET_AFTER_UNIT, _STREET_ENDING)
)
_UNIT_NUMBER = rf"(?:Flat|Apt|Apartment|Unit|Plot|House|Door)\.?\s+(?:No\.?\s*)?{_STREET_NUMBER},?\s+"
# Units by what they measure; a quantity's kind is "quantity:<what>", so 75mcg replaces 50mcg
# and "1 gig" is not compared with "20 minutes".
_UNITS = {
    "dose": "mg mcg µg ug g iu ml",
    "mass": "kg kgs kilo kilos lb lbs",
    "data": "mb gb tb mbps gig gigs",
    "length": "km k mi miles kilometre kilometres kilometer kilometers",
    "duration": "min mins minute minutes hr hrs hour hours",
    "temperature": "°c °f",
}
_UNIT_KIND = {unit: what for what, units in _UNITS.items() for unit in units.split()}
# One spelling of each unit in a value's key, so "20 kilo" is "20kg" and "45 minutes" "45 min"
# (a plural's "s" is dropped before: "kgs" is "kg").
_UNIT_SPELLING = {
    "kilo": "kg", "kilometre": "km", "kilometer": "km", "miles": "mi",
    "minute": "min", "hour": "hr", "gig": "gb",
}  # fmt: skip
_UNIT = "|".join(sorted((re.escape(unit) for unit in _UNIT_KIND), key=len, reverse=True))
_NUMBER = r"\d+(?:[.,]\d+)*"
_CLOCK = r"\d{1,2}(?:[:h]\d{2}(?:\s?[ap]\.?m\b\.?)?|[.]\d{2}\s?[ap]\.?m\b\.?|\s?[ap]\.?m\b\.?)"
# A clock time said with its part of the day or "o'clock": "10 in the morning", "7.30 in the
# evening", "9 o'clock at night", "5 o'clock".
_PART_OF_DAY = r"(?:in\s+the\s+(?:morning|afternoon|evening)|at\s+night)"
_CLOCK_SAID = rf"\d{{1,2}}(?:[:.]\d{{2}})?\s+(?:o['’]clock\b(?:\s+{_PART_OF_DAY})?|{_PART_OF_DAY}\b)"
# Four digits of the 24-hour clock with its zone, as rosters and flight plans write it: "0630Z",
# "1410 UTC". Alone, or before "hours" ("1200 hours" flown), four digits are a number or a year.
CLOCK_ZONE = r"(?:Z|UTC|GMT|LT)\b"
_CLOCK_HHMM = rf"(?:[01]\d|2[0-3])[0-5]\d\s?{CLOCK_ZONE}"
_AFTERNOON = re.compile(r"(?i:p\.?\s?m\b|afternoon|evening)")
_MORNING = re.compile(r"(?i:a\.?\s?m\b|morning)")
_CLOCK_DIGITS = re.compile(rf"(?i:{_CLOCK})")
_NAME_WORD = r"[A-Z][\w-]*(?:['’][A-Z][\w-]*)?"  # "Lindqvist" of "Lindqvist's", "O'Brien"
_SHORT_DAY = 4  # letters of a day's short form: "Sun", "Thur"
# a short day form followed by a capitalised word that is no day or month: part of a name
_IN_A_NAME = re.compile(
    r"\s+(?!(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b)[A-Z][a-z]"
)
_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@lru_cache(maxsize=1)
def _shapes() -> re.Pattern[str]:
    """Every value's shape, compiled on first use: finding every currency sign Unicode knows
    ("£", "₱", "₦", "₩"…, not a list of some) asks the category of each character of the basic
    plane, which a command that reads no value should not pay for at start-up."""
    currency = "".join(
        re.escape(chr(code)) for code in range(0x10000) if unicodedata.category(chr(code)) == "Sc"
    )
    return re.compile(
        rf"""
    (?P<email>(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+)
    |(?P<url>\b(?:https?://|www\.)[^\s,;]+[^\s,;.)])
    |(?P<money>(?:\b[A-Z]{{1,3}}(?=\$))?(?:[{currency}]|\b(?:Rs|Rp)\.?)\s?{_NUMBER}(?:\s?(?:k|m|bn)\b)?
        |\b{_NUMBER}\s?(?:(?!{CLOCK_ZONE})[A-Z]{{3}}|TL|zł|kr|[{currency}])(?![\w]))
    |(?P<percent>\b{_NUMBER}\s?%)
    |(?P<hours>\b{_CLOCK}\s*(?:-|–|—|to|till|until)\s*{_CLOCK})
    |(?P<clock>\b(?i:{_CLOCK_SAID})|\b{_CLOCK}|\b{_CLOCK_HHMM})
    |(?P<phone>(?<![\w+.,])(?:\(\d{{1,5}}\)\s?|\+)?\d(?:[ ()-]{{0,2}}\d){{6,14}}(?![\w.,]\d))
    |(?P<address>(?<![\w.,£$€₹¥+/:-])(?:{_UNIT_NUMBER})?
        (?:(?:No\.?\s*)?{_STREET_NUMBER},?\s+(?:[A-Z][\w'’-]*\s+){{1,3}}(?:{_AFTER})\b\.?
        |\b(?:{_BEFORE})\b\.?\s+(?:No\.?\s*)?(?:[A-Z][\w'’-]*\s+){{0,3}}{_STREET_NUMBER}\b
        |\b[A-ZÄÖÜ]\w*(?i:{_ENDING})\s*{_STREET_NUMBER}\b)
        |\b{_UNIT_NUMBER}(?:{_AFTER_UNIT})\b\.?\s+(?:No\.?\s*)?{_STREET_NUMBER}\b)
    |(?P<date>{_DATE})
    |(?P<quantity>\b{_NUMBER}\s?(?i:{_UNIT})(?!\w))
    |(?P<titled>\b(?:Dr|Doctor|Mr|Mrs|Ms|Mx|Prof|Professor)\.?[ ]+{_NAME_WORD}(?:[ ]{_NAME_WORD})*)
    |(?P<ordinal>\b\d+(?i:st|nd|rd|th)\s+[^\W\d_]+)
    |(?P<counted>(?<![\w.,£$€₹¥+/'’-]){_NUMBER}\s+(?!(?i:{_NOT_COUNTED})\b)[^\W\d_]{{2,}}\b(?!['’]))
    |(?P<number>(?<![\w.,£$€₹¥+/'’-]){_NUMBER}(?![\w%:/-]|[.,]\d))
    |(?P<weekday>\b(?i:(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b)
    |(?P<day>\b(?i:(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b
        |\b(?:mon|tues?|weds?|thu(?:rs?)?|fri|Mon|Tues?|Weds?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\b(?![’'-]))
    """,
        re.VERBOSE,
    )


_NEXT_WORD = re.compile(r"\s*([^\W\d_][\w'’]*)")
_MIN_TAIL = 3  # digits of an old number said to name it ("the 412 one")
_WHOLE_NUMBER = re.compile(r"(?<![\d.,])\d+(?![\d]|[.,]\d)")  # not a group of a longer number
_DEFINITE = re.compile(r"(?i:\b(?:the|that|this|those)\s+)$")
# "every" or "each" before a day: a weekly day (``WEEKDAY``), part of the value
EVERY = re.compile(r"(?i:\b(?:every|each)\s+)$")
# Said as not holding ("not the 60mg", "no longer Tuesdays", "instead of £40", "from £1,100
# to …"), or as a bound of something else ("ran long today, until 10:45", "back by 6pm", "in
# the new job since Monday", "a plan up to 25").
_DENIED_BEFORE = re.compile(
    r"(?i:\b(?:not|no\s+longer|instead\s+of|rather\s+than|from|was|old|previous|wrong"
    r"|until|till|since|before|after|by|past"
    # a most, not a new value: "a plan up to 25", "covers up to 40" (not "went up to 20mg")
    r"|(?:plan|limit|cap|allows?|covers?|holds?|fits?|takes?|for|of)\s+up\s+to)\s+(?:the\s+|my\s+|a\s+)?)$"
)
_BY = re.compile(r"(?i:\bby\s+)$")
# Before a stored value, the words that make it a record of what held ("cut-off was 20 December"):
# not a value that holds now.
WAS_BEFORE = re.compile(r"(?i:\b(?:was|were|had\s+been)\s+(?:(?:on|at|the)\s+)?)$")
_YEAR = re.compile(r"\b((?:19|20)\d\d)\b")
_BEGAN = re.compile(r"(?i:\b(?:since|from|as\s+of|starting)\s+(?:\S+\s+)?)$")  # "since 2021", "from May 2024"


def year_gone_by(text: str, end: int, year: int) -> bool:
    """``text`` names a year before ``year`` ahead of ``end``, not as when what follows began: a
    record or a story of then ("2023 budget: rent €310", "in 1998 we make 1,500 forms"), not
    "Since 2021: …"."""
    return any(
        int(found.group(1)) < year and not _BEGAN.search(text, 0, found.start())
        for found in _YEAR.finditer(text, 0, end)
    )


# What a rate is per: "a litre", "the kilo", "/kg"; not "each" ("each time" is "each session").
_PER = re.compile(r"(?i:\s*(?:an?|per|the|/)\s*([^\W\d_][\w'’-]*))")
# A value said as it was: "I sell still 14 euro", "same as last year", "like always", "stays $14".
_AS_BEFORE = re.compile(
    r"(?i:\b(?:still|same\s+(?:as|like)|(?:as|like)\s+(?:before|always|usual|ever)|unchanged|stays|remains)\b)"
)
CLAUSE_BREAK = re.compile(r"[.;,]\s+")  # between the clauses of a sentence or a stored fact
_NEAR_WORDS = 4  # either side of a value: "I sell still 14 euro", "$3 like always"


def other_rates(first: str, first_end: int, second: str, second_end: int) -> bool:
    """Both values, ending at the ends given, are rates, and of different measures: "14 euro the
    kilo" and "1.20 euro a litre"."""
    rates = [_PER.match(first, first_end), _PER.match(second, second_end)]
    measures = {rate.group(1).lower().rstrip("s") for rate in rates if rate}
    return all(rates) and len(measures) == len(rates)


def clause_around(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the clause holding ``start:end`` begins and ends (full stops, semicolons, commas)."""
    starts = [m.end() for m in CLAUSE_BREAK.finditer(text, 0, start)]
    after = CLAUSE_BREAK.search(text, end)
    return (starts[-1] if starts else 0), (after.start() if after else len(text))


# What joins the two ends of a range of days or times: "Mon–Fri", "Tuesday to Saturday", "2 til 3:30".
RANGE_JOIN = r"\s*(?:[–—-]|\bto\b|\bthrough\b|\bthru\b|\btil+\b|\buntil\b)\s*"
# An amount said as how much another differs, not as a value: "£20 difference", "£20 cheaper",
# "by £20", "saves me £20", "an extra £20".
_DIFFERENCE_AFTER = re.compile(
    r"(?i:\s+(?:difference|cheaper|dearer|pricier|more|less|extra|off|higher|lower|bigger|smaller|"
    r"longer|shorter|saving|savings|discount|increase|decrease|rise|drop)\b)"
)
_DIFFERENCE_BEFORE = re.compile(
    r"(?i:\b(?:by|difference\s+of|saves?(?:\s+(?:me|us|you))?|saving|extra|another|further)\s+$)"
)


def said_as_difference(text: str, span: tuple[int, int]) -> bool:
    """The amount at ``span`` is said as how much another one differs ("£20 difference same
    basket", "went up by £26"): no value of anything."""
    return bool(_DIFFERENCE_AFTER.match(text, span[1]) or _DIFFERENCE_BEFORE.search(text, 0, span[0]))


def said_as_before(text: str, span: tuple[int, int]) -> bool:
    """The words near the value at ``span``, in its clause, say it is as it was: no new value."""
    clause_start, clause_end = clause_around(text, *span)
    before = text[clause_start : span[0]].split()[-_NEAR_WORDS:]
    behind = text[span[1] : clause_end].split()[:_NEAR_WORDS]
    return bool(_AS_BEFORE.search(" ".join((*before, "·", *behind))))


# A capitalised word before a number, not the first of its line or sentence: the number is a
# part of a name ("OCBC 360", "Stage 3").
_NAMED_NUMBER = re.compile(r"[^\s.!?:;•*-][^\S\n]+[A-Z][\w&-]*[^\S\n]+$")
_RANGE_ON = re.compile(r"\s*[-–]\s*\d")
_RANGE_BACK = re.compile(r"\d\s*[-–]\s*$")
_DATE_BOUND = re.compile(r"(?i:\b(?:by|until|till|before)\s+(?:the\s+)?)$")
# "no" as a word of its own, or with a word that holds the speaker up: "no wait,", "no sorry —"
_TAKEN_BACK = re.compile(
    r"(?i:(?:^|[\s,;:—–-])no(?:\s+(?:wait|sorry|actually|hang\s+on|hold\s+on))?\s*[,;:!.—–-])"
)
# A sentence that opens by taking back what was said before it: "No no, 0187.", "wait no.",
# "sorry, it ends 0184".
TAKES_BACK = re.compile(r"(?i:\W*(?:no|sorry|oops|correction|I\s+mean|wait)\b)")
_RANGE_START = re.compile(r"(?i:\bfrom\s+)$")
_DENIED_AFTER = re.compile(
    r"(?i:^\s*(?:(?:is|was)?\s*(?:wrong|no\s+good|gone|dead|cancell?ed|finished|over)"
    r"|(?:is\s*n[o'’]?t|ain[’']?t|won[’']?t|not)\s+[^\W\d]\w*)\b)"
)  # "the 412 one is dead", "1:55 aint happening"; not "70.000 not 75", which says 70.000


@dataclass(frozen=True)
class Value:
    """A value of a kind, where it is in its text, and the key it compares by."""

    kind: str
    span: tuple[int, int]
    key: str
    denied: bool = False


@lru_cache(maxsize=4096)  # a stored fact is read once for each sentence of a conversation
def values_in(text: str) -> tuple[Value, ...]:
    """Every value the text holds, in order; not the dates the store wrote after relative ones."""
    found: list[Value] = []
    # the store's dates blanked, not skipped: a shape starting in one would swallow the value
    # after it ("this year (2026) 400")
    text = WRITTEN_DATE.sub(lambda m: " " * len(m.group(0)), text)
    for match in _shapes().finditer(text):
        group = match.lastgroup
        assert group is not None
        raw = match.group(0)
        kind, key = _kind_and_key(group, raw)
        if not key:
            continue
        start, end = match.span()
        if kind == DAY and end - start <= _SHORT_DAY and _IN_A_NAME.match(text, end):
            continue  # "Baltic Sun Amber", "Sun Life Insurance": a word of a name, not Sunday
        if kind == DAY and EVERY.search(text, 0, start):
            kind = WEEKDAY
        if kind == NUMBER and not _alone(text, start, end):
            continue
        if kind.startswith(COUNTED) and _NAMED_NUMBER.search(text, 0, start):
            continue  # "OCBC 360 account", "Stage 3 swimmers": a number of a name
        if kind == DATE and (_RANGE_ON.match(text, end) or _RANGE_BACK.search(text, 0, start)):
            continue  # "May 3-5", "3–5 May": days of a span, not a day
        if kind.startswith(ORDINAL) and kind.removeprefix(ORDINAL) in STOPWORDS:
            continue  # a date's day ("the 15th and 30th"), not a count of something
        # a range's own "from … till" is not an old value's "from"
        denied = denied_at(text, start, end) and not (kind == HOURS and _RANGE_START.search(text, 0, start))
        # a person after "by" did something ("taken on by Dr. Mehta"); "by" bounds only a time,
        # and a date after "until" or "by" is the date itself ("valid until 15 March 2026")
        denied = denied and not (kind == TITLED and _BY.search(text, 0, start))
        denied = denied and not (kind == DATE and _DATE_BOUND.search(text, 0, start))
        # a value named as one already known ("the 60mg figure was an interim dose"; an ordinal
        # or a date is said with its article: "the 19th floor", "the 21st of May")
        definite = (
            kind not in (NUMBER, DATE)
            and not kind.startswith(ORDINAL)
            and bool(_DEFINITE.search(text, 0, start))
        )
        denied = denied or definite
        # taken back by a "no" said on its own before another of its kind ("3:45 this term —
        # no, sorry, 3:30")
        previous = next((i for i in range(len(found) - 1, -1, -1) if found[i].kind == kind), None)
        if previous is not None and _TAKEN_BACK.search(text, found[previous].span[1], start):
            found[previous] = replace(found[previous], denied=True)
        found.append(Value(kind, (start, end), key, denied))
    return tuple(found)


def denied_at(text: str, start: int, end: int) -> bool:
    """The words at ``start:end`` are said as not holding or as a bound of something else."""
    return bool(_DENIED_BEFORE.search(text, 0, start)) or bool(_DENIED_AFTER.match(text[end:]))


def with_end_said(stored: str, stored_key: str, said: str, said_key: str) -> str:
    """The number ``stored`` with its end said anew as ``said``, when ``said`` has fewer digits
    and begins as that end does ("555-0187" of "(210) 555-0178": "(210) 555-0187"; "0187" of
    "+852 5550 0178"); "" when it does not."""
    if not (said_key.isdigit() and stored_key.isdigit()):
        return ""
    kept = len(stored_key) - len(said_key)
    half = len(said_key) // 2
    if kept <= 0 or len(said_key) < _MIN_TAIL or stored_key[kept : kept + half] != said_key[:half]:
        return ""
    digits = [at for at, char in enumerate(stored) if char.isdigit()]
    return stored[: digits[kept]] + said


def end_named(key: str, text: str) -> bool:
    """The text names a number by its last digits ("the 412 one" of 07700 900412)."""
    if not key.isdigit():
        return False
    tails = {number for number in _WHOLE_NUMBER.findall(text) if len(number) >= _MIN_TAIL}
    return any(key.endswith(tail) and tail != key for tail in tails)


def _alone(text: str, start: int, end: int) -> bool:
    """A number with nothing it counts after it (the next word is a function word, how often,
    or none: "40 every morning"), and not "the 50" (a value named as known: "the 50 isn't
    doing enough")."""
    after = _NEXT_WORD.match(text, end)
    if after and after.group(1).lower() not in STOPWORDS and not EVERY.match(f"{after.group(1)} "):
        return False
    return not _DEFINITE.search(text, 0, start)


def _kind_and_key(group: str, raw: str) -> tuple[str, str]:
    if group in (EMAIL, URL):
        return group, raw.lower().rstrip("/")
    if group == PHONE:
        digits = re.sub(r"\D", "", raw)
        return PHONE, digits if len(digits) >= 7 else ""
    if group in (MONEY, PERCENT):
        return group, _amount(raw)
    if group == NUMBER:
        return NUMBER, _amount(raw)
    if group == DATE:
        day, month, year = _date_parts(raw)
        return DATE, f"{year}-{month}-{day}" if year else f"{month}-{day}"
    if group == "quantity":
        number = re.match(_NUMBER, raw)
        assert number is not None
        unit = raw[number.end() :].strip().lower()
        if unit.endswith("s") and unit[:-1] in _UNIT_KIND:
            unit = unit[:-1]  # "10 hour" is "10 hours"
        return f"quantity:{_UNIT_KIND[unit]}", f"{_amount(number.group(0))} {_UNIT_SPELLING.get(unit, unit)}"
    if group == TITLED:
        return TITLED, raw.split()[-1].lower()
    if group == ADDRESS:  # "9 Marlowe Court" and "9, Marlowe Court." are one address
        return ADDRESS, " ".join(re.findall(r"\w+", raw.lower()))
    if group == "counted":
        number, noun = raw.lower().split(None, 1)
        return f"{COUNTED}{noun[:-1] if len(noun) > 3 and noun.endswith('s') else noun}", _amount(number)
    if group == "ordinal":
        number, noun = raw.split(None, 1)
        return f"{ORDINAL}{noun.lower()}", re.sub(r"\D", "", number)
    if group == HOURS:
        first, second = re.findall(_CLOCK, raw)
        return HOURS, f"{_minutes(first)}-{_minutes(second)}"
    if group == CLOCK:
        return (CLOCK if _time_of_day(raw) else DURATION), _minutes(raw)
    return group, next(day for day in _WEEKDAY_NAMES if day.startswith(raw.lower()[:3]))


def of_a_size(said: str, stored: str, factor: float) -> bool:
    """Two value keys are amounts within ``factor`` of each other ("100" and "50"); a key that
    is a date or a code written with dots ("30.06.2025") is no amount."""
    if not (_AMOUNT_KEY.fullmatch(said) and _AMOUNT_KEY.fullmatch(stored)):
        return False
    new, old = float(said), float(stored)
    return old > 0 and 1 / factor <= new / old <= factor


_AMOUNT_KEY = re.compile(r"\d+(?:\.\d+)?")


def _amount(raw: str) -> str:
    """The number of an amount, its thousands separators dropped ("1,220", "70.000", "9.98")."""
    digits = re.sub(r"[^\d.,]", "", raw)
    whole = re.sub(r"[.,](?=\d{3}(?:\D|$))", "", digits)
    return whole.replace(",", ".")


def _date_parts(raw: str) -> tuple[int, int, int]:
    """A date's day, month and year (0 when not given)."""
    month = _MONTH_IN.search(raw)
    assert month is not None
    numbers = [int(n) for n in re.findall(r"\d+", raw)]
    return numbers[0], _MONTH_NUMBER[month.group(0)[:3].lower()], numbers[1] if len(numbers) > 1 else 0


def date_written_as(said: str, stored: str) -> str:
    """A date said written the way a stored one is, in its order, with its month's form and its
    year ("21 March" over "March 14, 1991" is "March 21, 1991")."""
    day, month, year = _date_parts(said)
    old_month = _MONTH_IN.search(stored)
    assert old_month is not None
    word = old_month.group(0)
    name = MONTHS[month - 1] if len(word) > 4 or word.lower() in _WHOLE_SHORT else MONTHS[month - 1][:3]
    name = name.lower() if word.islower() else name
    written = stored[: old_month.start()] + name + stored[old_month.end() :]
    day_text = f"{day}{_ordinal_suffix(day)}" if _SUFFIXED.search(stored) else str(day)
    written = re.sub(r"\b\d{1,2}(?:st|nd|rd|th)?\b(?!\d)", day_text, written, count=1)
    if year:
        replaced, count = re.subn(r"\b(?:19|20)\d\d\b", str(year), written)
        written = replaced if count else f"{written} {year}"
    return written


_MONTH_IN = re.compile(r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*")
_WHOLE_SHORT = ("may", "june", "july")  # a month written whole in four letters or fewer
_SUFFIXED = re.compile(r"(?<=\d)(?:st|nd|rd|th)\b")


def _ordinal_suffix(day: int) -> str:
    return "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _time_of_day(raw: str) -> bool:
    """A clock reading that can be a time of day: a race's "26:10" is not."""
    if re.match(r"\d{4}", raw):
        return True  # read only with its zone, as hours and minutes ("0630Z")
    numbers = [int(n) for n in re.findall(r"\d+", raw)]
    return numbers[0] < 24 and (len(numbers) < 2 or numbers[1] < 60)


def _minutes(raw: str) -> str:
    """A clock time as minutes after midnight: "4:15", "16h30", "8am", "2.30pm", "10 in the
    morning", "9 at night", "0630Z"."""
    numbers = [int(n) for n in re.findall(r"\d+", raw)]
    hour, minute = numbers[0], numbers[1] if len(numbers) > 1 else 0
    if re.match(r"\d{4}", raw):  # "0630Z"
        hour, minute = divmod(numbers[0], 100)
    elif hour < 12 and (_AFTERNOON.search(raw) or ("night" in raw.lower() and hour >= _NIGHT_FROM)):
        hour += 12
    elif hour == 12 and (_MORNING.search(raw) or "night" in raw.lower()):
        hour = 0
    return str(hour * 60 + minute)


_NIGHT_FROM = 6  # "9 at night" is 21:00; "2 at night" is 2:00


def clock_written_as(minutes: str, stored: str) -> str:
    """A clock time (minutes after midnight) written the way a stored time is: "10am" for
    "4pm", "10:00" for "16:00", "10.30 a.m." for "4.15 p.m.", "0630 UTC" for "0730 UTC"."""
    hour, minute = divmod(int(minutes), 60)
    if re.match(r"\d{4}", stored):  # "0730 UTC" stays four digits with its zone
        return f"{hour:02d}{minute:02d}{stored[4:]}"
    digits = re.match(r"\d{1,2}([:.h]\d{2})?(\s?)([ap])?(\.?)(\s?)m?(\.?)", stored, re.IGNORECASE)
    if digits is None or not digits.group(3):
        separator = digits.group(1)[0] if digits and digits.group(1) else ":"
        return f"{hour:02d}{separator}{minute:02d}"
    separator = digits.group(1)[0] if digits.group(1) else ":"
    shown = f"{(hour - 1) % 12 + 1}" + (f"{separator}{minute:02d}" if minute or digits.group(1) else "")
    half = ("p" if hour >= 12 else "a") if digits.group(3).islower() else ("P" if hour >= 12 else "A")
    ending = "m" if digits.group(3).islower() else "M"
    return f"{shown}{digits.group(2)}{half}{digits.group(4)}{digits.group(5)}{ending}{digits.group(6)}"


_HALF_DAY, _DAY_MINUTES = 12, 24 * 60


def nearer_reading(minutes: str, raw: str, stored_minutes: str) -> str:
    """A clock time said with no half of the day ("6 o'clock", "at 6:15") read as the one of its
    two readings nearer the stored time: 18:00 of a stored "5:30 pm", 06:00 of "5:30 am"."""
    hour, minute = divmod(int(minutes), 60)
    if hour > _HALF_DAY or _AFTERNOON.search(raw) or _MORNING.search(raw) or "night" in raw.lower():
        return minutes
    readings = (hour % _HALF_DAY * 60 + minute, (hour % _HALF_DAY + _HALF_DAY) * 60 + minute)
    stored = int(stored_minutes)
    return str(min(readings, key=lambda at: min(abs(at - stored), _DAY_MINUTES - abs(at - stored))))


def said_in_digits(raw: str) -> bool:
    """A clock time written as clocks write it ("4pm", "16:00"), not said with words."""
    return bool(_CLOCK_DIGITS.fullmatch(raw))


def family(kind: str) -> str:
    """The kind a value counts as when values are compared: a weekday said and a day stored
    may be the same value's, so a sentence saying "sunday" and "my saturdays" names two days."""
    return DAY if kind == WEEKDAY else kind
