"""Full-text recall: candidates from the store's full-text index (``store.fulltext``: stemmed
words, and scripts without spaces), ranked on one scale (``recall_rank``), with a LIKE match
as the fallback.

Queries are built from the words of any user text (see ``core.search_text``), so no input
can raise a syntax error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from memdesk.core.items import ItemKind
from memdesk.core.privacy import ReadScope, Target, TargetKind
from memdesk.core.query_dates import find_date
from memdesk.core.search_text import no_space_runs, query_words
from memdesk.core.slots import asked_slots, asking_words, claims_in, stem
from memdesk.core.timefmt import naive_utc
from memdesk.core.values import ADDRESS, EMAIL, MEASURED, PHONE, STREET_WORDS, values_in
from memdesk.errors import BadInputError
from memdesk.meaning import MEANING_PIECES, encoder_or_none
from memdesk.services.context import Context
from memdesk.services.entries import check_category
from memdesk.services.privacy import private_names
from memdesk.services.recall_rank import Answer, Candidate, Ranking, Terms
from memdesk.store.fulltext import FullText, Row
from memdesk.store.models import Document, DocumentPiece

# What a recalled item's score means, wherever one is shown (here, the HTTP API's schema).
SCORE_MEANING = (
    "how well it matches the query: higher is better, and results come best first; comparable "
    "between entries and document paragraphs of one recall, not between recalls"
)


@dataclass(frozen=True)
class Hit:
    kind: str  # "knowledge", "timeline", "app", "document"
    ref: str  # entry key, app memory id, or namespace
    label: str  # what the prompt shows before the text
    text: str
    score: float  # SCORE_MEANING


Hit.__doc__ = f"One recalled item: its kind, its key (``ref``), its text and its score ({SCORE_MEANING})."


# Candidates taken from each index before ranking: enough for coverage and dates to reorder.
CANDIDATES = 30
# Best full-text matches looked at before the entry filters (live, category, dates) apply.
# Filtering every match costs one row read per match, most of the time at a million
# entries; the top fifty almost always hold the candidates. When the filters leave
# too few of them, every match is ranked (``FullText.ranked_entries``).
FTS_TOP = 50
# For a date named in the question: how deep in the ranking to look for what it covers.
WINDOW_TOP = 500
# How many of the best entries that ask something have the entry written right after them
# (their answer) ranked with them, and how far apart in time two entries may be written to
# count as one conversation.
ANCHORS = 15
SAME_CONVERSATION = timedelta(hours=1)
# Paragraphs of the user's documents read for a slot the question names, or a form of its
# words (facts and patterns).
SLOT_PIECES = 500
# How alike (cosine of the sentence vectors) the closest paragraph must be to be recalled when
# no word found one. Measured on the opened update splits' facts and profiles: asked against
# another person's lines, 1 question in 13 finds one this alike; asked against its own, the
# closest line this alike is the one it asks about 3 times in 5, another line 1 time in 25.
MEANING_ALONE = 0.35
# How alike a paragraph or a knowledge entry must be to fill a place of the prompt the words
# left free.
MEANING_NEAR = 0.3
# Knowledge entries' vectors a prompt computes at most (about 6 ms each) to fill free places;
# the others wait for a later prompt, or for the window or a server, which compute an entry's
# when it is written.
ENTRY_VECTORS = 100
# Letters of a word's stem that its forms share ("allergic", "allergy"); shorter words are
# too often the start of an unrelated one.
FORM_LETTERS = 6
# Entries with a street or place word read for an address's shape, for a question asking where
# the person lives: enough that words of other uses ("a long way", "the park") leave room.
ADDRESS_TOP = 200
# A question about a rate per period ("my hourly rate", "what do I pay monthly?") is answered
# by an amount given per that period, however it is written ("$105/hr", "£24.99 a month",
# "300 per week"): each period, the words that ask for it and the ways an amount gives it.
_PERIODS = {
    "hour": ("hourly", "hr|hrs|h|hour"),
    "day": ("daily", "day"),
    "week": ("weekly", "wk|week"),
    "month": ("monthly", "mo|mth|month"),
    "year": ("yearly|annual|annually", "yr|year|annum"),
}
_ASKED_PERIOD = {word: period for period, (asking, _) in _PERIODS.items() for word in asking.split("|")}
_PER_PERIOD = {
    period: re.compile(rf"(?i:\d\s?(?:k\b)?\s*(?:/\s?|\bper\s+|\ban?\s+)(?:{units})\b)")
    for period, (_, units) in _PERIODS.items()
}
# A question about how to reach the person ("What's my phone number now?", "my email?", "What's
# my address?", "Where do I live?") is answered by a paragraph holding a contact of that kind,
# whatever it is labelled ("Main line: 0708 558 2190", "Tenancy at 9 Marlowe Court"): the
# slots that ask for one, and the kind of value that fills each.
_CONTACT_SLOTS = {"phone_number": PHONE, "email": EMAIL, "address": ADDRESS, "home": ADDRESS}
# A question asking for the number someone is reached on asks for a phone number, whatever
# the line is labelled ("What number should dispatch call?" and "Mobile: 07700 900478"): the
# words that say how they are reached.
_REACHED_BY = frozenset(
    {"call", "ring", "reach", "text", "phone", "dial", "contact", "message", "whatsapp", "sms"}
)
# A question about the person's medicines ("What diabetes meds am I on?") is answered, the same
# way, by a paragraph giving a dose ("Metformin 1g bd + gliclazide 40mg mornings"): the words
# that ask for one, and the kind of value a dose is.
_DOSE = f"{MEASURED}dose"
_ASKING_DOSE = frozenset(
    {"med", "meds", "medication", "medications", "medicine", "medicines", "tablet", "tablets"}
    | {"pill", "pills", "dose", "doses", "dosage"}
)
# A question about the person's work ("Where do I work?", "What's my job title?") is answered by
# a paragraph giving a post at an organisation, whatever it is labelled ("Current post: NP at
# Thornhill Medical Group", "Senior Manager, audit, at Hollis Graham LLP"): a few words, then
# "at" and a name. One word ending in -s is a verb ("Lives at Mill House", "Trains at PureGym").
_WORK_SLOTS = frozenset({"employer", "role"})
_POST_AT = re.compile(
    r"(?:[A-Za-z][A-Za-z -]{0,24}:\s*)?(?!\w+(?<!s)s\s+at\b)[A-Za-z][\w&'’.-]*(?:,?\s+[\w&'’.-]+){0,4}?,?"
    r"\s+at\s+(?:the\s+)?[A-Z]"
)
# Which of the patterns and facts documents are not in Trash; straight from the driver, as
# SQLAlchemy's own work would take ten times as long as the query.
_LIVE_DOCUMENTS = (
    "SELECT namespace FROM documents WHERE deleted_at IS NULL AND namespace IN (:patterns, :facts)"
)


class Recall:
    """Ranked full-text search of live entries, as the prompt's Memory Context uses it."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def _entry_params(
        self, now: datetime, category: str | None, since: datetime | None, until: datetime | None
    ) -> dict[str, object]:
        retention = self.ctx.settings.memory.timeline_retention_days
        return {
            "now": now,
            "cutoff": now - timedelta(days=retention),
            "category": category,
            "since": since,
            "until": until,
        }

    @staticmethod
    def terms(query: str, now: datetime) -> Terms:
        dated = find_date(query, now)
        return Terms(query_words(dated.text), no_space_runs(dated.text), dated.window)

    def entries(
        self,
        query: str,
        limit: int = 5,
        category: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        now: datetime | None = None,
        like: bool = True,
        budget: int | None = None,
    ) -> list[Hit]:
        """Live entries matching ``query``, best first.

        ``since``, ``until`` and ``now``: an aware time is converted to UTC, a naive one means UTC.
        ``like=False`` leaves out the LIKE fallback (a scan of every entry) when the full-text
        index finds nothing, and ``budget`` ranks at most that many of the index's matches
        (``fewest_matches``), for callers on a time budget.
        """
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
            raise BadInputError(f"limit must be a whole number from 1 to 1000, not {limit!r}")
        if category is not None:
            check_category(category)
        since, until = naive_utc(since), naive_utc(until)
        now = naive_utc(now) or self.ctx.now()
        terms = self.terms(query, now)
        params = self._entry_params(now, category, since, until)
        with self.ctx.store.read(consistent=False) as session:
            if budget is not None:
                fulltext = self.ctx.store.fulltext
                terms = replace(
                    terms, words=fewest_matches(fulltext, session, ItemKind.ENTRY, terms.words, budget)
                )
            private = private_names(session, TargetKind.ENTRY)
            depth = max(limit, CANDIDATES)
            hits = self._entry_hits(session, terms, params, depth, like)
            visible = [hit for hit in hits if hit.ref not in private]
            # Private entries are never recalled: when they took places the limit needs, look
            # deeper by as many as could be dropped (only then: most queries meet none).
            if len(visible) < limit and len(visible) < len(hits):
                hits = self._entry_hits(session, terms, params, depth + len(private), like)
                visible = [hit for hit in hits if hit.ref not in private]
        return visible[:limit]

    def _entry_hits(
        self, session: Session, terms: Terms, params: dict[str, object], depth: int, like: bool
    ) -> list[Hit]:
        lists, answers = self._entry_lists(session, terms, params, depth, like)
        ranked = self._ranked(session, lists, terms, params, answers)
        return [_hit(candidate, score) for candidate, score in ranked]

    def _ranked(
        self,
        session: Session,
        lists: list[list[Candidate]],
        terms: Terms,
        params: dict[str, object],
        answers: dict[str, Row | None],
        by_meaning: list[Candidate] | None = None,
        likeness: dict[str, float] | None = None,
    ) -> list[tuple[Candidate, float]]:
        """``lists`` on one scale; the entries answering the best ones that ask something
        ranked with them (``answers``: those already read, by the key of the entry asking).
        ``by_meaning`` and ``likeness``: see ``recall_rank.Ranking``."""
        ranking = Ranking(lists, terms, by_meaning, likeness)
        ranked = ranking.ranked()
        asking = {
            candidate.ref: candidate
            for candidate, _score in ranked[:ANCHORS]
            if candidate.kind != "document" and candidate.asks
        }
        if not asking:
            return ranked
        rows = [row for key in asking if (row := answers.get(key)) is not None]
        unread = [key for key in asking if key not in answers]
        if unread:
            rows += self.ctx.store.fulltext.entries_written_after(session, unread, params)
        return ranking.with_answers(_answers(rows, asking))

    def _entry_lists(
        self, session: Session, terms: Terms, params: dict[str, object], limit: int, like: bool = True
    ) -> tuple[list[list[Candidate]], dict[str, Row | None]]:
        """Candidate lists, and the answers to the best of them read on the way."""
        fulltext = self.ctx.store.fulltext
        lists: list[list[Candidate]] = []
        answers: dict[str, Row | None] = {}
        if terms.words:
            top = max(FTS_TOP, limit)
            # What a date named in the question covers may rank below the best of all time:
            # then one deeper pass serves both lists.
            explicit = params["since"] is not None or params["until"] is not None
            window = None if explicit else terms.window
            depth = top if window is None else max(top, WINDOW_TOP)
            ranked, passed, answers = fulltext.best_entries(session, terms.words, depth, top, params)
            found = _best(passed, limit)
            if len(found) < limit and len(ranked) >= top:
                found = _entry_candidates(fulltext.ranked_entries(session, terms.words, params, limit))
            lists.append(found)
            if window is not None:
                within = {**params, "since": window.start, "until": window.end}
                lists.append(_best(fulltext.entries_by_id(session, ranked, within), limit))
        if terms.runs:
            lists.append(_entry_candidates(fulltext.entries_with_runs(session, terms.runs, params, limit)))
        if like and not any(lists) and (terms.words or terms.runs):
            words = terms.words + terms.runs
            lists = [_entry_candidates(fulltext.entries_like(session, words, params, limit))]
        return lists, answers

    def for_prompt(
        self,
        message: str,
        namespace: str,
        limit: int,
        now: datetime,
        scope: ReadScope,
        session: Session | None = None,
    ) -> tuple[list[Hit], list[str]]:
        """Knowledge entries and paragraphs of ``{ns}/patterns`` and ``{ns}/facts``, best first,
        less what ``scope`` hides; and the private items left out (``entry:KEY`` of those that
        would have been among them, ``doc:NAMESPACE`` of the documents not searched). Read in
        ``session`` when given (a prompt reads in one snapshot).

        A paragraph that fills a slot the message asks about (``core.slots``: "What car do I
        have?" and "Has a Tesla Model 3"), or that holds one of its words in another form
        ("allergic" and "Allergy: …") or a word of the date it names ("starting in September"
        and "Going to Nottingham in September": a document's paragraph has no date of its own
        to match), or gives an amount per the period it names ("hourly rate" and "Charges
        $105/hr"), is a candidate even when no word matches as the index stems it; so is an
        entry giving an address, for a question asking where the person lives."""
        terms = self.terms(message, now)
        if not terms.words and not terms.runs:
            return [], []
        documents = recalled_documents(namespace)
        namespaces = [ns for ns in documents if not scope.hides_doc(ns)]
        skipped = [str(Target(TargetKind.DOC, ns)) for ns in documents if ns not in namespaces]
        params = self._entry_params(now, "knowledge", None, None)
        depth = max(limit, CANDIDATES) + len(scope.private_entries)
        slots = asked_slots(message)
        contacts = frozenset(_CONTACT_SLOTS[slot] for slot in slots if slot in _CONTACT_SLOTS)
        if "number" in terms.words and _REACHED_BY & set(terms.words):
            contacts |= {PHONE}
        kinds = contacts | {_DOSE} if _ASKING_DOSE & set(terms.words) else contacts
        with self.ctx.store.read(consistent=False, within=session) as session:
            lists, answers = self._entry_lists(session, terms, params, depth)
            if ADDRESS in contacts:
                lists.append(self._address_entries(session, params, depth))
            pieces: list[Candidate] = []
            if self._any_live(session, documents, namespaces):
                deep = max(limit, CANDIDATES)
                lists += self._pieces(session, terms, namespaces, deep)
                asked = _Asked(slots, _forms(message), _periods(message), kinds, asking_words(slots))
                lists += _filling(session, asked, namespaces, deep)
                pieces = self._every_piece(session, namespaces)
            likeness = self._likeness(message, pieces)
            by_meaning = _alike_unfound(pieces, lists, likeness)
            ranked = self._ranked(session, lists, terms, params, answers, by_meaning, likeness)
            free = limit - len(_shown(ranked, scope, limit))
            if free and self._reads_meaning():
                near, alike = self._nearest_unfound(
                    session, message, params, scope, pieces, ranked, likeness, free
                )
                likeness |= alike
                ranked = self._ranked(session, lists, terms, params, answers, by_meaning + near, likeness)
        hits = [_hit(candidate, score) for candidate, score in ranked]
        shown = _shown(ranked, scope, limit)
        left_out = [str(Target(TargetKind.ENTRY, h.ref)) for h in hits[:limit] if _hidden(h, scope)]
        return [_hit(candidate, score) for candidate, score in shown], left_out + skipped

    def _address_entries(self, session: Session, params: dict[str, object], limit: int) -> list[Candidate]:
        """Entries giving a postal address ("Tenancy at 9 Marlowe Court"), for a question asking
        where the person lives: the index finds those with a street or place word, and the
        address's shape keeps those that give one."""
        rows = self.ctx.store.fulltext.ranked_entries(session, list(STREET_WORDS), params, ADDRESS_TOP)
        return _entry_candidates([row for row in rows if _gives_value(row[1], frozenset({ADDRESS}))][:limit])

    def _nearest_unfound(
        self,
        session: Session,
        message: str,
        params: dict[str, object],
        scope: ReadScope,
        pieces: list[Candidate],
        ranked: list[tuple[Candidate, float]],
        likeness: dict[str, float],
        places: int,
    ) -> tuple[list[Candidate], dict[str, float]]:
        """For the ``places`` the words left free: the paragraphs and latest knowledge entries
        not ranked yet that are nearest the question in meaning, and their likeness by text.
        Only the entries that fill a place are given one: the ones the words found keep the
        order the words gave them."""
        rows = self.ctx.store.fulltext.newest_entries(session, params, MEANING_PIECES)
        entries = [entry for entry in _entry_candidates(rows) if not scope.hides_entry(entry.ref)]
        taken = {candidate.ident for candidate, _score in ranked}
        unfound = [candidate for candidate in pieces + entries if candidate.ident not in taken]
        unfound_entries = [candidate for candidate in unfound if candidate.kind != "document"]
        alike = likeness | self._likeness(message, unfound_entries, ENTRY_VECTORS)
        near = _nearest(unfound, alike, places)
        return near, {candidate.text: alike[candidate.text] for candidate in near}

    def _reads_meaning(self) -> bool:
        """Whether recall by meaning is on and its encoder installed."""
        return self.ctx.settings.memory.recall_by_meaning and encoder_or_none() is not None

    def _every_piece(self, session: Session, namespaces: list[str]) -> list[Candidate]:
        """The paragraphs of ``namespaces`` (the first ``MEANING_PIECES``), for recall by
        meaning; none when it is off or the encoder is not installed."""
        if not self._reads_meaning():
            return []
        return _piece_candidates(
            [(namespace, text, 0.0) for namespace, text in paragraphs_by_meaning(session, namespaces)]
        )

    def _likeness(
        self, message: str, pieces: list[Candidate], new_at_most: int | None = None
    ) -> dict[str, float]:
        if not pieces:  # recall by meaning is off: numpy is not loaded for nothing
            return {}
        from memdesk.meaning.likeness import likeness

        texts = [piece.text for piece in pieces]
        return likeness(message, texts, self.ctx.meaning_cache, new_at_most=new_at_most)

    def _any_live(self, session: Session, documents: list[str], namespaces: list[str]) -> bool:
        """Whether any of ``namespaces`` (some of ``documents``) is a document not in Trash: when
        none is, their paragraphs are not searched (every search would find nothing)."""
        if not namespaces:
            return False
        patterns, facts = documents
        rows = self.ctx.store.raw_rows(session, _LIVE_DOCUMENTS, {"patterns": patterns, "facts": facts})
        return any(found in namespaces for (found,) in rows)

    def _pieces(
        self, session: Session, terms: Terms, namespaces: list[str], limit: int
    ) -> list[list[Candidate]]:
        fulltext = self.ctx.store.fulltext
        lists: list[list[Candidate]] = []
        if terms.words:
            lists.append(_piece_candidates(fulltext.ranked_pieces(session, terms.words, namespaces, limit)))
        if terms.runs:
            lists.append(_piece_candidates(fulltext.pieces_with_runs(session, terms.runs, namespaces, limit)))
        if not any(lists) and terms.words:
            lists = [_piece_candidates(fulltext.pieces_like(session, terms.words, namespaces, limit))]
        return lists


