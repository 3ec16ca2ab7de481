"""Schema 6: ``source_files`` for new stores (from the models) and for a store of schema 5 (upgraded)."""

from __future__ import annotations

import subprocess
import sys

from sqlalchemy import inspect as sa_inspect
from sqlalchemy import text

from memdesk.store.engine import Store
from memdesk.store.migrations import SCHEMA_VERSION


def _columns(store: Store) -> list[str]:
    with store.read() as session:
        return [column["name"] for column in sa_inspect(session.connection()).get_columns("source_files")]


def test_a_new_store_has_source_files(memdesk_app):
    assert SCHEMA_VERSION >= 6
    assert "read_to" in _columns(memdesk_app.store)


def test_a_store_of_schema_5_gains_source_files_in_place(memdesk_app, store_url, tmp_path):
    memdesk_app.entries.upsert("coffee", "Ada drinks her coffee black")
    store = memdesk_app.store
    with store.write_engine.begin() as conn:
        conn.execute(text("DROP TABLE source_files"))
        conn.execute(text("UPDATE meta SET value = '5' WHERE key = 'schema_version'"))
        conn.execute(text("UPDATE alembic_version SET version_num = '0005'"))
    upgraded = Store(store_url or store.url, backup_dir=tmp_path / "backups", notice=lambda _text: None)
    try:
        assert _columns(upgraded)[:3] == ["id", "path", "source"]
        with upgraded.read() as session:
            version = session.execute(text("SELECT value FROM meta WHERE key = 'schema_version'")).scalar()
            assert version == str(SCHEMA_VERSION)
            assert session.execute(text("SELECT count(*) FROM entries")).scalar() == 1
    finally:
        upgraded.close()


def test_the_hook_loads_no_qt_no_model_clients_and_no_alembic(tmp_path):
    code = (
        "import io, sys; sys.stdin = io.TextIOWrapper(io.BytesIO("
        'b\'{"hook_event_name": "SessionStart", "cwd": "/work/atlas"}\')); '
        "from memdesk.cli.main import main; "
        f"main(['--data-dir', {str(tmp_path)!r}, 'hook', 'claude-code']); "
        "heavy = {'PySide6', 'openai', 'anthropic', 'keyring', 'alembic', 'mcp', 'httpx'}; "
        "print(); print(sorted({m.split('.')[0] for m in sys.modules if m.split('.')[0] in heavy}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert '"additionalContext"' in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"
