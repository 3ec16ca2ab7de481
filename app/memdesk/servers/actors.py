"""The name an assistant's changes carry in history: its kind (``mcp:``, ``python:``) and
the name it gives itself."""

from __future__ import annotations

import re

from memdesk.core.trust import ACTOR_MAX_CHARS, MCP_PREFIX

ACTOR_PREFIX = MCP_PREFIX
UNKNOWN_CLIENT = "unknown"
_UNSAFE = re.compile(r"[^a-z0-9._-]+")


def actor_name(prefix: str, name: object) -> str:
    """``<prefix><name>``, the name made safe to show and to match.

    Lower case, runs of anything but letters, digits, ``.``, ``_`` and ``-`` become one
    ``-``, and the whole stays within 40 characters: "Claude Desktop" -> ``mcp:claude-desktop``.
    """
    raw = name if isinstance(name, str) else ""
    safe = _UNSAFE.sub("-", raw.strip().lower()).strip("-._")
    safe = safe[: ACTOR_MAX_CHARS - len(prefix)].rstrip("-._")
    return prefix + (safe or UNKNOWN_CLIENT)


def actor_for_client(client_name: object) -> str:
    """``mcp:<name>`` from the name a client gives in its MCP handshake (clientInfo.name)."""
    return actor_name(ACTOR_PREFIX, client_name)
