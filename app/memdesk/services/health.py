"""Memory health: live facts that disagree (conflicts) or say the same twice (near-duplicates).

A fact is a line of ``{user}/profile``, ``{user}/patterns`` or any ``{ns}/facts`` document, a
live knowledge entry, or a live app memory. Each is kept in ``health_facts`` under the slots
its claims fill (``memdesk.core.slots``) and a signature of its words. Once a first look has
read every fact, every change indexes the rows it touched, in its own transaction, compares
their facts with the indexed facts that share a slot or a signature, and records what it
finds in ``health_findings``: so listing the findings reads no fact, and checking costs what
changed, not the size of the store. A look compares what changes could not (those made
before the first look's end, or by an earlier version), from History. Fixes are History steps.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from sqlalchemy import ColumnElement, and_, bindparam, case, delete, func, literal, select
from sqlalchemy.orm import Session, aliased

from memdesk.core import lifetime
from memdesk.core.items import Changes, ItemKind, ItemRef
from memdesk.core.records import KNOWLEDGE
from memdesk.core.search_text import bullet_of, query_words
from memdesk.core.slots import RULES_VERSION, Claim, conflicting, household_names, named_claims, same_value
from memdesk.core.term_match import word_root
from memdesk.errors import BadInputError, ConflictError, NotFoundError
from memdesk.services.context import MAX_DOCUMENT_CHARS, MAX_ENTRY_CHARS, check_text
from memdesk.store.models import (
    FACT_TABLES,
    AppMemory,
    Document,
    Entry,
    HealthFact,
    HealthFinding,
    HistoryChange,
    HistoryStep,
    Meta,
)
from memdesk.store.recorder import Touched

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

LOOKED_TO = "health_looked_to"  # meta: the last history step a look has read
# meta: the first history step whose rows its change indexed itself (a store indexed before
# changes did so has older steps that a look indexes)
KEPT_FROM = "health_kept_from"
# meta: the rules and the household the index was read with (see ``Health._reading``)
READ_WITH = "health_read_with"
CHUNK = 500  # ids per IN (...), below every engine's limit of bound parameters
SCAN = 20_000  # rows per read when the first look reads every fact
# An assistant's write starts the first look itself only on a store this small; a bigger
# store's first look is `memdesk health` or the window's (it reads every fact once).
FIRST_LOOK_ON_WRITE = 50_000
MIN_SIGNATURE_WORDS = 2  # one shared word is not the same fact
# A changed fact is compared with at most this many facts for each value of a slot it fills
# and for its signature: a store where thousands of facts name one drink stays fast.
PARTNERS = 20
PARTNERS_PER_SLOT = 100  # and at most this many for a slot, newest first
NAMED = 5  # the newest facts a write's reply names as contradicted
SHORT_STATEMENT = 5  # content words: a statement this short says one thing
SAME_WORDS = 0.5  # the share of words two longer texts about one value share to say the same
# What a fix changes, so the window reads again what shows facts.
FACT_KINDS = Changes.of(ItemKind.DOCUMENT, ItemKind.ENTRY, ItemKind.APP_MEMORY)


class FindingKind(StrEnum):
    CONFLICT = "conflict"
    DUPLICATE = "duplicate"


@dataclass(frozen=True)
class Fact:
    """One live fact: where it is and what it says."""

    ref: str  # entry:12, memory:7, line:3:<hash of the line>
    text: str
    kind: ItemKind  # ENTRY, APP_MEMORY or DOCUMENT (a line of it)
    locator: str  # what names it: the entry's key, the memory's id, the document's namespace
    app: str = ""  # an app memory's app

    @property
    def owner(self) -> str:
        return owner_of(self.ref)

    @property
    def item(self) -> ItemRef:
        """What opens it in the window: the entry, the memory, the document."""
        number = self.owner.split(":")[1]
        return ItemRef(self.kind, self.locator if self.kind is ItemKind.DOCUMENT else number)

    @property
    def name(self) -> str:
        """How a person or an assistant finds it: "entry home_city", "memory 7 of calendar"."""
        if self.kind is ItemKind.ENTRY:
            return f"entry {self.locator}"
        if self.kind is ItemKind.APP_MEMORY:
            return f"memory {self.locator} of {self.app}"
        return self.locator

    def described(self) -> dict[str, str | int]:
        """The fact as data, for a tool's reply and ``memdesk health --json``."""
        where: dict[str, str | int]
        if self.kind is ItemKind.ENTRY:
            where = {"key": self.locator}
        elif self.kind is ItemKind.APP_MEMORY:
            where = {"id": int(self.locator), "app": self.app}
        else:
            where = {"namespace": self.locator}
        return {
            "kind": "line" if self.kind is ItemKind.DOCUMENT else str(self.kind),
            **where,
            "text": self.text,
        }


