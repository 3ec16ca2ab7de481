"""How far the person trusts each assistant, and which of its writes wait for their review.

An assistant is an actor whose name starts with ``mcp:`` (a client of the MCP server),
``api:`` (a token of the admin API) or ``python:`` (a program that opened the store with
``memdesk.assistant.Assistant``). Everyone else — the person in the window or at the
command line, compaction they reviewed — is never held. Pure: no I/O.
"""

from __future__ import annotations

from enum import StrEnum

MCP_PREFIX = "mcp:"
API_PREFIX = "api:"
PYTHON_PREFIX = "python:"
ASSISTANT_PREFIXES = (MCP_PREFIX, API_PREFIX, PYTHON_PREFIX)
ACTOR_MAX_CHARS = 40  # history_steps.actor, agent_clients.name and assistant_trust.actor


class TrustLevel(StrEnum):
    READ_ONLY = "read-only"  # every write is refused
    REVIEW_EVERYTHING = "review-everything"  # every write is held
    REVIEW_SUSPICIOUS = "review-suspicious"  # a write the detector flags is held (the default)
    TRUSTED = "trusted"  # nothing is held

    @property
    def label(self) -> str:
        return LEVEL_LABELS[self]


LEVEL_LABELS = {
    TrustLevel.READ_ONLY: "Read only",
    TrustLevel.REVIEW_EVERYTHING: "Review everything",
    TrustLevel.REVIEW_SUSPICIOUS: "Review suspicious",
    TrustLevel.TRUSTED: "Trusted",
}
# What each level means for the assistant's writes, in a phrase (the window's trust menu).
LEVEL_MEANINGS = {
    TrustLevel.READ_ONLY: "its writes are refused",
    TrustLevel.REVIEW_EVERYTHING: "every write waits for you",
    TrustLevel.REVIEW_SUSPICIOUS: "writes that read like instructions, and to your profile, wait",
    TrustLevel.TRUSTED: "everything is written at once",
}
DEFAULT_LEVEL = TrustLevel.REVIEW_SUSPICIOUS
LEVELS = tuple(level.value for level in TrustLevel)

# Documents that are in every prompt, whatever the session: a write there is held unless the
# assistant is trusted. Names are under the user namespace setting (``user/profile``).
ALWAYS_IN_PROMPT = ("profile", "patterns")

REVIEW_ALL_REASON = "this assistant's writes are all reviewed"


def is_assistant(actor: str) -> bool:
    return actor.startswith(ASSISTANT_PREFIXES)


def parse_level(text: str) -> TrustLevel:
    """A level from its name, ignoring case, spaces and "all" for "everything"; ValueError if none."""
    wanted = "-".join(text.strip().lower().replace("_", " ").split())
    wanted = "review-everything" if wanted == "review-all" else wanted
    try:
        return TrustLevel(wanted)
    except ValueError:
        raise ValueError(f"{text!r} is not a trust level; choose one of {', '.join(LEVELS)}") from None


def hold_reasons(level: TrustLevel, always_in_prompt: bool, flagged: list[str]) -> list[str]:
    """Why a write at ``level`` waits for review ([] : it goes through).

    ``always_in_prompt``: it writes to a document every prompt carries; ``flagged``: what the
    detector found in its text. A read-only assistant is refused before this is asked.
    """
    if level is TrustLevel.TRUSTED:
        return []
    reasons: list[str] = []
    if level is TrustLevel.REVIEW_EVERYTHING:
        reasons.append(REVIEW_ALL_REASON)
    if always_in_prompt:
        reasons.append("it changes a document that is in every prompt")
    return reasons + flagged
