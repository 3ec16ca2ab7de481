"""The changes step: the stored facts a conversation may touch, and what it changes in them.

With a model (``model_candidates``) the candidates are every line of ``{ns}/profile``,
``{ns}/patterns`` and the facts document, the live knowledge entries the store's recall
finds for the person's words (all of them while they are few), the live memories of the
session's app and of the other apps whose memories the full-text index finds for those words
(all of every app while they are few), and any the offline rules name:
no pattern decides whether the model is asked. Offline (``known_facts``) they are the lines
of those documents, the live knowledge entries recall finds for the values the person named
(and those whose key names a slot they filled: ``address``, ``dentist``), and the live
memories of the session's app, kept only when they share a slot or a word with a statement
of change; offline, the learned reader (``learned_suggestions``) reads the lines a model would
compare, for what the rules did not change. The steps turn them into ``Edit`` values, made here
into reviewable changes: updates and retirements of lines, entries and memories, and
statements to add to the facts. An edit the rules are not sure of, or whose evidence failed
its check, is a change that is not accepted, with why.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import select

from memdesk.core.items import ItemKind
from memdesk.core.privacy import TargetKind
from memdesk.core.search_text import query_words
from memdesk.core.slots import LABELS, claims_in, later_claims, normalise, says_change, slots_named_in, stem
from memdesk.core.values import EMAIL, PHONE, URL, values_in
from memdesk.llm.aligned import value_kinds, valued_turns
from memdesk.llm.changes import Edit, Known, Said
from memdesk.llm.ended import ended_words, ending_turns
from memdesk.llm.stale_reader import Suggested, reader, suggestions
from memdesk.services.compaction.model import CONFLICT_NOTE, Change, ChangeKind
from memdesk.services.privacy import private_names
from memdesk.services.recall import fewest_matches
from memdesk.store.lifetime import entry_live, memory_live
from memdesk.store.models import AppMemory, Document, Entry

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

CANDIDATE_ENTRIES = 8  # from recall, for the statements of change together
MAX_KNOWN = 40  # candidates the offline rules compare; the most relevant first
MAX_MODEL_LINES = 400  # profile, patterns and facts lines a model compares
QUERY_WORDS = 16  # of the person's, to recall the entries a model compares
# Index matches each recall of the step ranks at most (``recall.fewest_matches``): ranking
# costs about 1.5 µs a match at a million entries, and a word thousands hold says little.
MATCH_BUDGET = 5_000
_MIN_WORD = 3
_WORD = re.compile(r"[a-z]{4,}")  # a word that may name what an entry is filed under
_TERM = re.compile(rf"\w{{{_MIN_WORD},}}")  # a word that ties a stored line to what was said
_CONTACTS = (PHONE, EMAIL, URL)  # values that name one thing, kept wherever it is written
_LABEL = re.compile(r"[ \t]*(?:[-*•][ \t]+)?([A-Za-z][A-Za-z -]{0,24}?)[ \t]*:")


@dataclass(frozen=True)
class Found:
    """What the step found: changes to stored facts, statements to add, and notes."""

    changes: list[Change]
    additions: list[str]
    notes: list[str]


def known_facts(app: Memdesk, said: Sequence[Said], facts_namespace: str, app_id: str | None) -> list[Known]:
    """The stored facts the person's statements of change may touch, numbered from 1."""
    # Statements of change, of a change from a later date ("will be £1,200 from next April"),
    # the messages around a value of a kind a stored fact may hold ("new ones 07700 900873"),
    # and those that end something by name ("cancelled netflix").
    valued = valued_turns(said) | ending_turns(said)
    changing = [
        (s, claims)
        for s in said
        if (claims := (claims_in(s.text) if says_change(s.text) else []) or later_claims(s.text))
        or s.turn in valued
    ]
    if not changing:
        return []
    found: list[tuple[str, str, str]] = []
    namespace = app.settings.memory.user_namespace
    parts = [(f"{namespace}/{part}", part) for part in ("profile", "patterns")] if namespace else []
    # Entries filed under a slot a statement fills, or one its turn names ("change GP practice").
    turns = {s.turn for s, _claims in changing}
    named = {slot for s in said if s.turn in turns for slot in slots_named_in(s.text)}
    # and entries filed under a thing the turn names ("I've changed accountants": "accountant")
    words = {w for s in said if s.turn in turns for w in _WORD.findall(s.text.lower())}
    nouns = ({stem(w) for w in words} | words) - _COMMON
    keys = _slot_keys({c.slot for _s, claims in changing for c in claims if c.slot} | named | nouns)
    namespaces = [doc for doc, _where in [*parts, (facts_namespace, "")]]
    texts, memories, keyed = _stored(app, namespaces, app_id, keys)
    for doc, where in [*parts, (facts_namespace, "facts")]:
        found += [(where, doc, line) for line in texts.get(doc, "").splitlines() if _is_fact(line)]
    # Recall over the names the statements give, old and new ("Okafor", "ThinkPad X1"): the
    # words that tie a stored entry to a change. Common words ("senior designer", "tea")
    # would make the query slow at 1M and find too much; entries filed under a slot's name
    # are read by key instead.
    values = (s.text[c.span[0] : c.span[1]] for s, claims in changing for c in claims)
    names = [value for value in values if value[:1].isupper() or value[:1].isdigit()]
    names += ended_words(said)  # "cancelled netflix": the entry about Netflix
    # Whose schedule or amount it is, when a name says so ("amount:money finn" from "Finn turned
    # twelve, so his pocket money…"): an entry about it may be filed under any key. Common words
    # of a slot ("budget grocery") would make the query slow.
    owners = {
        word
        for s, claims in changing
        for c in claims
        if ":" in c.slot
        for word in c.slot.partition(":")[2].split()
        if re.search(rf"\b{re.escape(word.capitalize())}\b", s.text)
    }
    query = " ".join([*names, *sorted(owners)])
    hits = (
        app.recall.entries(query, CANDIDATE_ENTRIES, "knowledge", like=False, budget=MATCH_BUDGET)
        if query
        else []
    )
    found += [("entry", hit.ref, hit.text) for hit in hits]
    found += [("entry", key, content) for key, content in keyed if key not in {hit.ref for hit in hits}]
    found += [("app", str(memory_id), content) for memory_id, content in memories]
    words, slots = _said_words([s for s, _claims in changing])
    slots |= named | {f"label:{noun}" for noun in nouns}
    # a fact holding a value of a kind the person said ("07911 555 222" and "Mobile: 07700 …")
    kinds = value_kinds(s.text for s, _claims in changing)
    relevant = [
        item for item in found if _relevance(item[2], words, slots) > 0 or kinds & value_kinds([item[2]])
    ]
    relevant.sort(key=lambda item: -_relevance(item[2], words, slots))
    kept = relevant[:MAX_KNOWN]
    ordered = [item for item in found if item in kept]  # in the order they are stored
    return [Known(number, where, ref, text) for number, (where, ref, text) in enumerate(ordered, 1)]


