"""Chat through any OpenAI-compatible server: OpenAI, Ollama, llama.cpp, vLLM, LM Studio."""

from __future__ import annotations

import re

import openai

from memdesk.llm import failures
from memdesk.llm.base import Completion, build_completion

# Local servers such as Ollama accept any key, but the client insists on one.
_PLACEHOLDER_KEY = "unused"
# Some local reasoning models put their thinking inline before the answer.
_THINK_BLOCK = re.compile(r"^\s*<think>.*?</think>", re.DOTALL)


class OpenAIBackend:
    """One chat-completions call per ``complete``; no retries, so failures surface at once."""

    name = "openai"

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None,
        timeout_seconds: float,
        max_tokens: int,
    ) -> None:
        self.model = model
        self.base_url = base_url
        self.max_tokens = max_tokens
        self._timeout = timeout_seconds
        self._secret = api_key or None
        self._client = openai.OpenAI(
            api_key=api_key or _PLACEHOLDER_KEY,
            base_url=base_url,
            timeout=timeout_seconds,
            max_retries=0,
        )

    def complete(self, system: str, user: str, *, max_tokens: int | None = None) -> Completion:
        try:
            response = self._client.chat.completions.create(
                model=self.model,
                messages=[
                    {"role": "system", "content": system},
                    {"role": "user", "content": user},
                ],
                max_tokens=max_tokens or self.max_tokens,
            )
        # "from None": the library's exceptions carry the request, headers included.
        except openai.APITimeoutError:
            raise failures.timeout(self.name, self.base_url, self._timeout) from None
        except openai.APIConnectionError as exc:
            raise failures.connection_failed(self.name, self.base_url, exc) from None
        except openai.APIStatusError as exc:
            detail = failures.server_detail(exc.body, self._secret)
            raise failures.http_status(self.name, self.base_url, exc.status_code, detail) from None
        except (openai.OpenAIError, ValueError):
            raise failures.unreadable(self.name, self.base_url) from None

        choice = response.choices[0] if response.choices else None
        if choice is None or choice.message is None:
            raise failures.unreadable(self.name, self.base_url)
        if choice.message.refusal or choice.finish_reason == "content_filter":
            detail = failures.scrub(choice.message.refusal or "", self._secret)
            raise failures.refusal(self.name, detail)
        text = _THINK_BLOCK.sub("", choice.message.content or "").strip()
        cut_off = choice.finish_reason == "length"
        if not text:
            raise failures.empty_reply(self.name, cut_off=cut_off)
        usage = response.usage
        return build_completion(
            text,
            system,
            user,
            usage.prompt_tokens if usage else None,
            usage.completion_tokens if usage else None,
            cut_off=cut_off,
        )
