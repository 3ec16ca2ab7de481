"""The ``files`` command handlers, parsed as the command line parses them, on a temp data folder."""

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from memdesk.cli.main import build_parser, main
from memdesk.config import save_settings
from memdesk.errors import BadInputError, NotFoundError
from memdesk.paths import resolve_paths


class DataFolder:
    """A data folder with its settings file; the files commands read nothing else."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.paths = resolve_paths(str(root))
        self.files_global_dir = self.paths.default_files_dir

    def configure(self, values: dict[str, Any]) -> None:
        """A settings file of just these keys."""
        self.paths.config_file.unlink(missing_ok=True)
        save_settings(self.paths.config_file, values)


def run(app: DataFolder, *argv: str) -> int:
    args = build_parser().parse_args(["--data-dir", str(app.root), "files", *argv])
    return args.handler(args, None)


@pytest.fixture
def app(tmp_path) -> DataFolder:
    return DataFolder(tmp_path / "data")


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_status_shows_scopes_sizes_injected_bytes_and_trust(app, tmp_path, capsys):
    g = app.files_global_dir
    write(g / "MEMORY.md", "- one\n- two\n")
    write(g / "build.md", "make test\n")
    write(g / "archive" / "old.md", "x")
    project = tmp_path / "repo"
    project.mkdir()
    assert run(app, "status", "--project", str(project)) == 0
    out = capsys.readouterr().out
    assert "Injection into the prompt: off (turn it on with the files.enabled setting)" in out
    assert "the first 200 lines or 8192 bytes" in out
    assert f"Global scope: {g}\n" in out
    assert "MEMORY.md             12 bytes  injected 12 of 12 bytes, 2 of 2 lines" in out
    assert "build.md              10 bytes" in out
    assert "archive/old.md         1 bytes" in out
    assert out.index("MEMORY.md") < out.index("build.md") < out.index("archive/old.md")
    assert f"Project scope: {project}/.pi/memory (untrusted: not read" in out
    assert list(project.iterdir()) == []


def test_status_of_a_trusted_project_and_an_over_cap_index(app, tmp_path, capsys):
    app.configure({"files.enabled": True, "files.max_inject_bytes": 256})
    project = tmp_path / "repo"
    write(project / ".pi" / "memory" / "MEMORY.md", "- fact\n" * 100)
    assert run(app, "status", "--project", str(project), "--trusted") == 0
    out = capsys.readouterr().out
    assert "Injection into the prompt: on" in out
    global_index = app.files_global_dir / "MEMORY.md"
    assert (
        "  no MEMORY.md yet: an assistant that keeps MEMORY.md writes it, or create it yourself "
        f"at {global_index}\n"
    ) in out
    assert f"Project scope: {project}/.pi/memory (trusted)" in out
    assert "injected 252 of 700 bytes, 36 of 100 lines" in out
    assert "warning: MEMORY.md is over the cap" in out
    assert not app.files_global_dir.exists()


def test_status_reports_config_problems_and_a_disabling_config(app, capsys):
    app.configure({"files.enabled": True})
    write(app.files_global_dir / "config.json", '{"enabled": false, "maxInjectLines": 0}')
    run(app, "status")
    out = capsys.readouterr().out
    assert 'off (a config.json sets "enabled": false)' in out
    assert f"problem: {app.files_global_dir / 'config.json'}: maxInjectLines: 0" in out


def test_archive_and_restore_in_the_global_scope(app, capsys):
    write(app.files_global_dir / "old.md", "stale")
    assert run(app, "archive", "global", "old.md") == 0
    assert (app.files_global_dir / "archive" / "old.md").read_text() == "stale"
    assert "Moved" in capsys.readouterr().out
    assert run(app, "restore", "global", "old.md") == 0
    assert (app.files_global_dir / "old.md").read_text() == "stale"


def test_archive_in_a_trusted_project(app, tmp_path):
    project = tmp_path / "repo"
    write(project / ".pi" / "memory" / "topic.md", "t")
    assert run(app, "archive", "project", "topic.md", "--project", str(project), "--trusted") == 0
    assert (project / ".pi" / "memory" / "archive" / "topic.md").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["archive", "project", "topic.md"],
        ["archive", "project", "topic.md", "--project", "REPO"],
        ["status", "--trusted"],
        ["archive", "global", "../outside.md"],
    ],
)
def test_bad_input_is_refused_and_touches_nothing(app, tmp_path, argv):
    project = tmp_path / "repo"
    write(project / ".pi" / "memory" / "topic.md", "t")
    argv = [str(project) if a == "REPO" else a for a in argv]
    with pytest.raises(BadInputError):
        run(app, *argv)
    assert (project / ".pi" / "memory" / "topic.md").exists()
    assert not (project / ".pi" / "memory" / "archive").exists()


def test_archiving_a_missing_file_is_not_found(app):
    with pytest.raises(NotFoundError):
        run(app, "archive", "global", "ghost.md")


def test_files_commands_work_while_the_database_is_from_a_newer_version(app, capsys):
    """They never open the database, so a store another version wrote does not stop them."""
    assert main(["--data-dir", str(app.root), "trash", "list"]) == 0
    with sqlite3.connect(app.paths.db_file) as conn:
        conn.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    capsys.readouterr()
    assert main(["--data-dir", str(app.root), "trash", "list"]) != 0
    assert "newer" in capsys.readouterr().err
    (app.files_global_dir / "MEMORY.md").parent.mkdir(parents=True)
    (app.files_global_dir / "MEMORY.md").write_text("- kept\n", encoding="utf-8")
    assert main(["--data-dir", str(app.root), "files", "status"]) == 0
    assert f"Global scope: {app.files_global_dir}" in capsys.readouterr().out


def test_a_bad_setting_is_warned_about_and_the_default_used(app, capsys):
    app.paths.config_file.parent.mkdir(parents=True)
    app.paths.config_file.write_text("[files]\nmax_inject_lines = -5\n", encoding="utf-8")
    assert run(app, "status") == 0
    captured = capsys.readouterr()
    assert "memdesk: warning:" in captured.err and "max_inject_lines" in captured.err
    assert "the first 200 lines" in captured.out


def test_a_trusted_project_needs_no_trusted_flag_and_a_file_cannot_be_trusted(app, tmp_path, capsys):
    project = tmp_path / "repo"
    write(project / ".pi" / "memory" / "topic.md", "t")
    with pytest.raises(BadInputError, match="not a folder"):
        run(app, "trust", str(project / ".pi" / "memory" / "topic.md"))
    assert not app.paths.config_file.exists()
    with pytest.raises(BadInputError, match="trusted project"):
        run(app, "archive", "project", "topic.md", "--project", str(project))
    assert run(app, "trust", str(project)) == 0
    assert "file scopes are off" in capsys.readouterr().err
    assert run(app, "archive", "project", "topic.md", "--project", str(project)) == 0
    assert (project / ".pi" / "memory" / "archive" / "topic.md").exists()
