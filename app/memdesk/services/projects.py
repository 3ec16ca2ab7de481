"""Which project a session works in, and whether the person trusts it.

The one list of trusted projects is the setting ``files.trusted_projects``: folders, compared
by their real path. A session's working folder is in a trusted project when the folder itself
is listed, or the repository root above it is; that project's ``.pi/memory`` is then the
project scope of the prompt. Deciding this looks at ``.git`` only (for a repository's root),
never at ``.pi``: a project's memory folder is not looked at before it is trusted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from memdesk.core.projects import app_id_for_folder
from memdesk.errors import BadInputError

TRUSTED_KEY = "files.trusted_projects"


def real_folder(folder: str | Path) -> Path:
    """The folder as the trust list compares it: ``~`` expanded, absolute, links resolved."""
    return Path(folder).expanduser().resolve()


@dataclass(frozen=True)
class Project:
    """A session's project: its working ``folder``, the ``app`` its memories go to (the
    folder's), and the ``root`` whose ``.pi/memory`` is the project scope when ``trusted``."""

    folder: Path
    app: str | None
    root: Path
    trusted: bool



def _is_repository_root(folder: Path) -> bool:
    return (folder / ".git").exists()  # a folder in a clone, a file in a worktree


def trusted_root(folder: Path, trusted: Iterable[str]) -> Path | None:
    """The listed folder that makes ``folder`` (a real path) trusted: itself, or the
    repository root above it when that is listed. None: not trusted."""
    listed = {real_folder(entry) for entry in trusted}
    if folder in listed:
        return folder
    above = [parent for parent in folder.parents if parent in listed]
    if not above:
        return None
    # The nearest repository root above the folder, looked for only up to a listed folder.
    for candidate in (folder, *folder.parents):
        if _is_repository_root(candidate):
            return candidate if candidate in listed else None
        if candidate == above[-1]:
            break
    return None


def check_project_folder(text: str) -> Path:
    """A project folder an assistant names: a full path (``~`` allowed), never one relative to
    wherever the server happens to run."""
    folder = Path(text).expanduser()
    if not folder.is_absolute():
        raise BadInputError(f"{text!r} is not a full path", "give the project folder's full path")
    return folder


def project_for(folder: str | Path, trusted: Iterable[str], trusted_anyway: bool = False) -> Project:
    """The project of a session working in ``folder``. ``trusted_anyway``: trust the folder
    itself for this once (``--trusted``), whatever the list says."""
    real = real_folder(folder)
    root = trusted_root(real, trusted)
    if root is None and trusted_anyway:
        root = real
    return Project(real, app_id_for_folder(str(real)), root or real, root is not None)


def repository_root(folder: Path) -> Path | None:
    """The nearest folder at or above ``folder`` that holds a ``.git``."""
    return next((c for c in (folder, *folder.parents) if _is_repository_root(c)), None)


def working_project(folder: str | Path, trusted: Iterable[str]) -> Project | None:
    """The project of a program started in ``folder`` (an MCP server that its client starts
    in the project), or None when the folder is no project: the home folder, the root, or a
    folder that is neither trusted nor in a repository (whose root is not home or root)."""
    real = real_folder(folder)
    not_projects = {Path.home().resolve(), Path(real.anchor)}
    if real in not_projects:
        return None
    project = project_for(real, trusted)
    if project.trusted:
        return project
    root = repository_root(real)
    return project if root is not None and root not in not_projects else None


def with_trust(listed: Iterable[str], folder: str | Path, trusted: bool) -> tuple[str, ...] | None:
    """The trust list with ``folder`` added (``trusted``) or taken out; None when it is
    already so. Entries naming the same real folder count as one."""
    real = real_folder(folder)
    entries = tuple(listed)
    kept = tuple(entry for entry in entries if real_folder(entry) != real)
    if trusted:
        return None if len(kept) < len(entries) else (*entries, str(real))
    return None if len(kept) == len(entries) else kept
