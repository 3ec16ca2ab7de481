"""File scopes: folders of markdown memory that an assistant edits with its own file tools.

Each scope holds a ``MEMORY.md`` index (injected into the prompt, capped), topic files (read
on demand, never injected), an optional ``config.json`` and an ``archive/`` folder (never
injected, never deleted). The global scope is a folder the caller chooses; the project
scope is ``<project>/.pi/memory`` and exists for Memdesk only when the project is trusted:
an untrusted project is never read, stat'ed, mentioned or created.

Folders are created by the first write and by nothing else.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memdesk.config import SPEC_BY_KEY, validate_value
from memdesk.core.filecaps import (
    CappedIndex,
    MemoryEntry,
    append_entry,
    cap_index,
    find_entry,
    parse_entries,
    remove_entry,
)
from memdesk.core.scopes import GLOBAL, PROJECT
from memdesk.core.tokens import estimate_tokens
from memdesk.errors import BadInputError, MemdeskError, NotFoundError

if TYPE_CHECKING:
    from memdesk.services.context import Context

INDEX_NAME = "MEMORY.md"
CONFIG_NAME = "config.json"
ARCHIVE_DIR = "archive"

# config.json keys (pi-memory spelling) and the Settings keys whose ranges they share.
# Other keys belong to other tools reading the same folder and are left alone.
_CONFIG_KEYS = {
    "enabled": "files.enabled",
    "maxInjectLines": "files.max_inject_lines",
    "maxInjectBytes": "files.max_inject_bytes",
}


def project_memory_dir(project_dir: Path) -> Path:
    """The project scope's folder. Computing it touches nothing on disk."""
    return Path(project_dir).absolute() / ".pi" / "memory"


# --- reading -------------------------------------------------------------------------


class IndexCache:
    """Capped reads of MEMORY.md files, reused while the file and the caps are unchanged.

    The key is (mtime_ns, size, max_lines, max_bytes) per path, so an edit, a resize or new
    caps all cause a fresh read. One entry per path keeps the cache bounded.
    """

    def __init__(self) -> None:
        self._entries: dict[Path, tuple[tuple[int, int, int, int], CappedIndex]] = {}

    def read(self, path: Path, max_lines: int, max_bytes: int) -> CappedIndex | None:
        """The capped index, or None when the file does not exist. Other OSErrors propagate."""
        try:
            info = path.stat()
        except FileNotFoundError:
            self._entries.pop(path, None)
            return None
        key = (info.st_mtime_ns, info.st_size, max_lines, max_bytes)
        cached = self._entries.get(path)
        if cached is not None and cached[0] == key:
            return cached[1]
        capped = cap_index(path.read_bytes(), max_lines, max_bytes)
        self._entries[path] = (key, capped)
        return capped


_DEFAULT_CACHE = IndexCache()


@dataclass(frozen=True)
class FilesConfig:
    """Caps and switch in force after merging caller defaults, global and project config.json."""

    enabled: bool
    max_lines: int
    max_bytes: int
    read: tuple[Path, ...]  # the config.json files that exist and were read
    problems_by_folder: dict[Path, tuple[str, ...]]

    @property
    def problems(self) -> tuple[str, ...]:
        return tuple(p for found in self.problems_by_folder.values() for p in found)


def _read_config(folder: Path) -> tuple[dict[str, Any], Path | None, list[str]]:
    """One scope's valid config keys, the file if it was read, and what was wrong with it."""
    path = folder / CONFIG_NAME
    try:
        raw = json.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        return {}, None, []
    except (OSError, ValueError, RecursionError) as exc:  # ValueError: bad JSON or UTF-8
        return {}, path, [f"{path}: could not be read ({exc}); ignored"]
    if not isinstance(raw, dict):
        return {}, path, [f"{path}: expected a JSON object; ignored"]
    values: dict[str, Any] = {}
    problems: list[str] = []
    for name, key in _CONFIG_KEYS.items():
        if name not in raw:
            continue
        spec = SPEC_BY_KEY[key]
        value, problem = validate_value(spec, raw[name])
        if problem:
            problems.append(
                f"{path}: {name}: {raw[name]!r} is not valid; expected {spec.describe_range()}; ignored"
            )
        else:
            values[name] = value
    return values, path, problems


