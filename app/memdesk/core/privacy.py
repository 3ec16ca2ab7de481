"""Names for what assistants may read, shared by the services and the window without the store:
the kinds of item a person can keep private, and what one reader may see.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class TargetKind(StrEnum):
    APP = "app"
    ENTRY = "entry"
    DOC = "doc"


TARGET_FORMS = "app:NAME, entry:KEY or doc:NAMESPACE"
NOUNS = {TargetKind.APP: "app", TargetKind.ENTRY: "entry", TargetKind.DOC: "document"}
# The reason a refused read gives: the rule, never the data.
OUTSIDE_LIMIT = "this assistant may read only the apps the person chose for it"


@dataclass(frozen=True)
class Target:
    kind: TargetKind
    name: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.name}"

    @property
    def words(self) -> str:
        """As a person names it: "app calendar", "document user/profile"."""
        return f"{NOUNS[self.kind]} {self.name}"


@dataclass(frozen=True)
class ReadScope:
    """What one reader may read: every private item is left out, and an assistant with an
    app limit reads only those apps (``apps`` None: every app)."""

    private_apps: frozenset[str] = frozenset()
    private_entries: frozenset[str] = frozenset()
    private_docs: frozenset[str] = frozenset()
    apps: frozenset[str] | None = None

    def hides_app(self, app_id: str) -> bool:
        return app_id in self.private_apps

    def may_read_app(self, app_id: str) -> bool:
        """Whether the reader's limit allows ``app_id`` (a private app is allowed, and empty)."""
        return self.apps is None or app_id in self.apps

    def hides_entry(self, key: str) -> bool:
        return key in self.private_entries

    def hides_doc(self, namespace: str) -> bool:
        return namespace in self.private_docs


def parse_stored(stored: str) -> Target:
    """A target as stored (checked when it was marked)."""
    kind, _, name = stored.partition(":")
    return Target(TargetKind(kind), name)