def fewest_matches(
    fulltext: FullText, session: Session, kind: ItemKind, words: list[str], budget: int
) -> list[str]:
    """``words`` (in their order), less the most common when the index finds more than
    ``budget`` items of ``kind`` for them together: those it finds fewest items for first,
    while their items add up to at most ``budget``. Ranking scores every item found (the
    350,000 of a million entries holding one of two common words took half a second), and a
    word that thousands of items hold ties none of them to what was said."""
    cap = budget + 1  # counting stops there: a common word costs no more than the budget
    if fulltext.matches(session, kind, words, cap) <= budget:
        return words
    found = {word: fulltext.matches(session, kind, [word], cap) for word in words}
    kept: set[str] = set()
    total = 0
    for word in sorted(found, key=found.__getitem__):
        total += found[word]
        if total > budget:
            break
        kept.add(word)
    return [word for word in words if word in kept]


def _forms(message: str) -> set[str]:
    """The question's meaningful words in a form their other forms share (``_form``), the
    words of a date it names included."""
    return {_form(word) for word in query_words(message) if len(word) >= FORM_LETTERS}


def _periods(message: str) -> frozenset[str]:
    """The periods the question asks a rate for ("What's my hourly rate?": the hour)."""
    return frozenset(_ASKED_PERIOD[word] for word in query_words(message) if word in _ASKED_PERIOD)


