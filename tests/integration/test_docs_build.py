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
    # The generated page, not the stub kept at its path for links read on GitHub.
    assert "so what you see here" not in cli + settings


def test_a_developer_finds_the_python_package_and_the_http_api_from_the_start(site):
    index = (site / "index.html").read_text()
    start = index[index.index('id="where-to-start"') : index.index('id="what-an-assistants-prompt-holds"')]
    assert "Use it from your own code" in start
    assert 'href="reference/python.html"' in start and 'href="guide/http-api.html"' in start
    guides = next(
        entry["Guides"]
        for entry in yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
        if "Guides" in entry
    )
    pages = [page for entry in guides for page in entry.values()]
    # Right after connecting an assistant, not at the end of the reference.
    assert pages.index("reference/python.md") == pages.index("guide/connect.md") + 1
    assert pages.index("guide/http-api.md") == pages.index("guide/connect.md") + 2


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


def code_in_paragraphs(html: str) -> list[str]:
    """Paragraphs holding a fence as text: a literal ``` or a fence read as a code span
    (a paragraph opening ``<code>sh`` and a line break), as an indented fence inside a list item comes out."""
    return [p for p in re.findall(r"<p>(.*?)</p>", html, re.S) if "```" in p or re.match(r"<code>\w*\n", p)]


def test_every_fence_of_a_page_is_a_code_block_in_the_built_guide(site):
    # Python-Markdown sees a fence only at the start of a line: one indented under a list
    # item turns into inline text, and the list around it falls apart.
    for source in sorted((ROOT / "docs").rglob("*.md")):
        page = source.relative_to(ROOT / "docs").with_suffix(".html")
        html = (site / page).read_text()
        assert not code_in_paragraphs(html), f"{page} shows a fence as text"
        if page.parts[0] != "reference":  # their stubs are not what is built
            fences = len(FENCE.findall(source.read_text()))
            # At least: an indented block is one too.
            assert html.count("<pre><code") >= fences, f"{page}: {fences} fences in its Markdown"


def test_a_fence_indented_in_a_list_is_caught():
    import markdown

    broken = "1. **Prepare**:\n\n   ```sh\n   createdb memdesk\n   ```\n\n2. **Next**\n"
    fixed = "**1. Prepare**:\n\n```sh\ncreatedb memdesk\n```\n"
    extensions = ["fenced_code", "tables"]
    assert code_in_paragraphs(markdown.markdown(broken, extensions=extensions))
    assert not code_in_paragraphs(markdown.markdown(fixed, extensions=extensions))


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