def load_files_config(folders: list[Path], max_lines: int, max_bytes: int) -> FilesConfig:
    """Merge the config.json of each folder in order: later folders override earlier ones,
    and the caller's caps are the defaults."""
    merged: dict[str, Any] = {
        "enabled": True,
        "maxInjectLines": max_lines,
        "maxInjectBytes": max_bytes,
    }
    read: list[Path] = []
    problems: dict[Path, tuple[str, ...]] = {}
    for folder in folders:
        values, path, found = _read_config(folder)
        merged.update(values)
        problems[folder] = tuple(found)
        if path is not None:
            read.append(path)
    return FilesConfig(
        enabled=merged["enabled"],
        max_lines=merged["maxInjectLines"],
        max_bytes=merged["maxInjectBytes"],
        read=tuple(read),
        problems_by_folder=problems,
    )


@dataclass(frozen=True)
class ScopeIndex:
    """One scope's MEMORY.md as injected. ``capped`` is None when it is missing or unreadable."""

    scope: str  # GLOBAL or PROJECT
    folder: Path
    capped: CappedIndex | None
    problem: str | None

    @property
    def index_path(self) -> Path:
        return self.folder / INDEX_NAME


def _read_index(scope: str, folder: Path, config: FilesConfig, cache: IndexCache) -> ScopeIndex:
    path = folder / INDEX_NAME
    try:
        capped = cache.read(path, config.max_lines, config.max_bytes)
    except OSError as exc:
        problem = f"{path}: could not be read ({exc.strerror or exc})"
        return ScopeIndex(scope, folder, None, problem)
    problem = None
    if capped is not None and not capped.valid_utf8:
        problem = f"{path}: not valid UTF-8; undecodable bytes are shown as \ufffd"
    return ScopeIndex(scope, folder, capped, problem)


def _scope_folders(global_dir: Path, project_dir: Path | None, trusted: bool) -> list[tuple[str, Path]]:
    folders = [(GLOBAL, Path(global_dir).absolute())]
    if project_dir is not None and trusted:
        folders.append((PROJECT, project_memory_dir(project_dir)))
    return folders


# --- the prompt block ----------------------------------------------------------------


@dataclass(frozen=True)
class FilesBlock:
    """The ``## Persistent memory`` section and what the preview needs to explain it."""

    text: str  # "" when left out
    sources: tuple[Path, ...]  # config.json and MEMORY.md files read, in reading order
    tokens: int
    truncated: str | None  # e.g. "truncated: 8000 of 9000 bytes", summed over the scopes
    problems: tuple[str, ...]
    reason: str | None  # "disabled" when a config.json turns the block off
    scopes: tuple[ScopeIndex, ...]
    max_lines: int
    max_bytes: int
    # Every folder and file whose change can change the block, present or not.
    depends_on: tuple[Path, ...] = ()

    @property
    def included(self) -> bool:
        return bool(self.text)


def _preamble(scopes: list[ScopeIndex]) -> str:
    project = next((s for s in scopes if s.scope == PROJECT), None)
    where = [f"- Global memory (this user, all projects): {scopes[0].folder}"]
    rules = [
        "- Check the index first and update an existing entry rather than adding a duplicate.",
        "- Keep MEMORY.md an index with one line per fact; put the detail in a topic file "
        "and point to it from the index.",
        "- Move stale entries and files into the archive/ folder beside them instead of "
        "deleting them; archive/ is never loaded into this prompt.",
    ]
    if project is not None:
        # The project may be a plain folder the person trusts, not a repository.
        where.append(f"- Project memory (this project, shared with whoever works on it): {project.folder}")
        rules.append(
            "- Project memory may be committed and read by others on the project: keep it "
            "factual and never store secrets there."
        )
    return "\n\n".join(
        [
            "You have a persistent memory made of markdown files that you read and edit with "
            "your own file tools. It lasts from one session to the next.",
            "\n".join(where),
            "Each folder has a MEMORY.md index, shown below, and topic files holding the detail; "
            "read a topic file when it is relevant. When you learn something worth keeping "
            "(a correction, a preference, a build or test command, a decision and its reason), "
            "save it:\n" + "\n".join(rules),
        ]
    )


