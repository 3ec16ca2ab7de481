"""``memdesk files`` through the real command, in a fresh process."""

import subprocess
import sys
from pathlib import Path


def memdesk(data_dir: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memdesk", "--data-dir", str(data_dir), *argv],
        capture_output=True, text=True, timeout=60, check=False,
    )


def test_status_lists_the_default_global_folder(tmp_path):
    data = tmp_path / "data"
    (data / "memory").mkdir(parents=True)
    (data / "memory" / "MEMORY.md").write_text("- one fact\n", encoding="utf-8")
    project = tmp_path / "repo"
    project.mkdir()
    result = memdesk(data, "files", "status", "--project", str(project))
    assert result.returncode == 0, result.stderr
    assert f"Global scope: {data / 'memory'}" in result.stdout
    assert "injected 11 of 11 bytes" in result.stdout
    assert "untrusted: not read" in result.stdout
    assert list(project.iterdir()) == []


def test_archive_moves_a_file_and_bad_input_exits_2(tmp_path):
    data = tmp_path / "data"
    (data / "memory").mkdir(parents=True)
    (data / "memory" / "old.md").write_text("stale\n", encoding="utf-8")
    moved = memdesk(data, "files", "archive", "global", "old.md")
    assert moved.returncode == 0, moved.stderr
    assert (data / "memory" / "archive" / "old.md").read_text(encoding="utf-8") == "stale\n"
    bad = memdesk(data, "files", "archive", "global", "../escape.md")
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
    missing = memdesk(data, "files", "archive", "global", "ghost.md")
    assert missing.returncode == 1
