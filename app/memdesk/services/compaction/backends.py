"""Choosing the steps for a run: the backend, its key, and a watch on every model call."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from memdesk.config import Settings
from memdesk.core.backends import BACKENDS
from memdesk.errors import BadInputError, MemdeskError
from memdesk.llm import prompts
from memdesk.llm.base import ChatBackend, Completion, make_backend
from memdesk.llm.keys import ENV_VAR, get_api_key
from memdesk.llm.steps import LLMSteps, Steps, make_steps
from memdesk.llm.transcript import format_transcript
from memdesk.services.compaction.model import CancelToken, Tally

# Replies are capped low for the connection test; 64 is the smallest llm.max_tokens allowed.
_PROBE_MAX_TOKENS = 64


def settings_for(settings: Settings, backend: str | None) -> Settings:
    """The settings with another backend chosen for one run.

    ``llm.model`` names a model of the configured backend, so another backend gets its default.
    """
    if backend is None or backend == settings.llm.backend:
        return settings
    if backend not in BACKENDS:
        raise BadInputError(f"unknown backend {backend!r}", "expected one of " + ", ".join(BACKENDS))
    return settings.with_values({"llm.backend": backend, "llm.model": ""})


def describe_key(backend: str) -> str:
    """Where the key for ``backend`` comes from, in a sentence; MemdeskError when no keyring works."""
    if os.environ.get(ENV_VAR):
        return f"Using the key in {ENV_VAR}, which overrides the keyring while it is set."
    if get_api_key(backend):
        return "A key is stored in the system keyring."
    if backend == "openai":
        return "No key stored. Local servers such as Ollama need none."
    return "No key stored yet: paste one and press Save key."


def api_key_for(backend: str) -> str | None:
    """The stored key; for ``openai`` a missing keyring means no key, as local servers need none."""
    if backend == "offline":
        return None
    try:
        return get_api_key(backend)
    except MemdeskError:
        if backend == "openai":
            return None
        raise


class WatchedBackend:
    """Stops before each call once cancelled, and counts every call and its tokens."""

    def __init__(
        self, inner: ChatBackend, cancel: CancelToken, tally: Tally, on_call: Callable[[], None]
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.model = inner.model
        self.max_tokens = inner.max_tokens
        self.cancel = cancel
        self.tally = tally
        self.on_call = on_call

    def complete(self, system: str, user: str, *, max_tokens: int | None = None) -> Completion:
        self.cancel.check()
        self.on_call()
        self.tally.call()  # before the call: a failed call was still made
        reply = self.inner.complete(system, user, max_tokens=max_tokens)
        self.tally.tokens(reply.tokens_in, reply.tokens_out, reply.estimated)
        return reply


def make_run_steps(
    settings: Settings, cancel: CancelToken, tally: Tally, on_call: Callable[[], None]
) -> tuple[Steps, str]:
    """The steps for ``llm.backend`` and the model's name ("" offline)."""

    def watched(backend: ChatBackend) -> ChatBackend:
        return WatchedBackend(backend, cancel, tally, on_call)

    steps = make_steps(settings, api_key_for(settings.llm.backend), watched)
    return steps, steps.backend.model if isinstance(steps, LLMSteps) else ""


def check_connection(settings: Settings, api_key: str | None) -> str:
    """Make two tiny calls with these settings: how soon the model answers a short request,
    and how fast it writes a reply that runs to the limit. A sentence, or LLMError."""
    backend = make_backend(settings, api_key)
    if backend is None:
        return "The offline backend needs no connection: it runs inside Memdesk."
    started = time.perf_counter()
    # The facts prompt on a one-line greeting: the expected reply is the short "no facts" answer.
    backend.complete(
        prompts.FACTS_SYSTEM,
        prompts.conversation_message(format_transcript([("user", "Hello.")])),
        max_tokens=_PROBE_MAX_TOKENS,
    )
    seconds = time.perf_counter() - started
    started = time.perf_counter()
    counted = backend.complete(prompts.SPEED_PROBE, prompts.SPEED_PROBE_MESSAGE, max_tokens=_PROBE_MAX_TOKENS)
    speed = counted.tokens_out / max(time.perf_counter() - started, 1e-6)
    about = "about " if counted.estimated else ""  # the server sent no token counts
    llm = settings.llm
    where = llm.openai_base_url if backend.name == "openai" else llm.anthropic_base_url or "the Anthropic API"
    return (
        f"Connected: {where} answered with model {backend.model} in {seconds:.1f} s; "
        f"it writes {about}{speed:,.0f} tokens per second."
    )
