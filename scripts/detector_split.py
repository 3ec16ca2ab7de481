"""Where each row of the write check's training data goes, and the rows a written frame gives.

One rule splits every source: a row's unit (a template, a package, a WordNet field, a text) is
hashed, and two tenths of the units are held out for testing, one tenth for validation, the rest
trained on; a held-out figure then measures units the model never read.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial


def split_of(unit: str) -> str:
    """train, validation or test, by the unit's name alone."""
    bucket = zlib.crc32(unit.encode("utf-8")) % 10
    return "test" if bucket < 2 else "validation" if bucket == 2 else "train"


def distinct_fills(fill: Callable[[], str], most: int, draws: int) -> Iterator[str]:
    """Up to ``most`` distinct texts among ``draws`` calls of ``fill``. Every draw is made, so the
    random choices of the next frame are the same however many of this one's were kept."""
    seen: set[str] = set()
    for _ in range(draws):
        text = fill()
        if text not in seen and len(seen) < most:
            seen.add(text)
            yield text


def fill_slots(frame: str, slots: dict[str, list[str]], chooser: random.Random) -> str:
    """``frame`` with each of its ``{slot}`` filled by one of the slot's parts, chosen at random."""
    return frame.format(**{slot: chooser.choice(parts) for slot, parts in slots.items()})


@dataclass(frozen=True)
class Written:
    """A row filled from a frame written for the project; ``unit`` names its frame."""

    unit: str
    text: str

    @property
    def split(self) -> str:
        return split_of(self.unit)


def written_rows(
    frames: Sequence[str], slots: dict[str, list[str]], unit: str, most: int, seed: int
) -> Iterator[Written]:
    """Up to ``most`` distinct fills of each frame, in a fixed order; ``unit`` is formatted with
    the frame's index ("lookalike:{}")."""
    chooser = random.Random(seed)
    for index, frame in enumerate(frames):
        for text in distinct_fills(partial(fill_slots, frame, slots, chooser), most, most * 3):
            yield Written(unit.format(index), text)
