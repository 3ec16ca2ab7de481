"""History's Before/After as a person reads it: an assistant's held write as Review shows it
(who, where it goes, its text, why it was held, what was decided), and every other kind of
change with its fields named in words, never as the store's columns or JSON."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QStyleOptionViewItem
from tests.gui.tables_fixtures import RENDERS, app_palette, save_render, shown

from memdesk.gui.views.history import HistoryView
from memdesk.gui.views.history_changes import ChangeRow, describe_change
from memdesk.gui.views.review import ReviewView
from memdesk.services.privacy import parse_target
from memdesk.services.review import Write
from memdesk.store.models import TRACKED_MODELS, HistoryStep

AGENT = "mcp:web-agent"
# A store's own names showing through: "decided_at: …", "operation: …", a JSON list or object.
RAW = re.compile(
    r"^(\w+_\w+|actor|operation|arguments|reasons|target|namespace|content|state|role|channel|pair|key)\s*:"
    r"|[\[{]\"|\btrue\b|\bfalse\b|\bnull\b",
    re.MULTILINE,
)


def _rows(app, label: str) -> list[ChangeRow]:
    step = next(step for step in app.history.list(limit=200) if step.label == label)
    return [describe_change(change, app) for change in app.history.changes(step.id)]


def _held_row(app, label: str) -> ChangeRow:
    return next(row for row in _rows(app, label) if row.item.startswith("Held write"))


def _hold(app, write: Write) -> int:
    with app.ctx.acting_as(AGENT):
        held = app.review.submit(write).held
    assert held is not None
    return held.id


def _one_change_of_each_kind(app) -> None:
    """Documents, apps, app memories, entries, a conversation, a private mark, a health finding
    ignored, and held writes approved, approved edited, rejected and restored."""
    app.documents.set("user/facts", "- Lives in Berlin\n")
    app.entries.upsert("home_city", "Priya lives in Paris now")
    app.health.ignore(app.health.findings()[0].id)
    app.documents.set("user/facts", "- Lives in Berlin\n- Drinks coffee every morning\n")
    memory = app.apps.add("calendar", "Standup at 9").memory
    app.apps.delete([memory.id])
    app.trash.restore(app.trash.list()[0].id)
    app.sessions.log("telegram:1", "user", "I moved to Porto last week.", app_id="travel")
    app.compaction.compact("telegram:1")
    app.privacy.set_private(parse_target("app:calendar"), True)
    app.assistants.set_level(AGENT, "review-everything")
    saved = _hold(app, Write.save_entry("porto_trip", "Porto trip in May."))
    appended = _hold(app, Write.append_document("user/profile", "- Runs 10 km on Saturdays."))
    added = _hold(app, Write.add_app_memory("calendar", "Dentist on Friday", 500))
    app.review.approve([saved])
    app.review.reject([appended])
    app.review.approve([added], edited="Dentist on Friday at 10")
    app.trash.restore(app.trash.list()[0].id)


def test_a_held_write_reads_as_review_shows_it_on_both_sides(memdesk_app, qtbot, tasks, settle):
    memdesk_app.assistants.set_level(AGENT, "review-everything")
    held = _hold(memdesk_app, Write.save_entry("porto_trip", "Porto trip in May."))
    review = shown(qtbot, ReviewView(memdesk_app, tasks), settle)
    summary = QTextDocument()
    summary.setHtml(review.detail.summary.text())
    said = [line for line in summary.toPlainText().splitlines() if line.strip()]
    assert said[0].startswith(f"{AGENT} wants to Save entry porto_trip · held ")

    hold = _held_row(memdesk_app, "Hold for review: Save entry porto_trip")
    assert (hold.item, hold.what, hold.before) == (f"Held write {held}", "held for review", "(did not exist)")
    lines = hold.after.splitlines()
    for line in said:  # who, what, when, where it goes, why it waits: Review's own lines
        assert line.strip() in (text.strip(" •") for text in lines), line
    assert "Decision: none yet (it waits in Review" in hold.after
    assert lines[-1] == "Porto trip in May."

    memdesk_app.review.approve([held])
    approve = _held_row(memdesk_app, "Approve: Save entry porto_trip")
    assert approve.what == "approved"
    assert approve.before == hold.after
    assert approve.after == hold.after.replace(
        "none yet (it waits in Review and reaches no prompt until you approve it)",
        "approved 2026-03-01 12:00 (in memory)",
    )


def test_a_rejected_restored_and_edited_held_write_says_what_was_decided(memdesk_app):
    memdesk_app.assistants.set_level(AGENT, "review-everything")
    appended = _hold(memdesk_app, Write.append_document("user/profile", "- Runs 10 km on Saturdays."))
    removal = _hold(memdesk_app, Write.delete_app_memory("calendar", 7))
    added = _hold(memdesk_app, Write.add_app_memory("calendar", "Dentist on Friday", 500))
    memdesk_app.review.reject([appended, removal])
    memdesk_app.trash.restore(
        next(item.id for item in memdesk_app.trash.list() if item.id == f"held:{appended}")
    )
    memdesk_app.review.approve([added], edited="Dentist on Friday at 10")

    rejected = _rows(memdesk_app, "Reject 2 held writes")
    assert [row.what for row in rejected] == ["rejected (moved to Trash)"] * 2
    profile = next(row for row in rejected if row.item == f"Held write {appended}")
    assert "Goes to: your assistant's prompt, every time (user/profile)" in profile.after
    assert "  • it changes a document that is in every prompt" in profile.after.splitlines()
    assert "Decision: rejected 2026-03-01 12:00 (in Trash; it never reaches a prompt)" in profile.after
    deletion = next(row for row in rejected if row.item == f"Held write {removal}")
    assert deletion.after.splitlines()[1] == "Goes to: removes memory 7 from app calendar"

    restored = _held_row(memdesk_app, f"Restore held write {appended} from Trash")
    assert restored.what == "back in Review (restored from Trash)"
    assert "Decision: none yet" in restored.after

    edited = _held_row(memdesk_app, "Approve: Add a memory to calendar")
    assert edited.what == "approved with your edit"
    assert edited.before.endswith("\n\nDentist on Friday") and edited.after.endswith(
        "\n\nDentist on Friday at 10"
    )


def test_an_approved_app_memory_edit_is_one_step_with_the_memorys_old_and_new_text(memdesk_app):
    memory_id = memdesk_app.apps.add("ui", "Prefers light mode").memory.id
    memdesk_app.assistants.set_level(AGENT, "review-everything")
    held = _hold(memdesk_app, Write.edit_app_memory("ui", memory_id, "Prefers dark mode", 200))
    memdesk_app.review.approve([held])

    rows = _rows(memdesk_app, f"Approve: Edit memory {memory_id} of ui")
    assert {row.item: row.what for row in rows} == {
        f"Held write {held}": "approved",
        f"App memory {memory_id}": "changed text",
    }
    [text] = [row for row in rows if row.item == f"App memory {memory_id}"]
    assert (text.before, text.after) == ("Prefers light mode", "Prefers dark mode")
    approved = _held_row(memdesk_app, f"Approve: Edit memory {memory_id} of ui")
    assert approved.after.splitlines()[0].startswith(f"{AGENT} wants to Edit memory {memory_id} of ui")
    assert f"Goes to: the memories of app ui (the text of memory {memory_id})" in approved.after


def test_every_kind_of_change_reads_in_words(memdesk_app):
    _one_change_of_each_kind(memdesk_app)
    tables: set[str] = set()
    for step in memdesk_app.history.list(limit=200):
        for change in memdesk_app.history.changes(step.id):
            tables.add(change.table_name)
            row = describe_change(change, memdesk_app)
            for side in (row.before, row.after):
                assert not RAW.search(side), f"{step.label}, {row.item}:\n{side}"
            assert "_" not in row.what, (step.label, row.what)
    assert tables == {model.__tablename__ for model in TRACKED_MODELS}  # one of every kind

    (finding,) = _rows(memdesk_app, "Memory health: ignore entry home_city and user/facts")
    assert "One fact: Priya lives in Paris now\nThe other: Lives in Berlin" in finding.after
    assert ("State: open" in finding.before) and ("State: ignored" in finding.after)
    session = next(
        row for row in _rows(memdesk_app, "Compact telegram:1") if row.item == "Session telegram:1"
    )
    assert session.what == "changed last compacted, compacted up to message"


# What an action names by the store's own ids: a Trash id ("held:2") or a private mark's
# target ("app:calendar").
STORE_NAMES = re.compile(r"\b(held|memory|entry|doc|session|app):\S")
# Labels as steps made before they were written in words recorded them, and how they read:
# as a new one does, though an old restore named an app memory by its id alone.
OLD_LABELS = {
    "Restore held write 2 from Trash": ("Restore held:2", "Restore held write 2 from Trash"),
    "Restore app memory 1 of calendar from Trash": ("Restore memory:1", "Restore app memory 1 from Trash"),
    "Make app calendar private": ("Make app:calendar private", "Make app calendar private"),
    "Approve: Save entry porto_trip": ("Approve Save entry porto_trip", "Approve: Save entry porto_trip"),
    "Reject: Append to user/profile": ("Reject Append to user/profile", "Reject: Append to user/profile"),
}


def _actions(view: HistoryView) -> list[str]:
    column = view.steps.ACTION
    return [view.steps.index(row, column).data() for row in range(view.steps.rowCount())]


def test_every_action_reads_as_a_person_says_it_old_or_new(memdesk_app, qtbot, tasks, settle):
    _one_change_of_each_kind(memdesk_app)
    view = shown(qtbot, HistoryView(memdesk_app, tasks), settle)
    actions = _actions(view)
    assert {*OLD_LABELS, "Delete memory 1 of calendar"} <= set(actions), actions
    for action in actions:
        assert not STORE_NAMES.search(action), action
        assert action[:1].isupper(), action

    with memdesk_app.ctx.store.write() as session:  # as a store from before records them
        for step in session.query(HistoryStep):
            step.label = OLD_LABELS[step.label][0] if step.label in OLD_LABELS else step.label
    recorded = {step.label for step in memdesk_app.history.list(limit=200)}
    assert recorded >= {old for old, _reads in OLD_LABELS.values()}
    view.refresh()
    settle()
    assert _actions(view) == [OLD_LABELS[action][1] if action in OLD_LABELS else action for action in actions]


def test_a_long_action_keeps_its_verb_when_cut(memdesk_app, qtbot, tasks, settle):
    memdesk_app.documents.set("user/facts", "- Lives in Berlin\n")
    memdesk_app.entries.upsert("home_city", "Priya lives in Paris now")
    memdesk_app.health.ignore(memdesk_app.health.findings()[0].id)
    view = shown(qtbot, HistoryView(memdesk_app, tasks), settle, (640, 460))
    column = view.steps.ACTION
    width = view.steps_table.columnWidth(column)
    option = QStyleOptionViewItem()
    view.steps_table.itemDelegateForColumn(column).initStyleOption(option, view.steps.index(0, column))
    assert option.text == "Memory health: ignore entry home_city and user/facts"
    assert view.steps_table.fontMetrics().horizontalAdvance(option.text) > width  # it is cut…
    assert option.textElideMode == Qt.TextElideMode.ElideRight  # …at its end, after the verb


@pytest.mark.parametrize(("name", "size", "dark"), RENDERS)
def test_render_a_held_write_in_history(memdesk_app, qtbot, tasks, settle, name, size, dark):
    memdesk_app.assistants.set_level(AGENT, "review-everything")
    memdesk_app.review.approve([_hold(memdesk_app, Write.save_entry("porto_trip", "Porto trip in May."))])
    with app_palette(dark):
        view = shown(qtbot, HistoryView(memdesk_app, tasks), settle, size)
        row = next(
            i for i, step in enumerate(view.steps.steps) if step.label == "Approve: Save entry porto_trip"
        )
        view.steps_table.selectRow(row)
        settle()
        view.changes_table.selectRow(next(i for i, r in enumerate(view.changes.rows) if r.what == "approved"))
        assert view.after.toPlainText().startswith(f"{AGENT} wants to Save entry porto_trip")
        save_render(view, f"history-held-write-{name}", size)
