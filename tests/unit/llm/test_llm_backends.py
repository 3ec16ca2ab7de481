"""Both HTTP backends against a real local server speaking their protocol."""

import dataclasses
import time

import pytest
from tests.support.llm_servers import Empty, FakeLLMServer, Malformed, Refusal, Reply, Status

from memdesk.config import LLMSettings, Settings
from memdesk.errors import LLMError, ModelUnreachableError
from memdesk.llm.anthropic_backend import AnthropicBackend
from memdesk.llm.base import Completion, make_backend
from memdesk.llm.openai_backend import OpenAIBackend

KEY = "sk-test-5f2a9c1e7b"


def openai_backend(server: FakeLLMServer, timeout: float = 5, key: str | None = KEY) -> OpenAIBackend:
    return OpenAIBackend(
        base_url=server.openai_url, model="llama3.2", api_key=key, timeout_seconds=timeout, max_tokens=300
    )


def anthropic_backend(server: FakeLLMServer, timeout: float = 5) -> AnthropicBackend:
    return AnthropicBackend(
        model="claude-haiku-4-5",
        api_key=KEY,
        timeout_seconds=timeout,
        max_tokens=300,
        base_url=server.anthropic_url,
    )


BACKENDS = [openai_backend, anthropic_backend]


def failure(backend, server: FakeLLMServer, behaviour) -> LLMError:
    server.script(behaviour)
    with pytest.raises(LLMError) as caught:
        backend.complete("system text", "user text")
    error = caught.value
    assert KEY not in str(error)
    assert error.__cause__ is None  # the client's exception (with its headers) is not chained
    return error


@pytest.mark.parametrize("make", BACKENDS)
def test_success_sends_prompts_model_limit_and_key(llm_server, make):
    llm_server.script(Reply("  The summary.  "))
    backend = make(llm_server)

    result = backend.complete("be brief", "user: hello", max_tokens=123)

    assert result == Completion("The summary.", 11, 7, estimated=False)
    (request,) = llm_server.requests
    assert request.body["model"] == backend.model
    assert request.body["max_tokens"] == 123
    assert request.system_text == "be brief"
    assert request.user_text == "user: hello"
    assert request.api_key == KEY


@pytest.mark.parametrize("make", BACKENDS)
def test_configured_reply_limit_is_the_default(llm_server, make):
    make(llm_server).complete("s", "u")
    assert llm_server.requests[0].body["max_tokens"] == 300


@pytest.mark.parametrize("make", BACKENDS)
def test_missing_usage_is_estimated(llm_server, make):
    llm_server.script(Reply("12345678", usage=False))
    result = make(llm_server).complete("abcd", "efgh")
    assert result == Completion("12345678", tokens_in=2, tokens_out=2, estimated=True)


@pytest.mark.parametrize("make", BACKENDS)
def test_a_reply_stopped_by_the_token_limit_says_so(llm_server, make):
    llm_server.script(Reply("The same line again. The same line", cut_off=True), Reply("Done."))
    backend = make(llm_server)
    assert backend.complete("s", "u").cut_off
    assert not backend.complete("s", "u").cut_off


@pytest.mark.parametrize("make", BACKENDS)
def test_timeout_names_the_timeout(llm_server, make):
    backend = make(llm_server, timeout=1)
    started = time.monotonic()
    error = failure(backend, llm_server, Reply("late", delay=3))
    assert time.monotonic() - started < 2.5  # no retry after the timeout
    assert "did not answer within 1 s" in error.message
    assert "llm.timeout_seconds" in error.message
    assert error.backend == backend.name
    assert len(llm_server.requests) == 1


@pytest.mark.parametrize("make", BACKENDS)
@pytest.mark.parametrize(
    ("status", "words", "hint_words"),
    [
        (401, "rejected the API key (HTTP 401)", "Check the API key"),
        (429, "rate limiting requests (HTTP 429)", "try again"),
        (500, "internal error (HTTP 500)", "try again later"),
        (503, "internal error (HTTP 503)", "try again later"),
        (404, "no such model or endpoint (HTTP 404)", "model name"),
        (400, "refused the request (HTTP 400)", "llm.model"),
    ],
)
def test_http_errors_are_explained(llm_server, make, status, words, hint_words):
    error = failure(make(llm_server), llm_server, Status(status, "nope"))
    assert words in error.message
    assert "The server said: nope" in error.message
    assert hint_words in error.hint
    assert len(llm_server.requests) == 1  # fails fast: no retries


