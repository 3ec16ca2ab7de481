"""Memory health: conflicts and near-duplicates among live facts, found from what changed, and
the fixes (keep one, merge, ignore), each one undoable History step."""

from __future__ import annotations

import pytest
from sqlalchemy import delete

from memdesk.core.items import ItemKind
from memdesk.errors import BadInputError, ConflictError, NotFoundError
from memdesk.services.health import KEPT_FROM, FindingKind
from memdesk.store.models import Meta

FACTS = "- Lives in Berlin\n- Drinks coffee every morning\n"


@pytest.fixture
def stale(memdesk_app):
    """A facts document, then a knowledge entry that contradicts it and an app memory that
    repeats it in other words."""
    app = memdesk_app
    app.documents.set("user/facts", FACTS)
    app.health.look()
    app.entries.upsert("home_city", "Priya lives in Paris now")
    app.apps.add("calendar", "Every morning she drinks coffee.")
    return app


def _by_kind(app):
    return {finding.kind: finding for finding in app.health.findings()}


def test_a_conflict_and_a_duplicate_are_found_wherever_the_facts_are_stored(stale):
    found = _by_kind(stale)
    conflict, duplicate = found[FindingKind.CONFLICT], found[FindingKind.DUPLICATE]
    assert conflict.slot == "home"
    assert {conflict.first.text, conflict.second.text} == {"Lives in Berlin", "Priya lives in Paris now"}
    assert {conflict.first.name, conflict.second.name} == {"user/facts", "entry home_city"}
    assert {duplicate.first.text, duplicate.second.text} == {
        "Drinks coffee every morning",
        "Every morning she drinks coffee.",
    }
    assert {duplicate.first.kind, duplicate.second.kind} == {ItemKind.DOCUMENT, ItemKind.APP_MEMORY}
    assert stale.health.count() == 2


def test_a_change_is_compared_as_it_is_made_and_leaves_a_look_nothing_to_read(stale):
    app = stale
    app.health.look()
    app.entries.upsert("employer", "Works at Acme")
    app.entries.upsert("employer_new", "Works at Globex")
    assert app.health.look() == 0
    assert [f.slot for f in app.health.findings() if f.kind is FindingKind.CONFLICT] == ["employer", "home"]


def test_two_lines_of_one_document_can_conflict(memdesk_app):
    app = memdesk_app
    app.health.look()
    app.documents.set("user/profile", "Name: Priya\nLives in Leeds with her partner Sam.\n")
    app.documents.append("user/facts", "- Lives in Bristol")
    [finding] = app.health.findings()
    assert (finding.first.locator, finding.second.locator) in {
        ("user/profile", "user/facts"),
        ("user/facts", "user/profile"),
    }


def test_keep_one_retires_the_other_and_one_undo_brings_it_back_exactly(stale):
    app = stale
    conflict = _by_kind(app)[FindingKind.CONFLICT]
    line = conflict.first if conflict.first.kind is ItemKind.DOCUMENT else conflict.second
    keep = "second" if line is conflict.first else "first"  # keep the entry, drop the old line
    step = app.health.keep(conflict.id, keep)
    assert app.documents.text("user/facts") == "- Drinks coffee every morning\n"
    assert app.entries.get("home_city").content == "Priya lives in Paris now"
    assert [f.kind for f in app.health.findings()] == [FindingKind.DUPLICATE]
    assert app.history.list(1)[0].id == step
    app.history.undo()
    assert app.documents.text("user/facts") == FACTS
    assert {f.kind for f in app.health.findings()} == {FindingKind.CONFLICT, FindingKind.DUPLICATE}


def test_keeping_the_line_moves_the_entry_to_trash(stale):
    app = stale
    conflict = _by_kind(app)[FindingKind.CONFLICT]
    keep = "first" if conflict.first.kind is ItemKind.DOCUMENT else "second"
    app.health.keep(conflict.id, keep)
    with pytest.raises(NotFoundError):
        app.entries.get("home_city")
    assert [(item.label, item.text) for item in app.trash.list()] == [
        ("knowledge home_city", "Priya lives in Paris now")
    ]
    app.history.undo()
    assert app.entries.get("home_city").content == "Priya lives in Paris now"


def test_merge_rewrites_the_first_retires_the_second_and_undoes_in_one_step(stale):
    app = stale
    duplicate = _by_kind(app)[FindingKind.DUPLICATE]
    app.health.merge(duplicate.id, "Drinks coffee every morning, black")
    first = duplicate.first
    doc = app.documents.text("user/facts")
    memories = app.apps.memories("calendar")
    if first.kind is ItemKind.DOCUMENT:
        assert doc == "- Lives in Berlin\n- Drinks coffee every morning, black\n" and memories == []
    else:
        assert [m.content for m in memories] == ["Drinks coffee every morning, black"]
        assert doc == "- Lives in Berlin\n"
    app.history.undo()
    assert app.documents.text("user/facts") == FACTS
    assert [m.content for m in app.apps.memories("calendar")] == ["Every morning she drinks coffee."]