@dataclass(frozen=True)
class Finding:
    id: int
    kind: FindingKind
    slot: str  # the slot both fill ("" for a duplicate found by its words)
    first: Fact
    second: Fact


def _owners(rows: Iterable[tuple[str, str]]) -> list[str]:
    """The fact-holding rows among (table, primary key) rows, as owners (``entry:12``), sorted."""
    return sorted({f"{FACT_TABLES[table]}:{key}" for table, key in rows if table in FACT_TABLES})


def owner_of(ref: str) -> str:
    """The row a fact is in: ``line:3:ab12`` is in ``document:3``."""
    if ref.startswith("line:"):
        return f"document:{ref.split(':', 2)[1]}"
    return ref


@lru_cache(maxsize=16_384)  # a look asks again for the texts it compares
def _roots(text: str) -> frozenset[str]:
    return frozenset(_root(word) for word in query_words(text))


_root = lru_cache(maxsize=65_536)(word_root)  # most words of a look's texts are common ones


def signature(text: str) -> str:
    """Texts with the same words, in any order and form, share it; "" when too few words."""
    roots = sorted(_roots(text))
    if len(roots) < MIN_SIGNATURE_WORDS:
        return ""
    return hashlib.sha1(" ".join(roots).encode()).hexdigest()[:16]


def says_the_same(first: str, second: str) -> bool:
    """Two texts that fill one slot with one value state one fact when both are short
    statements, or share most of their words (a long note that mentions coffee is not
    "Drinks coffee")."""
    one, other = _roots(first), _roots(second)
    if max(len(one), len(other)) <= SHORT_STATEMENT:
        return True
    return len(one & other) >= SAME_WORDS * len(one | other)


def _line_ref(document_id: int, text: str) -> str:
    return f"line:{document_id}:{hashlib.sha1(text.encode()).hexdigest()[:12]}"


def fact_lines(content: str) -> Iterator[str]:
    """A facts document's facts: each line with text, without its list marker (headings left out)."""
    for line in content.splitlines():
        text = line[len(bullet_of(line)) :].strip()
        if text and not line.lstrip().startswith("#"):
            yield text


def _pair_key(first: Fact, second: Fact) -> str:
    both = sorted([(first.ref, first.text), (second.ref, second.text)])
    return hashlib.sha1(repr(both).encode()).hexdigest()


class _Lived(Protocol):
    """A row's columns that say whether it is live (an ORM row, or the columns read alone)."""

    pinned: bool
    expires_at: datetime | None
    created_at: datetime
    deleted_at: datetime | None


def _live(row: _Lived, now: datetime) -> bool:
    """Not in Trash and not expired (a knowledge entry, a memory, a document: no retention)."""
    expiry = lifetime.expires_at(bool(row.pinned), row.expires_at, row.created_at)
    return lifetime.is_live(row.deleted_at, expiry, now)


def _life_columns(model: type[Entry] | type[AppMemory] | type[Document]) -> list[Any]:
    return [model.pinned, model.expires_at, model.created_at, model.deleted_at]


_Item = TypeVar("_Item")


def _chunks(items: Sequence[_Item], size: int = CHUNK) -> Iterator[list[_Item]]:
    for start in range(0, len(items), size):
        yield list(items[start : start + size])


@dataclass(frozen=True)
class _Claimed:
    """One row of the index: a fact, a slot it fills with its value (or none), its signature."""

    fact: str
    slot: str | None
    value: str
    past: bool
    slots: int
    signature: str

    @property
    def claim(self) -> Claim:
        return Claim(self.slot or "", self.value, (0, 0), self.past)


# What a look reads of an index row, in ``_Claimed``'s order.
_INDEXED = (
    HealthFact.fact,
    HealthFact.slot,
    HealthFact.value,
    HealthFact.past,
    HealthFact.slots,
    HealthFact.signature,
)
_Pair = tuple[FindingKind, str, str, str]  # kind, slot, the fact that was there, the changed one