def _scope_body(index: ScopeIndex) -> str:
    capped = index.capped
    if capped is None:
        if index.problem:
            return "(MEMORY.md exists but could not be read.)"
        return "(Nothing saved yet: there is no MEMORY.md in this folder.)"
    if not capped.text.strip() and not capped.truncated:
        return "(Nothing saved yet: MEMORY.md is empty.)"
    parts = [capped.text.rstrip()] if capped.text.strip() else []
    if capped.truncated:
        parts.append(
            f"[Index truncated: showing {capped.injected_bytes} of {capped.total_bytes} bytes. "
            "Keep MEMORY.md concise; move detail to topic files.]"
        )
    return "\n\n".join(parts)


def _render(scopes: list[ScopeIndex]) -> str:
    parts = ["## Persistent memory", _preamble(scopes)]
    for index in scopes:
        title = "Global" if index.scope == GLOBAL else "Project"
        parts.append(f"### {title} MEMORY.md  ({index.index_path})")
        parts.append(_scope_body(index))
    return "\n\n".join(parts)


def build_files_block(
    global_dir: Path,
    project_dir: Path | None,
    trusted: bool,
    max_lines: int,
    max_bytes: int,
    cache: IndexCache | None = None,
) -> FilesBlock:
    """Compose the persistent-memory section from the global and (trusted) project scopes.

    ``max_lines``/``max_bytes`` are the caller's settings; config.json files override them.
    Nothing is created. The text depends only on the files, so it is byte-stable while they
    are unchanged.
    """
    cache = _DEFAULT_CACHE if cache is None else cache
    folders = _scope_folders(global_dir, project_dir, trusted)
    depends_on = tuple(
        path for _, folder in folders for path in (folder, folder / INDEX_NAME, folder / CONFIG_NAME)
    )
    config = load_files_config([folder for _, folder in folders], max_lines, max_bytes)
    if not config.enabled:
        return FilesBlock(
            text="",
            sources=config.read,
            tokens=0,
            truncated=None,
            problems=config.problems,
            reason="disabled",
            scopes=(),
            max_lines=config.max_lines,
            max_bytes=config.max_bytes,
            depends_on=depends_on,
        )
    scopes = [_read_index(scope, folder, config, cache) for scope, folder in folders]
    read = [s.index_path for s in scopes if s.capped is not None]
    shown = [s.capped for s in scopes if s.capped is not None]
    truncated = None
    if any(c.truncated for c in shown):
        injected = sum(c.injected_bytes for c in shown)
        total = sum(c.total_bytes for c in shown)
        truncated = f"truncated: {injected} of {total} bytes"
    text = _render(scopes)
    problems = config.problems + tuple(s.problem for s in scopes if s.problem)
    return FilesBlock(
        text=text,
        sources=config.read + tuple(read),
        tokens=estimate_tokens(text),
        truncated=truncated,
        problems=problems,
        reason=None,
        scopes=tuple(scopes),
        max_lines=config.max_lines,
        max_bytes=config.max_bytes,
        depends_on=depends_on,
    )


# --- status --------------------------------------------------------------------------


@dataclass(frozen=True)
class MemoryFile:
    name: str  # relative to the scope folder: "MEMORY.md", "build.md", "archive/old.md"
    path: Path
    kind: str  # "index", "topic" or "archive"
    size: int


