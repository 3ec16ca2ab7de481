"""Listing a server's models and finding local servers, against real servers on 127.0.0.1."""

import re
import time

import pytest
from tests.support.llm_servers import MODELS_PATH, OLLAMA_TAGS_PATH, FakeLLMServer, Reply, Status
from tests.support.ports import free_port

from memdesk.config import Settings
from memdesk.errors import LLMError
from memdesk.llm import prompts
from memdesk.llm.discovery import LocalServer, find_local_servers, list_models
from memdesk.services.compaction.backends import check_connection

MODELS = ("qwen2.5:0.5b", "Llama3.2", "SmolLM2-135M-Instruct")
SORTED = ["Llama3.2", "qwen2.5:0.5b", "SmolLM2-135M-Instruct"]


@pytest.mark.parametrize("routes", [(MODELS_PATH,), (OLLAMA_TAGS_PATH,), (MODELS_PATH, OLLAMA_TAGS_PATH)])
def test_models_are_listed_from_either_route(routes):
    with FakeLLMServer(models=MODELS, model_routes=routes) as server:
        assert list_models(server.openai_url, None, 2) == SORTED
        assert list_models(server.openai_url + "/", None, 2) == SORTED


def test_the_key_is_sent_to_a_server_that_wants_one():
    with FakeLLMServer(models=("gpt-x",), model_routes=(MODELS_PATH,)) as server:
        assert list_models(server.openai_url, "sk-test", 2) == ["gpt-x"]
    assert [(request.path, request.api_key) for request in server.requests] == [(MODELS_PATH, "sk-test")]


def test_failures_are_one_sentence_naming_the_configured_url():
    port = free_port()  # nothing listens there
    with pytest.raises(LLMError) as caught:
        list_models(f"http://127.0.0.1:{port}/v1", None, 1)
    assert (
        caught.value.message
        == f"Could not connect to the OpenAI-compatible server at http://127.0.0.1:{port}/v1."
    )

    with FakeLLMServer(model_routes=()) as server, pytest.raises(LLMError) as caught:
        list_models(server.openai_url, None, 2)
    assert caught.value.message.startswith(
        f"The OpenAI-compatible server at {server.openai_url} has no such model"
    )


def test_local_servers_are_found_with_their_models_and_closed_ports_skipped():
    with (
        FakeLLMServer(models=("llama3.2", "qwen2.5"), model_routes=(OLLAMA_TAGS_PATH,)) as ollama,
        FakeLLMServer(models=(), model_routes=(MODELS_PATH,)) as llama_cpp,
    ):
        ports = (("Ollama", port(ollama)), ("LM Studio", free_port()), ("llama.cpp", port(llama_cpp)))
        started = time.perf_counter()
        found = find_local_servers(ports, timeout=1)
        assert time.perf_counter() - started < 1  # a closed port is refused at once
    assert found == [
        LocalServer("Ollama", f"http://127.0.0.1:{port(ollama)}/v1", ("llama3.2", "qwen2.5")),
        LocalServer("llama.cpp", f"http://127.0.0.1:{port(llama_cpp)}/v1", ()),
    ]
    assert found[0].describe() == f"Ollama at http://127.0.0.1:{port(ollama)}/v1: llama3.2, qwen2.5"
    assert found[1].describe().endswith("/v1: no models yet")


def port(server: FakeLLMServer) -> int:
    return int(server.root_url.rsplit(":", 1)[1])


def test_test_connection_reports_latency_and_speed():
    with FakeLLMServer() as server:
        server.script(Reply("NO FACTS", delay=0.2), Reply("1\n2\n3", delay=0.5))  # 7 tokens out
        settings = Settings().with_values({"llm.backend": "openai", "llm.openai_base_url": server.openai_url})

        text = check_connection(settings, None)

        first, second = server.requests
    found = re.fullmatch(
        rf"Connected: {server.openai_url} answered with model llama3.2 in (\d+\.\d) s; "
        r"it writes (\d+) tokens per second\.",
        text,
    )
    assert found, text
    assert float(found.group(1)) >= 0.2
    assert 3 <= int(found.group(2)) <= 14  # 7 tokens in a little over half a second
    assert first.system_text == prompts.FACTS_SYSTEM and second.system_text == prompts.SPEED_PROBE
    assert first.body["max_tokens"] == second.body["max_tokens"] == 64


def test_test_connection_fails_with_the_servers_error():
    with FakeLLMServer(default=Status(401, "bad key")) as server:
        settings = Settings().with_values({"llm.backend": "openai", "llm.openai_base_url": server.openai_url})
        with pytest.raises(LLMError, match="rejected the API key"):
            check_connection(settings, "sk-wrong")
