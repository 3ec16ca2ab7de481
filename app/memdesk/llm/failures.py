"""Plain-words LLMError builders shared by the HTTP backends.

Each says what failed, on which backend, and what to check. Server-supplied detail is
shortened and scrubbed of the API key before it goes into a message.
"""

from __future__ import annotations

import socket

from memdesk.core.backends import BACKEND_LABELS
from memdesk.errors import LLMError, ModelUnreachableError

_DETAIL_LIMIT = 200


def scrub(detail: str, secret: str | None) -> str:
    """Shorten server text and blank out the key, in case a server echoes it back."""
    if secret:
        detail = detail.replace(secret, "***")
    detail = " ".join(detail.split())
    return detail if len(detail) <= _DETAIL_LIMIT else detail[: _DETAIL_LIMIT - 1] + "…"


def server_detail(body: object, secret: str | None) -> str:
    """The human part of an error body, in either protocol's shape."""
    if isinstance(body, dict):
        error = body.get("error")
        nested = isinstance(error, dict)
        body = error.get("message", "") if nested else body.get("message") or error or ""
    return scrub(body if isinstance(body, str) else "", secret)


def server(backend: str) -> str:
    """The backend's server as the window names it: "OpenAI-compatible server", "Anthropic server"."""
    label = BACKEND_LABELS.get(backend, backend)
    return label if label.endswith("server") else f"{label} server"


def timeout(backend: str, url: str, seconds: float) -> LLMError:
    return LLMError(
        f"The {server(backend)} at {url} did not answer within {seconds:g} s (llm.timeout_seconds).",
        backend,
        "Raise llm.timeout_seconds in Settings, use a smaller or faster model, or check that "
        "the server is not overloaded.",
    )


def unreachable(backend: str, url: str) -> LLMError:
    """The connection was lost on the way: the request may have reached the model."""
    return LLMError(
        f"Could not connect to the {server(backend)} at {url}.",
        backend,
        f"Is the server running at {url}? Check the address (llm.{backend}_base_url) and your network.",
    )


def not_listening(backend: str, url: str) -> ModelUnreachableError:
    """Nothing answered at ``url``: the connection was refused or the name did not resolve."""
    return ModelUnreachableError(
        f"The {server(backend)} at {url} is not reachable; nothing changed.",
        backend,
        f"Is the server running at {url}? Check the address (llm.{backend}_base_url) and your network.",
    )


def connection_failed(backend: str, url: str, error: BaseException) -> LLMError:
    """``not_listening`` when the connection was refused or the name did not resolve (the
    socket's error is at the root of the library's), ``unreachable`` otherwise."""
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, ConnectionRefusedError | socket.gaierror):
            return not_listening(backend, url)
        cause = cause.__cause__ or cause.__context__
    return unreachable(backend, url)


def http_status(backend: str, url: str, status: int, detail: str) -> LLMError:
    """Map an HTTP error status to a sentence and a next step."""
    said = f" The server said: {detail}" if detail else ""
    if status in (401, 403):
        return LLMError(
            f"The {server(backend)} rejected the API key (HTTP {status}).{said}",
            backend,
            f"Check the API key for the {server(backend)} in Settings (it is kept in the system keyring), "
            "or the MEMDESK_API_KEY variable if you set one.",
        )
    if status == 404:
        return LLMError(
            f"The {server(backend)} at {url} has no such model or endpoint (HTTP 404).{said}",
            backend,
            "Check the model name (llm.model) and the server URL; OpenAI-compatible URLs usually end in /v1.",
        )
    if status == 429:
        return LLMError(
            f"The {server(backend)} is rate limiting requests (HTTP 429).{said}",
            backend,
            "Wait a little and try again; the messages stay unconsolidated until then.",
        )
    if status >= 500:
        return LLMError(
            f"The {server(backend)} had an internal error (HTTP {status}).{said}",
            backend,
            "This is on the server's side; try again later or check the server's logs.",
        )
    return LLMError(
        f"The {server(backend)} refused the request (HTTP {status}).{said}",
        backend,
        "Check the model name (llm.model) and the reply limit (llm.max_tokens).",
    )


def empty_reply(backend: str, cut_off: bool) -> LLMError:
    hint = (
        "The reply hit the token limit before any text; raise llm.max_tokens."
        if cut_off
        else "Try again, or try another model."
    )
    return LLMError(f"The model on the {server(backend)} returned an empty reply.", backend, hint)


def refusal(backend: str, detail: str) -> LLMError:
    said = f" It said: {detail}" if detail else ""
    return LLMError(
        f"The model on the {server(backend)} declined to process this conversation.{said}",
        backend,
        "Try another model, or use the offline backend for this session.",
    )


def unreadable(backend: str, url: str) -> LLMError:
    return LLMError(
        f"The reply from the {server(backend)} at {url} could not be read.",
        backend,
        "Check that the URL points at a server speaking this protocol (for OpenAI-compatible "
        "servers the URL usually ends in /v1).",
    )


def bad_reply(backend: str, step: str, problem: str) -> LLMError:
    """A reply of the wrong shape, twice in a row: a failed call, never the person's mistake."""
    return LLMError(
        f"The model's reply to the {step} step could not be used, twice in a row: {problem}.",
        backend,
        "Try another (or a larger) model, or the offline backend for this session; the messages "
        "stay unconsolidated until a run succeeds.",
    )