@dataclass(frozen=True)
class _Asked:
    """What a question asks of the person's documents: slots, word forms, rates' periods, the
    kinds of value it asks for (a contact, a dose), and the words that ask for its slots
    ("live" for a home)."""

    slots: set[str]
    forms: set[str]
    periods: frozenset[str]
    kinds: frozenset[str]
    asking: frozenset[str]


def _form(word: str) -> str:
    """A word's stem cut to its first letters: "allergic" and "allergy" are one form."""
    return stem(word)[:FORM_LETTERS]


def _filling(session: Session, asked: _Asked, namespaces: list[str], limit: int) -> list[list[Candidate]]:
    """The paragraphs of the documents that fill a slot the question asks about, whatever
    their words ("What car do I have?" finds "Has a Tesla Model 3"), as one list; and the
    first ``limit`` that hold one of its word forms, give an amount per the period it asks
    about, a value of a kind it asks for (a contact, a dose), a word that asks for one of its
    slots ("What's my home address?" finds "Lives at Mill House, Aldbrook") or a post at an
    organisation for a question about work (``_POST_AT``), as another."""
    if not asked.slots and not asked.forms and not asked.periods and not asked.kinds:
        return []
    query = (
        select(Document.namespace, DocumentPiece.text)
        .join(Document, Document.id == DocumentPiece.document_id)
        .where(Document.namespace.in_(namespaces), Document.deleted_at.is_(None))
        .limit(SLOT_PIECES)
    )
    filling: list[Candidate] = []
    sharing: list[Candidate] = []
    for namespace, text in session.execute(query):
        candidate = Candidate("document", namespace, namespace, text, 1.0)
        if asked.slots and any(claim.slot in asked.slots and not claim.past for claim in claims_in(text)):
            filling.append(candidate)
        elif len(sharing) < limit and (
            _holds_form(text, asked.forms)
            or _gives_rate(text, asked.periods)
            or _gives_value(text, asked.kinds)
            or _says_asking_word(text, asked.asking)
            or _gives_post(text, asked.slots)
        ):
            sharing.append(candidate)
    return [filling, sharing]


