"""The timeline's rows: a header per group (kind, and app), then lanes of bars. No Qt.

Bars that do not overlap in time share a lane, so thousands of short-lived items stay
readable. Within a lane, items are sorted by start and, since they do not overlap, by
end too; both lists are kept for bisecting to what is on screen. Moments stay datetimes
throughout: converting ten thousand of them to numbers would cost more than it saves.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from operator import attrgetter

from memdesk.core.collection import collection_held
from memdesk.core.items import ItemKind
from memdesk.services.expiry import KIND_LABELS, KINDS, ExpiringItem

FOREVER = datetime.max  # where a pinned bar ends
_START = attrgetter("start")


def bar_end(item: ExpiringItem) -> datetime:
    """When the bar ends: never, for a pinned item; never before it starts."""
    if item.end is None:
        return FOREVER
    return max(item.end, item.start)


@dataclass
class Lane:
    items: list[ExpiringItem] = field(default_factory=list)
    starts: list[datetime] = field(default_factory=list)
    ends: list[datetime] = field(default_factory=list)

    def between(self, first: datetime, last: datetime) -> range:
        """Indexes of the items that show between the moments ``first`` and ``last``."""
        return range(bisect_left(self.ends, first), bisect_right(self.starts, last))


@dataclass(frozen=True)
class Row:
    group: str  # "working", "entry", "trash", or "app_memory:<app id>"
    header: str | None = None  # a group's header row has a title and no lane
    lane: Lane | None = None


@dataclass(frozen=True)
class Filters:
    kinds: frozenset[str] = frozenset(KINDS)
    app_id: str | None = None  # only this app's items (its memories, in Trash or not)

    def accepts(self, item: ExpiringItem) -> bool:
        return item.kind in self.kinds and (self.app_id is None or item.app_id == self.app_id)


def pack(items: Iterable[ExpiringItem]) -> list[Lane]:
    """Greedy interval packing: each item goes in the lane that became free first.

    The hot loop of a timeline load (10,000 items): the bar's end is worked out inline and a
    reused lane's heap entry is replaced in one step.
    """
    lanes: list[Lane] = []
    free_at: list[tuple[datetime, int]] = []  # (end of the lane's last bar, lane index)
    for item in sorted(items, key=_START):
        start, end = item.start, item.end
        end = FOREVER if end is None else max(end, start)  # as bar_end
        if free_at and free_at[0][0] < start:
            index = free_at[0][1]
            heapq.heapreplace(free_at, (end, index))
        else:
            index = len(lanes)
            lanes.append(Lane())
            heapq.heappush(free_at, (end, index))
        lane = lanes[index]
        lane.items.append(item)
        lane.starts.append(start)
        lane.ends.append(end)
    return lanes


def group_of(item: ExpiringItem) -> str:
    return f"{ItemKind.APP_MEMORY}:{item.app_id}" if item.kind == ItemKind.APP_MEMORY else item.kind


def build_rows(items: Iterable[ExpiringItem], app_labels: dict[str, str], filters: Filters) -> list[Row]:
    """Header and lane rows, grouped by kind (app memories by app), in ``KINDS`` order."""
    with collection_held():
        return _build_rows(items, app_labels, filters)


def _build_rows(items: Iterable[ExpiringItem], app_labels: dict[str, str], filters: Filters) -> list[Row]:
    groups: dict[str, list[ExpiringItem]] = {}
    everything = filters.app_id is None and filters.kinds.issuperset(KINDS)  # no test per item
    for item in items:
        if everything or filters.accepts(item):
            groups.setdefault(group_of(item), []).append(item)

    def order(group: str) -> tuple[int, str]:
        kind, _, app_id = group.partition(":")
        return KINDS.index(kind), app_labels.get(app_id, app_id).casefold()

    rows: list[Row] = []
    for group in sorted(groups, key=order):
        members = groups[group]
        kind, _, app_id = group.partition(":")
        title = f"{KIND_LABELS[kind]} · {app_labels.get(app_id, app_id)}" if app_id else KIND_LABELS[kind]
        if kind == ItemKind.TRASH:
            title = "Trash · purge dates"
        rows.append(Row(group, header=f"{title} ({len(members)})"))
        rows.extend(Row(group, lane=lane) for lane in pack(members))
    return rows
