"""What a fact says about a person, as slots and values: "Lives in Berlin" fills ``home`` with Berlin.

A fact that fills a slot with one value contradicts a fact that fills it with another, so
compaction can tell what a conversation changes, and Memory health what no longer agrees.
Pure functions over text, no store.

Claims are found by families of statement, not by fixed phrases:

- ``Label: value`` lines ("Partner: Aiko", "Home address: 4 Elm Close, Derby");
- moving home, where someone is from, their nationality and address;
- a job, role, team or manager, and leaving or starting one;
- switching from one thing to another ("switched from X to Y", "traded X for Y",
  "replaced it with Y", "Y instead of X", "gave up X for Y"), quitting or stopping something;
- relationships starting or ending, pets and people gone or new;
- contact details (phone number, e-mail);
- corrections ("my hometown is X, not Y");
- a changed schedule ("moved standup to 10:15") or amount ("raise the budget to 550 EUR").

A value also gets a slot from what it is (tea is a drink, neovim an editor, tabs an
indentation), which is how "only tea now" meets "Drinks coffee every morning".

A claim is ``past`` when the text says it no longer holds: the value follows a verb of
ending ("quit", "left", "cancelled", "moved from", "last day at") or is followed by one
("died", "retired", "deal ended", "until March 2026"), or its clause carries a mark of the
past ("formerly", "used to", "no longer", "(old)").
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date
from functools import cache, cached_property, lru_cache
from itertools import pairwise

from memdesk.core.dates import names_now
from memdesk.core.values import said_as_difference
from memdesk.core.whose import (
    CLAUSE_BREAK,
    HOUSEHOLD_LABELS,
    SENTENCE_STOP,
    forwarded_line,
    named_subject,
    of_value,
)


class _Lazy:
    """A regular expression compiled on first use: importing this module compiles none, so
    commands that never read a fact (``memdesk prompt``) do not pay for the rules."""

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self._flags = flags

    @cached_property
    def compiled(self) -> re.Pattern[str]:
        return re.compile(self.source, self._flags)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.fullmatch(text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text, pos, endpos)

    def findall(self, text: str) -> list[str]:
        return self.compiled.findall(text)


# Raised whenever a change to the rules changes what some text claims: Memory health's index
# holds claims read by the rules, and reads every fact again when this differs.
RULES_VERSION = 6

# The closed set of slots. ``time:<event>``, ``day:<event>`` and ``amount:<what>`` are
# qualified by the thing they concern and whose it is ("time:standup", "day:elin violin",
# "amount:budget grocery", "amount:money noah"), never with a possessive mark.
SLOTS: dict[str, str] = {
    "home": "where the person lives (town or city)",
    "address": "their postal address",
    "postcode": "their postcode or ZIP code",
    "hometown": "where they grew up or come from",
    "nationality": "their citizenship (may hold several at once)",
    "employer": "who they work for",
    "role": "their job or job title",
    "team": "the team they are on",
    "manager": "who they report to",
    "partner": "their partner, spouse or the person they are seeing",
    "pet": "a pet's name",
    "children": "how many children they have",
    "phone_number": "their phone number",
    "email": "their e-mail address",
    "phone": "the phone they use (a device)",
    "laptop": "the computer they use",
    "tablet": "the tablet or e-reader they use",
    "car": "the car they have",
    "editor": "the code editor they use",
    "os": "their operating system",
    "browser": "their web browser",
    "indentation": "tabs or spaces",
    "theme": "dark or light mode",
    "reply_language": "the language they want replies in",
    "drink": "what they drink",
    "diet": "the way they eat",
    "sport": "the sport they play",
    "gym": "the gym they go to",
    "club": "a club they belong to",
    "bank": "their bank",
    "lender": "who their mortgage is with",
    "reading": "the book they are reading",
    "dentist": "their dentist",
    "doctor": "their doctor",
    "therapist": "their therapist",
    "time": "the time of a recurring event (time:<event>)",
    "day": "the days or frequency of a recurring event (day:<event>)",
    "amount": "an amount such as a budget, rent or salary (amount:<what>)",
}
# Slots where a new value joins the old one rather than replacing it.
PLURAL_SLOTS = frozenset({"nationality"})
# A people's adjective by its ending: Polish, Kenyan, Japanese, Pakistani, Icelandic, Dutch,
# Swiss, Greek, Thai, Welsh, Filipino.
_OF_A_PEOPLE = _Lazy(r"(?:ish|an|ese|i|ic|ch|ss|ek|sh|no)$")
# Slots a person fills with several values at once (a dog and a cat, tea and coffee, yoga and
# netball), and that a household's facts fill for each of its people ("Dev is vegetarian"):
# two facts with different values there do not contradict each other. A change still replaces
# one (compaction reads "gave up tennis for padel" as such).
SEVERAL_VALUES = PLURAL_SLOTS | {"pet", "sport", "club", "drink", "diet"}


@dataclass(frozen=True)
class Claim:
    slot: str  # a key of SLOTS (qualified for time/day/amount); "" when only the value is known
    value: str  # normalised for comparison: see ``normalise``
    span: tuple[int, int]  # where the value is in the text
    past: bool  # the text says it no longer holds


def claims_in(text: str, others: frozenset[str] = frozenset()) -> list[Claim]:
    """Every slot the text fills, in order of position. A claim said only as a supposition
    ("thinking of moving to Leeds", "Should I switch to Vim?") or for a later date ("goes up
    to £6 when he turns eleven", "from next April the rent will be £1,200") is none.

    ``others``: the first names of the person's household (``household_names``), lowercased;
    what a clause says of one of them is theirs ("Dev drives a Polestar 2"), not the person's.
    """
    claims = [claim for claim, mood in _claims(text) if not mood]
    if others:
        claims = [claim for claim in claims if not named_subject(text, claim.span[0], others).others]
    return claims


def named_claims(text: str, others: frozenset[str] = frozenset()) -> list[Claim]:
    """``claims_in``, with a value of no known kind in the slot the text names, when it names
    one alone: "I switched gyms, I go to Solinca now" fills ``gym``. A fact dated by when it
    was said claims nothing for a later date ("moving to Porto in March (said in February
    2026)")."""
    claims = claims_in(text, others)
    said = _SAID_IN in text and _months().said.search(text)
    if said:
        at = date(int(said.group(2)), _months().names.index(said.group(1)) + 1, 1)
        claims = [claim for claim in claims if not placed_later(text, claim.span, at)]
    if all(claim.slot for claim in claims):
        return claims
    named = slots_named_in(text)
    if len(named) != 1:
        return claims
    (slot,) = named
    return [claim if claim.slot else replace(claim, slot=slot) for claim in claims]


def said_in_mark(at: date) -> str:
    """How a fact added for a later date says when it was said: " (said in February 2026)"."""
    return f"{_SAID_IN}{_months().names[at.month - 1]} {at.year})"


def for_once(text: str) -> bool:
    """The text says what it gives holds once ("one-off", "just this once", "this week only"):
    an exception, not the fact as it is now."""
    return bool(_ONCE.search(text))


def undecided(sentence: str) -> bool:
    """The sentence only hedges ("Maybe.", "Maybe next winter, I don't know.", "Nothing decided
    yet.") or says things stay as they are for now ("For now we stay."): what the person said
    before it is not settled. Every part of it is a hedge or a few words of when."""
    parts = [part.strip() for part in _HEDGE_PARTS.compiled.split(sentence.strip(" .!?…")) if part.strip()]
    hedges = [_HEDGE.match(part) for part in parts]
    rest = [part[hedge.end() :] if hedge else part for part, hedge in zip(parts, hedges, strict=True)]
    short = all(len(words.split()) <= _WHEN_WORDS and not _SUBJECT.search(words) for words in rest)
    return any(hedges) and short


def placed_later(text: str, span: tuple[int, int], at: date) -> bool:
    """The clause of ``span`` places it after ``at``: a plan, not the current fact ("moving next
    summer", "next month (April 2026)", "in March" said in February or in November, not in
    January nor in March: "as of March I'm an associate", "left in March")."""
    line_start = text.rfind("\n", 0, span[0]) + 1
    line_end = text.find("\n", span[1])
    starts = [m.end() for m in _AND_CLAUSE.finditer(text, line_start, span[0])]
    after = _AND_CLAUSE.search(text, span[1], len(text) if line_end < 0 else line_end)
    end = after.start() if after else (len(text) if line_end < 0 else line_end)
    clause = text[starts[-1] if starts else line_start : end]
    if not AHEAD_WORDS.isdisjoint(clause.lower().split()):
        return True
    for day, name, year in _months().when.findall(clause):
        month = _months().names.index(name) + 1
        if year:
            later = (int(year), month, int(day or 32)) > (at.year, at.month, at.day if day else 32)
        elif month == at.month:
            later = bool(day) and int(day) > at.day
        else:  # the nearer of its last and its next occurrence
            later = (month - at.month) % 12 < (at.month - month) % 12
        if later:
            return True
    return False


@dataclass(frozen=True)
class _Months:
    names: tuple[str, ...]
    when: re.Pattern[str]  # a date of a month: "in March", "19 March", "(March 2026)"
    said: re.Pattern[str]  # ``said_in_mark``


@cache
def _months() -> _Months:
    """Read on first use: importing ``core.dates`` compiles its rules."""
    from memdesk.core.dates import MONTHS

    names = "|".join(MONTHS)
    when = re.compile(rf"(?:(\d{{1,2}}) )?\b({names})\b(?: (\d{{4}}))?")
    return _Months(MONTHS, when, re.compile(rf"\(said in ({names}) (\d{{4}})\)"))


def later_claims(text: str) -> list[Claim]:
    """The claims the text makes for a later date ("when he turns eleven", "will be")."""
    return [claim for claim, mood in _claims(text) if mood == LATER]


def household_names(profile: str) -> frozenset[str]:
    """The first names, lowercased, that a profile gives the person's partner, children,
    relatives and pets ("Partner: Dev (Devesh) Mistry", "Children: Noah, 9, and Isla, 5",
    "lives with her partner Sam"); never the person's own ("Name: Priya")."""
    names: set[str] = set()
    own: set[str] = set()
    for match in _LABEL_LINE.finditer(profile):
        label = " ".join(match.group(1).lower().split())
        if label == "name":
            own |= {word.lower() for word in re.findall(r"[A-Z][\w'’-]*", match.group(2))}
        elif label in HOUSEHOLD_LABELS:
            for piece in re.split(r",|\(|\)|\band\b", match.group(2)):
                first = piece.split()[:1]
                if first and first[0][:1].isupper():
                    names.add(first[0].strip("'’.").lower())
    names |= {name.lower() for name in _HOUSEHOLD_NAMED.findall(profile)}
    # a relative named in any line, with what they are to the person after the name
    # ("Emergency contact: Henrik Olufsen (brother)")
    names |= {
        first.lower() for first, kin in _NAME_THEN_KIN.findall(profile) if kin.lower() in HOUSEHOLD_LABELS
    }
    return frozenset(names - own)


def conflicting(a: Claim, b: Claim) -> bool:
    """Same slot, different values, both current. A value that contains the other is the same,
    but days are the same only as a whole ("on Mondays" is not "on Mondays and Fridays", and
    "every weekday" is "on weekdays"), and times by the clock ("17:30" is "5.30 pm")."""
    if not a.slot or a.slot != b.slot or a.past or b.past or a.slot in SEVERAL_VALUES:
        return False
    kind = a.slot.partition(":")[0]
    if kind == "day":
        return _days(a.value) != _days(b.value)
    if kind == "time":
        return _clock_minutes(a.value) != _clock_minutes(b.value)
    return not same_value(a.value, b.value)


def same_value(a: str, b: str) -> bool:
    """Normalised values naming the same thing: equal, or one's words all within the other's."""
    wa, wb = set(a.split()), set(b.split())
    return bool(wa and wb) and (wa <= wb or wb <= wa)


def _days(value: str) -> frozenset[str]:
    """A normalised value of a ``day:`` slot as the days it names ("every other" kept); a part
    of a named day is the day ("Thursday evenings" is "Thursdays")."""
    days = frozenset(value.split()) - _DAY_FILLER
    return days - _DAY_PARTS if days - _DAY_PARTS else days


def _clock_minutes(value: str) -> tuple[int, ...] | str:
    """A normalised value of a ``time:`` slot as minutes after midnight, one per time said
    ("17 00 to 18 30" → (1020, 1110)); the value itself when it reads as no clock."""
    minutes = []
    for hour, minute, half in _CLOCK_VALUE.findall(value):
        hours = int(hour) % 12 + (12 if half.startswith("p") else 0) if half else int(hour)
        minutes.append(hours * 60 + int(minute or 0))
    return tuple(minutes) or value


def normalise(value: str) -> str:
    """Lowercase words without articles, titles or inflection: "the Thursdays" → "thursday"."""
    words = [stem(word) for word in _WORD.findall(value.lower())]
    return " ".join(word for word in words if word not in _FILLER)


def stem(word: str) -> str:
    """A crude inflection-insensitive form: plurals and a few endings dropped."""
    w = word.lower().replace("-", "")
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 4 and w.endswith(("sses", "xes", "ches", "shes")):
        w = w[:-2]
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for ending, instead in (("ist", "y"), ("ment", ""), ("ing", "")):
        if len(w) > len(ending) + 3 and w.endswith(ending):
            w = w[: -len(ending)] + instead
            if ending == "ing" and w[-1] == w[-2] and w[-1] in _DOUBLED:
                w = w[:-1]  # "swimming" is "swim", "running" is "run"
            return w
    return w


_DOUBLED = frozenset("bdgmnprt")  # consonants doubled before -ing; "calling", "passing" keep theirs


def possessive_at(text: str, end: int) -> bool:
    """A name ending at ``end`` owns what follows it ("Dr. Rankin's nurse practitioner"), not
    "'s" for "has" or "is" ("Dr. Rankin's retired")."""
    return text[end : end + 3] in ("'s ", "’s ") and not _CONTRACTED.match(text, end + 2)


def marked_past(text: str) -> bool:
    """The text marks itself as no longer holding: "(until March 2026)", "formerly", "(old)",
    "~~…~~", "outdated", "superseded", a label of the past ("Former employer: …"). Words
    common in plain talk ("used to") do not count."""
    return bool(_MARKED_PAST.search(text))


def asked_slots(question: str) -> set[str]:
    """The slots a question asks about: "What car do I have?" → {"car"}."""
    words = re.findall(r"[a-z]+(?:-[a-z]+)?", question.lower())
    found = {LABELS[w] for w in words if w in LABELS and w not in VAGUE_LABELS}
    found |= {LABELS[f"{a} {b}"] for a, b in pairwise(words) if f"{a} {b}" in LABELS}
    # a vague label is clear after "my" or "I" ("What is my job?", "Where am I from?")
    found |= {LABELS[b] for a, b in pairwise(words) if a in ("my", "i") and b in VAGUE_LABELS}
    found |= {slot for w in words if w in _ASKING for slot in _ASKING[w].split()}
    return found


def asking_words(slots: set[str]) -> frozenset[str]:
    """The words a question asks for any of ``slots`` with, besides their labels ("live" for
    ``home``, "work" for ``employer``): a text that says one ("Lives at Mill House") tells of it."""
    return frozenset(word for word, asked in _ASKING.items() if slots & set(asked.split()))


def slots_named_in(text: str) -> set[str]:
    """The slots whose label the text names ("had to change GP practice" names ``doctor``);
    vague labels ("from", "job") and "home" name none."""
    words = re.findall(r"[a-z]+(?:-[a-z]+)?", text.lower())
    named = set(words) | {f"{a} {b}" for a, b in pairwise(words)}
    named |= {word[:-1] for word in words if word.endswith("s")}  # "switched gyms"
    return {LABELS[label] for label in named & LABELS.keys() if label not in VAGUE_LABELS and label != "home"}


def says_replacement(text: str) -> bool:
    """The text says one value took another's place ("switched to", "went vegan", "only tea
    now", "instead"), not that one was added ("I also started tea", "tea as well")."""
    return bool(_REPLACING.search(text)) and not _ADDING.search(text)


def says_change(text: str) -> bool:
    """The text says something changed ("now", "moved", "from now on"), not merely mentions it."""
    return bool(_CHANGE_CUE.search(text))


# --- values -------------------------------------------------------------------------------

_WORD = _Lazy(r"[\w@.+]+(?<![.])|\d")
# In a normalised day value, the words that say "on those days" ("every weekday" is "weekdays").
_DAY_FILLER = frozenset({"on", "every", "each", "and", "or"})
# A part of a day, as ``normalise`` leaves it ("evenings" is "even").
_DAY_PARTS = frozenset({"morning", "morn", "afternoon", "evening", "even", "night"})
# A clock time in a normalised value: "17 30", "5 30 pm", "6pm", "6 p m".
_CLOCK_VALUE = _Lazy(r"\b(\d{1,2})(?:[\s.:](\d{2}))?\s?([ap])?(?:\.?\s?m\b)?")
_FILLER = frozenset({"a", "an", "the", "my", "our", "his", "her", "their", "dr", "mr", "mrs", "ms", "prof"})
_TITLE = r"(?:(?:Dr|Mr|Mrs|Ms|Prof|St)\.?\s)"
_TOKEN = r"[A-Z0-9][\w'’&+-]*"
# A name: capitalised words ("Bristol", "Better Gym Kentish Town", "Dr. Lindqvist", "Model 3");
# never the person's "I" ("like my husband, I cry so much" names no husband).
NAME = rf"\b{_TITLE}?(?!I\b|I['’]){_TOKEN}(?:\s(?:{_TOKEN}|of|de|la|van|von|der|upon)(?=[\s,.;:!?)]|$))*"
# Words that end a lowercase phrase value ("senior designer" in "promoted to senior designer today").
_STOPS = (
    r"at|for|with|in|on|since|because|so|and|but|now|today|from|starting|until|last|this|next|"
    r"completely|entirely|altogether|anymore|instead|every|again|finally|too|yet|recently|though|"
    r"it|which|who|when|after|before|as|to|is|was|are|were|the|everywhere|these|those|lately|nowadays|"
    r"down|up|off|out|over|"
    r"take|takes|use|uses|drink|drinks|eat|eats|play|plays|have|has|do|does|go|goes|get|got|i|we|you"
)
PHRASE = rf"\b(?!(?:{_STOPS})\b)[a-z][\w'’+-]*(?:\s(?!(?:{_STOPS})\b)[\w'’+-]+){{0,3}}"
VALUE = rf"(?:{NAME}|{PHRASE})"
_ART = r"(?:(?i:a new|a used|an?|the|my|our|his|her|their|new|used)\s+)?"
_ORDINAL = _Lazy(r"\d{1,4}(?:st|nd|rd|th)?,?")
_COUNT = _Lazy(r"(?i:\d+|one|two|three|four|five|six|seven|eight|nine|ten|no|none)\b")
_CALENDAR = _Lazy(
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|"
    r"july|august|september|october|november|december)s?"
)
# After a name's "'s", the words that make it "has" or "is" ("Rankin's retired", "Pita's gone"):
# a participle, or an adverb said between.
_CONTRACTED = _Lazy(r"\s+(?:been|gone|got|just|now|not|never|finally|already|\w{3,}(?<!e)ed)\b")
_LEAD_WORDS = frozenset({"The", "A", "An", "My", "Our", "So", "But", "And", "Finally", "Then", "Also", "Now"})

# Common values whose slot follows from what they are. Matched as whole words, any case.
LEXICON: dict[str, tuple[str, ...]] = {
    "drink": (
        "coffee",
        "decaf",
        "espresso",
        "tea",
        "green tea",
        "herbal tea",
        "matcha",
        "kombucha",
        "juice",
        "soda",
        "cola",
        "beer",
        "wine",
        "alcohol",
        "water",
        "hot chocolate",
    ),
    "diet": (
        "vegan",
        "vegetarian",
        "pescatarian",
        "keto",
        "paleo",
        "gluten-free",
        "dairy-free",
        "low-carb",
        "carnivore",
        "flexitarian",
        "plant-based",
    ),
    "editor": (
        "vim",
        "neovim",
        "emacs",
        "vs code",
        "vscode",
        "visual studio code",
        "sublime text",
        "intellij",
        "pycharm",
        "webstorm",
        "zed",
        "helix",
        "nano",
        "xcode",
        "android studio",
    ),
    "phone": ("iphone", "pixel", "galaxy", "android", "oneplus", "fairphone", "xiaomi", "nokia"),
    "laptop": ("thinkpad", "macbook", "framework", "xps", "chromebook", "zenbook", "surface laptop"),
    "tablet": ("ipad", "galaxy tab", "kindle", "surface pro", "remarkable", "fire tablet"),
    "os": ("linux", "windows", "macos", "ubuntu", "fedora", "debian", "arch linux"),
    "browser": ("firefox", "chrome", "safari", "brave", "vivaldi", "chromium"),
    "indentation": ("tabs", "spaces"),
    "theme": ("dark mode", "light mode", "dark theme", "light theme"),
    "sport": (
        "tennis",
        "padel",
        "squash",
        "badminton",
        "football",
        "soccer",
        "basketball",
        "volleyball",
        "rugby",
        "cricket",
        "running",
        "cycling",
        "swimming",
        "climbing",
        "bouldering",
        "rowing",
        "table tennis",
        "hockey",
        "pilates",
        "yoga",
        "crossfit",
        "judo",
        "karate",
        "boxing",
    ),
    "car": (
        "tesla",
        "toyota",
        "honda",
        "volkswagen",
        "bmw",
        "audi",
        "mercedes",
        "ford",
        "volvo",
        "kia",
        "hyundai",
        "nissan",
        "renault",
        "peugeot",
        "skoda",
        "fiat",
        "mazda",
        "subaru",
        "polestar",
    ),
}
_LEXICON_WORDS = {word: slot for slot, words in LEXICON.items() for word in words}
# A thing named as what something is about: a topic, not a value of the person's ("he talks about cricket").
_TOPIC = _Lazy(r"(?i:\babout\s+(?:the\s+)?$)")
_LEXICON_RE = _Lazy(
    r"(?i:\b(?:"
    + "|".join(sorted((re.escape(w) for w in _LEXICON_WORDS), key=len, reverse=True))
    + r")\b)"
    # a model that follows: "iPhone 12", "Pixel 9 Pro", "ThinkPad X1 Carbon Gen 9", "Framework 13",
    # or a model's name ("Kia Niro", "Linux Mint"), but no day, month or word that opens a clause
    + r"(?:\s(?:[A-Z0-9][\w-]*\d[\w-]*|\d+|Pro|Max|Plus|Ultra|Mini|Air|Carbon|Gen\s\d+|Model\s\w+|"
    + r"(?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b|(?:January|February|March|April|May|June|"
    + r"July|August|September|October|November|December|The|And|But|For|With|From|Now|Then|Just)\b)"
    + r"[A-Z][a-z]{2,}))*"
)
# A name's own word says what it is: "Better Gym", "the chess club", "Platform team".
_KIND_WORDS = {"gym": "gym", "club": "club", "team": "team", "bank": "bank", "fitness": "gym"}

# --- labels -------------------------------------------------------------------------------

LABELS: dict[str, str] = {
    "home": "home",
    "lives in": "home",
    "city": "home",
    "location": "home",
    "based in": "home",
    "address": "address",
    "home address": "address",
    "postal address": "address",
    "postcode": "postcode",
    "zip code": "postcode",
    "hometown": "hometown",
    "home town": "hometown",
    "from": "hometown",
    "nationality": "nationality",
    "citizenship": "nationality",
    "employer": "employer",
    "company": "employer",
    "works at": "employer",
    "workplace": "employer",
    "role": "role",
    "job": "role",
    "job title": "role",
    "title": "role",
    "position": "role",
    "occupation": "role",
    "profession": "role",
    "team": "team",
    "manager": "manager",
    "boss": "manager",
    "line manager": "manager",
    "partner": "partner",
    "wife": "partner",
    "husband": "partner",
    "spouse": "partner",
    "girlfriend": "partner",
    "boyfriend": "partner",
    "fiance": "partner",
    "fiancee": "partner",
    "pet": "pet",
    "dog": "pet",
    "cat": "pet",
    "kids": "children",
    "children": "children",
    "phone": "phone",
    "mobile": "phone_number",
    "cell": "phone_number",
    "cellphone": "phone_number",
    "phone number": "phone_number",
    "email": "email",
    "e-mail": "email",
    "laptop": "laptop",
    "tablet": "tablet",
    "e-reader": "tablet",
    "computer": "laptop",
    "car": "car",
    "vehicle": "car",
    "editor": "editor",
    "ide": "editor",
    "os": "os",
    "browser": "browser",
    "indentation": "indentation",
    "theme": "theme",
    "replies": "reply_language",
    "language": "reply_language",
    "drink": "drink",
    "diet": "diet",
    "sport": "sport",
    "gym": "gym",
    "club": "club",
    "bank": "bank",
    "mortgage": "lender",
    "reading": "reading",
    "book": "reading",
    "dentist": "dentist",
    "doctor": "doctor",
    "gp": "doctor",
    "therapist": "therapist",
}
# The words a label or a line names someone by, by what they are to the person ("wife", "kids").
_PERSON_SLOTS = frozenset({"partner", "child", "children", "sibling", "parent", "pet"})
PERSON_WORDS = frozenset(word for word, slot in LABELS.items() if slot in _PERSON_SLOTS)
# Labels too common in talk to name their slot alone ("from", "my job").
VAGUE_LABELS = frozenset({"from", "job", "title", "position", "book"})
# Question words that name a slot, or several, without being its label: "Where do I live?",
# "Where do I work?" (who for, and as what).
_ASKING = {
    "live": "home", "living": "home", "work": "employer role", "working": "employer role",
    "drive": "car", "drink": "drink", "eat": "diet",
    "play": "sport", "read": "reading", "nationality": "nationality", "married": "partner",
    "exercise": "sport", "sports": "sport", "grow": "hometown", "grew": "hometown",
}  # fmt: skip
_LABEL_LINE = _Lazy(r"^[ \t]*(?:[-*•][ \t]+)?([A-Za-z][A-Za-z -]{0,24}?)[ \t]*:[ \t]*(\S.*?)[ \t.]*$", re.M)

# --- rules: a slot and a pattern with a value group ----------------------------------------
# Group ``v`` is a current value unless the past test says otherwise; ``o`` is always past.
# Slot None: the value's own kind, and only names or known values; "*": any value, since
# the rule itself says a value changed ("stopped the melatonin", "magnesium instead");
# "~home": the value's own kind if it has one ("moved to Neovim"), else home ("moved to Leeds");
# "@": the slot its label names (group ``l``: "switched my dentist to Dr. Brandt").
#
# Each rule names the words it cannot match without, so that a line is tried only against the
# rules whose words it has (most lines fill no slot, and finding that out costs one search):
# alternatives separated by spaces, groups joined by "&" that must each occur. A word is
# whole ("live" is not in "lively") unless it ends in "*" ("split*" is in "splitting"), and
# the rule must have it where a word starts. "0" is any digit, "@" the at sign. A word left out
# of a rule would make claims go missing: tests/unit/test_slots_triggers.py compares every
# claim with the rules tried on every line.

_K = "(?i:{})".format
# "passed" as dying, not with an object ("Noor has passed Stage 3", "passed my test").
_PASSED = r"passed(?!\s+(?:(?-i:[A-Z0-9])|(?:the|a|an|my|his|her|their|its|all|both)\b))"
_LABEL_WORDS = (
    "(?i:"
    + "|".join(
        sorted((re.escape(label) for label in LABELS if label not in ("from", "home")), key=len, reverse=True)
    )
    + ")"
)
_ROLE_NOUN_WORDS = (
    "engineer", "designer", "developer", "manager", "nurse", "teacher", "doctor", "analyst", "scientist",
    "lead", "director", "consultant", "architect", "student", "writer", "lawyer", "accountant", "officer",
    "researcher", "chef", "intern", "founder", "specialist", "administrator", "technician", "producer",
    "editor", "professor", "lecturer", "partner", "owner", "head", "solicitor", "barrister", "paramedic",
    "firefighter", "pharmacist", "surgeon", "physician", "midwife", "therapist", "electrician", "plumber",
    "mechanic", "pilot", "journalist", "photographer", "programmer", "coordinator", "assistant",
    "associate", "executive", "officer", "clerk", "cook", "baker", "driver", "vet", "carer",
)  # fmt: skip
_ROLE_NOUNS = f"(?:{'|'.join(_ROLE_NOUN_WORDS)})s?"
# Trigger words (see ``_RULES_SOURCE``) for the label rules and the role rule.
_LABEL_TRIGGERS = " ".join(
    sorted({label.replace("-", " ").split()[0] for label in LABELS if label not in ("from", "home")})
)
_ROLE_TRIGGERS = " ".join(f"{noun} {noun}s" for noun in _ROLE_NOUN_WORDS)
# Living and moving somewhere; and being somewhere, which the home rule reads as living there
# too, though "I'm in Chaullay now" may be a trek's stop (``present_only``).
_LIVING = "live|lives|living|lived|based|settled"
_MOVING = "moved|moving|move|relocated|relocating"
_BEING = "staying|we're|we are|I'm|I am"
_BEING_IN = r"(?:now\s+|still\s+)?in\s+(?:the\s+)?"
_BEING_THERE = re.compile(rf"(?i:\b(?:{_BEING})\s+{_BEING_IN})$")
_RESIDING = re.compile(rf"(?i:\b(?:{_LIVING}|{_MOVING})\b)")
_RULES_SOURCE: list[tuple[str | None, str, str]] = [
    # home
    (
        "home",
        "live lives living lived based settled staying we i & in",
        _K(rf"\b(?:{_LIVING}|{_BEING})\s+{_BEING_IN}") + rf"(?P<v>{NAME})",
    ),
    (
        "home",
        "moved moving move relocated relocating & from & to",
        _K(
            rf"\b(?:{_MOVING})\s+"
            r"(?:(?:back|away|house|home|over|here|there|us)\s+){0,2}?from"
        )
        + rf"\s+(?P<o>{NAME})\s+"
        + _K(r"to")
        + rf"\s+(?P<v>{NAME})",
    ),
    (
        "~home",
        "moved moving relocated relocating & to",
        _K(r"\b(?:moved|moving|relocated|relocating)\s+(?:back\s+|over\s+)?to") + rf"\s+(?P<v>{NAME})",
    ),
    (
        "home",
        "flat house home place apartment condo bungalow cottage & in",
        _K(r"\b(?:new|our|my)\s+(?:flat|house|home|place|apartment|condo|bungalow|cottage)\s+in")
        + rf"\s+(?:the\s+)?(?P<v>{NAME})",
    ),
    (
        "home",
        "moved moving & out away",
        _K(r"\b(?:moved|moving)\s+(?:out\s+of|away\s+from)") + rf"\s+(?P<o>{NAME})",
    ),
    (
        "hometown",
        "hometown home & is was",
        _K(r"\b(?:hometown|home town)\s+(?:is|was)") + rf"\s+(?P<v>{NAME})",
    ),
    (
        "hometown",
        "grew i born & in from",
        _K(r"\b(?:grew up in|I'm originally from|I am originally from|I'm from|I am from|born in)")
        + rf"\s+(?P<v>{NAME})",
    ),
    (
        "nationality",
        "citizenship passport nationality citizen",
        rf"(?P<v>{NAME})\s+" + _K(r"(?:citizenship|passport|nationality|citizen)\b"),
    ),
    (
        "nationality",
        "dual",
        _K(r"\bdual\s+national(?:ity)?(?:\s+now)?,?\s+(?:both\s+)?") + rf"(?P<v>{NAME}\s+and\s+{NAME})",
    ),
    (
        "address",
        "address & 0",
        _K(r"\baddress\b(?:\s+is)?(?:\s+(?:now|please|to|for\s+(?:you|me)|then))*\s*[:,]?")
        + r"\s*"
        + r"(?P<v>\d+\w?\s+[A-Z][\w'’ -]*(?:,\s*[A-Z][\w'’ -]*)*)",
    ),
    # work
    (
        "employer",
        "work works working worked employed & at for by",
        _K(r"\b(?:work|works|working|worked|employed)\s+(?:now\s+)?(?:at|for|by)") + rf"\s+(?P<v>{NAME})",
    ),
    (
        "employer",
        "start starts started starting begin began beginning & at",
        _K(r"\b(?:start|starts|started|starting|begin|began|beginning)\s+(?:work\s+|a new job\s+)?at")
        + rf"\s+(?P<v>{NAME})",
    ),
    (
        "employer",
        "new hired offer accepted joining",
        _K(r"\b(?:new job at|hired (?:at|by)|offer from|accepted an offer at|joining)")
        + rf"\s+(?P<v>{NAME})",
    ),
    ("employer", "last & day", _K(r"\blast day at") + rf"\s+(?P<o>{NAME})"),
    (
        "employer",
        "got landed accepted took start started starting & job role position offer",
        _K(r"\b(?:got|landed|accepted|took|start|started|starting)\s+(?:the|a|my|that)\s+(?:new\s+)?")
        + rf"(?P<v>{NAME})\s+"
        + _K(r"(?:job|role|position|offer)\b"),
    ),
    (
        "employer",
        "first & day week month",
        _K(r"\bfirst (?:day|week|month)s? (?:at|with)") + rf"\s+(?P<v>{NAME})",
    ),
    (
        "employer",
        "laid let made & from by at",
        _K(r"\b(?:laid off|let go|made redundant)\s+(?:from|by|at)") + rf"\s+(?P<o>{NAME})",
    ),
    (
        "role",
        "works work working worked job started start starting joined hired employed & as",
        _K(r"\b(?:works|work|working|worked|job|started|start|starting|joined|hired|employed)\b")
        + r"[^.;:!?]*?"
        + _K(r"\bas\s+(?:an?\s+)?")
        + rf"(?P<v>{PHRASE})",
    ),
    (
        "role",
        "promoted promotion & to",
        _K(r"\b(?:promoted|promotion)\s+(?:me\s+|him\s+|her\s+)?to\s+(?:an?\s+)?") + rf"(?P<v>{PHRASE})",
    ),
    (
        "role",
        "role title job position & is",
        _K(r"\b(?:role|title|job title|position)\s+is\s+(?:now\s+)?(?:an?\s+)?") + rf"(?P<v>{PHRASE})",
    ),
    (
        "team",
        "moved switched transferred joined moving switching move & the & team*",
        _K(r"\b(?:moved|switched|transferred|joined|moving|switching|move)\s+(?:over\s+)?(?:to\s+)?the")
        + rf"\s+(?P<v>{NAME}|[a-z][\w-]*)\s+"
        + _K(r"team"),
    ),
    # "Munich has been home since January", "home is now Leeds"
    (
        "home",
        "home & has is been now",
        rf"(?P<v>{NAME})\s+"
        + _K(r"(?:has\s+been|is|is\s+now|['’]s\s+been|['’]s)\s+(?:(?:my|our)\s+)?home\b"),
    ),
    (
        "postcode",
        "postcode post zip & 0",
        _K(r"\b(?:postcode|post code|zip code|zip)\b")
        + r"[^.\d]{0,30}?(?P<v>\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b|\b\d{5}(?:-\d{4})?\b)",
    ),
    # "Now at Deloitte", "It's Dr. Lang at Hillside now", "her name's Meera"
    ("*", "now & at with", _K(r"\bnow\s+(?:at|with)") + rf"\s+(?P<v>{NAME})"),
    (
        "*",
        "it's it & now",
        _K(r"\b(?:it's|it’s|it is)") + rf"\s+{_ART}(?P<v>{VALUE})" + _K(r"(?=[^.;!?]{0,30}\bnow\b)"),
    ),
    # "I see Jo Park now", "we use Monzo these days", "my doctor put me on sumatriptan"
    (
        "*",
        "i we & see use visit go & now days nowadays instead",
        _K(r"\b(?:I|we)\s+(?:now\s+)?(?:see|use|visit|go\s+to)")
        + rf"\s+{_ART}(?P<v>{VALUE})"
        + _K(r"(?=[^.;!?]{0,30}\b(?:now|these\s+days|nowadays|instead)\b)"),
    ),
    (
        "*",
        "put started & me him her us & on",
        _K(r"\b(?:put|started)\s+(?:me|him|her|us)\s+on") + rf"\s+{_ART}(?P<v>{VALUE})",
    ),
    (
        "*",
        "name's name & his her their",
        _K(r"\b(?:his|her|their)\s+name(?:['’]s|\s+is)") + rf"\s+(?P<v>{NAME})",
    ),
    # "we're driving an Ioniq 5 now"
    (
        "~car",
        "drives drive driving drove",
        _K(r"\b(?:drives|drive|driving|drove)\s+(?:an?|the|my|our)\s+") + rf"(?P<v>{NAME})",
    ),
    # "I've been made ward manager", "appointed head of year"
    (
        "role",
        f"made appointed named & {_ROLE_TRIGGERS}",
        _K(r"\b(?:made|appointed|named)\s+(?:an?\s+|the\s+)?")
        + rf"(?P<v>(?:[a-z][\w-]*\s+){{0,3}}{_ROLE_NOUNS})\b",
    ),
    # a membership: the value's own kind ("member of Better Gym"), else a club
    (
        "~club",
        "member belong & of to",
        _K(r"\b(?:member of|belong to)\s+(?:the\s+)?") + rf"(?P<v>{NAME})",
    ),
    (
        "team",
        "on in & the & team",
        _K(r"\b(?:on|in)\s+the") + rf"\s+(?P<v>{NAME}|[a-z][\w-]*)\s+" + _K(r"team\b"),
    ),
    (
        "manager",
        "manager boss line supervisor team & is will",
        _K(r"\b(?:manager|boss|line manager|supervisor|team lead)\s+(?:is|will be)\s+(?:now\s+)?")
        + rf"(?P<v>{NAME})",
    ),
    (
        "manager",
        "report reports reporting & to",
        _K(r"\breport(?:s|ing)?\s+(?:now\s+)?to") + rf"\s+(?P<v>{NAME})",
    ),
    (
        "manager",
        "is & my & manager* boss*",
        rf"(?P<v>{NAME})\s+" + _K(r"is\s+(?:now\s+)?my\s+(?:new\s+)?(?:manager|boss)"),
    ),
    # switching and quitting: the value's own kind gives the slot
    (
        "*",
        "switch switched switching & from & to",
        _K(r"\bswitch(?:ed|ing)?\s+(?:over\s+)?from")
        + rf"\s+{_ART}(?P<o>{VALUE})\s+"
        + _K(r"to")
        + rf"\s+{_ART}(?P<v>{VALUE})",
    ),
    # "moved all my tasks from Todoist to Notion": something the person moved, not their home
    (
        "*",
        "moved moving switched changed migrated migrating transferred swapped went & from & to",
        _K(
            r"\b(?:moved|moving|switched|changed|migrated|migrating|transferred|swapped|went)\s+"
            r"(?:\w+\s+){1,4}?from"
        )
        + rf"\s+{_ART}(?P<o>{VALUE})\s+"
        + _K(r"to")
        + rf"\s+{_ART}(?P<v>{VALUE})",
    ),
    (
        None,
        "switch switched switching changed changing went gone going converted",
        _K(
            r"\b(?:switch(?:ed|ing)?|changed|changing|went|gone|going|converted)\s+(?:over\s+|fully\s+|full\s+)?(?:to\s+)?"
        )
        + rf"{_ART}(?P<v>{VALUE})",
    ),
    (
        "*",
        "traded trading swapped swapping exchanged gave given giving dropped ditched & for",
        _K(
            r"\b(?:traded|trading|swapped|swapping|exchanged|gave up|given up|giving up|dropped|ditched)"
            r"(?:\s+in)?"
        )
        + rf"\s+{_ART}(?P<o>{VALUE})\s+"
        + _K(r"for")
        + rf"\s+{_ART}(?P<v>{VALUE})",
    ),
    (
        "*",
        "replaced & with",
        _K(r"\breplaced")
        + rf"\s+(?:(?i:it|them)|{_ART}(?P<o>{VALUE}))\s+"
        + _K(r"with")
        + rf"\s+{_ART}(?P<v>{VALUE})",
    ),
    ("*", "instead & of", rf"(?P<v>{VALUE})\s+" + _K(r"(?:now\s+)?instead of") + rf"\s+{_ART}(?P<o>{VALUE})"),
    # "vitamin B12 instead", "Zinc instead", "padel instead"
    (
        "*",
        "instead",
        rf"(?P<v>(?:\b(?!(?:{_STOPS})\b)[a-z][\w-]*\s+)?{NAME}|\b(?!(?:{_STOPS})\b)[a-z][\w'’+-]*)\s+"
        + _K(r"(?:now\s+)?instead\b"),
    ),
    ("*", "only & now", _K(r"\bonly") + rf"\s+(?P<v>{VALUE})\s+" + _K(r"now\b")),
    (
        "*",
        "go goes going & to & now days nowadays instead",
        _K(r"\b(?:go|goes|going)\s+to\s+(?:the\s+)?")
        + rf"(?P<v>{NAME})"
        + _K(r"(?=,?\s+(?:now|these\s+days|nowadays|instead)\b)"),
    ),
    # "I'm on rooibos now", "we're with Nationwide these days", "I'm at Monzo now"
    (
        "*",
        "i we & on at with & now days nowadays",
        _K(r"\b(?:I'm|I am|we're|we are)\s+(?:now\s+|mostly\s+|just\s+)?(?:on|at|with)")
        + rf"\s+{_ART}(?P<v>{VALUE})"
        + _K(r"(?=,?\s+(?:now|these\s+days|nowadays)\b)"),
    ),
    (
        None,
        "registered signed got bought joined adopted started",
        _K(r"\b(?:registered with|signed up (?:with|at|for)|got|bought|joined|adopted|started)")
        + rf"\s+{_ART}(?P<v>{NAME})",
    ),
    (
        "*",
        "quit quitting stopped stopping stop gave given giving cancel* dropped ditched sold finished no left "
        "closed lost packed jacked chucked binned cut kicked swore sworn said parted rid moved walked "
        "resigned stepped",
        _K(
            r"\b(?:quit|quitting|stopped|stopping|stop|(?:gave|given|giving) up(?: on)?|cancel+ed|cancel+ing|"
            r"dropped|ditched|sold|finished|no more(?! than\b)|left|closed|lost|packed in|packed up|"
            r"jacked in|chucked in|binned|cut out|kicked|swore off|sworn off|said goodbye to|parted with|"
            r"got rid of|moved on from|walked away from|resigned from|stepped down from)"
            r"(?:\s+\w+ing(?:\s+to)?)?"
        )
        + rf"\s+{_ART}(?P<v>{VALUE})",
    ),
    (
        "*",
        "gave given giving packed jacked chucked & up in rest miss",
        _K(r"\b(?:gave|given|giving|packed|jacked|chucked)")
        + rf"\s+{_ART}(?P<o>{NAME})\s+"
        + _K(r"(?:up|in|a rest|a miss)\b"),
    ),
    (
        None,
        "died passed retired moved gone put broke stolen ended expired ran",
        rf"(?P<v>{NAME})\s+"
        + _K(
            r"(?:(?:has|had|have|is|was)\s+)?(?:died|passed away|passed on|"
            + _PASSED
            + r"|retired|moved away|is gone|"
            r"was put down|"
            r"broke|was stolen|(?:deal|contract|membership|subscription|lease) (?:ended|expired|ran out)|"
            r"closed down|shut down|went bust|went under)\b"
        ),
    ),
    # relationships, pets, children
    (
        "partner",
        "and & separated* split* broke divorced* longer ended",
        rf"(?P<o>{NAME})\s+"
        + _K(
            r"and\s+I\s+(?:have\s+|had\s+|got\s+)?(?:separated|split(?: up)?|broke up|divorced|"
            r"are no longer together|ended things)"
        ),
    ),
    (
        "partner",
        "broke split separated divorced & with from",
        _K(r"\b(?:broke up|split up|separated|divorced)\s+(?:with|from)") + rf"\s+(?P<o>{NAME})",
    ),
    (
        "partner",
        "seeing dating engaged married moved together relationship",
        _K(
            r"\b(?:seeing|dating|engaged to|married to|moved in with|together with|"
            r"in a relationship with|married)"
        )
        + rf"\s+(?!(?:Dr|Prof|Doctor)\b)(?P<v>{NAME})",  # "seeing Dr. Santos" is a doctor
    ),
    (
        "partner",
        "partner girlfriend boyfriend wife husband fianc* spouse",
        _K(r"\b(?:partner|girlfriend|boyfriend|wife|husband|fianc[ée]e?|spouse)(?:\s+is|,)?")
        + rf"\s+(?P<v>{NAME})",
    ),
    (
        "pet",
        "dog cat puppy pup kitten rabbit hamster parrot tortoise pony horse budgie",
        _K(
            r"\b(?:dog|cat|puppy|pup|kitten|rabbit|hamster|parrot|tortoise|pony|horse|budgie)"
            r"(?:\s+(?:called|named|is))?,?"
        )
        + rf"\s+(?P<v>{NAME})",
    ),
    (
        "children",
        "kids children sons daughters boys girls",
        r"(?P<v>\b(?i:\d+|one|two|three|four|five|six|seven|eight))\s+"
        + _K(r"(?:kids|children|sons|daughters|boys|girls)\b"),
    ),
    # "I'm with Mia now", but not "I'm with Tom at the pub"
    (
        "partner",
        "i & with",
        _K(r"\b(?:I'm|I am)\s+(?:now\s+)?(?:together\s+)?with")
        + rf"\s+(?!(?:Dr|Prof|Doctor)\b)(?P<v>{NAME})"
        + _K(r"(?:\s+now)?(?=\s*[.!;,]|\s*$)"),
    ),
    # a slot named by its label: "switched my dentist to Dr. Brandt", "my new manager is Omar"
    (
        "@",
        f"switched changed moved swapped & my our the & {_LABEL_TRIGGERS} & to",
        _K(r"\b(?:switched|changed|moved|swapped)\s+(?:my|our|the)\s+")
        + rf"(?P<l>{_LABEL_WORDS})\s+"
        + _K(r"to")
        + rf"\s+{_ART}(?P<v>{VALUE})",
    ),
    (
        "@",
        f"my our the & {_LABEL_TRIGGERS} & is are",
        _K(r"\b(?:my|our|the)\s+(?:new\s+)?")
        + rf"(?P<l>{_LABEL_WORDS})\s+"
        + _K(r"(?:is|are)\s+(?:now\s+)?")
        + rf"{_ART}(?P<v>{NAME})",
    ),
    # roles by the words that end them: "I'm a staff engineer now", "became a nurse"
    (
        "role",
        f"i became become & a an & {_ROLE_TRIGGERS}",
        _K(r"\b(?:I'm|I am|I've become|became|become)\s+(?:now\s+)?(?:an?\s+)")
        + rf"(?P<v>(?:[a-z][\w-]*\s+){{0,3}}{_ROLE_NOUNS})\b",
    ),
    # contact details
    (
        "phone_number",
        "phone mobile cell number & 0",
        _K(r"\b(?:phone|mobile|cell|number)\b") + r"[^.\d+]{0,40}?(?P<v>(?:\+|\(\+?)?\d[\d ()-]{5,}\d)",
    ),
    ("email", "@", r"(?P<v>\b[\w.+-]+@[\w-]+\.[\w.-]*\w)"),
    # corrections: "my hometown is Galway, not Cork"
    (
        "*",
        "is it was are & not",
        _K(r"\b(?:is|it's|it is|was|are)")
        + rf"\s+{_ART}(?P<v>{VALUE})"
        + _K(r"(?:\s+(?:that\s+)?(?:I'm|I am|I|we're|we)\s+\w+(?:\s+\w+)?)?")
        + r",?\s+"
        + _K(r"not")
        + rf"\s+{_ART}(?P<o>{VALUE})",
    ),
    # replies
    (
        "reply_language",
        "reply replies respond responses answer answers write talk speak & in",
        _K(
            r"\b(?:reply|replies|respond|responses|answer|answers|write|talk to me|speak to me)\s+"
            r"(?:to me\s+)?in"
        )
        + rf"\s+(?P<v>{NAME})",
    ),
    ("reading", "reading re", _K(r"\b(?:reading|re-reading)") + rf"\s+(?P<v>{NAME})"),
    (
        "car",
        "has have owns own drives drive bought got & a an & 0",
        _K(r"\b(?:has|have|owns|own|drives|drive|bought|got)\s+an?\s+")
        + r"(?P<v>(?:19|20)\d\d\s"
        + NAME
        + ")",
    ),
    (
        "lender",
        "mortgage remortgaged mortgaged & with",
        _K(r"\b(?:mortgage|remortgaged|mortgaged)\s+(?:is\s+)?(?:now\s+)?with") + rf"\s+(?P<v>{NAME})",
    ),
    ("bank", "bank banks", _K(r"\bbanks?\s+(?:is\s+|with\s+|at\s+)(?:now\s+)?") + rf"(?P<v>{NAME})"),
    (
        "bank",
        "savings account accounts salary banking & to with at",
        _K(r"\b(?:savings|account|accounts|salary|banking)\s+(?:\w+\s+)?(?:to|with|at)")
        + rf"\s+(?P<v>{NAME})",
    ),
    (
        "bank",
        "closed left & account",
        _K(r"\b(?:closed|left)\s+(?:the\s+|my\s+|our\s+)?") + rf"(?P<o>{NAME})\s+" + _K(r"account\b"),
    ),
    (
        None,
        "prefer prefers preferred likes uses use using drink drinks drinking play plays playing take takes "
        "taking on",
        _K(r"\b(?:prefers?|preferred|likes|uses|use|using|drinks?|drinking|plays?|playing|takes?|taking|on)")
        + rf"\s+{_ART}(?P<v>{VALUE})",
    ),
]
# --- schedules and amounts ----------------------------------------------------------------

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = f"(?:{'|'.join(_WEEKDAYS)})"
_DAY = rf"(?:{_WEEKDAY}|weekday|weekend|day|week|month|morning|evening|night)"
_CLOCK = _Lazy(r"(?i:\b\d{1,2}[:.]\d{2}(?:\s?[ap]\.?m\b\.?)?|\b\d{1,2}\s?[ap]\.?m\b\.?)")
_CLOCK_HINT = _Lazy(r"(?i:\d(?:[:.]\d|\s?[ap]))")  # in every clock time, and quick to look for
_RECURRING = _Lazy(
    rf"(?i:\b(?:every|each)\s+(?:other\s+|second\s+|single\s+)?{_DAY}\b|"
    rf"\b(?:on\s+)?(?:{_WEEKDAY}|weekday|weekend)s\b|\b(?:daily|weekly|fortnightly|monthly)\b|"
    rf"\b(?:on\s+)?{_WEEKDAY}\s+(?:mornings|afternoons|evenings|nights)\b)"
)
_AMOUNT = _Lazy(
    r"(?i:(?:[$€£]\s?\d(?:[\d,.]*\d)?(?:\s?k\b)?|\b\d(?:[\d,.]*\d)?\s?k?\s?(?:eur|euros?|usd|dollars?|gbp|pounds?|chf|sek|nok|"
    r"dkk|yen|jpy|inr|rupees?|%|percent)(?![\w])))"
)
_AMOUNT_NOUNS = (
    "budget", "rent", "salary", "pay", "allowance", "pocket money", "limit", "fee", "price", "bill",
    "target", "savings goal", "mortgage payment", "membership", "subscription", "insurance", "premium",
    "tuition", "childcare", "wage", "income",
)  # fmt: skip
# A noun in the plural too ("fees"), but not "pays": that is the verb.
_AMOUNT_NOUN = _Lazy(rf"(?i:\b({'|'.join(_AMOUNT_NOUNS)})(?:(?<!pay)s)?\b)")
# The word before an amount's noun that says how often, not what for ("monthly rent").
_AMOUNT_PERIODS = frozenset(
    {"monthly", "weekly", "yearly", "annual", "daily", "total", "current", "usual", "new", "old"}
)
# Words that never name the event of a schedule ("The team moved standup to 10:15"): passed
# over, so "Dev now works" and "Dev works" name one event.
_NOT_EVENT_WORDS = """
    the my our your a an we i you they he she it his her their its team is are was were be been
    go goes went out now moved move moving changed change changing shifted shifting pushed pushing
    rescheduled rescheduling switched switching still every each
    this next last week weekly daily monthly other plays play has have had skipped skip there
    will would should can could i'll we'll today tomorrow tonight usually always never often
    normally generally typically sometimes also so then happen happens takes take place runs
    get gets got sessions session appointments appointment i've i'm i'd won busy did do does
    doing meet meets meeting keep keeps block blocks avoid avoids prefer prefers like likes want
    wants need needs remind reminds try tries free no not only just about roughly
    around back up
"""
_NOT_EVENT = frozenset(_NOT_EVENT_WORDS.split())
# Words that end the name of an event once it has begun: "Dev picks her up", "lesson with Ms Park".
_EVENT_ENDS = frozenset({
    "at", "on", "in", "for", "with", "from", "to", "by", "of", "after", "before", "until", "till",
    "and", "or", "but", "except", "during", "near", "via", "into", "per", "than",
    "her", "him", "them", "it", "me", "us", "you",
})  # fmt: skip
# Verbs that say where an event begins or ends: the end of an event is a slot of its own
# ("School starts at 8:50" and "School day ends at 15:15" agree).
_EVENT_STARTS = frozenset({"start", "starts", "begin", "begins", "open", "opens", "leave", "leaves"})
_EVENT_FINISHES = frozenset({"end", "ends", "finish", "finishes", "close", "closes", "over"})
# Nouns that say what kind of event it is, not which ("violin lessons", "therapy sessions"):
# dropped from the name when another word is left.
_EVENT_KINDS = frozenset(
    stem(kind)
    for kind in ("lesson", "class", "session", "appointment", "practice", "training", "day", "time", "slot")
)
# Words with an apostrophe that are not possessives.
_CONTRACTIONS = frozenset({
    "it's", "that's", "what's", "there's", "here's", "he's", "she's", "let's", "who's", "where's",
    "when's", "how's", "one's",
})  # fmt: skip
_EVENT_WORD = _Lazy(r"[A-Za-z][\w'’-]*|\d+|[,()\[\]/&–—]")
# Whose an event is, said of no one in particular ("the child's bedtime", "the team's retro").
_NOBODY = frozenset(stem(word) for word in (
    "child", "baby", "toddler", "family", "household", "team", "company", "office", "school",
))  # fmt: skip
_EVENT_MAX_WORDS = 3  # "football training" is enough to tell it from "football matches"
# Said when something does not happen: "no yoga on Fridays", "Dev doesn't work on Wednesdays".
_NEGATED = _Lazy(r"(?i:\b(?:no|not|never|none|nothing|except|don't|doesn't|isn't|aren't|won't|can't)\b)")
_NAMED_BEFORE = _Lazy(
    r"\b(?!(?:I|The|A|An|My|Our|So|But|And|We|He|She|They|It|His|Her|Their)\b)[A-Z][a-z]+\b"
)
_FROM = _Lazy(r"(?i:\bfrom\s*$)")  # before the old amount: "went up from £1,100 to £1,150"
# Before an amount's noun or after its "for", words that say nothing of what it is for.
_NOT_A_THING = _NOT_EVENT | _EVENT_ENDS | _AMOUNT_PERIODS
# A time that bounds something rather than says when it happens ("no meetings before 12:00").
# After days, a verb that makes them what the clause is about ("Fridays were too busy").
_DAY_SUBJECT = _Lazy(r"(?i:\s+(?:were|was|are|is|got|get|have|had|feel|felt|seem|seemed)\b)")
_BOUND = _Lazy(r"(?i:\b(?:before|after|by|until|till|past)\s*$)")
_RANGE_JOIN = _Lazy(r"(?i:\s*(?:[-–—]|to|until|till)\s*)")
_DAYS_JOIN = _Lazy(r"(?i:\s*(?:,\s*(?:and\s+|or\s+)?|and|or|&)\s*)")
# A sentence or clause; a colon inside "9:30" does not end one.
_PIECE = _Lazy(r"(?:[^.;:!?\n]|[.:](?=\d))+")

# --- the past ----------------------------------------------------------------------------

# Right before a value (a few words between at most): it has ended.
_PAST_BEFORE = _Lazy(
    r"(?i:\b(?:quit|quitting|stopped|stopping|stop\s+\w+ing|stop|(?:gave|given|giving)\s+up(?:\s+on)?|cancel+ed|"
    r"lost|cut\s+out|kicked|swore\s+off|sworn\s+off|said\s+goodbye\s+to|parted\s+with|packed\s+(?:in|up)|"
    r"jacked\s+in|chucked\s+in|binned|got\s+rid\s+of|moved\s+on\s+from|walked\s+away\s+from|"
    r"resigned\s+from|stepped\s+down\s+from|handed\s+in\s+(?:my|his|her|their)\s+notice\s+at|"
    r"cancel+ing|dropped|ditched|sold|finished|left|leaving|last\s+day\s+at|no\s+more(?!\s+than\b)|no\s+longer(?:\s+\w+){0,2}|"
    r"used\s+to(?:\s+\w+){0,2}|formerly|previously|former|ex-?|instead\s+of|not|traded(?:\s+in)?|swapped|"
    r"replaced|moved\s+(?:away\s+)?from|moving\s+from|switched\s+(?:over\s+)?from|broke\s+up\s+with|"
    r"split\s+(?:up\s+)?(?:with|from)|separated\s+from|divorced|(?<!have\s)(?<!has\s)(?<!'ve\s)lived\s+in|"
    r"(?<!have\s)(?<!has\s)(?<!'ve\s)worked\s+(?:at|for)|(?:don't|do\s+not|doesn't|never)\s+\w+)"
    r"\s+(?:(?:an?|the|my|our|his|her|their|old|\w+ly|\w+ing|to)\s+){0,2}$)"
)
# "No more" or "no longer" before a value and a point in time after it: a cut-off ("no more
# orders after that", "no more coffee after 2pm"), not something ended.
_CUT_OFF = _Lazy(r"(?i:\s*no\s+(?:more|longer)\b)")
# A value after a preposition that follows a denied thing: "no sugar in the tea anymore" ended
# the sugar, not the tea ("no ice with my whisky", "no onions on the pizza").
_OF_DENIED_THING = _Lazy(
    r"(?i:\bno\s+[a-z]+(?:\s+[a-z]+)?\s+(?:in|on|with|into|for)\s+(?:(?:the|my|our|your|his|her|their|a|an)\s+)?$)"
)
_AFTER_POINT = _Lazy(
    r"(?i:\s+(?:after|past|beyond)\s+(?:(?:the\s+)?\d|(?:that|this|then|(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|midnight|noon)\b))"
)
# Right after a value, or its "'s" ("Rankin's retired"): it has ended.
_PAST_AFTER = _Lazy(
    r"(?i:^(?:['’]s)?[\s,]*(?:\w+\s+){0,1}?(?:died|passed\s+away|passed\s+on|"
    + _PASSED
    + r"|retired|is\s+gone|was\s+put\s+down|"
    r"closed\s+down|shut\s+down|went\s+bust|went\s+under|"
    r"broke|was\s+stolen|(?:deal|contract|membership|subscription|lease)\s+(?:ended|expired|ran\s+out)|"
    r"and\s+I\s+(?:have\s+|had\s+|got\s+)?(?:separated|split|broke\s+up|divorced)|no\s+longer|not\s+any\s?more|"
    r"moved\s+away|"
    r"any\s?more|until\b|\(old\)|\(former\w*\)|\(previously\)|\(outdated\)|\(superseded\)))"
)
# Anywhere in the value's clause: the whole clause is about the past.
_PAST_CLAUSE = _Lazy(
    r"(?i:\buntil\s+(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|last|recently|this|20\d\d)|"
    r"\bformerly\b|\bpreviously\b|\bused\s+to\b|\bno\s+longer\b|\(old\)|\bwas:|~~|\boutdated\b|\bsuperseded\b|"
    r"\bformer\b|\bnot\s+any\s?more\b|\banymore\b|"
    # "her old car was a Ford", "my previous bank was Barclays"
    r"\b(?:old|previous)\s+\w+(?:\s+\w+)?\s+(?:was|were)\b)"
)
# A whole line marked as past: "Was: lives in Rome", "~~Works at Initech~~".
_PAST_LINE = _Lazy(r"(?i:^\s*(?:[-*•]\s*)?(?:was|previously|formerly|old|outdated)\s*:|~~)")
# The marks a stored fact carries when it is kept as past (``marked_past``).
_MARKED_PAST = _Lazy(
    r"(?i:\(until\s|\buntil\s+(?:\d{1,2}\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\s+\d{4}|"
    r"\bformerly\b|\(old\)|\(former\b|^\s*(?:[-*•]\s*)?was:|~~|\boutdated\b|\bsuperseded\b|\bno\s+longer\b|"
    r"^\s*(?:[-*•]\s*)?(?:former|previous)\s+[\w ]{0,24}:|"  # a label of the past: "Former employer:"
    # a contact of the past: "Old mobile 0400 331 865", "Ex-work e-mail: …", "(disconnected 2021)"
    r"^\s*(?:[-*•]\s*)?(?:(?:old|former|previous)\s+|ex-)(?:[a-z]+\s+)?(?:phone|mobile|cell|number|e-?mail|address|landline)\b|"
    r"\(disconnected\b)",
    re.M,
)
# Contact details: whose they are is read apart ("Send invoices to accounts@acme.com").
_CONTACTS = frozenset({"email", "phone_number"})
_CONTACT_WORD = _Lazy(r"(?i:\b(?:phone|e-?mail|mobile|cell|number|contact)\b)")
_OTHER_CONTACT = _Lazy(
    r"(?i:\b(?!(?:my|our|her|his|their|new|old|work|personal|home|main|private|phone|e-?mail|mobile|cell|"
    r"contact|me|is|at|on|the|a|an)\b)[a-z]+(?:['’]s)?\s+(?:phone|e-?mail|number|mobile|contact)\b"
    r"|\b(?:send|sent|forward|post|mail|cc)\b.*\bto\s*$)"
)
_LINE_LABEL = _Lazy(r"[ \t]*(?:[-*•][ \t]+)?([A-Za-z][A-Za-z -]{0,24}?)[ \t]*:")
# Before a value, the words that make it the successor ("moved from Berlin to" Paris).
_SUCCESSOR = _Lazy(
    r"(?i:\b(?:(?<!ing\s)(?<!goodbye\s)to|(?<!worked\s)for|with|into|now|but|so|and|then|got|joined)\b)"
)
_SENTENCE = _Lazy(r"[^\n]+")

_REPLACING = _Lazy(
    r"(?i:\b(?:switch\w*|chang\w*|went|gone|going|converted|turned|instead|only|replac\w*|swapped|traded|"
    r"moved|no\s+more|no\s+longer|any\s?more|quit|stopped|gave\s+up|given\s+up|ditched|dropped)\b)"
)
_ADDING = _Lazy(r"(?i:\b(?:also|as\s+well|both|another|extra|plus)\b|\btoo\b(?=\s*(?:[.!?,;]|$)))")
# Moods of a claim (``mood_at``): supposed, or for a later date.
SUPPOSED, LATER = "supposed", "later"
# A request to the listener, after a few opening words at most ("oh also can u use…").
_REQUEST = _Lazy(r"(?i:(?:\s*[^\W\d_]+,?){0,3}?\s*(?:please\s+)?(?:could|can|would|will)\s+(?:you|u|we)\b)")
# A word read as a noun after a determiner: fixed-width look-behinds, one a determiner.
_NOT_AFTER_DETERMINER = "".join(
    rf"(?<!\b{word}\s)"
    for word in ("the", "a", "an", "my", "our", "his", "her", "their", "your", "this", "that")
)
_SUPPOSING = _Lazy(
    r"(?i:\b(?:thinking\s+(?:of|about)|think\s+about|thought\s+(?:of|about)\s+[^\W\d_]+ing|considering|contemplating|might|could|would(?!\s+like)|"
    # deliberating: "debating going to 165 mm cranks", "toying with", "torn between"; after a
    # determiner the word names a thing ("the weighing shed", "our debating club")
    rf"{_NOT_AFTER_DETERMINER}(?:debating|weighing(?:\s+up)?|toying\s+with|mulling(?:\s+over)?)|"
    r"torn\s+between|on\s+the\s+fence|"
    r"should(?!\s+now\b)|(?<=\bI\s)should|(?<=\bwe\s)should|maybe|perhaps|possibly|"
    r"planning\s+(?:to|on)|plan\s+to|plans\s+to|hoping\s+to|hope\s+to|want\s+to|"
    r"wants\s+to|"
    # a wish for others to: "Mariantonia want that we go live in Nuoro", "she wants us to move";
    # not an arrangement its clause says holds now ("the principal wants us in the whare now")
    r"wants?\s+(?:that|(?:us|him|her|them)(?!\s+to\b)(?![^.;!?]*\bnow\b)|(?:us|him|her|them)\s+to\b)|wish(?:es)?|dreams?\s+(?:of|about)|keen\s+(?:on|to)|"
    r"if|whether|unless|someday|one\s+day|eventually|tempted|in\s+case|wondering|"
    # an intention that did not happen: "was about to sell it", "was fixin to" ("was going to" and
    # "was gonna" read as a later date already)
    r"(?:was|were)\s+(?:(?:about|bout|fixing|fixin|meaning|planning)\s+to|finna))\b)"
)
# "should now" is what holds from now ("all my VAT papers should now go to …"), not a guess;
# the person's own ("I should now look for a dentist") is an intention still.
# A hedge said on its own, or staying as things are for now.
_HEDGE = _Lazy(
    r"(?i:(?:(?:but|and|so|well|oh|eh|hmm+|yes|yeah|no)\s+)?(?:maybe|perhaps|possibly|not\s+sure|"
    r"(?:I\s+)?(?:don['’]?t|do\s+not|dont)\s+know|dunno|we(?:['’]ll|\s+will)\s+see|no\s+idea|who\s+knows|"
    r"(?:nothing(?:['’]s|\s+is)?|not)\s+(?:decided|settled|final|fixed|sure)(?:\s+yet)?|"
    r"(?:for\s+now|for\s+the\s+moment|still|meanwhile),?\s+(?:we|I)(?:['’](?:re|m)|\s+are|\s+am)?\s+(?:stay|staying|remain|remaining)"
    r"(?:\s+(?:here|put))?)\b)"
)
_HEDGE_PARTS = _Lazy(r"\s*[,;—–]\s*|\.\s+")
_WHEN_WORDS = 3  # a few words of when beside a hedge: "Maybe next winter"
_SUBJECT = _Lazy(r"(?i:\b(?:I|we|he|she|they|you|it)\b)")
# Lowercase only: "in May" is a month. So is "may" lowercase beside a day number or after a word of
# time ("now sunday may 4 at 12:20", "by 3 may", "in may"): the modal goes before a verb.
_SUPPOSING_MAY = _Lazy(
    r"(?<!\d\s)(?<!\d)(?<!\d(?:st|nd|rd|th)\s)"
    + "".join(
        rf"(?<!\b{word}\s)" for word in ("in", "of", "by", "on", "since", "until", "till", "from", "mid")
    )
    + r"\bmay\b(?!\s*\d)"
)
# A statement closed by a tag that asks leave ("so now target change to sub-23 can or not?",
# "put me down for Thursdays, ok?") is a request, not a question; "…, right?" asks whether a
# belief holds, and stays a question.
_LEAVE_TAG = _Lazy(
    r"(?i:[\s,]\s*(?:(?:can|ok|okay)\s+or\s+not|ok|okay|alright|all\s+right|can\s+(?:you|u))\s*\?+\s*$)"
)
_ONCE = _Lazy(
    r"(?i:\bone[- ]?off\b|\bjust\s+(?:this\s+)?once\b|\bfor\s+once\b|\bthis\s+(?:time|week)\s+only\b)"
)
_LATER_CUE = _Lazy(
    r"(?i:\b(?:will|won't|shall|gonna)\b|'ll\b|’ll\b|(?:\b(?:am|is|are)|['’](?:m|re|s))\s+going\s+to\b|"
    r"\bwhen\s+(?:he|she|they|I|we|you|[A-Z][\w-]*)\s+(?:turns?|starts?|gets?|moves?|finish(?:es)?|is|are)\b|"
    r"\b(?:from|starting|as\s+of)\s+next\s+(?:year|spring|summer|autumn|fall|winter|january|february|march|"
    r"april|may|june|july|august|september|october|november|december)\b)"
)
# Going on refused: with a "will", what ends from the moment it is said.
_ENDED_NOW = _Lazy(r"(?i:\b(?:no\s+more(?!\s+than\b)|no\s+longer|any\s?more|never\s+again)\b)")
# A time still to come that an end would be set for ("after June", "from next month", "once …").
_WHEN_LATER = _Lazy(r"(?i:\b(?:next|after|from|starting|once|when|until|till|by|soon)\b)")
# A clause that asks by its order of words: an auxiliary before its subject, or a question word.
_ASKS = _Lazy(
    r"(?i:\s*(?:(?:so|and|but|then|or|oh|well)\s+)?(?:do|does|did|is|are|was|were|am|can|could|will|would|"
    r"shall|should|may|might|must|have|has|had|what|where|when|who|whom|whose|which|why|how)\b)"
)
# A closing tag that asks whether what was said holds: "isn't it?", "is that right?", "right?".
_CONFIRMING = _Lazy(
    r"(?i:\s*(?:\w+n['’]t\s+\w+|(?:is|are|was|am|do|does|did|have|has)\s+(?:it|that|this|they|he|she|we|I|you)"
    r"(?:\s+(?:right|correct|true|so))?|(?:\w+\s+)?(?:right|correct|true|yes|no|yeah|eh|innit))\s*\?+\s*$)"
)
# Where a value's clause ends, for what it says of later ("using Arc now and I don't think I'll
# go back" says nothing of later about Arc).
NOW_SAID = _Lazy(r"(?i:\bnow\b)")  # "now" said: a change stated, or who it is now
_AND_CLAUSE = _Lazy(r"[,;:]\s|\s(?:and|but|so|because|while|whereas)\s")
AHEAD_WORDS = frozenset({"next", "soon", "upcoming", "tomorrow"})  # words that place a clause later
_SAID_IN = " (said in "  # ``said_in_mark``
_HOUSEHOLD_NAMED = _Lazy(
    r"\b(?i:partner|wife|husband|spouse|girlfriend|boyfriend|son|daughter|dog|cat|puppy|kitten)"
    r"\s+(?i:called\s+|named\s+)?([A-Z][\w-]+)"
)
_NAME_THEN_KIN = _Lazy(r"\b([A-Z][\w'’-]+)(?:\s+[A-Z][\w'’-]+)*\s+\((\w+)\)")
_CHANGE_CUE = _Lazy(
    r"(?i:\b(?:now|new|newly|no\s+more|lost|change|set|been\s+made|appointed|moved|moving|switched|switching|changed|changing|promoted|"
    r"from now on|starting|"
    r"start|started|joined|quit|stopped|left|no longer|anymore|any more|instead|update|updated|raise|raised|"
    r"lower|lowered|increase|increased|cut|finally|these days|since|replaced|traded|became|become|"
    r"got|correction|actually|not|separated|seeing|retired|died|passed|cancelled|canceled|gave up|"
    r"given up|finished|sold|dropped|ditched|swapped|broke up|split up|divorced|ended|expired|last day|"
    r"relocated|remortgaged|registered|adopted|arrived|born|stop|bump|bumped|raising|lowering|closed|"
    r"(?:gone|went|goes|going|go)\s+(?:up|down)|rose|risen|fell|fallen|reduced|bought|replace|renewed|packed|"
    r"jacked|chucked|(?:taken|took|take|taking|picked)\s+up|first\s+(?:day|week|month)|resigned|qualified|"
    r"handed\s+in|"
    r"went\s+(?:fully\s+|full\s+|completely\s+)?(?:vegan|vegetarian|pescatarian|keto|paleo|"
    r"sober|freelance|part-time|full-time|remote))\b)"
)


# --- which rules a line is tried against --------------------------------------------------

# The words the families that are not rules cannot match without (written as for the rules).
_LEXICON_TRIGGERS = " ".join(sorted({phrase.replace("-", " ").split()[0] for phrase in _LEXICON_WORDS}))
_SCHEDULE_TRIGGERS = " ".join(
    ["every", "each", "daily", "weekly", "fortnightly", "monthly"]
    + ["mornings", "afternoons", "evenings", "nights"]
    + [f"{day}s" for day in (*_WEEKDAYS, "weekday", "weekend")]
)
_AMOUNT_TRIGGERS = (
    " ".join(noun.split()[0] + ("" if noun == "pay" else f" {noun.split()[0]}s") for noun in _AMOUNT_NOUNS)
    + " & 0"
)

_Needs = tuple[frozenset[str], ...]  # trigger words: one of each set must be in the line
# Beyond ``str.lower``, the letters that a pattern's IGNORECASE matches with "i" and "s".
_FOLD = str.maketrans({"İ": "i", "ı": "i", "ſ": "s"})
_TOKEN = _Lazy(r"\w+")  # a word, as ``\b`` sees one
# ASCII text's words, faster: every character that is not in a word becomes a space.
_ASCII_GAPS = bytes(byte if re.fullmatch(rb"\w", bytes([byte])) else ord(" ") for byte in range(256))
_DIGIT = _Lazy(r"\d")


@dataclass(frozen=True)
class _Rule:
    slot: str | None
    pattern: _Lazy  # compiled when a line first has its trigger words
    needs: _Needs


@dataclass(frozen=True)
class _Tried:
    """What a line is read with: the rules, and whether the lexicon, schedules and amounts."""

    rules: tuple[_Rule, ...]
    lexicon: bool
    schedule: bool
    amount: bool


_NOTHING = _Tried((), lexicon=False, schedule=False, amount=False)


@dataclass(frozen=True)
class _Matchers:
    rules: tuple[_Rule, ...]
    whole: frozenset[str]  # the trigger words that are whole words
    starts: tuple[str, ...]  # the trigger words that are starts of words ("split" for "split*")
    by_word: dict[str, tuple[int, ...]]  # a word: the rules (by position) whose first set has it
    lexicon: _Needs
    schedule: _Needs
    amount: _Needs


@cache
def _matchers() -> _Matchers:
    """The rules compiled, and what finds their trigger words (on first use)."""
    needs = [_trigger_words(trigger) for _slot, trigger, _source in _RULES_SOURCE]
    families = [_trigger_words(t) for t in (_LEXICON_TRIGGERS, _SCHEDULE_TRIGGERS, _AMOUNT_TRIGGERS)]
    every = {word for groups in (*needs, *families) for group in groups for word in group}
    starts = sorted((word for word in every if word.endswith("*")), key=len)
    # A word that a shorter start covers counts as that start ("team" as "team*"): then at most
    # one trigger word is found where a word begins, and none is missed.
    canonical = {
        word: next((start for start in starts if word.rstrip("*").startswith(start[:-1])), word)
        for word in every
    }

    def numbered(groups: list[list[str]]) -> _Needs:
        return tuple(frozenset(canonical[word] for word in group) for group in groups)

    rules = tuple(
        _Rule(slot, _Lazy(source), numbered(groups))
        for (slot, _trigger, source), groups in zip(_RULES_SOURCE, needs, strict=True)
    )
    by_word: dict[str, list[int]] = {}
    for position, rule in enumerate(rules):
        for word in rule.needs[0]:
            by_word.setdefault(word, []).append(position)
    lexicon, schedule, amount = (numbered(groups) for groups in families)
    kept = set(canonical.values())
    return _Matchers(
        rules,
        frozenset(word for word in kept if not word.endswith("*")),
        tuple(sorted(word[:-1] for word in kept if word.endswith("*"))),
        {word: tuple(positions) for word, positions in by_word.items()},
        lexicon,
        schedule,
        amount,
    )


def _trigger_words(trigger: str) -> list[list[str]]:
    return [group.split() for group in trigger.split("&")]


def _tried(segment: str) -> _Tried:
    """The rules and families that can match in ``segment``: those whose trigger words it has."""
    matchers = _matchers()
    if segment.isascii():
        spaced = segment.lower().encode().translate(_ASCII_GAPS)
        words = spaced.decode().split()
        digits = len(spaced.translate(None, b"0123456789")) < len(spaced)
    else:
        words = _TOKEN.findall(segment.translate(_FOLD).lower())  # as IGNORECASE reads it
        digits = bool(_DIGIT.search(segment))
    found = set(matchers.whole.intersection(words))
    for word in words:
        if word.startswith(matchers.starts):
            found.update(f"{start}*" for start in matchers.starts if word.startswith(start))
    if digits:
        found.add("0")
    if "@" in segment:
        found.add("@")
    if not found:
        return _NOTHING
    positions = sorted({position for word in found for position in matchers.by_word.get(word, ())})
    return _Tried(
        tuple(rule for position in positions if _has((rule := matchers.rules[position]).needs[1:], found)),
        lexicon=_has(matchers.lexicon, found),
        # a schedule's time is a clock time ("9:30", "6pm"), not any number
        schedule=_has(matchers.schedule, found) or (digits and bool(_CLOCK_HINT.search(segment))),
        amount=_has(matchers.amount, found),
    )


def _has(needs: _Needs, found: set[str]) -> bool:
    return all(not found.isdisjoint(group) for group in needs)


@lru_cache(maxsize=8192)  # the same stored lines are read again at each compaction
def _claims(text: str) -> tuple[tuple[Claim, str], ...]:
    """Every claim, with its mood: "" when stated, ``SUPPOSED`` or ``LATER``."""
    found: list[Claim] = []
    labelled: list[tuple[int, int]] = []
    for match in _LABEL_LINE.finditer(text):
        slot = _label_slot(match.group(1), match.group(2))
        if slot:
            start, end = match.span(2)
            found.append(_claim(text, slot, start, end, past=None))
            labelled.append(match.span())
    for line in _SENTENCE.finditer(text):
        if any(start <= line.start() < end for start, end in labelled):
            continue
        found += _line_claims(text, line.start(), line.end())
    labelled_claims = {id(claim) for claim in found[: len(labelled)]}
    # Most facts suppose nothing and say nothing of later: one look tells, for the whole text.
    moody = "?" in text or any(cue.search(text) for cue in (_SUPPOSING, _SUPPOSING_MAY, _LATER_CUE))
    return tuple(
        (claim, mood_at(text, claim.span[0]) if moody and id(claim) not in labelled_claims else "")
        for claim in _unique(found)
    )


def present_only(sentence: str, at: int, message: str) -> bool:
    """The home said at ``at`` is said only by being there ("I'm in Chaullay now, tomorrow we
    arrive to Machu Picchu"), and ``message`` says nowhere that the person lives or moved: where
    they are today, perhaps for a night, not their home (the caller also asks whether the person
    names the place left, which a move does)."""
    if not any(claim.slot == "home" and claim.span[0] == at for claim in claims_in(sentence)):
        return False
    return bool(_BEING_THERE.search(sentence, 0, at)) and not _RESIDING.search(message)


def _asked_after(text: str, start: int, sentence_start: int, sentence_end: int) -> bool:
    """The question is a clause of its own after the value's, which states it: the value's
    clause asks nothing by its order of words, and a clause follows it ("so we live in Caernarfon
    these days, just up from the Maes, can you believe it?"; not "should we move to Leeds, do you
    think?", nor "my mobile is 07700 936 771 now, right?")."""
    after = [match.end() for match in _AND_CLAUSE.finditer(text, start, sentence_end)]
    if not after or (_CONFIRMING.match(text, after[-1], sentence_end) and len(after) == 1):
        # one clause, or a tag right after it that asks whether it holds ("…, right?", "isn't
        # it?"); a tag after a clause of its own asks of that one ("…, I live with her now in
        # Mondello, and the flat I leave for Ciccio to rent, eh?")
        return False
    breaks = [match.end() for match in _AND_CLAUSE.finditer(text, sentence_start, start)]
    return not _ASKS.match(text, breaks[-1] if breaks else sentence_start)


def mood_at(text: str, start: int) -> str:
    """Whether the sentence holding ``start`` supposes the value ("thinking of moving to",
    "Should I switch to", "if … we might raise") or gives it for a later date ("will be",
    "when he turns eleven"); "" when it states it. A request ("Could you answer in English
    from now on?") states a change."""
    line_start = text.rfind("\n", 0, start) + 1
    ends = [m.end() for m in SENTENCE_STOP.finditer(text, line_start, start)]
    sentence_start = ends[-1] if ends else line_start
    stop = SENTENCE_STOP.search(text, start)
    newline = text.find("\n", start)
    sentence_end = min(x for x in (stop.end() if stop else len(text), newline if newline >= 0 else len(text)))
    before = text[sentence_start:start]
    request = _REQUEST.match(before)
    if request:
        before = before[request.end() :]
    elif (
        text[sentence_start:sentence_end].rstrip().endswith("?")
        and not _LEAVE_TAG.search(text, sentence_start, sentence_end)
        and not _asked_after(text, start, sentence_start, sentence_end)
    ):
        return SUPPOSED
    # "may" is read with the words after it, which tell the month from the modal
    may = _SUPPOSING_MAY.search(text, start - len(before), sentence_end)
    if _SUPPOSING.search(before) or (may and may.start() < start):
        return SUPPOSED
    sentence = text[sentence_start:sentence_end]
    clause_end = _AND_CLAUSE.search(text, start, sentence_end)
    reach = text[sentence_start : clause_end.start() if clause_end else sentence_end]
    # a clause of its own saying "now" states it, whatever an earlier clause plans ("the bulletin
    # will contain the new prices, … so the bulletin now leaves from …")
    own_start = max(
        (m.end() for m in _AND_CLAUSE.finditer(text, sentence_start, start)), default=sentence_start
    )
    own = text[own_start : len(reach) + sentence_start]
    if NOW_SAID.search(own) and not _LATER_CUE.search(own):
        return ""
    if _LATER_CUE.search(reach) and not names_now(sentence) and not _ended_from_now(reach):
        return LATER
    return ""


def _ended_from_now(clause: str) -> bool:
    """The clause's will refuses to go on, from now ("no more shipments I will send", "I won't
    teach there any more"): an end decided as it is said, unless it names when it will end."""
    return bool(_ENDED_NOW.search(clause)) and not _WHEN_LATER.search(clause)


# A verb denied in its clause, two words at most before it: "I have not cancelled", "I didn't
# quit", "never sold".
DENIED_VERB = re.compile(r"(?i:(?:\bnot|\bnever|n[’']t)\s+(?:[^\W\d_]+\s+){0,2})$")


def _line_claims(text: str, start: int, end: int) -> list[Claim]:
    found: list[Claim] = []
    segment = text[start:end]
    tried = _tried(segment)
    for rule in tried.rules:
        slot, pattern = rule.slot, rule.pattern.compiled
        for match in pattern.finditer(segment):
            for group in ("o", "v"):
                if group not in pattern.groupindex or match.start(group) < 0:
                    continue
                value_start, value_end = _trim(segment, *match.span(group))
                if value_end <= value_start or _says_when(segment, value_start, value_end):
                    continue  # "moved netball to Thursdays": a schedule's day, not a home
                if slot == "nationality" and not _OF_A_PEOPLE.search(segment, value_start, value_end):
                    continue  # "New passport is in my hands": no people's name
                if slot == "@":
                    label = match.group("l").translate(_FOLD).lower()  # "boſs" is "boss" to IGNORECASE
                    kind: str | None = LABELS[" ".join(label.split())]
                else:
                    kind = slot if slot and slot[0] not in "*~" else _kind(segment[value_start:value_end])
                if slot and slot[0] == "~" and not kind:
                    kind = slot[1:]  # the rule's slot unless the value says otherwise
                if kind is None:
                    if slot is None:
                        continue  # a lowercase phrase of no known kind: "use it", "got home"
                    kind = ""  # a change names it: "stopped the melatonin", "magnesium instead"
                past = True if group == "o" else None
                if past and DENIED_VERB.search(segment, 0, match.start()):
                    past = False  # "I have not left Acme": nothing ended
                value_at = start + value_start
                if not of_value(text, value_at).others and not (
                    kind in _CONTACTS and _others_contact(text, value_at)
                ):
                    found.append(_claim(text, kind, value_at, start + value_end, past))
    for match in _LEXICON_RE.finditer(segment) if tried.lexicon else ():
        slot = _lexicon_slot(match.group(0))
        if _TOPIC.search(segment, 0, match.start()):
            continue  # "we argue about football": what is talked of, not what the person does or has
        if slot and not of_value(text, start + match.start()).others:
            found.append(_claim(text, slot, start + match.start(), start + match.end(), None))
    named = (_schedule_claims(text, start, end) if tried.schedule else []) + (
        _amount_claims(text, start, end) if tried.amount else []
    )
    return found + [claim for claim in named if not forwarded_line(text, claim.span[0]).others]


def _says_when(text: str, start: int, end: int) -> bool:
    """The value is a clock time, days or a date ("11:00", "Thursdays", "Friday 13 March"),
    so it says when something happens, not what fills a slot. A month alone may be a name
    ("dating May")."""
    if _CLOCK.match(text, start):
        return True
    words = text[start:end].lower().split()
    named = [word for word in words if _CALENDAR.fullmatch(word)]
    if not named or not all(word in named or _ORDINAL.fullmatch(word) for word in words):
        return False
    return len(words) > 1 or any(word.endswith("s") or word in _WEEKDAYS for word in named)


def _others_contact(text: str, start: int) -> bool:
    """The e-mail address or number at ``start`` is a place's or someone else's: named by
    what it belongs to ("the surgery's phone number is", "School office: office@…"), or where
    something is sent ("send invoices to accounts@…")."""
    clause_start, _end = _clause_bounds(text, start, start)
    before = text[clause_start:start]
    if _OTHER_CONTACT.search(before):
        return True
    line_start = text.rfind("\n", 0, start) + 1
    label = _LINE_LABEL.match(text, line_start, start)
    if label is None or text[label.end() : start].strip():
        return False  # not right after a label: "Correction: my e-mail is …" is theirs
    name = label.group(1)
    return not _CONTACT_WORD.search(name) or bool(_OTHER_CONTACT.search(name + " "))


def _claim(text: str, slot: str, start: int, end: int, past: bool | None) -> Claim:
    if past is None:
        past = _is_past(text, start, end)
    return Claim(slot, normalise(text[start:end]), (start, end), past)


def _kind(value: str) -> str | None:
    """The slot a value fills by what it is; "" for a name of unknown kind; None for a phrase."""
    lower = value.lower()
    if _CALENDAR.fullmatch(lower):
        return None  # "on Monday" says when, not what
    for word in re.findall(r"[\w-]+", lower):
        if word in _KIND_WORDS:
            return _KIND_WORDS[word]
    match = _LEXICON_RE.search(value)
    if match:
        return _lexicon_slot(match.group(0))
    return "" if value[:1].isupper() or value[:1].isdigit() else None


def _lexicon_slot(found: str) -> str:
    """The slot of a value the lexicon found, by its first two words ("VS Code", "Galaxy Tab")
    or its first."""
    words = found.lower().split()
    return _LEXICON_WORDS.get(" ".join(words[:2])) or _LEXICON_WORDS.get(words[0], "")


def _label_slot(label: str, value: str) -> str | None:
    slot = LABELS.get(" ".join(label.lower().split()))
    if slot == "phone" and sum(ch.isdigit() for ch in value) >= 6:
        return "phone_number"
    if slot == "children" and not _COUNT.match(value):
        return None  # "Children: Noah, 9, and Isla, 5" names them; the slot is how many
    return slot


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop a sentence's leading capital word ("The ThinkPad") and trailing connectors or dots."""
    value = text[start:end]
    first, _, rest = value.partition(" ")
    opening = not text[:start].strip() or text[:start].rstrip()[-1] in ".!?;:"
    if rest and first in _LEAD_WORDS and opening:
        start += len(first) + 1
    value = text[start:end]
    stripped = value.rstrip(" .,'’-")
    for tail in (" of", " de", " la", " van", " von", " der", " upon"):
        if stripped.endswith(tail):
            stripped = stripped[: -len(tail)]
    if stripped.endswith(("'s", "’s")) and _CONTRACTED.match(text, start + len(stripped)):
        stripped = stripped[:-2]  # "Dr. Rankin's retired": "'s" is "has", the name is Dr. Rankin
    return start, start + len(stripped)


def _clause_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    before = [m.end() for m in CLAUSE_BREAK.finditer(text, line_start, start)]
    after = CLAUSE_BREAK.search(text, end, line_end)
    return (before[-1] if before else line_start), (after.start() if after else line_end)


def _is_past(text: str, start: int, end: int) -> bool:
    clause_start, clause_end = _clause_bounds(text, start, end)
    before = text[clause_start:start]
    successors = list(_SUCCESSOR.finditer(before))
    if successors:
        before = before[successors[-1].end() :]  # "moved from Berlin to " Paris: the new one
    spaced = before + " " if before and not before.endswith(" ") else before
    ending = _PAST_BEFORE.search(spaced)
    if ending:
        # the verb of ending nearest the value, denied: "I have not cancelled", "never sold"
        while (nearer := _PAST_BEFORE.search(spaced, ending.start() + 1)) is not None:
            ending = nearer
        if _CUT_OFF.match(ending.group(0)) and _AFTER_POINT.match(text, end, clause_end):
            return False  # "no more orders after that": a cut-off from a day on, not an end now
        return not DENIED_VERB.search(before, 0, ending.start())
    if _OF_DENIED_THING.search(text, clause_start, start):
        return False
    if _PAST_AFTER.search(text[end:clause_end]):
        return True
    line_start = text.rfind("\n", 0, start) + 1
    return bool(_PAST_CLAUSE.search(text, clause_start, clause_end) or _PAST_LINE.match(text, line_start))


def _schedule_claims(text: str, start: int, end: int) -> list[Claim]:
    """Each time and each set of days in a clause, in the slot of the event it is said of.

    An event is named by the first words before its time that name a thing, and by whose it
    is ("Elin's violin lesson" is ``elin violin``, and not Elin's school day), and a time or
    days with no such words before them belong to the event named last in the clause, unless
    it has a time already ("dinner at 18:00 on weekdays, 19:00 at weekends": 19:00 is not
    dinner's time, but "weekly now, every Thursday" are therapy's days).
    """
    found: list[Claim] = []
    for sentence in _PIECE.finditer(text[start:end]):
        s_start = start + sentence.start()
        clause = sentence.group(0)
        event, after = "", 0
        for kind, (m_start, m_end) in _schedule_mentions(clause):
            before = clause[after:m_start]
            after = m_end
            if _NEGATED.search(before):  # "no meetings on Fridays" says when something is not
                event = ""
                continue
            named = _event(before)
            slot = f"{kind}:{named or event}"
            if named or (event and not (kind == "time" and any(c.slot == slot for c in found))):
                event = named or event
                found.append(_claim(text, slot, s_start + m_start, s_start + m_end, None))
    return _most_specific(found)


def _schedule_mentions(clause: str) -> list[tuple[str, tuple[int, int]]]:
    """The clause's times ("17:30", a range "17:00–18:30") and recurring days ("on Mondays and
    Wednesdays", "every other Tuesday"), in order; a time that bounds ("before 12:00") is none."""
    mentions: list[tuple[str, tuple[int, int]]] = []
    for kind, pattern, join in (("time", _CLOCK, _RANGE_JOIN), ("day", _RECURRING, _DAYS_JOIN)):
        spans: list[tuple[int, int, bool]] = []  # start, end, and whether two were joined
        for match in pattern.finditer(clause):
            # a range joins two times; a list, any number of days
            if (
                spans
                and (kind == "day" or not spans[-1][2])
                and join.fullmatch(clause, spans[-1][1], match.start())
            ):
                spans[-1] = (spans[-1][0], match.end(), True)
            else:
                spans.append((match.start(), match.end(), False))
        for span_start, span_end, _joined in spans:
            if kind == "time" and _BOUND.search(clause, 0, span_start):
                continue
            if kind == "day" and _DAY_SUBJECT.match(clause, span_end):
                continue
            mentions.append((kind, (span_start, span_end)))
    return sorted(mentions, key=lambda mention: mention[1])


def _most_specific(claims: list[Claim]) -> list[Claim]:
    """One claim per slot: for days a named weekday over "weekly", else the one said last."""
    best: dict[str, Claim] = {}
    for claim in claims:
        held = best.get(claim.slot)
        if held is None or _named_day(claim) >= _named_day(held):
            best[claim.slot] = claim
    return list(best.values())


def _named_day(claim: Claim) -> bool:
    """The days are named ("on Thursdays", "every weekday"), not only how often ("weekly")."""
    return "day" in claim.value


def _event(words_before: str) -> str:
    """The event named in the words before a time: the first run of words that name a thing,
    after whose it is ("elin violin" for "Elin's violin lesson is"), without verbs of change or
    kinds of event; "end" after it when the time is when it ends. "" when no word names one.
    A run in a later clause names it rather ("The pool changed its hours, so I swim at 7:15")."""
    owner, run, earlier = "", [], []
    ending = ""
    for word in _EVENT_WORD.findall(words_before):
        lower = word.lower().replace("’", "'")
        if not lower[0].isalpha():
            if run:
                earlier, run = run, []
            continue
        if lower in _EVENT_STARTS or lower in _EVENT_FINISHES:
            ending = "end" if lower in _EVENT_FINISHES else ""
            if run:
                break
            continue
        if lower in _EVENT_ENDS:
            if run:
                break
            continue
        if _possessive(lower):
            # whose it is qualifies the event: Elin's lesson is not Noah's; "child's" names nobody
            named_owner = stem(_without_possessive(lower))
            owner, run = ("" if named_owner in _NOBODY else named_owner), []
            continue
        if lower in _NOT_EVENT or "'" in lower or (len(lower) > 4 and lower.endswith("ed")):
            continue
        run.append(stem(lower))
    run = run or earlier
    named = [word for word in run if word not in _EVENT_KINDS] or run
    if not named and owner:
        named, owner = [owner], ""  # "Yoga's moved to Mondays": a contraction, not whose it is
    if not named:
        return ""
    return " ".join(([owner] if owner else []) + named[:_EVENT_MAX_WORDS] + ([ending] if ending else []))


def _possessive(word: str) -> bool:
    """Whether a lowercased word with a straight apostrophe is a possessive: "elin's", "kids'",
    not "it's"."""
    return word not in _CONTRACTIONS and (word.endswith("'s") or word.endswith("s'"))


def _without_possessive(word: str) -> str:
    """The word without its possessive mark: "Elin's" is "Elin", "James’" is "James"."""
    for mark in ("'s", "’s", "'", "’"):
        if word.endswith(mark):
            return word[: -len(mark)]
    return word


def _amount_claims(text: str, start: int, end: int) -> list[Claim]:
    found: list[Claim] = []
    for sentence in re.finditer(r"[^.;!?\n]+", text[start:end]):
        clause = sentence.group(0)
        nouns = list(_AMOUNT_NOUN.finditer(clause))
        if not nouns:
            continue
        # "pay" is often the verb: "used to pay £1,050 rent" is about rent
        noun = next((found for found in nouns if found.group(1).lower() != "pay"), nouns[0])
        first_amount = _AMOUNT.search(clause)
        before_amount = [n for n in nouns if first_amount and n.end() <= first_amount.start()]
        if len(before_amount) > 1:  # "Groceries cost more now, set the grocery budget to £110"
            noun = before_amount[-1]
        amounts = list(_AMOUNT.finditer(clause))
        if not amounts:
            continue
        what = stem(noun.group(1).split()[-1])
        # What it is for: "budget for the kitchen", "grocery budget", "Elin's allowance".
        objects = re.search(
            r"(?i)\b(?:for|of)\s+(?:the\s+|my\s+|our\s+|an?\s+)?([a-z][\w'’]*)", clause[noun.end() :]
        )
        modifier = re.search(r"(?i)([a-z][\w'’]*)\s+$", clause[: noun.start()])
        thing = _without_possessive(objects.group(1) if objects else modifier.group(1) if modifier else "")
        if thing.lower() in ("his", "her", "their"):  # "Finn turned twelve, so his pocket money": Finn's
            named = _NAMED_BEFORE.findall(clause[: noun.start()])
            thing = named[-1] if named else thing
        thing = "" if thing.lower() in _NOT_A_THING else stem(thing)
        slot = f"amount:{what} {thing}".rstrip()
        s_start = start + sentence.start()
        # "went up from £1,100 to £1,150": the amount after "from" is the old one
        old = [amount for amount in amounts if _FROM.search(clause, 0, amount.start())]
        new = [
            amount
            for amount in amounts
            if amount not in old and not said_as_difference(clause, (amount.start(), amount.end()))
        ][:1]
        for amount in old + new:
            past = True if amount in old else None
            found.append(_claim(text, slot, s_start + amount.start(), s_start + amount.end(), past))
    return found


def _unique(claims: list[Claim]) -> list[Claim]:
    """One claim per value: a named slot over "", the longer value, the first rule over later ones."""
    kept: list[Claim] = []
    for claim in sorted(claims, key=lambda c: (c.span[0], not c.slot, c.span[0] - c.span[1])):
        overlapping = [k for k in kept if k.span[0] < claim.span[1] and claim.span[0] < k.span[1]]
        if any(k.slot == claim.slot or k.slot for k in overlapping):
            continue
        kept = [k for k in kept if k not in overlapping]  # an unnamed one gives way
        kept.append(claim)
    return sorted(kept, key=lambda c: c.span)
