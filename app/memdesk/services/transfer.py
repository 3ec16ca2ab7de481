"""Whole-store JSON export and import, lossless: every row, Trash included.

The import is checked completely before anything is written, and written in one
transaction that is one history step, so a bad file changes nothing and a good one can be
undone.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Boolean, DateTime, Float, Integer, inspect, select
from sqlalchemy.orm import Session

from memdesk.core.namespaces import check_namespace, check_session_id
from memdesk.core.suspicious import flagged
from memdesk.core.timefmt import format_iso, naive_utc
from memdesk.errors import BadInputError
from memdesk.services.apps import check_app_id, check_importance
from memdesk.services.context import MAX_DOCUMENT_CHARS, Context, check_text
from memdesk.services.entries import check_category, check_key
from memdesk.services.privacy import parse_target
from memdesk.services.sessions import check_role
from memdesk.store.models import App, AppMemory, Base, ChatSession, Document, Entry, Message, PrivateItem
from memdesk.store.snapshots import column_values, snapshot

FORMAT = "memdesk"
VERSION = 1
MAX_IMPORT_BYTES = 512 * 1024 * 1024
# In dependency order: apps before their memories, sessions before their messages.
SECTIONS: tuple[tuple[str, type[Base]], ...] = (
    ("documents", Document),
    ("apps", App),
    ("app_memories", AppMemory),
    ("entries", Entry),
    ("sessions", ChatSession),
    ("messages", Message),
    # Which items no assistant reads: an import into another store keeps them private.
    ("private_items", PrivateItem),
)
MODES = ("skip", "overwrite")
ACCESS_LOG = "access_log"  # the read log's section, in an export made with it
_UNIQUE_COLUMNS: dict[type[Base], Any] = {
    Document: Document.namespace,
    Entry: Entry.key,
    App: App.app_id,
    ChatSession: ChatSession.id,
    PrivateItem: PrivateItem.target,
}


_INT64 = range(-(2**63), 2**63)


def _entry_importance(value: float) -> float:
    if not 0 <= value <= 1:
        raise BadInputError(f"must be a number from 0 to 1, not {value!r}")
    return value


# The rules the services apply when these values are written one by one.
_FIELD_CHECKS: dict[tuple[type[Base], str], Callable[[Any], object]] = {
    (Document, "namespace"): check_namespace,
    (App, "app_id"): check_app_id,
    (AppMemory, "app_id"): check_app_id,
    (AppMemory, "importance"): check_importance,
    (Entry, "key"): check_key,
    (Entry, "category"): check_category,
    (Entry, "importance"): _entry_importance,
    (ChatSession, "id"): check_session_id,
    (Message, "role"): check_role,
    (PrivateItem, "target"): parse_target,
}


def _check_value(model: type[Base], column: Any, value: object) -> object:
    """The value as it will be stored; raises BadInputError (without a location) if unusable."""
    kind = column.type
    if isinstance(kind, Boolean):
        ok = isinstance(value, bool)
    elif isinstance(kind, Integer):
        ok = isinstance(value, int) and not isinstance(value, bool)
        if isinstance(value, int) and value not in _INT64:
            raise BadInputError("number out of range")
    elif isinstance(kind, Float):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        if isinstance(value, float) and not math.isfinite(value):
            raise BadInputError("number out of range")
    else:
        ok = isinstance(value, str)
    if not ok:
        raise BadInputError(f"wrong type {type(value).__name__}")
    if isinstance(kind, DateTime):
        try:
            parsed = datetime.fromisoformat(str(value))
        except ValueError:
            raise BadInputError(f"{value!r} is not a date and time") from None
        return naive_utc(parsed).isoformat()
    if isinstance(value, str):
        check_text(value, "text", getattr(kind, "length", None) or MAX_DOCUMENT_CHARS, allow_empty=True)
    check = _FIELD_CHECKS.get((model, column.key))
    if check is not None:
        check(value)
    return value


def _check_row(section: str, index: int, model: type[Base], row: object) -> dict[str, Any]:
    where = f"{section}[{index}]"
    if not isinstance(row, dict):
        raise BadInputError(f"{where}: expected an object, found {type(row).__name__}")
    checked = dict(row)
    for column in inspect(model).columns:
        value = row.get(column.key)
        if value is None:
            if column.primary_key and column.key != "id":
                raise BadInputError(f"{where}.{column.key}: missing")
            if not column.nullable and column.default is None and not column.primary_key:
                raise BadInputError(f"{where}.{column.key}: missing")
            continue
        try:
            checked[column.key] = _check_value(model, column, value)
        except BadInputError as exc:
            # One line that says where: the services' hints are for typed commands.
            raise BadInputError(f"{where}.{column.key}: {exc.message}") from None
    return checked


def _no_constant(name: str) -> None:
    raise BadInputError(f"{name} is not a number JSON allows")


def _parse_json(path: Path) -> Any:
    try:
        size = path.stat().st_size
        if size > MAX_IMPORT_BYTES:
            raise BadInputError(f"{path} is {size:,} bytes; the limit is {MAX_IMPORT_BYTES:,}")
        return json.loads(path.read_bytes().decode("utf-8"), parse_constant=_no_constant)
    except FileNotFoundError:
        raise BadInputError(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        raise BadInputError(f"{path}: not valid UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise BadInputError(f"{path}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    except BadInputError as exc:
        raise BadInputError(f"{path}: not valid JSON ({exc.message})") from None
    except RecursionError:
        raise BadInputError(f"{path}: not a Memdesk export (nested too deeply)") from None
    except ValueError:  # a number with more digits than Python converts
        raise BadInputError(f"{path}: not a Memdesk export (a number is too long)") from None
    except OSError as exc:
        raise BadInputError(f"{path}: cannot be read ({exc.strerror})") from None


def read_export_file(path: Path) -> dict[str, list[dict[str, Any]]]:
    """Read and check a whole-store file; raises BadInputError saying where it is wrong."""
    data = _parse_json(path)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadInputError(f'{path}: not a Memdesk export (expected "format": "memdesk")')
    version = data.get("version")
    if not isinstance(version, int) or version < 1:
        raise BadInputError(f'{path}: "version" must be a positive whole number')
    if version > VERSION:
        raise BadInputError(
            f"{path} was written by a newer Memdesk (format version {version}); import it there"
        )
    checked: dict[str, list[dict[str, Any]]] = {}
    for section, model in SECTIONS:
        rows = data.get(section, [])
        if not isinstance(rows, list):
            raise BadInputError(f'{path}: "{section}" must be a list')
        try:
            checked[section] = [_check_row(section, i, model, row) for i, row in enumerate(rows)]
        except BadInputError as exc:
            raise BadInputError(f"{path}: {exc.message}") from None
    return checked


# What an imported row is called in a report, for the sections whose text reaches a prompt.
_LABELS: dict[type[Base], Callable[[dict[str, Any]], str]] = {
    Document: lambda row: str(row["namespace"]),
    Entry: lambda row: f"entry {row['key']}",
    AppMemory: lambda row: f"a memory of app {row['app_id']}",
}


@dataclass
class ImportReport:
    added: int = 0
    updated: int = 0
    skipped: int = 0
    # Imported texts that read as instructions to an assistant, each "label reads like…: why":
    # an export can come from an assistant's store, so the person is told before a prompt is.
    flagged: list[str] = field(default_factory=list)


class Transfer:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def export_data(self, with_access_log: bool = False) -> dict[str, Any]:
        """Every row of memory; the read log only when asked (it says who read what, which is
        not memory; an import leaves it out)."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "exported_at": format_iso(self.ctx.now()),
        }
        with self.ctx.store.read() as session:
            for section, model in SECTIONS:
                pk = inspect(model).primary_key[0]
                data[section] = [snapshot(row) for row in session.scalars(select(model).order_by(pk))]
        if with_access_log:
            from memdesk.services.access_log import AccessLog

            data[ACCESS_LOG] = [read.to_json() for read in AccessLog(self.ctx).all_reads()]
        return data

    def export_file(self, path: Path, with_access_log: bool = False) -> dict[str, int]:
        data = self.export_data(with_access_log)
        payload = json.dumps(data, ensure_ascii=False, indent=1)
        tmp = path.with_name(path.name + ".part")
        try:
            tmp.write_text(payload, encoding="utf-8")
            tmp.replace(path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise BadInputError(f"cannot write {path}: {exc.strerror}") from None
        return {section: len(data[section]) for section in [*dict(SECTIONS), ACCESS_LOG] if section in data}

    def import_file(self, path: Path, mode: str = "skip") -> ImportReport:
        if mode not in MODES:
            raise BadInputError(f"mode {mode!r} is not valid", "expected skip or overwrite")
        data = read_export_file(path)
        report = ImportReport()
        with self.ctx.change(f"Import {path.name}") as session:
            for section, model in SECTIONS:
                for row in data[section]:
                    outcome = self._import_row(session, model, row, mode)
                    setattr(report, outcome, getattr(report, outcome) + 1)
                    label = _LABELS.get(model)
                    if outcome != "skipped" and label is not None and row.get("deleted_at") is None:
                        found = flagged(label(row), str(row.get("content") or ""))
                        if found:
                            report.flagged.append(found)
        return report

    @staticmethod
    def _import_row(session: Session, model: type[Base], row: dict[str, Any], mode: str) -> str:
        values = column_values(model, row)
        existing = _find_existing(session, model, row)
        if existing is not None:
            if mode == "skip":
                return "skipped"
            for key, value in values.items():
                if key != "id":
                    setattr(existing, key, value)
            return "updated"
        if "id" in values and (values["id"] is None or session.get(model, values["id"]) is not None):
            values.pop("id")  # that id is taken by another row here: take a new one
        if model is Message and session.get(ChatSession, values["session_id"]) is None:
            raise BadInputError(f"a message refers to session {values['session_id']!r}, not in the file")
        if model is AppMemory and session.get(App, values["app_id"]) is None:
            session.add(App(app_id=values["app_id"], created_at=values["created_at"]))
        session.add(model(**values))
        session.flush()
        return "added"


def _find_existing(session: Session, model: type[Base], row: dict[str, Any]) -> Base | None:
    """The row already in the store that an imported row stands for, matched by meaning."""
    unique = _UNIQUE_COLUMNS.get(model)
    if unique is not None:
        return session.scalar(select(model).where(unique == row[unique.key]))
    decoded = column_values(model, row)
    if model is AppMemory:
        condition = (
            (AppMemory.app_id == decoded["app_id"])
            & (AppMemory.content == decoded["content"])
            & (AppMemory.created_at == decoded["created_at"])
        )
        return session.scalar(select(AppMemory).where(condition))
    condition = (
        (Message.session_id == decoded["session_id"])
        & (Message.role == decoded["role"])
        & (Message.content == decoded["content"])
        & (Message.created_at == decoded["created_at"])
    )
    return session.scalar(select(Message).where(condition))
