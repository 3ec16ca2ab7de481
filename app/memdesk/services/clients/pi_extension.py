"""pi's Memdesk extension: the one file ``memdesk connect pi`` writes and ``--remove`` deletes.

pi has no MCP client; it loads TypeScript extensions from ``extensions/`` in its folder
(``~/.pi/agent``, or ``$PI_CODING_AGENT_DIR``). Memdesk's, ``memdesk.ts``, runs
``memdesk hook pi`` (``memdesk.services.pi_hook``): before each of the person's messages it
adds Memdesk's prompt for the project folder's app to pi's system prompt, and it gives the
model a ``remember`` tool. Only that file is ever written or deleted, and only when Memdesk
wrote it: any other extension, or a ``memdesk.ts`` of the person's own, is left as it is.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

from memdesk.errors import MemdeskError
from memdesk.services.clients.connect import ClientStatus, State
from memdesk.services.clients.files import FileChange, read_text, replace, why_unwritable
from memdesk.services.clients.known import PI

FILE_NAME = "memdesk.ts"
MARK = "// Memdesk for pi: written by `memdesk connect pi`;"
ADDED = "pi extension: Memdesk's prompt before each message, and the remember tool"
REMOVED = "removed the pi extension"
PROMPT_TIMEOUT_MS = 15_000
REMEMBER_TIMEOUT_MS = 30_000

_BODY = """\
// `memdesk connect pi --remove` takes it out again. Before each of your messages it adds
// Memdesk's prompt for this folder's app to pi's system prompt; its remember tool adds a
// memory to that app. Both act as the assistant python:pi, whose trust level and app limit
// you set in Memdesk. If Memdesk cannot answer, pi goes on without it.
import { Type } from "typebox";

const MEMDESK = __COMMAND__;

function memdesk(pi, args, options) {
  return pi.exec(MEMDESK[0], [...MEMDESK.slice(1), "hook", "pi", ...args], options);
}

export default function (pi) {
  pi.on("before_agent_start", async (event, ctx) => {
    const run = await memdesk(pi, ["prompt", "--", ctx.cwd], { timeout: __PROMPT_TIMEOUT__ });
    const memory = run.code === 0 ? run.stdout.trim() : "";
    if (memory) {
      return { systemPrompt: `${event.systemPrompt}\\n\\n${memory}` };
    }
  });

  pi.registerTool({
    name: "remember",
    label: "Remember",
    description:
      "Save one short, lasting note (a preference, a decision, a fact about this project or the " +
      "person) to the person's memory in Memdesk, so later sessions know it. The person may " +
      "review it before it is kept; the result says so.",
    parameters: Type.Object({
      text: Type.String({ description: "the note, one or two plain sentences" }),
    }),
    async execute(_toolCallId, params, signal, _onUpdate, ctx) {
      const run = await memdesk(pi, ["remember", "--", ctx.cwd, params.text], {
        signal,
        timeout: __REMEMBER_TIMEOUT__,
      });
      if (run.code !== 0) {
        throw new Error(run.stderr.trim() || `memdesk exited with status ${run.code}`);
      }
      return { content: [{ type: "text", text: run.stdout.trim() }], details: {} };
    },
  });
}
"""


def extension_path() -> Path:
    from memdesk.services.sources.catalog import BY_NAME

    return BY_NAME["pi"].home() / "extensions" / FILE_NAME


def extension_text(command: list[str]) -> str:
    """The extension, running ``command`` (``memdesk`` and the options that open the store)."""
    body = (
        _BODY.replace("__COMMAND__", json.dumps(command))
        .replace("__PROMPT_TIMEOUT__", str(PROMPT_TIMEOUT_MS))
        .replace("__REMEMBER_TIMEOUT__", str(REMEMBER_TIMEOUT_MS))
    )
    return f"{MARK}\n{body}"


def connect(command: list[str], dry_run: bool = False) -> list[FileChange]:
    """Write the extension (unless it is there as it would be written); what changed."""
    path = extension_path()
    current = _ours(path)
    text = extension_text(command)
    if current == text:
        return []
    _check_writable(path)
    if not dry_run:
        _write(path, text)
    return [FileChange(path, (ADDED,), None, created=current is None)]


def status(command: list[str]) -> ClientStatus:
    """Whether the extension is in place as ``connect`` would write it for ``command``, and
    what would stop ``connect`` or ``remove`` from changing it."""
    path = extension_path()
    try:
        current = _read(path)
    except MemdeskError as exc:
        return ClientStatus(PI, PI, path, State.UNREADABLE, exc.message)
    if current is None:
        state = State.NOT_CONNECTED
    elif not current.startswith(MARK):
        # The person's own memdesk.ts: pi has no Memdesk in it, and Memdesk may not replace it.
        return ClientStatus(PI, PI, path, State.NOT_CONNECTED, _not_ours(path).message)
    else:
        state = State.CONNECTED if current == extension_text(command) else State.DIFFERENT
    return ClientStatus(PI, PI, path, state, _why_unwritable(path) or "")


def remove(dry_run: bool = False) -> list[FileChange]:
    """Delete the extension Memdesk wrote, if it is there; what changed."""
    path = extension_path()
    if _ours(path) is None:
        return []
    _check_writable(path)
    if not dry_run:
        try:
            path.unlink()
        except OSError as exc:
            raise MemdeskError(f"{path} could not be removed ({exc.strerror or exc})") from None
    return [FileChange(path, (REMOVED,), None)]


def _read(path: Path) -> str | None:
    """The file's text; None when there is none."""
    if not path.exists() and not path.is_symlink():
        return None
    return read_text(path)


def _ours(path: Path) -> str | None:
    """The extension's text when Memdesk wrote it; None when there is none. A file of the same
    name that Memdesk did not write is refused, not replaced."""
    text = _read(path)
    if text is not None and not text.startswith(MARK):
        raise _not_ours(path)
    return text


def _not_ours(path: Path) -> MemdeskError:
    return MemdeskError(
        f"{path} was not written by Memdesk; not changed",
        "it is another pi extension of the same name: rename it to let Memdesk write its own",
    )


def _why_unwritable(path: Path) -> str | None:
    return why_unwritable(path) or _why_folder_unwritable(path.parent)


def _check_writable(path: Path) -> None:
    problem = _why_unwritable(path)
    if problem:
        raise MemdeskError(problem)


def _why_folder_unwritable(folder: Path) -> str | None:
    """Why no file may be added to or deleted from ``folder`` (or the nearest folder above it
    that exists, where it would be made); None when it may. Judged by its permissions, as for
    files, so root too leaves a folder alone that its owner made read-only."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return f"{existing} is not a folder; pi's extension cannot be written below it"
    if not existing.stat().st_mode & stat.S_IWUSR:
        return f"{existing} is not writable; not changed (make it writable for pi's extension)"
    return None


def _write(path: Path, text: str) -> None:
    try:
        replace(path, text)
    except OSError as exc:
        raise MemdeskError(f"{path} could not be written ({exc.strerror or exc})") from None
