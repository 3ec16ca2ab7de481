"""The measure of the scenario splits (``tests/support/updates``): when an update counts as
resolved, and a control as kept, in the prompt composed after it."""

from tests.support.updates import kept, resolved, unresolved_because

# A change of surname; the store also keeps a membership card issued in the old one.
SCENARIO = {
    "kind": "update",
    "where": "profile",
    "old": "Name: Ada Fenwick\nLives in: Whitby",
    "stale": "Fenwick",
    "new": "Ada Lowther",
    "store": {"entries": {"library-card": "Library card in the name Ada Fenwick, renewed each May."}},
    "gold": [
        {"action": "update", "where": "profile", "target": "Name: Ada Fenwick", "text": "Name: Ada Lowther"}
    ],
}
CARD = "- library-card: Library card in the name Ada Fenwick, renewed each May."


def test_another_stored_fact_that_keeps_the_old_words_is_not_the_old_fact_restated():
    assert resolved(SCENARIO, f"Name: Ada Lowther\nLives in: Whitby\n{CARD}")


def test_the_old_line_itself_still_stated_is_unresolved_beside_that_fact():
    why = unresolved_because(SCENARIO, f"Name: Ada Fenwick\nAda Lowther\n{CARD}")
    assert why == "the prompt still states the old fact: 'Name: Ada Fenwick'"


def test_a_stored_fact_an_expected_edit_changes_still_counts_when_left_as_it_was():
    scenario = {
        **SCENARIO,
        "gold": [
            *SCENARIO["gold"],
            {
                "action": "update",
                "where": "entry",
                "target": "library-card",
                "text": "Library card: Ada Lowther",
            },
        ],
    }
    assert (
        unresolved_because(scenario, f"Name: Ada Lowther\n{CARD}")
        == f"the prompt still states the old fact: {CARD!r}"
    )


def test_a_kept_facts_line_counts_as_recall_shows_it_without_its_bullet():
    control = {"kind": "control", "where": "facts", "keep": "- Supports APR FC since 2010"}
    assert kept(control, "## Memory Context\n\n- user/facts: Supports APR FC since 2010")
    assert not kept(control, "## Memory Context\n\n- user/facts: Lives in Ngongotahā")
