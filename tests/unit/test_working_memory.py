"""Working memory: the Flynn file format, the token budget, expiry at a given moment."""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime, timedelta

import pytest

from memdesk.core import working as working_format
from memdesk.errors import BadInputError, NotFoundError


def test_export_has_the_flynn_header(memdesk_app):
    memdesk_app.working.write("some content", ttl_days=14)
    raw = memdesk_app.working.export_text()
    assert raw == (
        "# Working Memory\nUpdated: 2026-03-01T12:00:00Z\nExpires: 2026-03-15T12:00:00Z\n\nsome content\n"
    )
    parsed = working_format.parse(raw)
    assert parsed.content == "some content"
    assert parsed.expires_at == datetime(2026, 3, 15, 12, 0)


def test_content_is_cut_to_the_token_budget(memdesk_app):
    memdesk_app.ctx.settings = dataclasses.replace(
        memdesk_app.settings,
        memory=dataclasses.replace(memdesk_app.settings.memory, working_memory_max_tokens=100),
    )
    state = memdesk_app.working.write("x" * 10_000)
    assert len(state.content) == 400


def test_live_until_expiry_then_hidden_not_deleted(memdesk_app, clock):
    memdesk_app.working.write("hello", ttl_days=2)
    assert memdesk_app.working.state().live
    clock.now += timedelta(days=2)
    state = memdesk_app.working.state()
    assert not state.live
    assert state.content == "hello"
    assert state.reason == "expired at 2026-03-03T12:00:00Z"


def test_fixed_past_expiry_in_a_file_means_no_working_memory(memdesk_app, tmp_path):
    folder = tmp_path / "flynn"
    (folder / "user").mkdir(parents=True)
    (folder / "user" / "working.md").write_text(
        "# Working Memory\nUpdated: 2025-01-01T00:00:00Z\nExpires: 2025-01-02T00:00:00Z\n\nstale content\n"
    )
    report = memdesk_app.flynn.import_(folder)
    assert report.notes == ["user/working.md: expired at 2025-01-02T00:00:00Z; imported, not in the prompt"]
    state = memdesk_app.working.state()
    assert state.content == "stale content" and not state.live


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("no headers here", "missing '# Working Memory' header"),
        ("# Working Memory\nUpdated: 2025-01-01T00:00:00Z\n\nbody", "missing 'Expires:' line"),
        ("# Working Memory\nUpdated: yesterday\nExpires: 2025-01-02\n\nbody", "not an ISO 8601"),
    ],
)
def test_malformed_files_refuse_the_import(memdesk_app, tmp_path, raw, problem):
    folder = tmp_path / "flynn"
    (folder / "user").mkdir(parents=True)
    (folder / "user" / "working.md").write_text(raw)
    (folder / "user" / "profile.md").write_text("Name: Ada")
    with pytest.raises(BadInputError, match=f"user/working.md: .*{re.escape(problem)}"):
        memdesk_app.flynn.import_(folder)
    assert memdesk_app.working.state() is None
    assert memdesk_app.documents.get("user/profile") is None


def test_extend_pin_expire(memdesk_app, clock):
    memdesk_app.working.write("notes", ttl_days=1)
    assert memdesk_app.working.extend(3).expires_at == datetime(2026, 3, 5, 12, 0)
    pinned = memdesk_app.working.pin()
    assert pinned.pinned and pinned.expires_at is None
    clock.now += timedelta(days=400)
    assert memdesk_app.working.state().live
    expired = memdesk_app.working.expire()
    assert not expired.live and not expired.pinned


def test_extend_after_expiry_counts_from_now(memdesk_app, clock):
    memdesk_app.working.write("notes", ttl_days=1)
    clock.now += timedelta(days=10)
    assert memdesk_app.working.extend(2).expires_at == clock.now + timedelta(days=2)


def test_adjusting_missing_working_memory_is_a_clear_error(memdesk_app):
    with pytest.raises(NotFoundError, match="there is no working memory"):
        memdesk_app.working.pin()


def test_bad_ttl_and_empty_text_are_refused(memdesk_app):
    with pytest.raises(BadInputError, match="ttl"):
        memdesk_app.working.write("x", ttl_days=0)
    with pytest.raises(BadInputError, match="empty"):
        memdesk_app.working.write("   ")
    assert memdesk_app.working.state() is None