# Built once: every change to a fact runs these, and building a statement took longer than
# running it.
_IDS = bindparam("ids", expanding=True)
_READ_ENTRIES = select(Entry.id, Entry.key, Entry.content, Entry.category, *_life_columns(Entry)).where(
    Entry.id.in_(_IDS)
)
_READ_MEMORIES = select(AppMemory.id, AppMemory.app_id, AppMemory.content, *_life_columns(AppMemory)).where(
    AppMemory.id.in_(_IDS)
)
_READ_DOCUMENTS = select(Document.id, Document.namespace, Document.content, *_life_columns(Document)).where(
    Document.id.in_(_IDS)
)
_SLOT_NEWEST = (
    select(*_INDEXED)
    .where(HealthFact.slot == bindparam("slot"))
    .order_by(HealthFact.id.desc())
    .limit(PARTNERS_PER_SLOT)
)
_KNOWN_PAIRS = select(HealthFinding.pair).where(HealthFinding.pair.in_(bindparam("pairs", expanding=True)))
_OWNERS = HealthFact.owner.in_(bindparam("owners", expanding=True))
_NEWEST_STEP = select(func.max(HistoryStep.id))
_META = select(Meta.value).where(Meta.key == bindparam("key"))
_PROFILE = select(Document.content).where(
    Document.namespace == bindparam("namespace"), Document.deleted_at.is_(None)
)
_OPEN_FINDINGS = select(HealthFinding.id, HealthFinding.pair).where(HealthFinding.state == "open")
_CLAIMS_OF_SLOTS = (
    select(HealthFact.fact, HealthFact.slot, HealthFact.value, HealthFact.past)
    .where(HealthFact.slot.in_(bindparam("slots", expanding=True)))
    .order_by(HealthFact.id.desc())
    .limit(PARTNERS_PER_SLOT)
)
_NEWEST_STEP_BEFORE = _NEWEST_STEP.where(HistoryStep.id < bindparam("step"))
_UNINDEX = delete(HealthFact).where(_OWNERS)
_OTHER = aliased(HealthFact)
_WITH_SHARED = select(  # whether another fact has the row's signature, by the signature's index
    *_INDEXED,
    and_(
        HealthFact.signature != "",
        select(_OTHER.id)
        .where(_OTHER.signature == HealthFact.signature, _OTHER.fact != HealthFact.fact)
        .exists(),
    ),
)


@dataclass(frozen=True)
class _Partners:
    """The indexed rows a look compares changed facts with: by the slot, and by the words."""

    by_slot: list[_Claimed]
    by_signature: list[_Claimed]


def index_rows(fact: Fact, household: frozenset[str] = frozenset()) -> list[_Claimed]:
    """What the index keeps of ``fact``: one row per slot and value it states (or one without);
    what it says of someone in ``household`` (``household_names``) is theirs, not a claim."""
    sig = signature(fact.text)
    claims = {(c.slot, c.value[:200], c.past) for c in named_claims(fact.text, household) if c.slot}
    count = len({slot for slot, _value, _past in claims})
    if not claims:
        return [_Claimed(fact.ref, None, "", False, 0, sig)]
    return [_Claimed(fact.ref, slot, value, past, count, sig) for slot, value, past in sorted(claims)]


def compare(new: _Claimed, old: _Claimed) -> tuple[FindingKind, str] | None:
    """Whether two rows of two facts disagree (the slot), say the same, or neither.

    By claims: one slot with different current values conflicts; the same value is the same
    fact only when each fills that one slot alone ("Lives in Leeds with Sam" says more than
    "Lives in Leeds"). By words: the same signature.
    """
    if new.slot and new.slot == old.slot:
        if conflicting(new.claim, old.claim):
            return FindingKind.CONFLICT, new.slot
        if new.slots == old.slots == 1 and not (new.past or old.past) and same_value(new.value, old.value):
            return FindingKind.DUPLICATE, new.slot
    if new.signature and new.signature == old.signature:
        return FindingKind.DUPLICATE, ""
    return None


