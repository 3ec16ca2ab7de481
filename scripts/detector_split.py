"""Where each row of the write check's training data goes, and the rows a written frame gives.

One rule splits every source: a row's unit (a template, a package, a WordNet field, a text) is
hashed, and two tenths of the units are held out for testing, one tenth for validation, the rest
trained on; a held-out figure then measures units the model never read.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Iterator


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