def _gives_rate(text: str, periods: frozenset[str]) -> bool:
    """Whether ``text`` gives an amount per one of ``periods`` ("$105/hr", "£300 a month")."""
    return any(_PER_PERIOD[period].search(text) for period in periods)


def _gives_value(text: str, kinds: frozenset[str]) -> bool:
    """Whether ``text`` holds a value of one of ``kinds`` (a phone number, an e-mail, an
    address, a dose)."""
    return bool(kinds) and any(value.kind in kinds for value in values_in(text))


def _gives_post(text: str, slots: set[str]) -> bool:
    """Whether ``text`` gives a post at an organisation (``_POST_AT``), for a question about work."""
    return bool(slots & _WORK_SLOTS) and _POST_AT.match(text) is not None


def _says_asking_word(text: str, words: frozenset[str]) -> bool:
    """Whether ``text`` holds one of ``words`` in any of its forms ("lives" for "live")."""
    lower = text.lower()
    if not any(word in lower for word in words):  # cheap, and most paragraphs stop here
        return False
    return any(word in words or stem(word) in words for word in query_words(text))


def _holds_form(text: str, forms: set[str]) -> bool:
    """Whether ``text`` holds a word of one of ``forms``."""
    lower = text.lower()
    if not any(form in lower for form in forms):  # cheap, and most paragraphs stop here
        return False
    return bool(forms & {_form(word) for word in query_words(text) if len(word) >= FORM_LETTERS})