def model_candidates(
    app: Memdesk,
    said: Sequence[Said],
    facts_namespace: str,
    app_id: str | None,
    recalled: int,
    named: Sequence[Known] | None = None,
) -> list[Known]:
    """The stored facts a model compares with the conversation, numbered from 1: every line
    of ``{ns}/profile``, ``{ns}/patterns`` and the facts document (the ``MAX_MODEL_LINES``
    sharing most words with what the person said, when there are more), the ``recalled``
    live knowledge entries recall finds for the person's words, the live memories of the
    session's app and of every other app whose memories the full-text index finds for those
    words (of each app the ``recalled`` closest to them, when it has more), every live memory
    of any app while there are at most ``recalled``, and any the offline rules name (``named``,
    when they are read already: ``known_facts``). No pattern decides whether the model is
    asked."""
    if named is None:
        named = known_facts(app, said, facts_namespace, app_id)
    namespace = app.settings.memory.user_namespace
    documents = [f"{namespace}/{part}" for part in ("profile", "patterns")] if namespace else []
    texts, memories, _keyed = _stored(app, [*documents, facts_namespace], app_id, [])
    words = {word for s in said for word in _TERM.findall(s.text.lower())} - _COMMON
    lines = [
        (where, doc, line)
        for doc, where in [*((d, d.rpartition("/")[2]) for d in documents), (facts_namespace, "facts")]
        for line in texts.get(doc, "").splitlines()
        if _is_fact(line)
    ]
    # The longest words name things best; a long query of every word is slow at 1M entries.
    query = " ".join(sorted(sorted(words), key=len, reverse=True)[:QUERY_WORDS])
    # A contact the person replaces may be kept elsewhere too (the old mobile number on the
    # invoice footer an invoicing app keeps), in words the person did not say: the stored
    # lines' contacts of a kind the person gave are looked up as well.
    contacts = _contacts_held(lines, said)
    held = {word for contact in contacts for word in _TERM.findall(contact.lower())}
    hits = []
    other_apps: list[str] = []
    for looked_up in (query, " ".join(contacts)):
        if looked_up:
            hits += app.recall.entries(looked_up, recalled, "knowledge", like=False, budget=MATCH_BUDGET)
        # A fact the conversation changes may also be kept by another app ("collect the
        # prescription from Lloyds" in a reminders app, while the person talks in a chat app).
        other_apps += [
            other for other in _apps_recalled(app, looked_up, app_id, recalled) if other not in other_apps
        ]
    # While every live knowledge entry fits the candidates, the model compares them all, as it
    # does the documents' lines: recall ranks them only when there are more (the person's words
    # may share none with the entry they change: "pasword is now …" and "…, password …").
    entries = [("entry", hit.ref, hit.text) for hit in hits] + _every_entry(app, recalled)
    found = [
        *_closest(lines, words, MAX_MODEL_LINES),
        *dict.fromkeys(entries),
        *_closest([("app", str(memory_id), text) for memory_id, text in memories], words | held, recalled),
    ]
    for of_app in _live_memories(app, other_apps):
        found += _closest(
            [("app", str(memory_id), text) for memory_id, text in of_app], words | held, recalled
        )
    # As with entries: while every live memory fits, the model compares them all, whichever
    # app keeps them ("ya kill those" of the gym reminders a reminders app keeps).
    found += [item for item in _every_memory(app, recalled) if item not in found]
    found += [item for item in ((k.where, k.ref, k.text) for k in named) if item not in found]
    return [Known(number, where, ref, text) for number, (where, ref, text) in enumerate(found, 1)]


