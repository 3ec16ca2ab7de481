"""Settings: validation by key with the allowed range, defaults, atomic save."""

from __future__ import annotations

from memdesk.config import SPECS, Settings, load_settings, save_settings
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


def test_save_round_trips_every_key_atomically(tmp_path):
    path = tmp_path / "sub" / "config.toml"
    changed = Settings().with_values({"memory.recall_limit": 9, "files.enabled": True})
    save_settings(path, changed)
    assert load_settings(path).settings == changed
    assert [p.name for p in path.parent.iterdir()] == ["config.toml"]
    assert len(Settings().to_toml_dict()["memory"]) == sum(1 for s in SPECS if s.section == "memory")


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
