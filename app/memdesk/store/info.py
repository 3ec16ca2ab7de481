"""What ``memdesk db info`` shows: engine, schema version, sizes, rows and index health."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from memdesk.store.copy import row_counts
from memdesk.store.engine import Store
from memdesk.store.models import Meta


@dataclass(frozen=True)
class IndexHealth:
    name: str
    problem: str | None  # None when the index is whole and in use

    @property
    def ok(self) -> bool:
        return self.problem is None


@dataclass(frozen=True)
class StoreInfo:
    engine: str
    where: str
    schema_version: int
    revision: int
    size_bytes: int
    rows: dict[str, int]
    indexes: list[IndexHealth]


def describe(store: Store) -> StoreInfo:
    with store.read() as session:
        meta = {key: value for key, value in session.execute(select(Meta.key, Meta.value))}
        size = store.engine.size_bytes(session.connection())
    return StoreInfo(
        engine=store.engine.name,
        where=store.where,
        schema_version=int(meta.get("schema_version", 0)),
        revision=int(meta.get("revision", 0)),
        size_bytes=size,
        rows=row_counts(store),
        indexes=[
            IndexHealth(name, problem) for name, problem in store.engine.index_health(store.write_engine)
        ],
    )
