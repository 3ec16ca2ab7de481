"""The ``## Persistent memory`` block: layout, notes, trust gating, determinism."""

import io
import os
from pathlib import Path

import pytest

from memdesk.core.tokens import estimate_tokens
from memdesk.services.files import IndexCache, build_files_block, project_memory_dir

TRUNCATION = "[Index truncated: showing {} of {} bytes. Keep MEMORY.md concise; move detail to topic files.]"


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    path.write_bytes(data)
    return path


def block(global_dir: Path, project: Path | None = None, trusted: bool = False, **caps):
    return build_files_block(
        global_dir,
        project,
        trusted,
        caps.get("max_lines", 200),
        caps.get("max_bytes", 8192),
        cache=IndexCache(),
    )


def test_global_only_block_layout(tmp_path):
    g = tmp_path / "global"
    write(g / "MEMORY.md", "- prefers tabs\n- [Build](build.md) — make test\n")
    result = block(g)
    text = result.text
    assert text.startswith("## Persistent memory\n\n")
    assert f"\n\n### Global MEMORY.md  ({g / 'MEMORY.md'})\n\n- prefers tabs\n" in text
    assert text.endswith("- [Build](build.md) — make test")  # trailing newline stripped
    for rule in ("duplicate", "one line per fact", "archive/"):
        assert rule in text
    assert "Project" not in text and "secret" not in text
    assert result.sources == (g / "MEMORY.md",)
    assert result.tokens == estimate_tokens(text)
    assert (result.truncated, result.problems, result.reason) == (None, (), None)
    assert result.included


def test_a_missing_index_shows_a_note_and_creates_nothing(tmp_path):
    g = tmp_path / "global"
    result = block(g)
    assert result.text.endswith(
        f"### Global MEMORY.md  ({g / 'MEMORY.md'})\n\n"
        "(Nothing saved yet: there is no MEMORY.md in this folder.)"
    )
    assert result.sources == ()
    assert not g.exists()


def test_an_empty_index_says_nothing_is_saved(tmp_path):
    g = tmp_path / "global"
    write(g / "MEMORY.md", "\n\n")
    assert block(g).text.endswith("(Nothing saved yet: MEMORY.md is empty.)")


def test_both_scopes_with_truncation_notes(tmp_path):
    g, project = tmp_path / "global", tmp_path / "repo"
    pdir = project_memory_dir(project)
    global_lines = [f"- global fact {i:03}\n" for i in range(30)]  # 18 bytes each
    project_lines = [f"- project fact {i:03}\n" for i in range(5)]  # 19 bytes each
    write(g / "MEMORY.md", "".join(global_lines))
    write(pdir / "MEMORY.md", "".join(project_lines))
    result = block(g, project, trusted=True, max_lines=3, max_bytes=8192)
    text = result.text
    global_head = f"### Global MEMORY.md  ({g / 'MEMORY.md'})"
    project_head = f"### Project MEMORY.md  ({pdir / 'MEMORY.md'})"
    assert text.index(global_head) < text.index(project_head)
    assert (f"{global_head}\n\n" + "".join(global_lines[:3]) + "\n" + TRUNCATION.format(54, 540)) in text
    assert text.endswith(
        f"{project_head}\n\n" + "".join(project_lines[:3]) + "\n" + TRUNCATION.format(57, 95)
    )
    assert "- global fact 003" not in text and "- project fact 003" not in text
    assert str(pdir) in text and "secrets" in text  # the preamble names the shared scope
    assert result.truncated == "truncated: 111 of 635 bytes"
    assert result.sources == (g / "MEMORY.md", pdir / "MEMORY.md")


def test_only_the_cut_scope_gets_a_note(tmp_path):
    g, project = tmp_path / "global", tmp_path / "repo"
    write(g / "MEMORY.md", "- small\n")
    write(project_memory_dir(project) / "MEMORY.md", "x" * 300 + "\n" + "- y\n")
    result = block(g, project, trusted=True, max_bytes=256)
    assert result.text.count("[Index truncated:") == 1
    assert TRUNCATION.format(0, 305) in result.text
    assert result.truncated == "truncated: 8 of 313 bytes"