class Health:
    def __init__(self, app: Memdesk) -> None:
        self.app = app
        self.ctx = app.ctx

    # --- which documents hold facts ----------------------------------------------------------

    def holds_facts(self, namespace: str) -> bool:
        user = self.ctx.settings.memory.user_namespace
        return namespace in {f"{user}/profile", f"{user}/patterns"} or namespace.endswith("/facts")

    # --- reading facts ----------------------------------------------------------------------

    # Rows are read by id alone and their liveness judged here, by ``core.lifetime``'s rule: a
    # condition on category or expiry lets SQLite pick an index that scans thousands of rows.
    # Only the columns needed are read: a look reads thousands of rows, and whole ORM objects
    # cost several times as much.

    def _live_entries(self, session: Session, ids: list[int]) -> Iterator[Fact]:
        now = self.ctx.now()
        for entry in session.execute(_READ_ENTRIES, {"ids": ids}):
            if entry.category == KNOWLEDGE and _live(entry, now):
                yield Fact(f"entry:{entry.id}", entry.content, ItemKind.ENTRY, entry.key)

    def _live_memories(self, session: Session, ids: list[int]) -> Iterator[Fact]:
        now = self.ctx.now()
        for memory in session.execute(_READ_MEMORIES, {"ids": ids}):
            if _live(memory, now):
                yield Fact(
                    f"memory:{memory.id}", memory.content, ItemKind.APP_MEMORY, str(memory.id), memory.app_id
                )

    def _live_lines(self, session: Session, ids: list[int]) -> Iterator[Fact]:
        now = self.ctx.now()
        for document in session.execute(_READ_DOCUMENTS, {"ids": ids}):
            if self.holds_facts(document.namespace) and _live(document, now):
                for text in dict.fromkeys(fact_lines(document.content)):
                    yield Fact(_line_ref(document.id, text), text, ItemKind.DOCUMENT, document.namespace)

    def _facts_of(self, session: Session, owners: Iterable[str]) -> list[Fact]:
        """The live facts in these rows (``entry:12``, ``memory:7``, ``document:3``)."""
        ids: dict[str, list[int]] = defaultdict(list)
        for owner in owners:
            kind, number = owner.split(":")
            ids[kind].append(int(number))
        readers = {"entry": self._live_entries, "memory": self._live_memories, "document": self._live_lines}
        facts: list[Fact] = []
        for kind, numbers in ids.items():
            for chunk in _chunks(sorted(set(numbers))):
                facts.extend(readers[kind](session, chunk))
        return facts

    def facts(self, refs: Iterable[str]) -> dict[str, Fact]:
        """The live facts among ``refs``, as they read now."""
        wanted = set(refs)
        with self.ctx.store.read() as session:
            found = self._facts_of(session, {owner_of(ref) for ref in wanted})
        return {fact.ref: fact for fact in found if fact.ref in wanted}

    def _every_owner(self, session: Session) -> Iterator[list[str]]:
        """Every row that may hold facts, a batch at a time (the first look)."""
        for model, name in ((Entry, "entry"), (AppMemory, "memory"), (Document, "document")):
            last = 0
            while True:
                ids = list(
                    session.scalars(select(model.id).where(model.id > last).order_by(model.id).limit(SCAN))
                )
                if not ids:
                    break
                last = ids[-1]
                yield [f"{name}:{number}" for number in ids]

    # --- looking ----------------------------------------------------------------------------

    def look(self, first_look: bool = True) -> int:
        """Read the facts changed since the last look; how many were read.

        ``first_look=False`` leaves a store never looked at alone when it is big (an
        assistant's write must not wait for every fact to be read).
        """
        with self.ctx.store.read() as session:  # most looks find nothing new: no write for them
            if not self._due(session, self._household(session), first_look):
                return 0
        with self.ctx.store.write(bookkeeping=True) as session:
            household = self._household(session)
            if not self._due(session, household, first_look):  # another program looked meanwhile
                return 0
            looked_to = self._looked_to(session, household)
            newest = session.scalar(_NEWEST_STEP) or 0
            if looked_to is None:
                read = self._read_everything(session, household)
                session.merge(Meta(key=LOOKED_TO, value=str(newest)))
                session.merge(Meta(key=READ_WITH, value=self._reading(household)))
                return read
            kept_from = session.scalar(_META, {"key": KEPT_FROM})
            stale = self._touched(session, looked_to, int(kept_from) if kept_from else newest + 1)
            _rows, facts = self._index(session, stale, household)
            rows, shared = self._indexed(session, self._changed_since(looked_to))
            self._compare(session, rows, shared, facts)
            session.merge(Meta(key=LOOKED_TO, value=str(newest)))
            return len({row.fact for row in rows})

    def _read_everything(self, session: Session, household: frozenset[str]) -> int:
        """Index every fact afresh and compare them all; findings that no longer hold (read
        by other rules, or of another household) stop being listed. How many facts were read."""
        session.execute(delete(HealthFact))
        read = 0
        for owners in self._every_owner(session):
            rows, _facts = self._index(session, owners, household)
            read += len({row.fact for row in rows})
        everyone = self._partners(session, None)  # compared once everything is in
        rows = list(dict.fromkeys(everyone.by_slot + everyone.by_signature))
        found = self._record(session, self._pairs(rows, everyone), {})
        gone = [row_id for row_id, pair in session.execute(_OPEN_FINDINGS) if pair not in found]
        for chunk in _chunks(gone):
            session.execute(delete(HealthFinding).where(HealthFinding.id.in_(chunk)))
        return read

    def _household(self, session: Session) -> frozenset[str]:
        """The names the person's profile gives their household (what is said of them is theirs)."""
        namespace = f"{self.ctx.settings.memory.user_namespace}/profile"
        profile = session.scalar(_PROFILE, {"namespace": namespace})
        return household_names(profile) if profile else frozenset()

    @staticmethod
    def _reading(household: frozenset[str]) -> str:
        """What the index's claims depend on besides the facts: the rules and the household."""
        names = hashlib.sha1("\n".join(sorted(household)).encode()).hexdigest()[:12]
        return f"{RULES_VERSION}:{names}"

    def _looked_to(self, session: Session, household: frozenset[str]) -> int | None:
        """The last history step a look read, if the index was read with today's rules and
        household (None: the next look reads every fact, as a first look does)."""
        looked_to = session.scalar(_META, {"key": LOOKED_TO})
        if looked_to is None or session.scalar(_META, {"key": READ_WITH}) != self._reading(household):
            return None
        return int(looked_to)

    def _index_is_current(self, session: Session, household: frozenset[str]) -> bool:
        """Whether every fact is indexed as it reads now: looked at once, and every change
        since indexed by the change itself."""
        looked_to = self._looked_to(session, household)
        if looked_to is None:
            return False
        kept_from = session.scalar(_META, {"key": KEPT_FROM})
        newest = session.scalar(_NEWEST_STEP) or 0
        return looked_to == newest or (kept_from is not None and int(kept_from) <= looked_to + 1)

    def _due(self, session: Session, household: frozenset[str], first_look: bool) -> bool:
        """Whether History holds changes since the last look (and, before the first, whether
        the store is small enough, or the first look is asked for)."""
        looked_to = self._looked_to(session, household)
        if looked_to is not None:
            return looked_to < (session.scalar(_NEWEST_STEP) or 0)
        if first_look:
            return True
        rows = sum(session.scalar(select(func.max(model.id))) or 0 for model in (Entry, AppMemory))
        return rows <= FIRST_LOOK_ON_WRITE

    @staticmethod
    def _touched(session: Session, since: int, kept_from: int) -> list[str]:
        """The rows that History shows changed after step ``since`` and before ``kept_from``,
        by changes that did not index them (sorted).

        Read by step alone, and the tables picked here: with the tables in the query SQLite
        reads every change ever made to an entry, thousands of rows."""
        query = select(HistoryChange.table_name, HistoryChange.item_key).where(
            HistoryChange.step_id > since, HistoryChange.step_id < kept_from
        )
        return _owners(session.execute(query))

    def keep_index(self, session: Session, touched: Touched) -> None:
        """Index the facts of the rows a change touched, in its transaction (once a first look
        has indexed every fact; before it, that look will). When every earlier step was looked
        at, compare them too: the change is then looked at, and a look has nothing left to do."""
        owners = _owners(touched.rows)
        if not owners or session.scalar(_META, {"key": LOOKED_TO}) is None:
            return  # nothing to index, or never looked at: the first look will read every fact
        household = self._household(session)
        looked_to = self._looked_to(session, household)
        if looked_to is None:
            return  # read with other rules or another household: the next look reads every fact
        if touched.step_id is not None and session.get(Meta, KEPT_FROM) is None:
            # The first change to index itself: the steps before it are left to a look.
            session.add(Meta(key=KEPT_FROM, value=str(touched.step_id)))
        _rows, facts = self._index(session, owners, household)
        earlier = (
            session.scalar(_NEWEST_STEP)
            if touched.step_id is None
            else session.scalar(_NEWEST_STEP_BEFORE, {"step": touched.step_id})
        )
        if (earlier or 0) > looked_to:
            return  # steps no look has read yet: the next look compares this one with them
        rows: list[_Claimed] = []
        shared: set[str] = set()
        for chunk in _chunks(owners):
            found, signatures = self._indexed(session, _OWNERS, {"owners": chunk})
            rows += found
            shared.update(signatures)
        self._compare(session, rows, sorted(shared), facts)
        if touched.step_id is not None:
            session.merge(Meta(key=LOOKED_TO, value=str(touched.step_id)))

    def _compare(
        self, session: Session, rows: list[_Claimed], shared: list[str], read: dict[str, list[Fact]]
    ) -> None:
        """Compare changed index rows with the facts that share their slots or signatures, and
        record what disagrees or repeats (``read``: the facts of rows read already)."""
        partners = self._partners(session, ({row.slot for row in rows if row.slot}, shared))
        self._record(session, self._pairs(rows, partners), read)

    @staticmethod
    def _changed_since(since: int) -> ColumnElement[bool]:
        """The index rows of the rows History shows changed after step ``since``: named in SQL,
        by step, not sent as thousands of parameters."""
        prefixes = {table: literal(f"{name}:") for table, name in FACT_TABLES.items()}
        owner = case(prefixes, value=HistoryChange.table_name).concat(HistoryChange.item_key)
        return HealthFact.owner.in_(select(owner).where(HistoryChange.step_id > since))

    @staticmethod
    def _indexed(
        session: Session, which: ColumnElement[bool], params: dict[str, Any] | None = None
    ) -> tuple[list[_Claimed], list[str]]:
        """The index rows ``which`` selects, and those of their signatures that another fact
        shares (sorted): one query, which asks the signature's index for each row."""
        rows: list[_Claimed] = []
        signatures: set[str] = set()
        for *columns, is_shared in session.execute(_WITH_SHARED.where(which), params):
            rows.append(_Claimed(*columns))
            if is_shared:
                signatures.add(rows[-1].signature)
        return rows, sorted(signatures)

    def _index(
        self, session: Session, owners: list[str], household: frozenset[str]
    ) -> tuple[list[_Claimed], dict[str, list[Fact]]]:
        """Put these rows' live facts in the index as they read now; their index rows, and the
        facts of each row."""
        for chunk in _chunks(owners):
            session.execute(_UNINDEX, {"owners": chunk})
        found = self._facts_of(session, owners)
        facts: dict[str, list[Fact]] = {owner: [] for owner in owners}
        for fact in found:
            facts[fact.owner].append(fact)
        rows = [row for fact in found for row in index_rows(fact, household)]
        if rows:  # the table itself, not the ORM class: one plain executemany
            session.execute(
                HealthFact.__table__.insert(),
                [
                    {
                        "owner": owner_of(row.fact),
                        "fact": row.fact,
                        "slot": row.slot,
                        "value": row.value,
                        "past": row.past,
                        "slots": row.slots,
                        "signature": row.signature,
                    }
                    for row in rows
                ],
            )
        return rows, facts

    @staticmethod
    def _partners(session: Session, wanted: tuple[set[str], list[str]] | None) -> _Partners:
        """Indexed rows that share one of the ``wanted`` slots, and those that share one of
        its signatures (None: any slot or signature two facts share): of the
        ``PARTNERS_PER_SLOT`` newest of each slot and each signature, at most ``PARTNERS`` for
        each value."""
        partners = _Partners([], [])
        newest = HealthFact.id.desc()
        shared: list[tuple[Any, tuple[Any, ...], Any]] = []  # column, its groups, the values
        if wanted is None:
            for column, groups in (
                (HealthFact.slot, (HealthFact.slot, HealthFact.value)),
                (HealthFact.signature, ()),
            ):
                keys = (
                    select(column)
                    .where(column.is_not(None), column != "")
                    .group_by(column)
                    .having(func.count(func.distinct(HealthFact.fact)) > 1)
                )
                shared.append((column, groups, keys))
        else:
            slots, signatures = wanted
            for slot in sorted(slots):  # a slot's newest rows, by its index: no slot is read whole
                per_value: Counter[str] = Counter()
                for found_row in session.execute(_SLOT_NEWEST, {"slot": slot}):
                    row = _Claimed(*found_row)
                    per_value[row.value] += 1
                    if per_value[row.value] <= PARTNERS:
                        partners.by_slot.append(row)
            shared += [(HealthFact.signature, (), some) for some in _chunks(signatures)]
        for column, groups, keys in shared:
            rank = func.row_number().over(partition_by=groups or column, order_by=newest).label("rank")
            among = func.row_number().over(partition_by=column, order_by=newest).label("among")
            ranked = select(*_INDEXED, rank, among).where(column.in_(keys)).subquery()
            query = select(*(ranked.c[c.key] for c in _INDEXED)).where(
                ranked.c.rank <= PARTNERS, ranked.c.among <= PARTNERS_PER_SLOT
            )
            found = partners.by_slot if column is HealthFact.slot else partners.by_signature
            found += [_Claimed(*row) for row in session.execute(query)]
        return partners

    @staticmethod
    def _pairs(rows: list[_Claimed], partners: _Partners) -> dict[tuple[str, str], _Pair]:
        """Each pair of facts that disagrees or repeats: how, and which was there (listed first)
        and which changed."""
        # Many facts fill a slot with the same value: the partners of a slot are grouped by what
        # ``compare`` reads of them besides the words, and each group is judged once.
        kinds: dict[tuple[str | None, str, bool, int], int] = {}

        def kind_of(row: _Claimed) -> int:
            return kinds.setdefault((row.slot, row.value, row.past, row.slots), len(kinds))

        by_slot: dict[str, dict[int, list[_Claimed]]] = defaultdict(lambda: defaultdict(list))
        by_signature: dict[str, list[_Claimed]] = defaultdict(list)
        for row in partners.by_slot:
            by_slot[row.slot or ""][kind_of(row)].append(row)
        for row in partners.by_signature:
            by_signature[row.signature].append(row)
        found: dict[tuple[str, str], _Pair] = {}

        def add(result: tuple[FindingKind, str], old: str, new: str) -> None:
            pair = (old, new) if old < new else (new, old)
            if found.get(pair, (None,))[0] is not FindingKind.CONFLICT:
                found[pair] = (*result, old, new)

        verdicts: dict[tuple[int, int], tuple[FindingKind, str] | None] = {}
        for new in rows:
            mine = kind_of(new)
            for theirs, group in by_slot[new.slot].items() if new.slot else ():
                if (mine, theirs) not in verdicts:  # by the slot alone: the words come next
                    verdicts[(mine, theirs)] = compare(replace(new, signature=""), group[0])
                if verdict := verdicts[(mine, theirs)]:
                    for old in group:
                        if old.fact != new.fact:
                            add(verdict, old.fact, new.fact)
            for old in by_signature[new.signature] if new.signature else ():
                # The same signature: at least a duplicate.
                if old.fact != new.fact and (result := compare(new, old)):
                    add(result, old.fact, new.fact)
        return found

    def _record(
        self, session: Session, pairs: dict[tuple[str, str], _Pair], read: dict[str, list[Fact]]
    ) -> set[str]:
        """Record the pairs not recorded before (as their facts read now; ``read``: the facts of
        rows read already in this look); the keys of every finding among ``pairs``."""
        if not pairs:
            return set()
        owners = {owner_of(ref) for pair in pairs for ref in pair}
        found = self._facts_of(session, owners.difference(read))
        facts = {
            fact.ref: fact
            for fact in found + [fact for owner in owners & read.keys() for fact in read[owner]]
        }
        findings: dict[str, tuple[Fact, Fact, FindingKind, str]] = {}
        for kind, slot, first, second in pairs.values():
            if first not in facts or second not in facts:
                continue
            if (
                kind is FindingKind.DUPLICATE
                and slot
                and not says_the_same(facts[first].text, facts[second].text)
            ):
                continue
            findings[_pair_key(facts[first], facts[second])] = (facts[first], facts[second], kind, slot)
        keys = sorted(findings)
        every = set(keys)
        for start in range(0, len(keys), CHUNK):
            for pair in session.scalars(_KNOWN_PAIRS, {"pairs": keys[start : start + CHUNK]}):
                del findings[pair]
        now = self.ctx.now()
        rows = [
            {
                "pair": pair,
                "kind": str(kind),
                "slot": slot,
                "first": first.ref,
                "first_text": first.text,
                "second": second.ref,
                "second_text": second.text,
                "found_at": now,
                "state": "open",
            }
            for pair, (first, second, kind, slot) in findings.items()
        ]
        if rows:  # bookkeeping: found, not changed by anyone, so History has no step for it
            session.execute(HealthFinding.__table__.insert(), rows)
        return every

    # --- what is shown -----------------------------------------------------------------------

    def findings(self, first_look: bool = True) -> list[Finding]:
        """Open findings whose two facts are live and read as they did, newest first (after a
        look at what changed since the last; see ``look`` for ``first_look``)."""
        self.look(first_look)
        with self.ctx.store.read() as session:
            rows = list(
                session.scalars(
                    select(HealthFinding)
                    .where(HealthFinding.state == "open")
                    .order_by(HealthFinding.id.desc())
                )
            )
        facts = self.facts({ref for row in rows for ref in (row.first, row.second)})
        shown = []
        for row in rows:
            first, second = facts.get(row.first), facts.get(row.second)
            if (
                first is None
                or second is None
                or first.text != row.first_text
                or second.text != row.second_text
            ):
                continue
            shown.append(Finding(row.id, FindingKind(row.kind), row.slot, first, second))
        return shown

    def count(self, first_look: bool = True) -> int:
        """How many findings are shown (the sidebar's figure)."""
        return len(self.findings(first_look))

    def conflicts_with(self, text: str) -> list[Fact]:
        """Live facts that fill a slot of ``text`` with another value (an assistant's write)."""
        if not any(claim.slot and not claim.past for claim in named_claims(text)):
            return []  # most writes claim nothing: no read of the store for them
        with self.ctx.store.read() as session:
            household = self._household(session)
            current = self._index_is_current(session, household)
        mine = [claim for claim in named_claims(text, household) if claim.slot and not claim.past]
        if not mine:
            return []
        # A small store gets its first look and older changes are indexed. A look writes in a
        # transaction of its own, which cannot begin while this thread's change holds the store
        # (compaction holding what it proposed): there, the facts indexed so far are compared.
        if not current and not self.ctx.in_change():
            self.look(first_look=False)
        slots = sorted({claim.slot for claim in mine})
        named: list[Fact] = []
        with self.ctx.store.read() as session:
            refs = [
                ref
                for ref, slot, value, past in session.execute(_CLAIMS_OF_SLOTS, {"slots": slots})
                if any(conflicting(claim, Claim(slot, value, (0, 0), past)) for claim in mine)
            ]
            ordered = list(dict.fromkeys(refs))
            for start in range(0, len(ordered), NAMED * 2):  # read only as many as are named
                some = ordered[start : start + NAMED * 2]
                live = {fact.ref: fact for fact in self._facts_of(session, {owner_of(ref) for ref in some})}
                named += [live[ref] for ref in some if ref in live]
                if len(named) >= NAMED:
                    break
        return sorted(named[:NAMED], key=lambda fact: fact.ref)

    # --- fixes ------------------------------------------------------------------------------

    def keep(self, finding_id: int, which: str) -> int | None:
        """Keep the ``first`` or ``second`` fact and retire the other; the history step."""
        if which not in ("first", "second"):
            raise BadInputError(f"keep first or second, not {which!r}")
        finding = self._open(finding_id)
        kept, gone = (finding.first, finding.second) if which == "first" else (finding.second, finding.first)
        label = f"Memory health: keep {kept.name}, remove {gone.name}"
        return self._fix(finding, label, "fixed", lambda session: self._retire(session, gone))

    def merge(self, finding_id: int, text: str) -> int | None:
        """Rewrite the first fact as ``text`` and retire the second; the history step."""
        finding = self._open(finding_id)

        def merge(session: Session) -> None:
            self._rewrite(session, finding.first, text)
            self._retire(session, finding.second)

        return self._fix(finding, f"Memory health: merge into {finding.first.name}", "fixed", merge)

    def ignore(self, finding_id: int) -> int | None:
        """Stop showing this finding (until either fact changes); the history step."""
        finding = self._open(finding_id)
        label = f"Memory health: ignore {finding.first.name} and {finding.second.name}"
        return self._fix(finding, label, "ignored", lambda _session: None)

    def _open(self, finding_id: int) -> Finding:
        for finding in self.findings():
            if finding.id == finding_id:
                return finding
        raise NotFoundError(
            f"Memory health shows no finding {finding_id} (fixed, ignored, or one of its facts changed)",
            "see `memdesk health` for the current list",
        )

    def _fix(self, finding: Finding, label: str, state: str, change: Callable[[Session], None]) -> int | None:
        with self.ctx.change(label) as session:
            row = session.get(HealthFinding, finding.id)
            if row is None or row.state != "open":
                raise ConflictError(f"finding {finding.id} was dealt with already; nothing was changed")
            change(session)
            row.state = state
        return self.ctx.last_step_id()

    def _row(self, session: Session, fact: Fact) -> Entry | AppMemory | Document:
        """The row holding ``fact``, refused when the fact changed since it was shown."""
        kind, number = fact.owner.split(":")
        model = {"entry": Entry, "memory": AppMemory, "document": Document}[kind]
        row = session.get(model, int(number))
        still = row is not None and row.deleted_at is None
        if still and isinstance(row, Document):
            still = fact.text in fact_lines(row.content)
        elif still:
            still = row.content == fact.text
        if not still:
            raise ConflictError(f"{fact.name} changed since it was shown; nothing was changed", "look again")
        assert row is not None
        return row

    def retire(self, session: Session, facts: Iterable[Fact]) -> None:
        """Retire ``facts`` inside the change ``session`` belongs to (an approved replacement)."""
        for fact in facts:
            self._retire(session, fact)

    def _retire(self, session: Session, fact: Fact) -> None:
        row = self._row(session, fact)
        now = self.ctx.now()
        if isinstance(row, Document):
            row.content = _with_line(row.content, fact.text, None)
            row.updated_at = now
        else:
            row.deleted_at = now

    def _rewrite(self, session: Session, fact: Fact, text: str) -> None:
        if fact.kind is ItemKind.DOCUMENT:
            check_text(text, "the merged text", MAX_DOCUMENT_CHARS)
            if "\n" in text.strip():
                raise BadInputError(
                    f"the merged text goes on one line of {fact.locator}: write it as one line"
                )
        elif fact.kind is ItemKind.APP_MEMORY:
            check_text(text, "the merged text", self.ctx.settings.memory.app_memory_max_chars)
        else:
            check_text(text, "the merged text", MAX_ENTRY_CHARS)
        row = self._row(session, fact)
        row.content = (
            _with_line(row.content, fact.text, text.strip()) if isinstance(row, Document) else text.strip()
        )
        row.updated_at = self.ctx.now()


def _with_line(content: str, old: str, new: str | None) -> str:
    """``content`` with the first line saying ``old`` replaced by ``new`` (its marker kept), or
    removed when ``new`` is None."""
    lines = content.splitlines(keepends=True)
    for index, line in enumerate(lines):
        marker = bullet_of(line)
        if line[len(marker) :].strip() == old and not line.lstrip().startswith("#"):
            ending = line[len(line.rstrip("\r\n")) :]
            lines[index] = "" if new is None else f"{marker}{new}{ending}"
            break
    return "".join(lines)
