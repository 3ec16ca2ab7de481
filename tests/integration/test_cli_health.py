"""`memdesk health` as a process: what it lists, its JSON, the fixes and their undo, bad input."""

from __future__ import annotations

import json

import pytest
from tests.support.cli import fails, out


@pytest.mark.engines("sqlite")  # the command's wording; health's SQL runs on both engines in tests/unit
def test_health_lists_fixes_and_undoes_through_the_command(memdesk):
    out(memdesk("doc", "set", "user/facts", "- Lives in Berlin\n- Works at Acme"))
    out(memdesk("entry", "add", "home_city", "Priya lives in Paris now"))
    listed = out(memdesk("health"))
    assert "conflict (home)" in listed
    assert ": user/facts: Lives in Berlin" in listed
    assert ": entry home_city: Priya lives in Paris now" in listed
    [finding] = json.loads(out(memdesk("health", "--json")))
    assert finding["kind"] == "conflict" and finding["slot"] == "home"
    line = {"kind": "line", "namespace": "user/facts", "text": "Lives in Berlin"}
    entry = {"kind": "entry", "key": "home_city", "text": "Priya lives in Paris now"}
    assert {json.dumps(finding[which]) for which in ("first", "second")} == {
        json.dumps(line),
        json.dumps(entry),
    }
    keep_entry = "first" if finding["first"] == entry else "second"

    assert "history step" in out(memdesk("health", "keep", str(finding["id"]), keep_entry))
    assert out(memdesk("doc", "show", "user/facts")) == "- Works at Acme\n"
    assert out(memdesk("health")) == "Memory health: no conflicts or near-duplicates.\n"
    out(memdesk("undo"))
    assert out(memdesk("doc", "show", "user/facts")) == "- Lives in Berlin\n- Works at Acme\n"
    assert json.loads(out(memdesk("health", "--json")))[0]["id"] == finding["id"]

    fails(memdesk("health", "merge", str(finding["id"]), "   "), 2, "the merged text is empty")
    fails(memdesk("health", "ignore", "999"), 1, "no finding 999")
    out(memdesk("health", "merge", str(finding["id"]), "Lives in Paris (since May 2026)"))
    if keep_entry == "first":  # the first fact takes the merged text, the second goes
        assert out(memdesk("doc", "show", "user/facts")) == "- Works at Acme\n"
        assert "home_city [knowledge] Lives in Paris (since May 2026)" in out(memdesk("entry", "list"))
    else:
        assert (
            out(memdesk("doc", "show", "user/facts"))
            == "- Lives in Paris (since May 2026)\n- Works at Acme\n"
        )
        assert "home_city" in out(memdesk("trash", "list"))