def learned_suggestions(
    app: Memdesk,
    said: Sequence[Said],
    facts_namespace: str,
    app_id: str | None,
    known: Sequence[Known],
    edits: Sequence[Edit],
) -> Suggested:
    """Offline, what the learned reader (``llm.stale_reader``) suggests besides the rules'
    ``edits`` of ``known`` (``known_facts``): among the lines a model would compare, those it
    reads as no longer holding, numbered after ``known``."""
    if reader() is None or not said:
        return Suggested([], [], [])
    recalled = app.settings.compaction.change_candidates
    candidates = model_candidates(app, said, facts_namespace, app_id, recalled, known)
    by_number = {fact.number: fact.text for fact in known}
    rules = [(by_number[edit.target], edit.evidence) for edit in edits if edit.target in by_number]
    longest = app.settings.memory.app_memory_max_chars
    return suggestions(said, candidates, rules, len(known) + 1, longest)


def _every_entry(app: Memdesk, limit: int) -> list[tuple[str, str, str]]:
    """Every live knowledge entry that is not private ("entry", key, text), oldest first, when
    there are at most ``limit``; else none."""
    live = entry_live(app.now(), app.settings.memory.timeline_retention_days)
    query = (
        select(Entry.key, Entry.content)
        .where(Entry.category == "knowledge", live)
        .order_by(Entry.created_at, Entry.id)
        .limit(limit + 1)
    )
    with app.ctx.store.read() as session:
        rows = list(session.execute(query))
        if len(rows) > limit:
            return []
        private = private_names(session, TargetKind.ENTRY) if rows else set()
    return [("entry", key, content) for key, content in rows if key not in private]


def _every_memory(app: Memdesk, limit: int) -> list[tuple[str, str, str]]:
    """Every live memory of an app that is not private ("app", id, text), in the order they
    were added, when there are at most ``limit``; else none."""
    # By id: SQLite stops at the limit's row, where an order by time would sort every memory.
    query = (
        select(AppMemory.id, AppMemory.app_id, AppMemory.content)
        .where(memory_live(app.now()))
        .order_by(AppMemory.id)
        .limit(limit + 1)
    )
    with app.ctx.store.read() as session:
        rows = list(session.execute(query))
        if len(rows) > limit:
            return []
        private = private_names(session, TargetKind.APP) if rows else set()
    return [("app", str(memory_id), content) for memory_id, app_id, content in rows if app_id not in private]