@dataclass(frozen=True)
class ScopeStatus:
    scope: str  # GLOBAL or PROJECT
    folder: Path
    trusted: bool  # always True for the global scope
    exists: bool | None  # None: not looked at, because the project is untrusted
    files: tuple[MemoryFile, ...]  # index first, then topics by name, then archive/ by name
    index: CappedIndex | None  # None when MEMORY.md is missing, unreadable or untrusted
    problems: tuple[str, ...]

    @property
    def index_path(self) -> Path:
        return self.folder / INDEX_NAME

    @property
    def over_cap(self) -> bool:
        return self.index is not None and self.index.truncated


@dataclass(frozen=True)
class FilesStatus:
    enabled: bool  # after config.json; the caller's files.enabled setting is separate
    max_lines: int
    max_bytes: int
    scopes: tuple[ScopeStatus, ...]

    @property
    def problems(self) -> tuple[str, ...]:
        return tuple(p for scope in self.scopes for p in scope.problems)


def _markdown_files(folder: Path, prefix: str, kind: str) -> list[MemoryFile]:
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = []
    for entry in entries:
        try:
            # Hidden names are skipped: temporary files, and names the operations refuse.
            if entry.name.endswith(".md") and not entry.name.startswith(".") and entry.is_file():
                size = entry.stat().st_size
                found.append(MemoryFile(prefix + entry.name, Path(entry.path), kind, size))
        except OSError:  # vanished or unreadable between listing and stat
            continue
    return sorted(found, key=lambda f: (f.name.casefold(), f.name))


def _list_files(folder: Path) -> tuple[MemoryFile, ...]:
    top = _markdown_files(folder, "", "topic")
    index = [MemoryFile(f.name, f.path, "index", f.size) for f in top if f.name == INDEX_NAME]
    topics = [f for f in top if f.name != INDEX_NAME]
    archived = _markdown_files(folder / ARCHIVE_DIR, ARCHIVE_DIR + "/", "archive")
    return tuple(index + topics + archived)


def files_status(
    global_dir: Path,
    project_dir: Path | None,
    trusted: bool,
    max_lines: int,
    max_bytes: int,
    cache: IndexCache | None = None,
) -> FilesStatus:
    """What each scope holds and how much of its index is injected. Creates nothing.

    An untrusted project is listed with its trust state and path only; its folder is not
    looked at.
    """
    cache = _DEFAULT_CACHE if cache is None else cache
    folders = _scope_folders(global_dir, project_dir, trusted)
    config = load_files_config([folder for _, folder in folders], max_lines, max_bytes)
    scopes = []
    for scope, folder in folders:
        index = _read_index(scope, folder, config, cache)
        problems = config.problems_by_folder[folder] + ((index.problem,) if index.problem else ())
        scopes.append(
            ScopeStatus(
                scope=scope,
                folder=folder,
                trusted=True,
                exists=folder.is_dir(),
                files=_list_files(folder),
                index=index.capped,
                problems=problems,
            )
        )
    if project_dir is not None and not trusted:
        folder = project_memory_dir(project_dir)
        scopes.append(ScopeStatus(PROJECT, folder, False, None, (), None, ()))
    return FilesStatus(config.enabled, config.max_lines, config.max_bytes, tuple(scopes))


# --- writing, archiving, restoring ----------------------------------------------------

_BAD_NAME_CHARS = re.compile(r"[/\\:\x00-\x1f]")


def check_name(name: str) -> str:
    """A memory file name: a plain ``*.md`` name inside the folder, never a path."""
    if not name or name.startswith(".") or _BAD_NAME_CHARS.search(name):
        raise BadInputError(
            f"{name!r} is not a file name in the memory folder",
            "Give a plain name such as build.md, without folders, '..' or a leading dot.",
        )
    if not name.endswith(".md") or len(name.encode("utf-8")) > 255:
        raise BadInputError(
            f"{name!r} is not a memory file name",
            "Memory files are markdown: use a name ending in .md.",
        )
    return name


def _read_text(path: Path) -> str:
    """Text of a file that is about to be rewritten: refuse rather than lose bytes."""
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise NotFoundError(f"{path} does not exist") from None
    except UnicodeDecodeError:
        raise MemdeskError(f"{path} is not valid UTF-8", "Fix the file in a text editor first.") from None
    except OSError as exc:
        raise MemdeskError(f"could not read {path}: {exc.strerror or exc}") from None


