"""``memdesk compact --backend anthropic`` against a local server speaking the Messages protocol."""

from __future__ import annotations

from tests.support.cli import MemdeskCommand, fails, out
from tests.support.llm_servers import FakeLLMServer, Reply

from memdesk.llm import prompts


def by_step(request):
    if request.system_text == prompts.SUMMARY_SYSTEM:
        return Reply("## Decisions\n- Rust for the backend")
    if request.system_text == prompts.FACTS_SYSTEM:
        return Reply("The user prefers tea.")
    return Reply("The user chose Rust for the backend.")


def configure(memdesk: MemdeskCommand, llm: str) -> None:
    memdesk.data_dir.mkdir(parents=True, exist_ok=True)
    (memdesk.data_dir / "config.toml").write_text(f"[llm]\n{llm}", encoding="utf-8")


def test_compact_through_an_anthropic_compatible_server(tmp_path):
    memdesk = MemdeskCommand(tmp_path / "store", prefix=("--now", "2026-05-01T10:00:00Z"))
    with FakeLLMServer() as server:
        server.responder = by_step
        # The openai URL points nowhere: the anthropic backend must use its own.
        configure(
            memdesk,
            f'openai_base_url = "http://127.0.0.1:9/v1"\nanthropic_base_url = "{server.anthropic_url}"\n',
        )
        out(memdesk("session", "log", "web:1", "--role", "user", "I prefer tea. Rust it is.", "--app", "cal"))
        out(memdesk("session", "log", "web:1", "--role", "assistant", "Decided: Rust."))

        applied = out(
            memdesk("compact", "web:1", "--backend", "anthropic", "--yes", env={"MEMDESK_API_KEY": "sk-ant"})
        )

    assert "Backend anthropic (claude-haiku-4-5): 3 model calls" in applied
    assert {request.path for request in server.requests} == {"/v1/messages"}
    assert [request.api_key for request in server.requests] == ["sk-ant"] * 3
    assert out(memdesk("working", "show")) == "## Decisions\n- Rust for the backend\n"


def test_an_unreachable_anthropic_url_is_named_in_the_error(tmp_path):
    memdesk = MemdeskCommand(tmp_path / "store")
    configure(memdesk, 'anthropic_base_url = "http://127.0.0.1:9"\ntimeout_seconds = 5\n')
    out(memdesk("session", "log", "web:1", "--role", "user", "hello there"))
    err = fails(
        memdesk("compact", "web:1", "--backend", "anthropic", "--yes", env={"MEMDESK_API_KEY": "k"}),
        1,
        "The Anthropic server at http://127.0.0.1:9 is not reachable; nothing changed.",
    )
    assert "llm.anthropic_base_url" in err
    assert "1 new" in out(memdesk("session", "list"))
