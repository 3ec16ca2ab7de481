"""``memdesk db copy / info / password`` and PostgreSQL's failures, through the real command."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from tests.support.cli import MemdeskCommand, fails, out, store_of
from tests.support.postgres import PASSWORD_ROLE

pytestmark = pytest.mark.engines("sqlite")  # each test says which engines it crosses


def fill(memdesk: MemdeskCommand) -> None:
    """Something of every kind, with history and Trash."""
    with store_of(memdesk) as store:
        store.documents.set("user/profile", "Name: Ada. Likes C++ and hiking.")
        store.documents.set("global", "Be brief.")
        store.entries.upsert("coffee", "Ada drinks her coffee black", "knowledge")
        store.entries.upsert("trip", "[2026-01-02 10:00] Went to Oslo", "timeline")
        store.entries.upsert("tea", "Green tea after lunch", "knowledge")
        store.entries.delete_key("tea")  # in Trash
        store.apps.add("calendar", "Prefers meetings after 2pm")
        store.apps.add("calendar", "No meetings on Fridays")
        store.sessions.log("telegram:42", "user", "I moved to Lisbon last week")
        store.entries.upsert("city", "Lives in Porto", "knowledge")
        store.history.undo()  # an undone step in history


def export(memdesk: MemdeskCommand, url: str, path: Path) -> dict:
    out(memdesk("--db", url, "export", str(path)))
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("exported_at", None)
    return data


def listing(memdesk: MemdeskCommand, url: str, *args: str) -> str:
    return out(memdesk("--db", url, *args))


def test_sqlite_to_postgresql_and_back_is_lossless(memdesk, postgres_server, tmp_path, seeded):
    seeded.start(memdesk, fill)
    original = f"sqlite:///{memdesk.data_dir / 'memdesk.sqlite3'}"
    shared = postgres_server.url(postgres_server.new_database())
    back = f"sqlite:///{tmp_path / 'back.sqlite3'}"

    copied = out(memdesk("db", "copy", "--to", shared))
    assert "entries" in copied and "every table's row count matches" in copied
    out(memdesk("--db", shared, "db", "copy", "--to", back))

    exports = [export(memdesk, url, tmp_path / f"{n}.json") for n, url in enumerate((original, shared, back))]
    assert exports[0] == exports[1] == exports[2]
    for args in (("history", "--limit", "100"), ("trash", "list"), ("entry", "list")):
        assert (
            listing(memdesk, original, *args)
            == listing(memdesk, shared, *args)
            == listing(memdesk, back, *args)
        )
    # Undo and redo still work on the copy, and new rows get new ids (the sequences moved on).
    before = listing(memdesk, shared, "history", "--limit", "100")
    assert out(memdesk("--db", shared, "undo")).startswith("undid #")
    assert listing(memdesk, shared, "history", "--limit", "100") != before
    out(memdesk("--db", shared, "redo"))
    out(memdesk("--db", shared, "entry", "add", "new", "Written after the copy"))
    assert "Written after the copy" in listing(memdesk, shared, "entry", "list")


def test_copy_refuses_a_target_that_holds_data(memdesk, postgres_server, seeded):
    seeded.start(memdesk, fill)
    shared = postgres_server.url(postgres_server.new_database())
    out(memdesk("db", "copy", "--to", shared))
    fails(memdesk("db", "copy", "--to", shared), 1, "already holds a Memdesk store with data")
    fails(memdesk("db", "copy", "--to", str(memdesk.data_dir / "memdesk.sqlite3")), 2, "the store itself")


@pytest.mark.engines("sqlite", "postgresql")
def test_info_shows_engine_schema_rows_and_healthy_indexes(memdesk, store_engine, seeded):
    seeded.start(memdesk, fill)
    shown = out(memdesk("db", "info"))
    assert f"engine        {store_engine}\n" in shown
    assert "entries 3 ·" in shown  # two live, one in Trash (the added-then-undone one is gone)
    assert "search index  ok (" in shown
    assert "password" not in shown


def test_file_commands_on_postgresql_say_what_to_use(memdesk, postgres_server):
    shared = postgres_server.url(postgres_server.new_database())
    for action in ("check", "backup"):
        fails(memdesk("--db", shared, "db", action), 1, "pg_dump")


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_server_is_named(memdesk):
    url = f"postgresql+psycopg://someone@127.0.0.1:{_closed_port()}/memdesk"
    err = fails(memdesk("--db", url, "entry", "list"), 1, "cannot reach the PostgreSQL server at 127.0.0.1:")
    assert "Traceback" not in err


def test_a_missing_database_says_how_to_create_it(memdesk, postgres_server):
    err = fails(
        memdesk("--db", postgres_server.url("no_such_db"), "entry", "list"), 1, "there is no database"
    )
    assert "createdb" in err


def test_a_wrong_password_is_refused_without_showing_it(memdesk, postgres_server):
    postgres_server.login_role(PASSWORD_ROLE, "right-one")
    name = postgres_server.new_database()
    postgres_server.admin(f'ALTER DATABASE "{name}" OWNER TO {PASSWORD_ROLE}')
    url = postgres_server.url(name, user=PASSWORD_ROLE).replace("@", ":wrong-secret-77@")
    result = memdesk("--db", url, "entry", "list")
    err = fails(result, 1, f"refused the password for user {PASSWORD_ROLE}")
    assert "wrong-secret-77" not in err + result.stdout.decode()


def test_a_password_kept_in_the_keyring_is_used(memdesk, postgres_server, tmp_path):
    postgres_server.login_role(PASSWORD_ROLE, "kept-in-ring")
    name = postgres_server.empty_database()  # its owner creates the store in it
    postgres_server.admin(f'ALTER DATABASE "{name}" OWNER TO {PASSWORD_ROLE}')
    url = postgres_server.url(name, user=PASSWORD_ROLE)
    ring = {
        "PYTHON_KEYRING_BACKEND": "tests.support.keyrings.FileKeyring",
        "MEMDESK_TEST_KEYRING": str(tmp_path / "ring.json"),
    }
    fails(memdesk("--db", url, "entry", "list", env=ring), 1, "wants a password")
    said = out(memdesk("--db", url, "db", "password", stdin=b"kept-in-ring\n", env=ring))
    assert "kept-in-ring" not in said and "kept the password" in said
    out(memdesk("--db", url, "entry", "add", "k", "written with the kept password", env=ring))
    out(memdesk("--db", url, "db", "password", "--delete", env=ring))
    fails(memdesk("--db", url, "entry", "list", env=ring), 1, "wants a password")


def test_a_user_without_privileges_is_told_what_to_grant(memdesk, postgres_server):
    postgres_server.login_role("memdesk_reader")
    empty = postgres_server.empty_database()
    err = fails(
        memdesk("--db", postgres_server.url(empty, user="memdesk_reader"), "entry", "list"),
        1,
        "lacks a privilege",
    )
    assert "GRANT" in err


def test_a_password_in_pgpassfile_is_used(memdesk, postgres_server, tmp_path):
    postgres_server.login_role(PASSWORD_ROLE, "from-pgpass")
    name = postgres_server.empty_database()
    postgres_server.admin(f'ALTER DATABASE "{name}" OWNER TO {PASSWORD_ROLE}')
    pgpass = tmp_path / "pgpass"
    pgpass.write_text(
        f"127.0.0.1:{postgres_server.port}:{name}:{PASSWORD_ROLE}:from-pgpass\n", encoding="utf-8"
    )
    pgpass.chmod(0o600)
    url = postgres_server.url(name, user=PASSWORD_ROLE)
    no_keyring = {"PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    fails(memdesk("--db", url, "entry", "list", env=no_keyring), 1, "wants a password")
    env = {**no_keyring, "PGPASSFILE": str(pgpass)}
    out(memdesk("--db", url, "entry", "add", "k", "written with the password from PGPASSFILE", env=env))
    assert "PGPASSFILE" in out(memdesk("--db", url, "entry", "list", env=env))


def test_a_store_of_a_newer_memdesk_on_the_server_is_refused(memdesk, postgres_server):
    name = postgres_server.new_database()
    url = postgres_server.url(name)
    out(memdesk("--db", url, "entry", "add", "k", "kept"))
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE meta SET value = '99' WHERE key = 'schema_version'"))
    err = fails(memdesk("--db", url, "entry", "list"), 1, "written by a newer Memdesk")
    assert "not changed" in err
    with engine.connect() as conn:
        assert conn.execute(text("SELECT value FROM meta WHERE key = 'schema_version'")).scalar() == "99"
        assert conn.execute(text("SELECT count(*) FROM entries")).scalar() == 1
    engine.dispose()
