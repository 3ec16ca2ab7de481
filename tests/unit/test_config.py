"""Settings: validation by key with the allowed range, defaults, a save that changes only its keys."""

from __future__ import annotations

import tomllib

import pytest

from memdesk.config import SPECS, Settings, load_settings, save_settings
from memdesk.errors import BadInputError
from memdesk.paths import resolve_paths


def test_missing_file_means_defaults(tmp_path):
    loaded = load_settings(tmp_path / "none.toml")
    assert loaded.settings == Settings() and loaded.problems == ()


def test_bad_values_are_reported_by_key_and_defaults_apply(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        '[memory]\nworking_memory_ttl_days = 999\nrecall_limit = "five"\napp_memory_cap = 20\n'
        '[llm]\nbackend = "gpt"\n[compaction]\nsteps = ["working", "dance"]\n[nope]\nx = 1\n'
    )
    loaded = load_settings(path)
    assert loaded.settings.memory.working_memory_ttl_days == 14
    assert loaded.settings.memory.recall_limit == 5
    assert loaded.settings.memory.app_memory_cap == 20
    assert loaded.settings.llm.backend == "offline"
    text = "\n".join(loaded.problems)
    assert "memory.working_memory_ttl_days: 999 is not valid; expected a number from 1 to 365" in text
    assert "memory.recall_limit" in text and "llm.backend" in text and "compaction.steps" in text
    assert "nope.x: unknown setting" in text


def test_unreadable_toml_falls_back_to_defaults(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b"[memory\n\xff")
    loaded = load_settings(path)
    assert loaded.settings == Settings()
    assert "could not be read" in loaded.problems[0]


def test_save_round_trips_the_keys_it_is_given_atomically(tmp_path):
    path = tmp_path / "sub" / "config.toml"
    save_settings(path, {"memory.recall_limit": 9, "files.enabled": True, "compaction.steps": ["facts"]})
    expected = Settings().with_values(
        {"memory.recall_limit": 9, "files.enabled": True, "compaction.steps": ["facts"]}
    )
    assert load_settings(path).settings == expected
    assert tomllib.loads(path.read_text()) == {
        "memory": {"recall_limit": 9},
        "files": {"enabled": True},
        "compaction": {"steps": ["facts"]},
    }
    assert [p.name for p in path.parent.iterdir()] == ["config.toml"]


PERSONS_FILE = """\
# Memdesk, set up by hand
[llm]
backend = "openai"  # the laptop's llama.cpp
model = "qwen2.5"
steps_note = 1

# transcripts
[sources]
claude_code = true
"""