def test_the_block_is_byte_stable_while_files_are_unchanged(tmp_path):
    g, project = tmp_path / "global", tmp_path / "repo"
    write(g / "MEMORY.md", "- é 漢 😀\n" * 50)
    write(project_memory_dir(project) / "MEMORY.md", "## Build\n- make\n")
    cache = IndexCache()
    first = build_files_block(g, project, True, 10, 300, cache=cache)
    again = build_files_block(g, project, True, 10, 300, cache=cache)
    fresh = build_files_block(g, project, True, 10, 300, cache=IndexCache())
    assert first.text.encode() == again.text.encode() == fresh.text.encode()
    assert first == fresh


def test_invalid_utf8_index_is_shown_with_replacements_and_reported(tmp_path):
    g = tmp_path / "global"
    write(g / "MEMORY.md", b"- good\n- bad \xff\n")
    result = block(g)
    assert "- bad \ufffd" in result.text
    assert len(result.problems) == 1
    assert str(g / "MEMORY.md") in result.problems[0] and "UTF-8" in result.problems[0]


def test_an_unreadable_index_is_reported_not_fatal(tmp_path):
    g = tmp_path / "global"
    (g / "MEMORY.md").mkdir(parents=True)  # a folder where the file should be
    result = block(g)
    assert "(MEMORY.md exists but could not be read.)" in result.text
    assert str(g / "MEMORY.md") in result.problems[0]


def test_config_json_enabled_false_turns_the_block_off(tmp_path):
    g = tmp_path / "global"
    write(g / "MEMORY.md", "- fact\n")
    write(g / "config.json", '{"enabled": false}')
    result = block(g)
    assert (result.text, result.reason, result.tokens) == ("", "disabled", 0)
    assert not result.included
    assert result.sources == (g / "config.json",)


def _garbage_project(project: Path) -> Path:
    pdir = project_memory_dir(project)
    write(pdir / "MEMORY.md", b"- secret project fact \xff\n")
    write(pdir / "config.json", "{not json")
    return pdir


@pytest.fixture
def touched(monkeypatch):
    """Every path the code stats, opens, lists or creates while the test runs."""
    seen: list[str] = []

    def spy(real):
        def wrapper(path, *args, **kwargs):
            seen.append(os.fspath(path) if isinstance(path, str | os.PathLike) else str(path))
            return real(path, *args, **kwargs)

        return wrapper

    for module, name in (
        (os, "stat"),
        (os, "scandir"),
        (os, "listdir"),
        (os, "mkdir"),
        (os, "open"),
        (io, "open"),
    ):
        monkeypatch.setattr(module, name, spy(getattr(module, name)))
    return seen


@pytest.mark.parametrize("trusted", [True, False])
def test_an_untrusted_project_is_never_touched(tmp_path, touched, trusted):
    g, project = tmp_path / "global", tmp_path / "repo"
    write(g / "MEMORY.md", "- global fact\n")
    pdir = _garbage_project(project)
    touched.clear()
    result = block(g, project, trusted=trusted)
    project_paths = [p for p in touched if p.startswith(str(project))]
    if trusted:  # the control: the same files are read and their problems reported
        assert project_paths
        assert "secret project fact" in result.text
        assert len(result.problems) == 2
    else:
        assert project_paths == []
        assert str(project) not in result.text
        assert "Project" not in result.text and "secret" not in result.text
        assert result.problems == ()
        assert result.sources == (g / "MEMORY.md",)
        assert result.text == block(g).text
    assert (pdir / "MEMORY.md").read_bytes() == b"- secret project fact \xff\n"


def test_an_untrusted_project_is_never_created(tmp_path):
    project = tmp_path / "repo"
    project.mkdir()
    block(tmp_path / "global", project, trusted=False)
    block(tmp_path / "global", project, trusted=True)
    assert list(project.iterdir()) == []
