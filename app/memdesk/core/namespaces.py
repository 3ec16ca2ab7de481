"""The namespace forms a document may have, and session ids."""

from __future__ import annotations

import re

from memdesk.errors import BadInputError

USER_KINDS = ("profile", "patterns", "facts", "working")
_NAME = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}"
_SESSION = r"[^\s/]{1,200}"
_FORMS = (
    re.compile(rf"^{_NAME}/(?:{'|'.join(USER_KINDS)})$"),
    re.compile(r"^global$"),
    re.compile(rf"^sessions/{_SESSION}(?:/working)?$"),
)
_SESSION_ID = re.compile(r"^([A-Za-z0-9_.-]{1,64}):(\S{1,200})$")

# What a session id looks like, as every channel's description and refusal says it.
SESSION_ID_FORM = (
    "CHANNEL:ID: a channel name (letters, digits, '.', '_' or '-'), a colon, then the "
    "conversation's id in that channel (no spaces), e.g. telegram:42 or web:abc"
)

NAMESPACE_FORMS = (
    "<name>/profile, <name>/patterns, <name>/facts (<name>: the user namespace, e.g. user/profile), "
    "global, sessions/<channel:id>"
)


def check_namespace(namespace: str) -> str:
    if not any(form.match(namespace) for form in _FORMS):
        raise BadInputError(f"unknown namespace {namespace!r}", f"expected one of: {NAMESPACE_FORMS}")
    return namespace


def is_working(namespace: str) -> bool:
    return namespace.endswith("/working")


def check_session_id(session_id: str) -> str:
    if not _SESSION_ID.match(session_id):
        raise BadInputError(
            f"session id {session_id!r} is not of the form CHANNEL:ID, e.g. telegram:42",
            f"a session id is {SESSION_ID_FORM}",
        )
    return session_id


def channel_of(session_id: str) -> str:
    return session_id.split(":", 1)[0]


def working_namespace(user_namespace: str, session_id: str | None) -> str:
    """Where working memory lives: ``{ns}/working``, or per session when ns is empty."""
    if user_namespace:
        return f"{user_namespace}/working"
    if not session_id:
        raise BadInputError(
            "per-session mode (empty memory.user_namespace) needs a session",
            "pass --session CHANNEL:ID",
        )
    return f"sessions/{check_session_id(session_id)}/working"