def recalled_documents(namespace: str) -> list[str]:
    """The documents whose paragraphs the prompt's recall ranks (none in per-session mode)."""
    return [f"{namespace}/patterns", f"{namespace}/facts"] if namespace else []


def paragraphs_by_meaning(session: Session, namespaces: list[str]) -> list[tuple[str, str]]:
    """The paragraphs of ``namespaces`` recall reads by meaning, as (namespace, text): live
    documents only, in order, the first ``MEANING_PIECES``."""
    rows = session.execute(
        select(Document.namespace, DocumentPiece.text)
        .join(DocumentPiece, DocumentPiece.document_id == Document.id)
        .where(Document.deleted_at.is_(None), Document.namespace.in_(namespaces))
        .order_by(Document.namespace, DocumentPiece.position)
        .limit(MEANING_PIECES)
    )
    return [(namespace, text) for namespace, text in rows]


def _alike_unfound(
    pieces: list[Candidate], lists: list[list[Candidate]], likeness: dict[str, float]
) -> list[Candidate]:
    """The paragraphs no word found that are alike the question enough to be recalled on
    meaning alone: at least ``MEANING_ALONE``, and more alike than every paragraph the words
    found (a line that reads further from the question than a match does is not its answer)."""
    found = {
        candidate.text for candidates in lists for candidate in candidates if candidate.kind == "document"
    }
    floor = max([MEANING_ALONE, *(likeness.get(text, 0.0) for text in found)])
    return [piece for piece in pieces if piece.text not in found and likeness.get(piece.text, 0.0) >= floor]


