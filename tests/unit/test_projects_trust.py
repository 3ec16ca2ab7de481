"""Which project a session works in and whether it is trusted: the folder itself, or the
repository root above it, listed in files.trusted_projects (compared by real path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memdesk.config import Settings, load_settings
from memdesk.errors import BadInputError
from memdesk.services.projects import (
    check_project_folder,
    project_for,
    with_trust,
    working_project,
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "ledger"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "deep").mkdir(parents=True)
    return root


def test_a_listed_repository_root_trusts_its_folders(repo):
    project = project_for(repo / "src" / "deep", [str(repo)])
    assert (project.trusted, project.root, project.app) == (True, repo, "deep")
    assert project_for(repo, [str(repo)]).root == repo


def test_a_listed_folder_is_trusted_itself_and_nothing_above_or_beside_it(repo, tmp_path):
    assert project_for(repo / "src", [str(repo / "src")]).root == repo / "src"
    assert not project_for(repo, [str(repo / "src")]).trusted
    assert not project_for(tmp_path / "elsewhere", [str(repo)]).trusted


def test_a_listed_folder_that_is_no_repository_root_does_not_trust_what_is_below(tmp_path):
    plain = tmp_path / "notes"
    (plain / "sub").mkdir(parents=True)
    assert not project_for(plain / "sub", [str(plain)]).trusted


def test_a_repository_inside_a_trusted_one_is_not_trusted(repo):
    inner = repo / "vendor" / "lib"
    (inner / ".git").mkdir(parents=True)
    assert not project_for(inner, [str(repo)]).trusted


def test_the_list_is_compared_by_real_path(repo, tmp_path):
    link = tmp_path / "link"
    link.symlink_to(repo)
    assert project_for(link / "src", [str(repo)]).root == repo
    assert project_for(repo / "src", [str(link)]).trusted


def test_trusting_for_this_once_trusts_the_folder_itself(tmp_path):
    project = project_for(tmp_path, [], trusted_anyway=True)
    assert (project.trusted, project.root) == (True, tmp_path)


def test_with_trust_adds_and_removes_by_real_path(repo, tmp_path):
    link = tmp_path / "link"
    link.symlink_to(repo)
    listed = with_trust([], link, True)
    assert listed == (str(repo),)
    assert with_trust(listed, repo, True) is None  # already there
    assert with_trust((*listed, "~/other"), link, False) == ("~/other",)
    assert with_trust(listed, tmp_path, False) is None


def test_a_server_started_in_a_repository_folder_composes_for_it(repo, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    untrusted = working_project(repo / "src", [])
    assert untrusted is not None and (untrusted.app, untrusted.trusted) == ("src", False)
    assert working_project(tmp_path / "home", []) is None
    assert working_project("/", []) is None
    plain = tmp_path / "plain"
    plain.mkdir()
    assert working_project(plain, []) is None  # neither a repository nor trusted
    trusted = working_project(plain, [str(plain)])
    assert trusted is not None and trusted.trusted


def test_a_repository_in_the_home_folder_makes_no_project_of_its_folders(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / ".git").mkdir(parents=True)
    (home / "Downloads").mkdir()
    monkeypatch.setenv("HOME", str(home))
    assert working_project(home / "Downloads", []) is None


def test_a_project_named_by_an_assistant_is_a_full_path(tmp_path):
    assert check_project_folder(str(tmp_path)) == tmp_path
    with pytest.raises(BadInputError, match="not a full path"):
        check_project_folder("ledger")


def test_the_setting_reads_a_list_of_folders_and_refuses_anything_else(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[files]\ntrusted_projects = ["/a", "~/b", "/a"]\n', encoding="utf-8")
    assert load_settings(config).settings.files.trusted_projects == ("/a", "~/b")
    config.write_text('[files]\ntrusted_projects = "/a"\n', encoding="utf-8")
    loaded = load_settings(config)
    assert loaded.settings.files.trusted_projects == ()
    assert "files.trusted_projects: '/a' is not valid; expected a list of folders" in loaded.problems[0]
    with pytest.raises(BadInputError, match="a list of folders"):
        Settings().with_values({"files.trusted_projects": ["/a", ""]})
