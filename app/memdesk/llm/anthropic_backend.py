"""Chat through the Anthropic Messages API."""

from __future__ import annotations

import anthropic

from memdesk.errors import LLMError
from memdesk.llm import failures
from memdesk.llm.base import ANTHROPIC_API_URL, Completion, build_completion


class AnthropicBackend:
    """One Messages call per ``complete``; no retries, so failures surface at once."""

    name = "anthropic"

    def __init__(
        self,
        *,
        model: str,
        api_key: str | None,
        timeout_seconds: float,
        max_tokens: int,
        base_url: str = ANTHROPIC_API_URL,
    ) -> None:
        if not api_key:
            raise LLMError(
                "No API key is set for the anthropic backend.",
                self.name,
                "Add the key in Settings (it is kept in the system keyring), or set "
                "MEMDESK_API_KEY for this run.",
            )
        self.model = model
        self.base_url = base_url
        self.max_tokens = max_tokens
        self._timeout = timeout_seconds
        self._secret = api_key
        # An explicit key and URL keep the client from reading profiles or env overrides.
        self._client = anthropic.Anthropic(
            api_key=api_key, base_url=base_url, timeout=timeout_seconds, max_retries=0
        )

    def complete(self, system: str, user: str, *, max_tokens: int | None = None) -> Completion:
        try:
            message = self._client.messages.create(
                model=self.model,
                system=system,
                messages=[{"role": "user", "content": user}],
                max_tokens=max_tokens or self.max_tokens,
            )
        # "from None": the library's exceptions carry the request, headers included.
        except anthropic.APITimeoutError:
            raise failures.timeout(self.name, self.base_url, self._timeout) from None
        except anthropic.APIConnectionError as exc:
            raise failures.connection_failed(self.name, self.base_url, exc) from None
        except anthropic.APIStatusError as exc:
            detail = failures.server_detail(exc.body, self._secret)
            raise failures.http_status(self.name, self.base_url, exc.status_code, detail) from None
        except (anthropic.AnthropicError, ValueError):
            raise failures.unreadable(self.name, self.base_url) from None

        if message.content is None:
            raise failures.unreadable(self.name, self.base_url)
        text = "".join(block.text for block in message.content if block.type == "text").strip()
        if message.stop_reason == "refusal":
            explanation = message.stop_details.explanation if message.stop_details else None
            detail = failures.scrub(explanation or text, self._secret)
            raise failures.refusal(self.name, detail)
        cut_off = message.stop_reason == "max_tokens"
        if not text:
            raise failures.empty_reply(self.name, cut_off=cut_off)
        usage = message.usage
        return build_completion(
            text,
            system,
            user,
            usage.input_tokens if usage else None,
            usage.output_tokens if usage else None,
            cut_off=cut_off,
        )