def _nearest(candidates: list[Candidate], likeness: dict[str, float], places: int) -> list[Candidate]:
    """The ``places`` candidates most alike the question, each at least ``MEANING_NEAR``: what
    recall by meaning offers for the places the words left free."""
    near = [candidate for candidate in candidates if likeness.get(candidate.text, 0.0) >= MEANING_NEAR]
    return sorted(near, key=lambda candidate: likeness[candidate.text], reverse=True)[:places]


def _hidden(hit: Hit | Candidate, scope: ReadScope) -> bool:
    return hit.kind != "document" and scope.hides_entry(hit.ref)


def _shown(
    ranked: list[tuple[Candidate, float]], scope: ReadScope, limit: int
) -> list[tuple[Candidate, float]]:
    """The first ``limit`` of ``ranked`` that ``scope`` lets the prompt show."""
    return [(candidate, score) for candidate, score in ranked if not _hidden(candidate, scope)][:limit]


def _best(rows: list, limit: int) -> list[Candidate]:
    """The ``limit`` most relevant entry rows."""
    return _entry_candidates(sorted(rows, key=lambda row: row[4], reverse=True)[:limit])


def _entry_candidates(rows: list) -> list[Candidate]:
    return [_entry_candidate(*row) for row in rows]


def _entry_candidate(key: str, content: str, category: str, created_at: datetime, score: float) -> Candidate:
    return Candidate(category, key, key, content, float(score), created_at)


def _answers(rows: list, asking: dict[str, Candidate]) -> list[Answer]:
    """Rows written right after an entry that asks, when written close enough in time."""
    answers = []
    for key, content, category, created_at, asked_key in rows:
        question = asking[asked_key]
        if question.created_at is not None and abs(created_at - question.created_at) <= SAME_CONVERSATION:
            answers.append(Answer(question, _entry_candidate(key, content, category, created_at, 0.0)))
    return answers


def _piece_candidates(rows: list) -> list[Candidate]:
    return [Candidate("document", row[0], row[0], row[1], float(row[2])) for row in rows]


def _hit(candidate: Candidate, score: float) -> Hit:
    return Hit(candidate.kind, candidate.ref, candidate.label, candidate.text, score)
