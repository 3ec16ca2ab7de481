"""Rows as JSON-able dicts and back, for history (undo/redo) and whole-store export."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, inspect

from memdesk.store.models import TRACKED_MODELS, Base

MODEL_BY_TABLE: dict[str, type[Base]] = {model.__tablename__: model for model in TRACKED_MODELS}
# Bookkeeping that history neither records nor restores: counting a failed compaction is
# not a change a person undoes, and must not make undo of a real change look conflicting.
HISTORY_SKIP: frozenset[str] = frozenset({"failure_count"})


def _encode(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _decode(column_type: Any, value: Any) -> Any:
    if value is not None and isinstance(column_type, DateTime):
        return datetime.fromisoformat(value)
    return value


def primary_key(obj: Base) -> str:
    identity = inspect(obj).identity
    if identity is None:
        raise ValueError("object has no identity yet")
    return str(identity[0])


def snapshot(obj: Base, skip: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The row's current column values (less the ``skip`` columns)."""
    mapper = inspect(type(obj))
    return {attr.key: _encode(getattr(obj, attr.key)) for attr in mapper.column_attrs if attr.key not in skip}


def committed_snapshot(obj: Base, skip: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The row's values as last loaded from the database, ignoring pending changes."""
    state = inspect(obj)
    values: dict[str, Any] = {}
    for attr in state.mapper.column_attrs:
        if attr.key in skip:
            continue
        history = state.attrs[attr.key].history
        if history.deleted:
            values[attr.key] = _encode(history.deleted[0])
        else:
            values[attr.key] = _encode(getattr(obj, attr.key))
    return values


def column_values(model: type[Base], data: dict[str, Any]) -> dict[str, Any]:
    """Decode a snapshot into constructor keyword arguments, ignoring unknown keys."""
    mapper = inspect(model)
    return {
        attr.key: _decode(attr.columns[0].type, data[attr.key])
        for attr in mapper.column_attrs
        if attr.key in data
    }


def apply_snapshot(obj: Base, data: dict[str, Any]) -> None:
    for key, value in column_values(type(obj), data).items():
        setattr(obj, key, value)
