"""`memdesk examples load` and what the command says on an empty store, as a person runs them."""

from __future__ import annotations

import pytest
from tests.support.cli import fails, out, store_of

pytestmark = pytest.mark.engines("sqlite")  # wording, not storage: one engine is enough


def test_loading_the_examples_into_an_empty_store_then_undoing_it(memdesk):
    loaded = out(memdesk("examples", "load"))
    assert loaded.startswith("Loaded the example memories: ") and " items added." in loaded
    prompt = out(memdesk("prompt", "--app", "calendar"))
    assert "Maya" in prompt and "(memories for app:" in prompt
    # A second load would mix the examples with what is there: refused, and nothing changes.
    before = out(memdesk("history"))
    fails(memdesk("examples", "load"), 1, "the store is not empty")
    assert out(memdesk("history")) == before
    out(memdesk("undo"))
    with store_of(memdesk) as store:
        assert store.is_empty()


def test_force_loads_beside_what_is_there_and_keeps_it(memdesk):
    out(memdesk("doc", "set", "user/profile", "Name: Ada"))
    fails(memdesk("examples", "load"), 1, "--force")
    loaded = out(memdesk("examples", "load", "--force"))
    assert "(1 item already there left unchanged)" in loaded  # the profile
    assert out(memdesk("doc", "show", "user/profile")) == "Name: Ada\n"
    assert "calendar\t" in out(memdesk("app", "list"))


def test_an_empty_store_says_so_on_stderr_and_keeps_stdout_for_scripts(memdesk):
    prompt = memdesk("prompt")
    assert out(prompt) == "\n"
    said = prompt.stderr.decode()
    assert "The store is empty" in said and "memdesk examples load" in said
    for listing in (
        ("assistant", "list"),
        ("doc", "list"),
        ("app", "list"),
        ("entry", "list"),
        ("session", "list"),
        ("recall", "lunch"),
        ("history",),
    ):
        listed = memdesk(*listing)
        assert out(listed) == "", listing
        assert "The store is empty" in listed.stderr.decode(), listing
    out(memdesk("entry", "add", "lang", "Ada writes Rust"))
    # Not empty now: the prompt without a message holds nothing, and says why in other words.
    prompt = memdesk("prompt")
    assert out(prompt) == "\n" and "The prompt is empty" in prompt.stderr.decode()
    assert "No assistant has used this store yet" in memdesk("assistant", "list").stderr.decode()
    # Something to show: nothing is said aside; nothing found in a store that is not empty
    # is not a reason to load the examples.
    assert memdesk("prompt", "--message", "rust").stderr.decode() == ""
    assert memdesk("recall", "lunch").stderr.decode() == ""


def test_the_guides_try_it_round_on_the_examples(memdesk):
    """Compaction's "Try it", as the guide gives it: a dry run, then one applied run."""
    out(memdesk("examples", "load"))
    assert "Dry run: nothing was written." in out(memdesk("compact", "telegram:48213", "--dry-run"))
    assert "Applied 4 changes as history step" in out(memdesk("compact", "telegram:48213", "--yes"))
    # Named by its session alone: the dry run before it must not make it read as a second run.
    newest = out(memdesk("history")).splitlines()[0]
    assert newest.endswith("\tCompact telegram:48213")
    assert out(memdesk("undo")).endswith(": Compact telegram:48213\n")
