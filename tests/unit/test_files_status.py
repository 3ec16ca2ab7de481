"""Status of the scopes: file lists, sizes, injected bytes, trust, problems; creates nothing."""

from pathlib import Path

from memdesk.services.files import IndexCache, files_status, project_memory_dir


def write(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)


def status(g: Path, project: Path | None = None, trusted: bool = False, max_bytes: int = 8192):
    return files_status(g, project, trusted, 200, max_bytes, cache=IndexCache())


def test_files_are_listed_index_first_then_topics_then_archive(tmp_path):
    g = tmp_path / "global"
    write(g / "Zeta.md", "z")
    write(g / "alpha.md", "aa")
    write(g / "MEMORY.md", "- x\n")
    write(g / "beta.md", "bbb")
    write(g / "config.json", "{}")
    write(g / "notes.txt", "not markdown")
    (g / "folder.md").mkdir()
    write(g / "archive" / "old.md", "old!")
    write(g / "archive" / "MEMORY.md", "- gone\n")
    scope = status(g).scopes[0]
    assert [(f.name, f.kind, f.size) for f in scope.files] == [
        ("MEMORY.md", "index", 4),
        ("alpha.md", "topic", 2),
        ("beta.md", "topic", 3),
        ("Zeta.md", "topic", 1),
        ("archive/MEMORY.md", "archive", 7),
        ("archive/old.md", "archive", 4),
    ]
    assert scope.files[-1].path == g / "archive" / "old.md"
    assert (scope.scope, scope.folder, scope.trusted, scope.exists) == ("global", g, True, True)


def test_injected_versus_total_and_the_over_cap_warning(tmp_path):
    g = tmp_path / "global"
    write(g / "MEMORY.md", "".join(f"- line {i:04}\n" for i in range(100)))  # 1200 bytes
    fits = status(g, max_bytes=8192).scopes[0]
    assert (fits.index.injected_bytes, fits.index.total_bytes, fits.over_cap) == (1200, 1200, False)
    over = status(g, max_bytes=300).scopes[0]
    assert (over.index.injected_bytes, over.index.total_bytes, over.over_cap) == (300, 1200, True)
    assert (over.index.injected_lines, over.index.total_lines) == (25, 100)


def test_config_problems_belong_to_their_scope(tmp_path):
    g, project = tmp_path / "global", tmp_path / "repo"
    pdir = project_memory_dir(project)
    write(g / "config.json", '{"maxInjectLines": "many"}')
    write(pdir / "config.json", '{"maxInjectBytes": 300}')
    result = status(g, project, trusted=True)
    global_scope, project_scope = result.scopes
    assert len(global_scope.problems) == 1 and "maxInjectLines" in global_scope.problems[0]
    assert project_scope.problems == ()
    assert (result.max_lines, result.max_bytes, result.enabled) == (200, 300, True)
    assert result.problems == global_scope.problems


def test_an_untrusted_project_shows_only_its_path_and_trust_state(tmp_path):
    g, project = tmp_path / "global", tmp_path / "repo"
    pdir = project_memory_dir(project)
    write(pdir / "MEMORY.md", b"\xff\xfe")
    write(pdir / "config.json", "{broken")
    write(pdir / "topic.md", "x")
    result = status(g, project, trusted=False)
    scope = result.scopes[1]
    assert (scope.scope, scope.folder, scope.trusted) == ("project", pdir, False)
    assert (scope.exists, scope.files, scope.index, scope.problems) == (None, (), None, ())
    assert result.problems == ()
    trusted = status(g, project, trusted=True).scopes[1]  # the control: all of it is visible
    assert trusted.exists and len(trusted.files) == 2 and len(trusted.problems) == 2


def test_status_creates_nothing(tmp_path):
    g, project = tmp_path / "global", tmp_path / "repo"
    project.mkdir()
    result = status(g, project, trusted=True)
    assert [s.exists for s in result.scopes] == [False, False]
    assert [s.files for s in result.scopes] == [(), ()]
    assert not g.exists() and list(project.iterdir()) == []