def test_a_save_changes_only_its_keys_and_keeps_comments_and_order(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(PERSONS_FILE)
    save_settings(path, {"llm.backend": "anthropic", "sources.codex": True, "memory.recall_limit": 3})
    assert path.read_text() == (
        PERSONS_FILE.replace('"openai"  #', '"anthropic"  #').replace(
            "claude_code = true\n", "claude_code = true\ncodex = true\n"
        )
        + "\n[memory]\nrecall_limit = 3\n"
    )


def test_a_file_that_is_not_toml_is_never_overwritten(tmp_path):
    path = tmp_path / "config.toml"
    broken = PERSONS_FILE + '\n[llm]\nbackend = "offline"\n'
    path.write_text(broken)
    with pytest.raises(BadInputError) as raised:
        save_settings(path, {"sources.pi": True})
    assert "is not valid TOML" in raised.value.message and "nothing changed" in raised.value.message
    assert "sources.pi = true" in raised.value.hint
    assert path.read_text() == broken


def test_a_table_pasted_twice_keeps_what_the_rest_of_the_file_turned_on(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        '[sources]\nclaude_code = true\n[llm]\nbackend = "offline"\n'
        '[llm]\nbackend = "openai"\nmodel = "qwen2.5"\n[compaction]\nturn_threshold = oops\n'
    )
    loaded = load_settings(path)
    assert loaded.settings.sources.claude_code is True
    assert (loaded.settings.llm.backend, loaded.settings.llm.model) == ("openai", "qwen2.5")
    first, broken, in_effect = loaded.problems
    assert "Cannot declare ('llm',) twice" in first and "the later value winning" in first
    assert "lines 8-9 ([compaction])" in broken and "ignored" in broken
    assert in_effect.endswith(
        'in effect: llm.backend = "openai", llm.model = "qwen2.5", sources.claude_code = true; '
        "every other setting has its default"
    )


def test_paths_precedence(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMDESK_DATA_DIR", str(tmp_path / "env"))
    monkeypatch.setenv("MEMDESK_DB", str(tmp_path / "env.sqlite3"))
    paths = resolve_paths()
    assert paths.data_dir == tmp_path / "env"
    assert paths.db_url == f"sqlite:///{tmp_path / 'env.sqlite3'}"
    explicit = resolve_paths(data_dir=str(tmp_path / "cli"), db="sqlite:///:memory:")
    assert explicit.data_dir == tmp_path / "cli" and explicit.db_url == "sqlite:///:memory:"
    assert explicit.config_file == tmp_path / "cli" / "config.toml"
    monkeypatch.delenv("MEMDESK_DB")
    assert resolve_paths().db_file == tmp_path / "env" / "memdesk.sqlite3"


def test_every_default_is_the_settings_default():
    defaults = Settings()
    for spec in SPECS:
        value = defaults.get(spec.key)
        assert (list(value) if isinstance(value, tuple) else value) == spec.default, spec.key


def test_each_backend_has_its_own_server_url(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[llm]\nanthropic_base_url = "http://127.0.0.1:8080"\n')
    llm = load_settings(path).settings.llm
    assert (llm.openai_base_url, llm.anthropic_base_url) == (
        "http://localhost:11434/v1",
        "http://127.0.0.1:8080",
    )
    assert Settings().llm.anthropic_base_url == ""  # empty: the official endpoint
    path.write_text('[llm]\nanthropic_base_url = "api.example.com"\nopenai_base_url = ""\n')
    loaded = load_settings(path)
    assert loaded.settings.llm == Settings().llm
    expected = "expected an http:// or https:// URL, or empty"
    assert f"llm.anthropic_base_url: 'api.example.com' is not valid; {expected}" in loaded.problems[0]
    assert "llm.openai_base_url: '' is not valid; expected an http:// or https:// URL;" in loaded.problems[1]


def test_the_old_base_url_key_still_sets_the_openai_url(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[llm]\nbackend = "openai"\nbase_url = "http://127.0.0.1:1234/v1"\n')
    loaded = load_settings(path)
    assert loaded.problems == ()
    assert loaded.settings.llm.openai_base_url == "http://127.0.0.1:1234/v1"
    assert Settings().with_values({"llm.base_url": "http://h/v1"}).llm.openai_base_url == "http://h/v1"
    save_settings(path, {"llm.openai_base_url": "http://127.0.0.1:9/v1"})  # a save writes the new name
    assert tomllib.loads(path.read_text())["llm"]["openai_base_url"] == "http://127.0.0.1:9/v1"
    assert load_settings(path).settings.llm.openai_base_url == "http://127.0.0.1:9/v1"
    for both in (
        'base_url = "http://old/v1"\nopenai_base_url = "http://new/v1"\n',
        'openai_base_url = "http://new/v1"\nbase_url = "http://old/v1"\n',
    ):
        path.write_text("[llm]\n" + both)
        assert load_settings(path).settings.llm.openai_base_url == "http://new/v1"


def test_a_value_over_several_lines_is_replaced_whole_and_dotted_keys_are_left_to_the_person(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[compaction]\nsteps = [\n    "working",\n    "facts",\n]\nturn_threshold = 4\n')
    save_settings(path, {"compaction.steps": ["app"]})
    assert path.read_text() == '[compaction]\nsteps = ["app"]\nturn_threshold = 4\n'
    dotted = 'llm.backend = "openai"\n'
    path.write_text(dotted)
    with pytest.raises(BadInputError) as raised:
        save_settings(path, {"llm.backend": "anthropic"})
    assert "in a form Memdesk does not edit" in raised.value.message
    assert raised.value.hint == 'set llm.backend = "anthropic" in it by hand'
    assert path.read_text() == dotted