@pytest.mark.parametrize("make", BACKENDS)
def test_a_key_echoed_by_the_server_is_blanked(llm_server, make):
    error = failure(make(llm_server), llm_server, Status(401, f"Incorrect API key provided: {KEY}"))
    assert "Incorrect API key provided: ***" in error.message


@pytest.mark.parametrize("make", BACKENDS)
def test_empty_reply(llm_server, make):
    error = failure(make(llm_server), llm_server, Empty())
    assert "empty reply" in error.message


@pytest.mark.parametrize("make", BACKENDS)
def test_refusal(llm_server, make):
    error = failure(make(llm_server), llm_server, Refusal("I won't summarise this."))
    assert "declined" in error.message
    assert "I won't summarise this." in error.message


@pytest.mark.parametrize("make", BACKENDS)
@pytest.mark.parametrize("body", [b"<html>not json", b'{"unexpected": true}'])
def test_malformed_body(llm_server, make, body):
    error = failure(make(llm_server), llm_server, Malformed(body))
    assert "could not be read" in error.message


@pytest.mark.parametrize("make", BACKENDS)
def test_connection_refused_asks_if_the_server_runs(make):
    server = FakeLLMServer().start()
    backend = make(server)
    server.stop()  # the port is now closed
    with pytest.raises(LLMError) as caught:
        backend.complete("s", "u")
    assert f"server at {backend.base_url} is not reachable; nothing changed." in caught.value.message
    assert isinstance(caught.value, ModelUnreachableError)
    assert f"Is the server running at {backend.base_url}?" in caught.value.hint


def test_openai_without_key_sends_a_placeholder(llm_server):
    openai_backend(llm_server, key=None).complete("s", "u")
    assert llm_server.requests[0].api_key == "unused"


def test_openai_drops_an_inline_thinking_block(llm_server):
    llm_server.script(Reply("<think>\nweighing {options}\n</think>\n\nFinal answer."))
    assert openai_backend(llm_server).complete("s", "u").text == "Final answer."


def test_anthropic_needs_a_key():
    with pytest.raises(LLMError) as caught:
        AnthropicBackend(model="m", api_key=None, timeout_seconds=5, max_tokens=100)
    assert "No API key" in caught.value.message
    assert "MEMDESK_API_KEY" in caught.value.hint


def settings_for(**llm) -> Settings:
    return dataclasses.replace(Settings(), llm=LLMSettings(**llm))


def test_make_backend_offline_is_none():
    assert make_backend(Settings(), None) is None


def test_make_backend_defaults_and_settings():
    openai = make_backend(settings_for(backend="openai", openai_base_url="http://127.0.0.1:9/v1"), None)
    anthropic = make_backend(settings_for(backend="anthropic", max_tokens=2048, timeout_seconds=7), KEY)
    assert (openai.name, openai.model, openai.base_url) == ("openai", "llama3.2", "http://127.0.0.1:9/v1")
    assert (anthropic.name, anthropic.model, anthropic.max_tokens) == ("anthropic", "claude-haiku-4-5", 2048)
    assert anthropic.base_url == "https://api.anthropic.com"  # empty llm.anthropic_base_url
    assert make_backend(settings_for(backend="openai", model="qwen3:4b"), None).model == "qwen3:4b"


def test_make_backend_uses_the_settings_against_a_server(llm_server):
    settings = settings_for(
        backend="openai", openai_base_url=llm_server.openai_url, model="phi4", max_tokens=99
    )
    make_backend(settings, KEY).complete("s", "u")
    body = llm_server.requests[0].body
    assert (body["model"], body["max_tokens"]) == ("phi4", 99)


def test_make_backend_points_anthropic_at_its_own_url(llm_server):
    settings = settings_for(
        backend="anthropic",
        anthropic_base_url=llm_server.anthropic_url,
        openai_base_url="http://127.0.0.1:9/v1",
    )
    backend = make_backend(settings, KEY)
    assert backend.complete("s", "u").text == "ok"
    (request,) = llm_server.requests
    assert request.path == "/v1/messages" and request.api_key == KEY
    assert request.body["model"] == "claude-haiku-4-5"
