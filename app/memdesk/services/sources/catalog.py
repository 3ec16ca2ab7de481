"""The assistants whose transcripts Memdesk reads: where each keeps them and how to read them."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from memdesk.services.sources.claude_code import ClaudeCodeReader
from memdesk.services.sources.codex import CodexReader
from memdesk.services.sources.notes import Note, ToolCalls
from memdesk.services.sources.pi import PiReader

_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


class Reader(Protocol):
    cwd: str | None

    def read(self, record: dict) -> list[Note]: ...


@dataclass(frozen=True)
class Assistant:
    name: str  # the session channel and the source's name: claude-code, codex, pi
    title: str
    setting: str  # the key that turns it on
    env: str  # the variable that moves its folder
    default_home: str  # its folder under the home folder
    pattern: str  # its transcripts, below the folder
    reader: Callable[[ToolCalls], Reader]

    def home(self) -> Path:
        """This assistant's own folder on this machine (``~/.pi/agent``, or where its variable says)."""
        home = os.environ.get(self.env)
        return Path(home).expanduser() if home else Path.home() / self.default_home

    def folder(self) -> Path:
        """Where this assistant keeps its transcripts on this machine."""
        return self.home() / ("projects" if self.name == "claude-code" else "sessions")

    def files(self) -> Iterator[Path]:
        """Its transcript files; subagents' own files (Claude Code's ``subagents/``) are left out."""
        folder = self.folder()
        if folder.is_dir():
            yield from (path for path in folder.glob(self.pattern) if "subagents" not in path.parts)

    def session_id(self, path: Path) -> str:
        """``<assistant>:<session id>``: the id in the file's name (a UUID), else the whole name."""
        found = _UUID.findall(path.stem)
        own = found[-1] if found else re.sub(r"\s+", "-", path.stem)[:200]
        return f"{self.name}:{own}"


ASSISTANTS: tuple[Assistant, ...] = (
    Assistant(
        "claude-code",
        "Claude Code",
        "sources.claude_code",
        "CLAUDE_CONFIG_DIR",
        ".claude",
        "*/*.jsonl",
        ClaudeCodeReader,
    ),
    Assistant(
        "codex", "Codex CLI", "sources.codex", "CODEX_HOME", ".codex", "**/rollout-*.jsonl", CodexReader
    ),
    Assistant("pi", "pi", "sources.pi", "PI_CODING_AGENT_DIR", ".pi/agent", "*/*.jsonl", PiReader),
)
BY_NAME = {assistant.name: assistant for assistant in ASSISTANTS}
