"""Entries of MEMORY.md: a ``##`` section with its lines, or a bullet with its continuation."""

from memdesk.core.filecaps import append_entry, find_entry, parse_entries, remove_entry

INDEX = """# Memory

- loose fact
## Build
- use make
- flaky test
  see ci.md
  - nested detail

## Prefs
- tabs
```
## not a heading
- not a bullet
# not a title
```
- after the fence
"""


def titles(text: str) -> list[tuple[str, str]]:
    return [(e.kind, e.title) for e in parse_entries(text)]


def test_sections_and_bullets_in_document_order():
    assert titles(INDEX) == [
        ("bullet", "- loose fact"),
        ("section", "## Build"),
        ("bullet", "- use make"),
        ("bullet", "- flaky test"),
        ("section", "## Prefs"),
        ("bullet", "- tabs"),
        ("bullet", "- after the fence"),
    ]


def test_a_section_runs_to_the_next_heading_without_trailing_blanks():
    build = parse_entries(INDEX)[1]
    assert build.lines == ("## Build", "- use make", "- flaky test", "  see ci.md", "  - nested detail")
    prefs = parse_entries(INDEX)[4]
    assert prefs.text.endswith("- after the fence")  # the fenced "# not a title" is content


def test_a_bullet_keeps_its_indented_lines():
    flaky = parse_entries(INDEX)[3]
    assert flaky.text == "- flaky test\n  see ci.md\n  - nested detail"
    assert flaky.start == 5


def test_other_bullet_markers():
    assert titles("* star\n+ plus\n1. one\n2) two\n-not a bullet\n") == [
        ("bullet", "* star"),
        ("bullet", "+ plus"),
        ("bullet", "1. one"),
        ("bullet", "2) two"),
    ]


def test_removing_a_bullet_keeps_everything_else():
    flaky = parse_entries(INDEX)[3]
    assert remove_entry(INDEX, flaky) == INDEX.replace("- flaky test\n  see ci.md\n  - nested detail\n", "")


def test_removing_a_section_takes_its_blank_lines():
    build = parse_entries(INDEX)[1]
    after = remove_entry(INDEX, build)
    assert after.startswith("# Memory\n\n- loose fact\n## Prefs\n- tabs\n")
    assert "make" not in after


def test_removing_the_last_entry_leaves_no_blank_tail():
    text = "# Memory\n\n## Old\n- stale\n"
    assert remove_entry(text, parse_entries(text)[0]) == "# Memory\n"
    text = "- a\n\n- b\n"
    assert remove_entry(text, parse_entries(text)[1]) == "- a\n"


def test_crlf_lines_survive_a_removal():
    text = "- a\r\n- b\r\n- c\r\n"
    assert remove_entry(text, parse_entries(text)[1]) == "- a\r\n- c\r\n"
    assert parse_entries(text)[1].title == "- b"


def test_appending():
    bullet = parse_entries("- one\n")[0]
    section = parse_entries("## Topic\n- two\n")[0]
    assert append_entry("", bullet) == "- one\n"
    assert append_entry("- zero", bullet) == "- zero\n- one\n"
    assert append_entry("- zero\n", section) == "- zero\n\n## Topic\n- two\n"
    assert append_entry("- zero\n\n", section) == "- zero\n\n## Topic\n- two\n"


def test_find_entry_matches_content_and_prefers_the_same_place():
    text = "- dup\n- other\n- dup\n"
    second = parse_entries(text)[2]
    assert find_entry(text, second).start == 2
    moved = "- new first\n" + text
    assert find_entry(moved, second).start == 1  # not at its old place any more: first match
    assert find_entry("- other\n", second) is None
