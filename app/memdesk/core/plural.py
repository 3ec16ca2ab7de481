"""Counts in words, for the window and the command line alike: "1 call", "2 calls"."""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` with ``noun``, or ``many`` (default: ``noun`` + "s") when it is not one."""
    return f"{count:,} {noun if count == 1 else (many or noun + 's')}"
