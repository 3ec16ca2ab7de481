"""Large Claude Code transcripts for the benchmarks, written as Claude Code writes them.

A turn is a user message, an assistant reply with thinking, text and a tool call, the tool's
result (often a file's contents, tens of KB), and the records Claude Code adds around them
(attachments, api requests, last-prompt). Seeded, so every run reads the same file.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

SESSION = "7e2f4a10-3b5c-4d6e-8f90-a1b2c3d4e5f6"
WORDS = (
    "ledger",
    "invoice",
    "cents",
    "rounding",
    "export",
    "report",
    "schema",
    "migration",
    "test",
    "deploy",
    "review",
    "budget",
    "client",
    "release",
    "branch",
    "server",
    "cache",
    "queue",
    "worker",
    "index",
    "query",
    "backup",
    "customer",
)


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def _records(rng: random.Random, turn: int) -> list[dict]:
    base = {
        "sessionId": SESSION,
        "cwd": "/home/ada/src/ledger",
        "version": "2.1.331",
        "isSidechain": False,
        "timestamp": f"2026-05-01T{9 + turn // 3600 % 12:02d}:{turn // 60 % 60:02d}:{turn % 60:02d}.000Z",
    }
    call = f"toolu_{turn:08d}"
    body = "\n".join(_sentence(rng, 12) for _ in range(rng.randint(50, 400)))
    return [
        {**base, "type": "user", "message": {"role": "user", "content": _sentence(rng, 25)}},
        {**base, "type": "attachment", "attachment": {"type": "date", "date": "2026-05-01"}},
        {
            **base,
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": _sentence(rng, 80), "signature": "sig" * 40},
                    {"type": "text", "text": _sentence(rng, 40)},
                    {
                        "type": "tool_use",
                        "id": call,
                        "name": rng.choice(["Read", "Bash", "Grep"]),
                        "input": {"file_path": f"/home/ada/src/ledger/mod{turn}.py", "command": "pytest -q"},
                    },
                ],
            },
        },
        {
            **base,
            "type": "user",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": call, "content": body}],
            },
        },
        {**base, "type": "api-request", "params": {"model": "claude", "max_tokens": 32000}},
        {"type": "last-prompt", "lastPrompt": "…", "sessionId": SESSION},
    ]


def write_transcript(path: Path, megabytes: int, seed: int = 20261125) -> int:
    """Write about ``megabytes`` MB of transcript; the number of turns."""
    rng = random.Random(seed)
    target = megabytes * 1024 * 1024
    turns = 0
    with path.open("w", encoding="utf-8") as handle:
        while handle.tell() < target:
            handle.write("".join(json.dumps(r) + "\n" for r in _records(rng, turns)))
            turns += 1
    return turns
