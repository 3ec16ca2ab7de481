"""Writing, archiving and restoring files and entries; names are checked; nothing is deleted."""

import os
from pathlib import Path

import pytest

from memdesk.core.filecaps import parse_entries
from memdesk.errors import BadInputError, MemdeskError, NotFoundError
from memdesk.services.files import (
    archive_entry,
    archive_file,
    check_name,
    list_entries,
    read_file,
    restore_entry,
    restore_file,
    write_file,
)

INDEX = "# Memory\n\n## Build\n- use make\n- old fact\n  its detail\n\n## Prefs\n- tabs\n"


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_first_write_creates_the_folder(tmp_path):
    folder = tmp_path / "repo" / ".pi" / "memory"
    path = write_file(folder, "MEMORY.md", "- first\n")
    assert path == folder / "MEMORY.md"
    assert path.read_text() == "- first\n"
    assert tree(folder) == {"MEMORY.md": b"- first\n"}  # no temporary file left behind


def test_rewriting_keeps_the_file_mode(tmp_path):
    path = write_file(tmp_path, "build.md", "v1")
    path.chmod(0o640)
    write_file(tmp_path, "build.md", "v2 é")
    assert read_file(tmp_path, "build.md") == "v2 é"
    assert path.stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize(
    "name",
    [
        "../escape.md",
        "a/b.md",
        "..\\escape.md",
        "/etc/passwd.md",
        "..",
        ".",
        "",
        ".hidden.md",
        ".md",
        "notes.txt",
        "NOTES.MD",
        "MEMORY.md/",
        "C:evil.md",
        "bad\x00.md",
        "new\nline.md",
    ],
)
def test_bad_names_are_refused_everywhere(tmp_path, name):
    folder = tmp_path / "scope"
    for operation in (
        lambda: write_file(folder, name, "x"),
        lambda: read_file(folder, name),
        lambda: archive_file(folder, name),
        lambda: restore_file(folder, name),
    ):
        with pytest.raises(BadInputError):
            operation()
    assert list(tmp_path.iterdir()) == []


def test_good_names_pass():
    for name in ("MEMORY.md", "build-notes.md", "漢字.md", "a b.md"):
        assert check_name(name) == name


def test_archive_and_restore_a_whole_file(tmp_path):
    write_file(tmp_path, "MEMORY.md", "- [Old](old.md)\n")
    write_file(tmp_path, "old.md", "old detail\n")
    target = archive_file(tmp_path, "old.md")
    assert target == tmp_path / "archive" / "old.md"
    assert tree(tmp_path) == {"MEMORY.md": b"- [Old](old.md)\n", "archive/old.md": b"old detail\n"}
    assert restore_file(tmp_path, "old.md") == tmp_path / "old.md"
    assert tree(tmp_path) == {"MEMORY.md": b"- [Old](old.md)\n", "old.md": b"old detail\n"}


def test_nothing_is_ever_overwritten(tmp_path):
    write_file(tmp_path, "topic.md", "current")
    write_file(tmp_path / "archive", "topic.md", "archived")
    before = tree(tmp_path)
    with pytest.raises(MemdeskError, match="already exists"):
        restore_file(tmp_path, "topic.md")
    with pytest.raises(MemdeskError, match="already exists"):
        archive_file(tmp_path, "topic.md")
    assert tree(tmp_path) == before


def test_moving_a_missing_file_is_not_found(tmp_path):
    with pytest.raises(NotFoundError):
        archive_file(tmp_path, "ghost.md")
    with pytest.raises(NotFoundError):
        restore_file(tmp_path, "ghost.md")
    with pytest.raises(NotFoundError):
        read_file(tmp_path, "ghost.md")
    assert list(tmp_path.iterdir()) == []


def test_archive_and_restore_a_bullet_entry(tmp_path):
    write_file(tmp_path, "MEMORY.md", INDEX)
    old = next(e for e in list_entries(tmp_path) if e.title == "- old fact")
    archive_entry(tmp_path, old)
    assert read_file(tmp_path, "MEMORY.md") == INDEX.replace("- old fact\n  its detail\n", "")
    assert read_file(tmp_path / "archive", "MEMORY.md") == "- old fact\n  its detail\n"
    [archived] = list_entries(tmp_path, archived=True)
    restore_entry(tmp_path, archived)
    assert read_file(tmp_path, "MEMORY.md").endswith("- tabs\n- old fact\n  its detail\n")
    assert read_file(tmp_path / "archive", "MEMORY.md") == ""
    assert list_entries(tmp_path, archived=True) == ()


def test_archive_a_section_appends_after_earlier_archive_content(tmp_path):
    write_file(tmp_path, "MEMORY.md", INDEX)
    write_file(tmp_path / "archive", "MEMORY.md", "- archived long ago\n")
    build = next(e for e in list_entries(tmp_path) if e.title == "## Build")
    archive_entry(tmp_path, build)
    assert read_file(tmp_path, "MEMORY.md") == "# Memory\n\n## Prefs\n- tabs\n"
    assert read_file(tmp_path / "archive", "MEMORY.md") == (
        "- archived long ago\n\n## Build\n- use make\n- old fact\n  its detail\n"
    )


def test_an_entry_changed_since_listing_is_not_moved(tmp_path):
    write_file(tmp_path, "MEMORY.md", INDEX)
    old = next(e for e in list_entries(tmp_path) if e.title == "- old fact")
    write_file(tmp_path, "MEMORY.md", INDEX.replace("its detail", "new detail"))
    before = tree(tmp_path)
    with pytest.raises(NotFoundError, match="no longer"):
        archive_entry(tmp_path, old)
    assert tree(tmp_path) == before


def test_an_index_that_is_not_utf8_is_never_rewritten(tmp_path):
    (tmp_path / "MEMORY.md").write_bytes(b"- good\n- bad \xff\n")
    with pytest.raises(MemdeskError, match="UTF-8"):
        list_entries(tmp_path)
    entry = parse_entries("- good\n")[0]
    with pytest.raises(MemdeskError, match="UTF-8"):
        archive_entry(tmp_path, entry)
    assert (tmp_path / "MEMORY.md").read_bytes() == b"- good\n- bad \xff\n"
    assert not (tmp_path / "archive").exists()


def test_no_entries_without_an_index(tmp_path):
    assert list_entries(tmp_path / "none") == ()
    assert not (tmp_path / "none").exists()


def test_a_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    write_file(tmp_path, "MEMORY.md", "- keep me\n")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(MemdeskError, match="could not write"):
        write_file(tmp_path, "MEMORY.md", "- lost?\n")
    assert tree(tmp_path) == {"MEMORY.md": b"- keep me\n"}
