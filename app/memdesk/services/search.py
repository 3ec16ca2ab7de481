"""One search box across every kind of memory, results grouped by kind."""

from __future__ import annotations

from dataclasses import dataclass

from memdesk.core.items import ItemKind, ItemRef
from memdesk.core.search_text import query_words
from memdesk.services.context import Context


@dataclass(frozen=True)
class SearchResult:
    group: str  # one of GROUP_ORDER: the heading it is listed under
    item: ItemRef  # what the GUI opens
    title: str
    snippet: str

    @property
    def ref(self) -> str:
        return self.item.ref


SEARCHED = (ItemKind.ENTRY, ItemKind.APP_MEMORY, ItemKind.DOCUMENT)
# Entries are listed by category; everything else under its kind.
GROUP_ORDER = (ItemKind.DOCUMENT, "knowledge", "timeline", ItemKind.APP_MEMORY)


class Search:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def search(self, query: str, limit_per_kind: int = 20) -> dict[str, list[SearchResult]]:
        words = query_words(query)
        grouped: dict[str, list[SearchResult]] = {group: [] for group in GROUP_ORDER}
        if not words:
            return grouped
        with self.ctx.store.read() as session:
            for kind in SEARCHED:
                rows = self.ctx.store.fulltext.search(session, kind, words, limit_per_kind * 2)
                for group, ref, title, snippet in rows:
                    bucket = grouped[group]
                    if len(bucket) < limit_per_kind and all(r.ref != str(ref) for r in bucket):
                        bucket.append(SearchResult(group, ItemRef(kind, str(ref)), str(title), snippet))
        return grouped