def _contacts_held(lines: list[tuple[str, str, str]], said: Sequence[Said]) -> list[str]:
    """The phone numbers, e-mail and web addresses the stored ``lines`` hold, of the kinds the
    person gave one of, the first ``QUERY_WORDS``."""
    kinds = {value.kind for s in said for value in values_in(s.text) if value.kind in _CONTACTS}
    if not kinds:
        return []
    held = [
        text[v.span[0] : v.span[1]]
        for _where, _ref, text in lines
        for v in values_in(text)
        if v.kind in kinds
    ]
    return list(dict.fromkeys(held))[:QUERY_WORDS]


def _apps_recalled(app: Memdesk, query: str, app_id: str | None, limit: int) -> list[str]:
    """The apps other than ``app_id``, not private, holding the ``limit`` memories the full-text
    index ranks best for ``query``, best first."""
    words = query_words(query)
    if not words:
        return []
    fulltext = app.ctx.store.fulltext
    with app.ctx.store.read() as session:
        words = fewest_matches(fulltext, session, ItemKind.APP_MEMORY, words, MATCH_BUDGET)
        rows = fulltext.search(session, ItemKind.APP_MEMORY, words, limit)
        private = private_names(session, TargetKind.APP)
    found = dict.fromkeys(str(row[2]) for row in rows)
    return [other for other in found if other != app_id and other not in private]


def _live_memories(app: Memdesk, app_ids: list[str]) -> list[list[tuple[int, str]]]:
    """The live memories (id, text) of each of ``app_ids``, oldest first, in one read."""
    if not app_ids:
        return []
    query = (
        select(AppMemory.app_id, AppMemory.id, AppMemory.content)
        .where(AppMemory.app_id.in_(app_ids), memory_live(app.now()))
        .order_by(AppMemory.created_at, AppMemory.id)
    )
    by_app: dict[str, list[tuple[int, str]]] = {other: [] for other in app_ids}
    with app.ctx.store.read() as session:
        for other, memory_id, content in session.execute(query):
            by_app[other].append((memory_id, content))
    return list(by_app.values())


def memory_apps(app: Memdesk, known: Sequence[Known]) -> dict[str, str]:
    """The app of each memory among ``known``, by the memory's id as ``Known.ref`` gives it."""
    ids = [int(fact.ref) for fact in known if fact.where == "app"]
    if not ids:
        return {}
    with app.ctx.store.read() as session:
        rows = session.execute(select(AppMemory.id, AppMemory.app_id).where(AppMemory.id.in_(ids)))
        return {str(memory_id): app_id for memory_id, app_id in rows}


def _closest(items: list[tuple[str, str, str]], words: set[str], limit: int) -> list[tuple[str, str, str]]:
    """All of ``items`` when they are at most ``limit``; else the ``limit`` sharing most of
    ``words``, in their stored order."""
    if len(items) <= limit:
        return items
    shared = [len(set(_TERM.findall(text.lower())) & words) for _where, _ref, text in items]
    best = set(sorted(range(len(items)), key=lambda index: -shared[index])[:limit])
    return [item for index, item in enumerate(items) if index in best]


def to_changes(edits: Sequence[Edit], known: Sequence[Known], apps: Mapping[str, str]) -> Found:
    """The edits as reviewable changes; additions as statements; conflicts as notes. ``apps``:
    the app of each memory among ``known``, by its id (``memory_apps``)."""
    by_number = {fact.number: fact for fact in known}
    changes: list[Change] = []
    additions: list[str] = []
    notes: list[str] = []
    for edit in edits:
        if edit.action == "add":
            additions.append(edit.text)
            if edit.conflict:
                notes.append(f"{CONFLICT_NOTE} “{edit.text}” disagrees with {edit.conflict}; both are kept.")
            continue
        assert edit.target is not None
        fact = by_number[edit.target]
        change = _change(edit, fact, apps.get(fact.ref, "") if fact.where == "app" else "")
        # An edit the rules are not sure of, or whose evidence failed its check, is shown
        # with why, for a person to accept; `compact --yes` leaves it out.
        change.accepted = edit.sure
        change.doubted = not edit.sure
        changes.append(change)
    return Found(changes, additions, notes)


