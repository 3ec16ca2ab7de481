"""The timeline's pure parts: time ↔ x, axis ticks, lanes and groups."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta

import pytest

from memdesk.core.items import ItemKind
from memdesk.gui.timeline.describe import bar_label, tooltip_html
from memdesk.gui.timeline.geometry import LATEST, TimeScale, majors, ticks
from memdesk.gui.timeline.rows import Filters, build_rows, pack
from memdesk.services.expiry import ExpiringItem

NOW = datetime(2026, 3, 1, 12, 0)
WIDTH = 1000.0
SPANS = {"day": 1, "week": 7, "month": 30, "year": 365}


def item(
    kind: ItemKind = ItemKind.ENTRY,
    ref: str = "1",
    start_days: float = 0,
    end_days: float | None = 1,
    app=None,
):
    end = None if end_days is None else NOW + timedelta(days=end_days)
    return ExpiringItem(
        kind, ref, f"{kind} {ref}", "text", app, NOW + timedelta(days=start_days), end, end is None, False
    )


@pytest.mark.parametrize("zoom", SPANS)
def test_a_preset_shows_its_span_with_now_at_three_tenths(zoom):
    scale = TimeScale.showing(timedelta(days=SPANS[zoom]), WIDTH, NOW)
    assert scale.x_of(NOW) == pytest.approx(300)
    assert scale.px_per_day == pytest.approx(WIDTH / SPANS[zoom])
    assert scale.x_of(NOW + timedelta(days=SPANS[zoom])) == pytest.approx(1300)
    assert scale.time_at(scale.x_of(NOW + timedelta(hours=5))) == NOW + timedelta(hours=5)


def test_zoom_keeps_the_moment_under_the_mouse():
    scale = TimeScale.showing(timedelta(days=30), WIDTH, NOW)
    anchor = scale.time_at(640)
    zoomed = scale.zoomed(2.0, 640, WIDTH)
    assert zoomed.seconds_per_px == pytest.approx(scale.seconds_per_px / 2)
    assert abs((zoomed.time_at(640) - anchor).total_seconds()) < 1e-3


def test_zoom_and_pan_stay_within_bounds():
    scale = TimeScale.showing(timedelta(days=30), WIDTH, NOW)
    assert scale.zoomed(1e9, 0, WIDTH).span(WIDTH) == timedelta(hours=1)
    assert scale.zoomed(1e-9, 0, WIDTH).span(WIDTH) == timedelta(days=3650)
    assert scale.panned(-1e12).origin == LATEST


def test_dragging_right_shows_the_past():
    scale = TimeScale.showing(timedelta(days=10), WIDTH, NOW)
    assert scale.panned(100).x_of(NOW) == pytest.approx(scale.x_of(NOW) + 100)


def test_resizing_keeps_the_span():
    scale = TimeScale.showing(timedelta(days=7), WIDTH, NOW)
    wider = scale.with_width(WIDTH, 2 * WIDTH)
    assert wider.span(2 * WIDTH) == timedelta(days=7)
    assert wider.x_of(NOW) == pytest.approx(600)


@pytest.mark.parametrize(
    ("zoom", "step", "label", "major_label"),
    [
        ("day", timedelta(hours=3), "15:00", "Mon 2 Mar"),
        ("week", timedelta(hours=12), "00:00", "Mon 2 Mar"),
        ("month", timedelta(days=2), "2", "March 2026"),
        ("year", None, "Apr", "2026"),
    ],
)
def test_ticks_are_evenly_spaced_and_labelled(zoom, step, label, major_label):
    scale = TimeScale.showing(timedelta(days=SPANS[zoom]), WIDTH, NOW)
    found = ticks(scale, WIDTH)
    xs = [tick.x for tick in found]
    assert xs == sorted(xs) and xs[0] <= 0 and xs[-1] >= WIDTH * 0.9
    for tick in found:
        assert tick.x == pytest.approx(scale.x_of(tick.when))
    if step is not None:
        assert {b.when - a.when for a, b in itertools.pairwise(found)} == {step}
    else:
        assert all(tick.when.day == 1 for tick in found)  # months
    assert label in [tick.label for tick in found]
    assert major_label in [tick.label for tick in majors(scale, WIDTH)]


def test_week_ticks_at_month_scale_fall_on_mondays():
    scale = TimeScale.showing(timedelta(days=120), WIDTH, NOW)
    found = ticks(scale, WIDTH)
    assert {tick.when.weekday() for tick in found} == {0}


def test_bars_that_do_not_overlap_share_a_lane():
    items = [
        item(ref="a", start_days=0, end_days=2),
        item(ref="b", start_days=3, end_days=5),
        item(ref="c", start_days=1, end_days=4),
        item(ref="p", start_days=6, end_days=None),
    ]
    lanes = pack(items)
    # "b" takes the lane that was free first (a's); then "p" takes c's.
    assert [[i.ref for i in lane.items] for lane in lanes] == [["a", "b"], ["c", "p"]]
    lane, pinned_lane = lanes
    t = lambda days: NOW + timedelta(days=days)  # noqa: E731
    assert [lane.items[i].ref for i in lane.between(t(2.5), t(3.5))] == ["b"]
    assert [lane.items[i].ref for i in lane.between(t(100), t(200))] == []
    assert [pinned_lane.items[i].ref for i in pinned_lane.between(t(100), t(200))] == ["p"]  # it goes on


def test_rows_are_grouped_by_kind_then_app_and_filtered():
    items = [
        item(ItemKind.TRASH, "memory:9", app="mail"),
        item(ItemKind.APP_MEMORY, "2", app="mail"),
        item(ItemKind.APP_MEMORY, "1", app="calendar"),
        item(ItemKind.WORKING, "user/working"),
        item(ItemKind.ENTRY, "5"),
    ]
    labels = {"calendar": "Calendar", "mail": "Mail"}
    headers = [row.header for row in build_rows(items, labels, Filters()) if row.header]
    assert headers == [
        "Working memory (1)",
        "Entries (1)",
        "App memories · Calendar (1)",
        "App memories · Mail (1)",
        "Trash · purge dates (1)",
    ]
    only_mail = build_rows(items, labels, Filters(app_id="mail"))
    assert [row.header for row in only_mail if row.header] == [
        "App memories · Mail (1)",
        "Trash · purge dates (1)",
    ]
    no_entries = build_rows(items, labels, Filters(kinds=frozenset({ItemKind.WORKING, ItemKind.TRASH})))
    assert [row.group for row in no_entries if row.header] == [ItemKind.WORKING, ItemKind.TRASH]


def test_tooltip_escapes_and_dates():
    entry = ExpiringItem(
        ItemKind.ENTRY,
        "3",
        "timeline <b>trip</b>",
        "Went to <Paris>",
        None,
        NOW - timedelta(days=1),
        NOW + timedelta(days=2),
        False,
        False,
    )
    html = tooltip_html(entry, NOW)
    assert "timeline &lt;b&gt;trip&lt;/b&gt;" in html and "Went to &lt;Paris&gt;" in html
    assert "written 2026-02-28 12:00 UTC" in html
    assert "expires 2026-03-03 12:00 UTC (in 2 days)" in html
    assert "pinned: never expires" in tooltip_html(item(end_days=None), NOW)
    expired = ExpiringItem(
        ItemKind.TRASH,
        "entry:1",
        "x",
        "",
        None,
        NOW - timedelta(days=40),
        NOW - timedelta(days=10),
        False,
        True,
    )
    assert "purge was due 2026-02-19 12:00 UTC (10 days ago)" in tooltip_html(expired, NOW)


def test_an_app_memory_bar_shows_its_words_under_its_app_header():
    memory = ExpiringItem(
        ItemKind.APP_MEMORY, "4", "mail: Signs off", "Signs off\nwith Best", "mail", NOW, None, True, False
    )
    assert bar_label(memory) == "Signs off with Best"
    assert bar_label(item(ItemKind.ENTRY, "5")) == "entry 5"