def test_ignore_hides_the_finding_until_undone_and_a_new_look_does_not_bring_it_back(stale):
    app = stale
    duplicate = _by_kind(app)[FindingKind.DUPLICATE]
    app.health.ignore(duplicate.id)
    assert [f.kind for f in app.health.findings()] == [FindingKind.CONFLICT]
    app.entries.upsert("other", "Plays chess on Sundays")
    app.health.look()
    assert [f.kind for f in app.health.findings()] == [FindingKind.CONFLICT]
    app.history.undo()  # the new entry
    app.history.undo()  # the ignore
    assert len(app.health.findings()) == 2


def test_a_fact_changed_after_it_was_shown_refuses_the_fix_and_changes_nothing(stale):
    app = stale
    conflict = _by_kind(app)[FindingKind.CONFLICT]
    app.entries.upsert("home_city", "Priya lives in Lyon")  # another program, meanwhile
    with pytest.raises(NotFoundError, match="no finding"):
        app.health.keep(conflict.id, "first")
    assert app.documents.text("user/facts") == FACTS


def test_a_finding_dealt_with_elsewhere_is_refused(stale):
    app = stale
    conflict = _by_kind(app)[FindingKind.CONFLICT]
    app.health.ignore(conflict.id)
    with pytest.raises(NotFoundError):
        app.health.ignore(conflict.id)


def test_the_changed_fact_is_refused_inside_the_write(stale, monkeypatch):
    app = stale
    conflict = _by_kind(app)[FindingKind.CONFLICT]
    shown = app.health.findings()
    monkeypatch.setattr(app.health, "findings", lambda: shown)  # what the window showed
    app.documents.set("user/facts", "- Lives in Berlin, Mitte\n")
    with pytest.raises(ConflictError, match="changed since it was shown"):
        app.health.keep(conflict.id, "second" if conflict.first.kind is ItemKind.DOCUMENT else "first")
    assert app.entries.get("home_city").content == "Priya lives in Paris now"


def test_conflicts_with_names_the_stored_facts_a_new_text_contradicts(stale):
    app = stale
    named = app.health.conflicts_with("Lives in Madrid")
    assert sorted(fact.name for fact in named) == ["entry home_city", "user/facts"]
    assert app.health.conflicts_with("Lives in Berlin") == [
        fact for fact in named if fact.name == "entry home_city"
    ]
    assert app.health.conflicts_with("Plays chess on Sundays") == []


def test_expired_and_deleted_facts_are_not_facts(stale):
    app = stale
    app.entries.delete([app.entries.get("home_city").id])
    assert [f.kind for f in app.health.findings()] == [FindingKind.DUPLICATE]
    app.apps.adjust_expiry(app.apps.memories("calendar")[0].id, expire=True)
    assert app.health.findings() == []


def test_an_assistants_write_leaves_a_big_stores_first_look_to_the_person(memdesk_app, monkeypatch):
    app = memdesk_app
    app.documents.set("user/facts", "- Lives in Berlin")
    app.entries.upsert("home_city", "Priya lives in Paris now")
    monkeypatch.setattr("memdesk.services.health.FIRST_LOOK_ON_WRITE", 0)
    assert app.health.conflicts_with("Lives in Madrid") == []  # never looked at: not read for a write
    assert app.health.count(first_look=False) == 0
    assert app.health.count() == 1  # the page's (or `memdesk health`'s) first look reads every fact
    assert [fact.name for fact in app.health.conflicts_with("Lives in Madrid")] == [
        "entry home_city",
        "user/facts",
    ]


def test_a_merge_into_a_line_stays_one_line_and_bad_text_changes_nothing(stale):
    app = stale
    duplicate = _by_kind(app)[FindingKind.DUPLICATE]
    assert duplicate.first.kind is ItemKind.DOCUMENT  # the fact that was there comes first
    with pytest.raises(BadInputError, match="one line"):
        app.health.merge(duplicate.id, "Drinks coffee\nevery morning")
    with pytest.raises(BadInputError, match="empty"):
        app.health.merge(duplicate.id, "  ")
    assert app.documents.text("user/facts") == FACTS
    assert [m.content for m in app.apps.memories("calendar")] == ["Every morning she drinks coffee."]


def test_one_value_makes_a_duplicate_only_of_short_statements_or_mostly_the_same_words(memdesk_app):
    app = memdesk_app
    app.health.look()
    app.documents.set("user/facts", "- Drinks coffee")
    app.entries.upsert(
        "meeting", "Met Tom for coffee near the station to talk about the budget and the release"
    )
    assert app.health.findings() == []
    app.apps.add("cafe", "Coffee: black, no sugar")
    [duplicate] = app.health.findings()
    assert (duplicate.kind, duplicate.slot) == (FindingKind.DUPLICATE, "drink")
    assert {duplicate.first.text, duplicate.second.text} == {"Drinks coffee", "Coffee: black, no sugar"}


