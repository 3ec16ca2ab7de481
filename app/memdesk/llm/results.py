"""What a compaction step hands back to the pipeline."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

T = TypeVar("T")

Action = Literal["delete", "edit"]


@dataclass(frozen=True)
class StepResult(Generic[T]):
    """A step's value and what producing it cost.

    ``calls`` counts model calls (0 offline); token counts are the servers' own unless
    ``estimated`` is True (any count was estimated at four characters per token).
    ``notes`` say what was cut from the replies to fit the step's limits.
    """

    value: T
    calls: int
    tokens_in: int
    tokens_out: int
    estimated: bool
    seconds: float
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class PartNotes:
    """Notes on a whole conversation and on each of its parts, in order."""

    whole: str
    parts: list[str]


@dataclass(frozen=True)
class Decision:
    """How to get an app back under its cap after a new memory was added.

    ``delete``: remove ``target_id``. ``edit``: give ``target_id`` the text ``new_content``,
    which absorbs the new memory, so the new memory is not kept on its own.
    ``fallback`` is True when FIFO was used instead of a choice; ``reason`` then says why.
    """

    action: Action
    target_id: int
    new_content: str | None
    reason: str
    fallback: bool = False
