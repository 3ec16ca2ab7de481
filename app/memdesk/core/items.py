"""The one vocabulary for what an item is: ``ItemKind``, and ``ItemRef`` to point at one.

Search results, expiry items, Trash, history links and the window's navigation all use
these, so no layer translates another's names. An entry is one kind whatever its category
(knowledge or timeline): the category is a field of the entry, and the place that shows
it is chosen from that field, not from a second name for the same row.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ItemKind(StrEnum):
    DOCUMENT = "document"  # ref: the namespace ("user/profile", "global")
    WORKING = "working"  # working memory; ref: its namespace ("user/working")
    ENTRY = "entry"  # a knowledge or timeline entry; ref: its id
    APP = "app"  # ref: the app id
    APP_MEMORY = "app_memory"  # ref: the memory's id
    SESSION = "session"  # a conversation log; ref: the session id
    TRASH = "trash"  # something in Trash; ref: its trash id ("memory:42")
    HISTORY_STEP = "history_step"  # one recorded change; ref: the step's id
    HELD_WRITE = "held_write"  # an assistant's write waiting for review; ref: its id


@dataclass(frozen=True)
class ItemRef:
    """One item: its kind and the id or namespace that finds it."""

    kind: ItemKind
    ref: str

    def __str__(self) -> str:
        return f"{self.kind} {self.ref}"


@dataclass(frozen=True)
class Changes:
    """What a write changed, so the window refreshes only what shows it.

    ``kinds`` None means anything may have changed (a write that does not say, or another
    program's). ``refs`` names changed items where that is cheap to know; it may be empty.
    """

    kinds: frozenset[ItemKind] | None = None
    refs: frozenset[ItemRef] = frozenset()

    @classmethod
    def of(cls, *kinds: ItemKind, refs: tuple[ItemRef, ...] = ()) -> Changes:
        return cls(frozenset(kinds), frozenset(refs))

    def touches(self, kinds: frozenset[ItemKind] | None) -> bool:
        """Whether anything shown for ``kinds`` (None: every kind) may have changed."""
        if self.kinds is None or kinds is None:
            return bool(self.kinds is None or self.kinds)
        return not self.kinds.isdisjoint(kinds)

    def __or__(self, other: Changes) -> Changes:
        if self.kinds is None or other.kinds is None:
            return EVERYTHING
        return Changes(self.kinds | other.kinds, self.refs | other.refs)


EVERYTHING = Changes()
NOTHING = Changes(frozenset())


def read_kind(kind: ItemKind) -> ItemKind:
    """The kind the read log files an item under: working memory is the document at its
    namespace, so that one item has one history of reads."""
    return ItemKind.DOCUMENT if kind is ItemKind.WORKING else kind