def _write_atomic(path: Path, text: str) -> None:
    """Readers see the old file or the new one, never a half-written one."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # os.open applies the umask, so a new file gets the same mode an editor would give it.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():
            shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise MemdeskError(f"could not write {path}: {exc.strerror or exc}") from None


def read_file(folder: Path, name: str) -> str:
    """A memory file's text for viewing; undecodable bytes appear as U+FFFD."""
    path = folder / check_name(name)
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        raise NotFoundError(f"{path} does not exist") from None
    except OSError as exc:
        raise MemdeskError(f"could not read {path}: {exc.strerror or exc}") from None


def write_file(folder: Path, name: str, text: str) -> Path:
    """Write (or replace) a file in a scope folder; the first write creates the folder."""
    path = folder / check_name(name)
    _write_atomic(path, text)
    return path


def _move(source: Path, target: Path) -> Path:
    if not source.is_file():
        raise NotFoundError(f"{source} does not exist")
    if target.exists():
        raise MemdeskError(
            f"{target} already exists",
            "Rename one of the two files first; nothing is overwritten.",
        )
    try:
        target.parent.mkdir(exist_ok=True)
        source.rename(target)
    except OSError as exc:
        raise MemdeskError(f"could not move {source} to {target}: {exc.strerror or exc}") from None
    return target


def archive_file(folder: Path, name: str) -> Path:
    """Move a whole file into ``archive/``. Returns its new path."""
    check_name(name)
    return _move(folder / name, folder / ARCHIVE_DIR / name)


def restore_file(folder: Path, name: str) -> Path:
    """Move a file back from ``archive/``; refused when a file of that name is in the way."""
    check_name(name)
    return _move(folder / ARCHIVE_DIR / name, folder / name)


# --- entries of MEMORY.md --------------------------------------------------------------


def _entries_path(folder: Path, archived: bool) -> Path:
    return folder / ARCHIVE_DIR / INDEX_NAME if archived else folder / INDEX_NAME


def list_entries(folder: Path, archived: bool = False) -> tuple[MemoryEntry, ...]:
    """Entries of MEMORY.md, or of ``archive/MEMORY.md`` when ``archived``; none if missing."""
    path = _entries_path(folder, archived)
    try:
        return parse_entries(_read_text(path))
    except NotFoundError:
        return ()


def _move_entry(source: Path, target: Path, entry: MemoryEntry) -> None:
    text = _read_text(source)
    found = find_entry(text, entry)
    if found is None:
        raise NotFoundError(
            f"that entry is no longer in {source}", "The file changed; reload it and try again."
        )
    try:
        existing = _read_text(target)
    except NotFoundError:
        existing = ""
    # Target first: if the second write fails the entry is in both files, never in neither.
    _write_atomic(target, append_entry(existing, found))
    _write_atomic(source, remove_entry(text, found))


def archive_entry(folder: Path, entry: MemoryEntry) -> None:
    """Move one entry from MEMORY.md to the end of ``archive/MEMORY.md``."""
    _move_entry(_entries_path(folder, False), _entries_path(folder, True), entry)


def restore_entry(folder: Path, entry: MemoryEntry) -> None:
    """Move one entry from ``archive/MEMORY.md`` back to the end of MEMORY.md."""
    _move_entry(_entries_path(folder, True), _entries_path(folder, False), entry)


class FileScopes:
    """The ``MEMORY.md`` scopes as the app's settings define them."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    @property
    def global_dir(self) -> Path:
        return self.ctx.files_global_dir

    def status(self, project_dir: Path | None, trusted: bool) -> FilesStatus:
        """What each scope holds and how much of its index the prompt gets (creates nothing)."""
        caps = self.ctx.settings.files
        return files_status(
            self.global_dir, project_dir, trusted, caps.max_inject_lines, caps.max_inject_bytes
        )