# --- The guide's snippets against the real program -------------------------------------------
# A newcomer copies them as they are: a command line must parse with `memdesk`'s own parser, a
# flag named in the text must exist on the command it is named with, a JSON or TOML set-up must
# parse, and a `make` target must be in the Makefile.

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>\w*)\n(?P<body>.*?)^(?P=indent)```", re.S | re.M)
INLINE = re.compile(r"`((?:\S*/)?(?:memdesk|make) [^`]+)`")
# Shell words that end one command (and may start another), and assignments before a command.
SHELL_PUNCTUATION = frozenset({"(", ")", ";", "&", "&&", "|", "||", ">", ">>", "<"})
ASSIGNMENT = re.compile(r"^\w+=")
# Names that stand for what the reader fills in (SESSION, FILE, CLIENT...), and elisions.
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*$|…|\.\.\.")


def fenced(lang: str) -> list[tuple[str, str]]:
    """(page, block) of every fenced block in ``lang`` in the README and the guide."""
    return [
        (page.relative_to(ROOT).as_posix(), match["body"])
        for page in PAGES
        for match in FENCE.finditer(page.read_text())
        if match["lang"] == lang
    ]


def shell_commands(program: str) -> list[tuple[str, list[str]]]:
    """(page, words) of every run of ``program`` in the shell blocks: the words after the
    program's name, as the shell splits them, up to what ends the command."""
    import shlex

    found = []
    for page, block in fenced("sh"):
        for line in block.replace("\\\n", " ").splitlines():  # a continued line is one
            lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            words, command, at_start = list(lexer), None, True
            for word in words:
                if word in SHELL_PUNCTUATION:
                    command, at_start = None, True
                elif command is not None:
                    command.append(word)
                elif at_start and (ASSIGNMENT.match(word) or word == "sudo"):
                    continue
                elif at_start and word.rsplit("/", 1)[-1] == program:
                    command = []
                    found.append((page, command))
                else:
                    at_start = False
    return found


def memdesk_parse_error(words: list[str]) -> str | None:
    import contextlib
    import io

    from memdesk.cli.main import build_parser

    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said), contextlib.redirect_stdout(io.StringIO()):
            build_parser().parse_args(words)
    except SystemExit as stop:
        return said.getvalue().strip() if stop.code else None
    return None


def test_every_json_and_toml_block_parses():
    import json
    import tomllib

    blocks = [(page, block, json.loads) for page, block in fenced("json")]
    blocks += [(page, block, tomllib.loads) for page, block in fenced("toml")]
    assert len(blocks) >= 5
    servers = 0
    for page, block, parse in blocks:
        try:
            parsed = parse(block)
        except ValueError as error:
            pytest.fail(f"{page}: a block does not parse ({error}):\n{block}")
        # An assistant's entry that starts Memdesk: its arguments are a `memdesk` command line.
        for table in parsed.values():
            for server in table.values() if isinstance(table, dict) else ():
                if isinstance(server, dict) and str(server.get("command", "")).endswith("/memdesk"):
                    assert memdesk_parse_error(server["args"]) is None, f"{page}: {server}"
                    servers += 1
    assert servers >= 3


def test_every_memdesk_command_in_a_shell_block_parses():
    import shlex

    commands = shell_commands("memdesk")
    assert len(commands) >= 40
    for page, words in commands:
        # `[--json]` marks an option that may be left out: checked as if given.
        error = memdesk_parse_error([re.sub(r"^\[|\]$", "", word) for word in words])
        assert error is None, f"{page}: `memdesk {shlex.join(words)}`: {error}"


def test_every_flag_named_with_a_memdesk_command_in_the_text_exists():
    # `memdesk connect CLIENT --print` in a sentence: the command's words lead to its parser,
    # and each --flag must be one of that parser's options or a global one.
    import argparse

    from memdesk.cli.main import build_parser

    top = build_parser()
    named = [
        (page.relative_to(ROOT).as_posix(), span)
        for page in PAGES
        for span in INLINE.findall(page.read_text())
        if span.split(" ", 1)[0].rsplit("/", 1)[-1] == "memdesk"
    ]
    assert len(named) >= 100
    checked_flags = 0
    for page, span in named:
        parser, words = top, re.sub(r"[\[\]]", "", span).split()[1:]
        value_next = False
        for word in words:
            if value_next:  # the value of the option before it (`--now 2026-06-01`)
                value_next = False
                continue
            commands = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
            if PLACEHOLDER.search(word):
                if commands:
                    break  # `memdesk COMMAND --help`: any command
                continue
            if word.startswith("-"):
                flag = word.split("=", 1)[0]
                action = parser._option_string_actions.get(flag) or top._option_string_actions.get(flag)
                assert action is not None, (
                    f"{page}: `{span}` names {flag}, which `memdesk {' '.join(words[: words.index(word)])}` "
                    "does not have"
                )
                value_next = "=" not in word and action.nargs != 0
                checked_flags += 1
                continue
            if not commands:
                continue  # a value or a positional argument
            assert word in commands[0].choices, f"{page}: `{span}`: no command {word!r} there"
            parser = commands[0].choices[word]
    assert checked_flags >= 20


def test_every_make_target_the_guide_names_exists():
    makefiles = (ROOT / "Makefile").read_text() + (ROOT / "packaging" / "package.mk").read_text()
    targets = set(re.findall(r"^([\w-]+):", makefiles, re.M))
    named = [(page, words[0]) for page, words in shell_commands("make")]
    named += [
        (page.relative_to(ROOT).as_posix(), span.split()[1])
        for page in PAGES
        for span in INLINE.findall(page.read_text())
        if span.startswith("make ")
    ]
    assert len(named) >= 20
    for page, target in named:
        assert target in targets, f"{page}: `make {target}` is not a target of the Makefile"


# Walk-throughs a newcomer types as they stand: each page's commands that start so run in the
# page's order, as the real command, on a store of the page's own (given the example memories
# first where the page assumes them), and every one succeeds.
WALKTHROUGHS = [
    ("README.md", False, ("examples load", "prompt --app")),
    ("docs/install.md", False, ("examples load", "prompt --app")),
    ("docs/guide/compaction.md", False, ("examples load", "compact telegram:", "undo")),
    ("docs/guide/assistants-read.md", True, ("private ", "assistant ")),
]


@pytest.mark.parametrize(("page", "on_examples", "starts"), WALKTHROUGHS, ids=[w[0] for w in WALKTHROUGHS])
def test_a_walk_through_runs_as_written(tmp_path, page, on_examples, starts):
    from tests.support.cli import MemdeskCommand, out

    memdesk = MemdeskCommand(tmp_path / "data")
    if on_examples:
        out(memdesk("examples", "load"))
    commands = [
        [re.sub(r"^\[|\]$", "", word) for word in words]
        for where, words in shell_commands("memdesk")
        if where == page and " ".join(words).startswith(starts)
    ]
    assert len(commands) >= 2
    for words in commands:
        done = memdesk(*words)
        assert done.returncode == 0, f"{page}: memdesk {' '.join(words)}\n{done.stderr.decode()}"