def _change(edit: Edit, fact: Known, app_id: str) -> Change:
    """The edit as a change, titled by where it goes and what it does there."""
    removing = edit.action == "retire" and not edit.text
    verb = "Update" if edit.action == "update" else "Mark as past:"
    if fact.where == "entry":
        kind = ChangeKind.RETIRE_ENTRY if removing else ChangeKind.UPDATE_ENTRY
        where = f"knowledge entry {fact.ref}"
        title = f"Move {where} to Trash" if removing else f"{verb} {where}"
        return Change(kind, title, fact.ref, fact.text, edit.text, edit.why)
    if fact.where == "app":
        kind = ChangeKind.RETIRE_MEMORY if removing else ChangeKind.UPDATE_MEMORY
        where = f"memory {fact.ref} of app {app_id}"
        title = f"Move {where} to Trash" if removing else f"{verb} {where}"
        return Change(kind, title, app_id, fact.text, edit.text, edit.why, memory_id=int(fact.ref))
    kind = ChangeKind.RETIRE_LINE if removing else ChangeKind.UPDATE_LINE
    where = f"a line of {fact.ref}"
    title = f"Remove {where}" if removing else f"{verb} {where}"
    return Change(kind, title, fact.ref, fact.text, edit.text, edit.why)


def _slot_keys(slots: set[str]) -> list[str]:
    """Entry keys that name a slot: "address", "home_address", "dentist", "standup"."""
    names = {part for slot in slots for part in slot.split(":")}
    names |= {label for label, slot in LABELS.items() if slot in names}
    return sorted(
        names | {name.replace(" ", "_") for name in names} | {name.replace(" ", "-") for name in names}
    )


def _stored(
    app: Memdesk, namespaces: list[str], app_id: str | None, keys: list[str]
) -> tuple[dict[str, str], list[tuple[int, str]], list[tuple[str, str]]]:
    """The live documents' texts, the app's live memories (id, text) and the live knowledge
    entries whose key names a slot (key, text), in one read."""
    documents = select(Document.namespace, Document.content).where(
        Document.namespace.in_(namespaces), Document.deleted_at.is_(None)
    )
    memories = (
        select(AppMemory.id, AppMemory.content)
        .where(AppMemory.app_id == app_id, memory_live(app.now()))
        .order_by(AppMemory.created_at, AppMemory.id)
    )
    live_entry = entry_live(app.now(), app.settings.memory.timeline_retention_days)
    with app.ctx.store.read() as session:
        texts = {namespace: content for namespace, content in session.execute(documents)}
        live = [(row[0], row[1]) for row in session.execute(memories)] if app_id else []
        # By key alone first: with the other conditions SQLite may scan a million rows instead.
        ids = list(session.scalars(select(Entry.id).where(Entry.key.in_(keys)))) if keys else []
        entries = select(Entry.key, Entry.content).where(
            Entry.id.in_(ids), Entry.category == "knowledge", live_entry
        )
        keyed = [(row[0], row[1]) for row in session.execute(entries)] if ids else []
        return texts, live, keyed


def _is_fact(line: str) -> bool:
    """A line that states something: not blank, not a heading or a rule."""
    text = line.strip()
    return bool(text) and not text.startswith("#") and set(text) - set("-=*_ ") != set()


def _said_words(said: Sequence[Said]) -> tuple[set[str], set[str]]:
    words: set[str] = set()
    slots: set[str] = set()
    for sentence in said:
        words |= {word for word in normalise(sentence.text).split() if len(word) >= _MIN_WORD}
        slots |= {claim.slot for claim in claims_in(sentence.text) if claim.slot}
    return words, slots


def _relevance(text: str, words: set[str], slots: set[str]) -> int:
    """How much a stored fact has to do with what was said: shared slots count most, and a
    label the turn names ("Accountant: …" when they "changed accountants")."""
    claims = {claim.slot for claim in claims_in(text)}
    label = _LABEL.match(text)
    if label:
        claims.add(f"label:{stem(label.group(1).split()[-1])}")
    shared = {word for word in normalise(text).split() if len(word) >= _MIN_WORD} & words
    return 3 * len(claims & slots) + len(shared - _COMMON)


# Words too common to tie a stored fact to a statement on their own.
_COMMON_WORDS = """
    the and for with now new this that have has was are our my from every day week month year
    last next just got really
"""
_COMMON = frozenset(_COMMON_WORDS.split())
