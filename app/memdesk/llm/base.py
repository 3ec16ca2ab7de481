"""What every chat backend offers, and the factory that picks one from the settings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from memdesk.config import Settings
from memdesk.core.tokens import estimate_tokens

DEFAULT_MODELS = {"openai": "llama3.2", "anthropic": "claude-haiku-4-5"}
ANTHROPIC_API_URL = "https://api.anthropic.com"  # where an empty llm.anthropic_base_url points


@dataclass(frozen=True)
class Completion:
    """One reply. ``estimated`` is True when the server sent no token counts; ``cut_off``
    when the reply stopped at the token limit rather than where the model ended it."""

    text: str
    tokens_in: int
    tokens_out: int
    estimated: bool
    cut_off: bool = False


class ChatBackend(Protocol):
    """A model that answers one system + user prompt; failures raise LLMError."""

    name: str
    model: str
    max_tokens: int  # reply limit when complete() is not given one

    def complete(self, system: str, user: str, *, max_tokens: int | None = None) -> Completion:
        """Ask once, without retries; ``max_tokens`` overrides the configured reply limit."""
        ...


def build_completion(
    text: str,
    system: str,
    user: str,
    tokens_in: int | None,
    tokens_out: int | None,
    *,
    cut_off: bool = False,
) -> Completion:
    """Build a Completion, estimating the counts a server left out."""
    if tokens_in is None or tokens_out is None:
        estimated_in = estimate_tokens(system) + estimate_tokens(user)
        return Completion(text, estimated_in, estimate_tokens(text), True, cut_off)
    return Completion(text, tokens_in, tokens_out, False, cut_off)


def make_backend(settings: Settings, api_key: str | None) -> ChatBackend | None:
    """The backend named by ``llm.backend``; None for ``offline`` (no model at all)."""
    llm = settings.llm
    # Imported here so the offline path never loads the HTTP client libraries.
    if llm.backend == "openai":
        from memdesk.llm.openai_backend import OpenAIBackend

        return OpenAIBackend(
            base_url=llm.openai_base_url,
            model=llm.model or DEFAULT_MODELS["openai"],
            api_key=api_key,
            timeout_seconds=llm.timeout_seconds,
            max_tokens=llm.max_tokens,
        )
    if llm.backend == "anthropic":
        from memdesk.llm.anthropic_backend import AnthropicBackend

        return AnthropicBackend(
            base_url=llm.anthropic_base_url or ANTHROPIC_API_URL,
            model=llm.model or DEFAULT_MODELS["anthropic"],
            api_key=api_key,
            timeout_seconds=llm.timeout_seconds,
            max_tokens=llm.max_tokens,
        )
    return None
