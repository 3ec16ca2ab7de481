"""The user guide builds with `mkdocs build --strict`, works offline, and a broken link or a
page missing from it fails the build; the README stays one short page that links into it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 250


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(config),
            "--site-dir",
            str(site),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    result = build(ROOT / "mkdocs.yml", out)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def test_the_guide_builds_strictly_with_every_page_of_its_navigation(site):
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]

    def pages(entries) -> list[str]:
        found = []
        for entry in entries:
            for value in entry.values() if isinstance(entry, dict) else [entry]:
                found += pages(value) if isinstance(value, list) else [value]
        return found

    for page in pages(nav):
        assert (site / page.replace(".md", ".html")).is_file(), page
    # The pages the other work of the guide lands at keep their paths.
    for page in ("guide/facts-change.md", "guide/write-check.md", "how/benchmarks.md"):
        assert page in pages(nav)
    cli = (site / "reference" / "cli.html").read_text()
    assert "memdesk db copy" in cli and "--dry-run" in cli
    # What the browser shows as "<data dir>", not a tag it hides; ranges as whole numbers.
    settings = (site / "reference" / "settings.html").read_text()
    assert "(empty: &lt;data dir&gt;/memory)" in settings and "1000 to 2000000" in settings


def test_the_built_guide_needs_no_network(site):
    # Help → User guide opens it from disk: every script, style sheet and picture is local,
    # and links between pages name files, not folders a web server would resolve.
    for page in site.rglob("*.html"):
        html = page.read_text()
        remote = re.findall(r'<(?:script|link|img)[^>]+(?:src|href)="(https?:)?//', html)
        assert not remote, f"{page.relative_to(site)} loads from the network"
    index = (site / "index.html").read_text()
    assert 'href="guide/first-steps.html"' in index
    assert 'src="images/screenshot-main.png"' in index and (site / "images" / "screenshot-main.png").is_file()


def test_a_broken_link_or_a_missing_page_fails_the_build(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    with (docs / "guide" / "first-steps.md").open("a") as page:
        page.write("\nSee [the old page](no-such-page.md).\n")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    config["docs_dir"] = str(docs)
    config["hooks"] = [str(ROOT / hook) for hook in config["hooks"]]
    config["nav"].append({"Gone": "guide/removed.md"})
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config))
    result = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert result.returncode != 0
    assert "no-such-page.md" in result.stderr and "guide/removed.md" in result.stderr


def test_the_readme_fits_on_a_few_screens_and_links_into_the_guide():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= README_MAX_LINES
    for command in (
        "make install",
        "make run",
        "make test",
        "memdesk examples load",
        "memdesk connect claude-code",
        "memdesk connect --help",
    ):
        assert command in readme
    targets = re.findall(r"\]\(((?:docs/)[^)#\s]+)", readme)
    assert len(targets) >= 5
    for target in targets:
        assert (ROOT / target).is_file(), f"README links to {target}, which is not there"