def test_a_fact_an_undo_brings_back_is_checked_again(stale):
    """Undo makes no History step of its own: the facts it restores are indexed as it runs."""
    app = stale
    conflict = _by_kind(app)[FindingKind.CONFLICT]
    keep = "first" if conflict.first.kind is ItemKind.ENTRY else "second"
    app.health.keep(conflict.id, keep)  # the "Lives in Berlin" line goes
    assert [fact.name for fact in app.health.conflicts_with("Lives in Madrid")] == ["entry home_city"]
    app.history.undo()
    assert [fact.name for fact in app.health.conflicts_with("Lives in Madrid")] == [
        "entry home_city",
        "user/facts",
    ]


def test_changes_that_did_not_index_their_facts_are_indexed_by_the_next_look(stale):
    """A store looked at before changes kept the index themselves (an earlier version)."""
    app = stale
    app.health.look()
    with app.ctx.store.write() as session:
        session.execute(delete(Meta).where(Meta.key == KEPT_FROM))
    hooks, app.ctx.derived[:] = list(app.ctx.derived), []
    app.entries.upsert("rome", "Lives in Rome")
    app.ctx.derived[:] = hooks
    app.entries.upsert("chess", "Plays chess on Sundays")  # a change that indexes itself
    homes = [f for f in app.health.findings() if f.slot == "home"]
    assert {fact.text for finding in homes for fact in (finding.first, finding.second)} == {
        "Lives in Berlin",
        "Priya lives in Paris now",
        "Lives in Rome",
    }


def test_a_look_after_changes_compares_them_without_reading_their_facts_again(stale, monkeypatch):
    """The changes indexed their facts as they were made, the first one after the first look too."""

    def unread(text: str) -> list[object]:
        raise AssertionError(f"a look read {text!r} again")

    monkeypatch.setattr("memdesk.services.health.named_claims", unread)
    assert {finding.kind for finding in stale.health.findings()} == {
        FindingKind.CONFLICT,
        FindingKind.DUPLICATE,
    }


HOUSEHOLD_FACTS = "- Drives a 2018 Skoda Octavia\n"


def _cars(app):
    return [finding for finding in app.health.findings() if finding.slot == "car"]


def test_what_is_said_of_someone_the_profile_names_is_theirs(memdesk_app):
    app = memdesk_app
    app.documents.set("user/profile", "Name: Priya\nPartner: Dev")
    app.documents.set("user/facts", HOUSEHOLD_FACTS)
    app.health.look()
    app.entries.upsert("dev_car", "Dev drives a Polestar 2")
    assert _cars(app) == []
    assert app.health.conflicts_with("Dev drives a Polestar 2") == []
    app.entries.upsert("priya_car", "Priya drives a Polestar 2 now")  # her own name: her own car
    assert {fact.text for finding in _cars(app) for fact in (finding.first, finding.second)} == {
        "Drives a 2018 Skoda Octavia",
        "Priya drives a Polestar 2 now",
    }


def test_a_new_household_name_has_every_fact_read_again(memdesk_app):
    app = memdesk_app
    app.documents.set("user/profile", "Name: Priya")
    app.documents.set("user/facts", HOUSEHOLD_FACTS)
    app.health.look()
    app.entries.upsert("dev_car", "Dev drives a Polestar 2")
    assert len(_cars(app)) == 1  # nothing says who Dev is yet
    app.documents.set("user/profile", "Name: Priya\nPartner: Dev")
    assert app.health.look() == 4  # the profile's two lines, the facts line and the entry
    assert _cars(app) == []
    assert app.health.look() == 0


def test_new_rules_have_every_fact_read_again(stale, monkeypatch):
    app = stale
    app.health.look()
    monkeypatch.setattr("memdesk.services.health.RULES_VERSION", -1)
    assert app.health.look() == 4  # two facts lines, the entry and the memory
    assert app.health.look() == 0
    assert {finding.kind for finding in app.health.findings()} == {
        FindingKind.CONFLICT,
        FindingKind.DUPLICATE,
    }


def test_a_value_of_no_known_kind_fills_the_slot_its_fact_names(memdesk_app):
    """What compaction adds in the person's words ("I go to Solinca now") against a stored gym,
    as a change checks it and as an assistant's write is checked."""
    app = memdesk_app
    app.documents.set("user/facts", "- Gym: Fitness Hut Alcântara\n- Reads before bed")
    app.health.look()
    app.documents.set(
        "user/facts",
        "- Gym: Fitness Hut Alcântara\n- Reads before bed\n- I switched gyms, I go to Solinca now.",
    )
    (conflict,) = app.health.findings()
    assert (conflict.kind, conflict.slot) == (FindingKind.CONFLICT, "gym")
    assert {conflict.first.text, conflict.second.text} == {
        "Gym: Fitness Hut Alcântara",
        "I switched gyms, I go to Solinca now.",
    }
    assert [fact.text for fact in app.health.conflicts_with("New gym, I go to Solinca now.")] == [
        "Gym: Fitness Hut Alcântara"
    ]
    # a value of no known kind where the text names no slot, or two, fills none
    assert app.health.conflicts_with("I go to Solinca now.") == []
