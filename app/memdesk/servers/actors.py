"""The name an assistant's changes carry in history: ``mcp:`` and its client's own name."""

from __future__ import annotations

import re

from memdesk.core.trust import ACTOR_MAX_CHARS, MCP_PREFIX

ACTOR_PREFIX = MCP_PREFIX
UNKNOWN_CLIENT = "unknown"
_UNSAFE = re.compile(r"[^a-z0-9._-]+")


def actor_for_client(client_name: object) -> str:
    """``mcp:<name>`` from the name a client gives in its MCP handshake (clientInfo.name).

    Lower case, runs of anything but letters, digits, ``.``, ``_`` and ``-`` become one
    ``-``, and the whole stays within 40 characters: "Claude Desktop" -> ``mcp:claude-desktop``.
    """
    raw = client_name if isinstance(client_name, str) else ""
    name = _UNSAFE.sub("-", raw.strip().lower()).strip("-._")
    name = name[: ACTOR_MAX_CHARS - len(ACTOR_PREFIX)].rstrip("-._")
    return ACTOR_PREFIX + (name or UNKNOWN_CLIENT)
