"""Time ↔ x on the timeline, and the date ticks of the axis. Plain Python, no Qt.

A ``TimeScale`` is an origin (the moment at x = 0) and a resolution (seconds per pixel).
The zoom presets name how much time the plot's width shows: a day, a week, a month or a
year.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

DAY = 86400.0
ZOOMS: dict[str, timedelta] = {
    "day": timedelta(days=1),
    "week": timedelta(days=7),
    "month": timedelta(days=30),
    "year": timedelta(days=365),
}
# Ctrl+wheel goes from an hour to ten years across the plot.
MIN_SPAN = timedelta(hours=1)
MAX_SPAN = timedelta(days=3650)
# Where "now" sits when a zoom preset is chosen: a little left of centre, since the
# future (what will expire) matters more than the past.
NOW_AT = 0.3
# Panning stops here, well inside what ``datetime`` can hold.
EARLIEST = datetime(1970, 1, 1)
LATEST = datetime(2200, 1, 1)


def _clamped(when: datetime, seconds: float) -> datetime:
    """``when`` moved by ``seconds``, kept between EARLIEST and LATEST (however far it is asked to go)."""
    low = (EARLIEST - when).total_seconds()
    high = (LATEST - when).total_seconds()
    return when + timedelta(seconds=min(max(seconds, low), high))


@dataclass(frozen=True)
class TimeScale:
    origin: datetime  # the moment at x = 0
    seconds_per_px: float

    @classmethod
    def showing(cls, span: timedelta, width: float, anchor: datetime, at: float = NOW_AT) -> TimeScale:
        """``span`` across ``width`` pixels, with ``anchor`` at the fraction ``at`` of the width."""
        seconds_per_px = span.total_seconds() / max(width, 1.0)
        return cls(anchor - timedelta(seconds=seconds_per_px * width * at), seconds_per_px)

    @property
    def px_per_day(self) -> float:
        return DAY / self.seconds_per_px

    def x_of(self, when: datetime) -> float:
        return (when - self.origin).total_seconds() / self.seconds_per_px

    def time_at(self, x: float) -> datetime:
        return self.origin + timedelta(seconds=x * self.seconds_per_px)

    def span(self, width: float) -> timedelta:
        return timedelta(seconds=self.seconds_per_px * width)

    def panned(self, dx: float) -> TimeScale:
        """Moved so that what was at x is now at x + dx (dragging right shows the past)."""
        return TimeScale(_clamped(self.origin, -dx * self.seconds_per_px), self.seconds_per_px)

    def zoomed(self, factor: float, anchor_x: float, width: float) -> TimeScale:
        """``factor`` > 1 zooms in; the moment under ``anchor_x`` stays where it is."""
        low = MIN_SPAN.total_seconds() / max(width, 1.0)
        high = MAX_SPAN.total_seconds() / max(width, 1.0)
        seconds_per_px = min(max(self.seconds_per_px / factor, low), high)
        anchor = self.time_at(anchor_x)
        return TimeScale(_clamped(anchor, -anchor_x * seconds_per_px), seconds_per_px)

    def with_width(self, old_width: float, new_width: float) -> TimeScale:
        """The same span and anchor fraction after the plot is resized."""
        if old_width <= 0 or new_width <= 0:
            return self
        anchor = self.time_at(old_width * NOW_AT)
        return TimeScale.showing(self.span(old_width), new_width, anchor)


@dataclass(frozen=True)
class Tick:
    x: float
    when: datetime
    label: str
    major: bool  # starts a larger unit (a day, a month, a year): drawn stronger, labelled above


# (step in seconds, or in months when negative; what a tick shows; the larger unit above)
_STEPS: tuple[tuple[float, str, str], ...] = (
    (3600, "time", "day"),
    (3 * 3600, "time", "day"),
    (6 * 3600, "time", "day"),
    (12 * 3600, "time", "day"),
    (DAY, "day", "month"),
    (2 * DAY, "day", "month"),
    (7 * DAY, "day", "month"),
    (-1, "month", "year"),
    (-3, "month", "year"),
    (-12, "year", "decade"),
)
MIN_TICK_PX = 56.0


def _month_start(when: datetime, months: int) -> datetime:
    """The first day of the month at or before ``when`` whose index is a multiple of ``months``."""
    index = when.year * 12 + when.month - 1
    index -= index % months
    return datetime(index // 12, index % 12 + 1, 1)


def _add_months(when: datetime, months: int) -> datetime:
    index = when.year * 12 + when.month - 1 + months
    return datetime(index // 12, index % 12 + 1, 1)


def _tick_label(when: datetime, shows: str) -> str:
    if shows == "time":
        return when.strftime("%H:%M")
    if shows == "day":
        return str(when.day)
    return when.strftime("%b" if shows == "month" else "%Y")


def _is_major(when: datetime, unit: str) -> bool:
    midnight = when.hour == 0 and when.minute == 0
    if unit == "day":
        return midnight
    if unit == "month":
        return midnight and when.day == 1
    if unit == "year":
        return when.month == 1 and when.day == 1
    return when.year % 10 == 0 and when.month == 1


def major_label(when: datetime, unit: str) -> str:
    if unit == "day":
        return f"{when:%a} {when.day} {when:%b}"  # short enough for a day at week zoom
    if unit == "month":
        return when.strftime("%B %Y")
    if unit == "year":
        return when.strftime("%Y")
    return f"{when.year}s"


def tick_step(scale: TimeScale) -> tuple[float, str, str]:
    """The finest step whose ticks are at least ``MIN_TICK_PX`` apart."""
    for step in _STEPS:
        seconds = step[0] if step[0] > 0 else -step[0] * 30.44 * DAY
        if seconds / scale.seconds_per_px >= MIN_TICK_PX:
            return step
    return _STEPS[-1]


def ticks(scale: TimeScale, width: float) -> list[Tick]:
    """The axis ticks between x = 0 and x = width (one step beyond on each side)."""
    step, shows, unit = tick_step(scale)
    first = scale.time_at(0)
    last = scale.time_at(width)
    result: list[Tick] = []
    if step > 0:
        if step >= 7 * DAY:  # weeks start on Monday
            monday = datetime(first.year, first.month, first.day) - timedelta(days=first.weekday())
            when = monday - timedelta(days=7)
        else:
            day = datetime(first.year, first.month, first.day)
            when = day + timedelta(seconds=math.floor((first - day).total_seconds() / step) * step)
        while when <= last + timedelta(seconds=step):
            result.append(Tick(scale.x_of(when), when, _tick_label(when, shows), _is_major(when, unit)))
            when += timedelta(seconds=step)
    else:
        months = int(-step)
        when = _month_start(first, months)
        while when <= last:
            result.append(Tick(scale.x_of(when), when, _tick_label(when, shows), _is_major(when, unit)))
            when = _add_months(when, months)
    return result


def _floor_major(when: datetime, unit: str) -> datetime:
    if unit == "day":
        return datetime(when.year, when.month, when.day)
    if unit == "month":
        return datetime(when.year, when.month, 1)
    if unit == "year":
        return datetime(when.year, 1, 1)
    return datetime(when.year - when.year % 10, 1, 1)


def _next_major(when: datetime, unit: str) -> datetime:
    if unit == "day":
        return when + timedelta(days=1)
    return _add_months(when, {"month": 1, "year": 12}.get(unit, 120))


def majors(scale: TimeScale, width: float) -> list[Tick]:
    """The larger units on screen (days, months, years), each labelled once, for the upper axis row."""
    unit = tick_step(scale)[2]
    when = _floor_major(scale.time_at(0), unit)
    last = scale.time_at(width)
    result = []
    while when <= last:
        result.append(Tick(scale.x_of(when), when, major_label(when, unit), True))
        when = _next_major(when, unit)
    return result
