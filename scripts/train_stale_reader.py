"""Train the learned reader of stale facts and write app/memdesk/resources/stale_reader/.

Logistic regression over the hashed features of ``memdesk.llm.stale_features``, learned from
the pairs of ``scripts.stale_reader_data`` by plain stochastic gradient descent in a fixed
order: the same data give the same weights, byte for byte, on every machine.

Every source (a split, a training file) was written by its own authors, so the threshold is
chosen on sources the model did not learn from: leave one source out (train on the others and
``cases.json``, read the held-out source as the reader does: for each stored line its
likeliest sentence), for every source; the threshold is the lowest at which the held-out
readings, pooled, mark at most one line that no expected edit targets per 100 scenarios. The
shipped weights then learn from every source.

    python -m scripts.train_stale_reader            # train, report, write the resources
    python -m scripts.train_stale_reader --report   # only the leave-one-source-out table
    python -m scripts.train_stale_reader --curve    # held-out figures by how much is learned from
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from scripts.stale_reader_data import CASES, Pair, all_pairs, sources, split_name, training_only

from memdesk.llm.stale_features import BUCKETS
from memdesk.llm.stale_reader import MANIFEST, WEIGHTS, probability

OUT = Path(__file__).resolve().parents[1] / "app" / "memdesk" / "resources" / "stale_reader"
EPOCHS = 12
RATE = 0.2
DECAY = 1e-5  # L2, per update
SEED = 36
WRONG_PER_SCENARIO = 0.01  # the precision goal: at most one wrong line per 100 scenarios
# 0.50 … 0.95 by 0.01, by 0.005 to 0.995, then by 0.001 to 0.999: the probabilities of the
# surest pairs crowd the top
THRESHOLDS = [
    *(round(0.5 + 0.01 * step, 3) for step in range(46)),
    *(round(0.955 + 0.005 * step, 3) for step in range(9)),
    *(round(0.996 + 0.001 * step, 3) for step in range(4)),
]
DIGITS = 4  # of a stored weight
FRACTIONS = (0.5, 0.75, 1.0)  # of the authors a held-out source's reader may learn from
LICENCE = "MIT"  # every source: written for the project, under its licence


def train(pairs: Sequence[Pair]) -> list[float]:
    """The weights of each bucket, learned from ``pairs`` in an order fixed by ``SEED``."""
    weights = [0.0] * BUCKETS
    order = list(range(len(pairs)))
    shuffler = random.Random(SEED)
    for epoch in range(EPOCHS):
        shuffler.shuffle(order)
        rate = RATE / (1 + epoch)
        for index in order:
            pair = pairs[index]
            error = probability(weights, pair.buckets) - (1.0 if pair.positive else 0.0)
            for bucket in pair.buckets:
                weights[bucket] -= rate * (error + DECAY * weights[bucket])
    return [round(w, DIGITS) for w in weights]


@dataclass
class Reading:
    """What the reader marks on one split at one threshold."""

    scenarios: int
    edits: int
    right: int  # lines marked that an expected edit targets, by its evidence
    wrong: int  # lines marked that no expected edit targets (collateral if applied)
    off: int  # an expected edit's line, marked by another sentence than its evidence


def read_split(
    weights: list[float], pairs: Sequence[Pair], threshold: float, scenarios: int, edits: int
) -> Reading:
    """The pairs the reader marks at ``threshold``: each a line's likeliest sentence and that
    sentence's likeliest line (``stale_reader.suggestions``)."""
    scored = [(probability(weights, pair.buckets), pair) for pair in pairs if pair.markable]
    by_line: dict[tuple[str, int], float] = {}
    by_sentence: dict[tuple[str, int], float] = {}
    for p, pair in scored:
        line, sentence = (pair.scenario, pair.line), (pair.scenario, pair.sentence)
        by_line[line] = max(p, by_line.get(line, 0.0))
        by_sentence[sentence] = max(p, by_sentence.get(sentence, 0.0))
    targets = {(p.scenario, p.line) for p in pairs if p.positive}
    reading = Reading(scenarios, edits, 0, 0, 0)
    marked: set[tuple[str, int]] = set()
    for p, pair in scored:
        line = (pair.scenario, pair.line)
        if (
            p < threshold
            or line in marked
            or p < by_line[line]
            or p < by_sentence[(pair.scenario, pair.sentence)]
        ):
            continue
        marked.add(line)
        if pair.positive:
            reading.right += 1
        elif line in targets:
            reading.off += 1
        else:
            reading.wrong += 1
    return reading


def held_out(pairs: list[Pair], split: str) -> list[float]:
    return train([pair for pair in pairs if pair.split != split])


Readings = dict[str, dict[float, Reading]]


def leave_one_out(
    pairs: list[Pair],
    scenarios: dict[str, int],
    edits: dict[str, int],
    learned: Callable[[str], list[Pair]],
) -> Readings:
    """Each source but the cases read at every threshold by weights trained on
    ``learned(source)`` (which must leave that source out)."""
    readings: Readings = {}
    for split in scenarios:
        if split == CASES:
            continue
        weights = train(learned(split))
        mine = [pair for pair in pairs if pair.split == split]
        readings[split] = {
            t: read_split(weights, mine, t, scenarios[split], edits[split]) for t in THRESHOLDS
        }
        print(f"held out {split}: trained on the others", flush=True)
    return readings


def some_authors(pairs: list[Pair], split: str, *, fraction: float, sources: set[str]) -> list[Pair]:
    """The cases and ``fraction`` of the authors of ``sources`` other than ``split``, drawn in an
    order fixed by ``SEED`` and ``split``: what a reader learns from for one point of the curve."""
    authors = sorted({(p.split, p.author) for p in pairs if p.split in sources - {split}})
    random.Random(f"{SEED}:{split}").shuffle(authors)
    kept = set(authors[: round(fraction * len(authors))])
    return [p for p in pairs if p.split == CASES or (p.split, p.author) in kept]


def curve(pairs: list[Pair], scenarios: dict[str, int], edits: dict[str, int], trained: set[str]) -> None:
    """Leave one source out, learning from the splits alone and then from the training files
    too, each with a part of the authors: held-out recall and wrong lines at the precision goal,
    and the surest threshold (no line that no expected edit targets, on any held-out source)."""
    splits = set(scenarios) - trained - {CASES}
    for learned, name in ((splits, "splits only"), (splits | trained, "splits and training files")):
        for fraction in FRACTIONS:
            readings = leave_one_out(
                pairs, scenarios, edits, partial(some_authors, pairs, fraction=fraction, sources=learned)
            )
            print(f"learned from {name}, {fraction:.0%} of the authors of the others:")
            print("\n".join(summary(readings, trained)), flush=True)


def summary(readings: Readings, trained: set[str]) -> list[str]:
    """The pooled figures at the precision goal's threshold and at the surest one."""
    rows = []
    surest = next((t for t in THRESHOLDS if not any(by[t].wrong for by in readings.values())), None)
    for label, threshold in (("precision goal", choose(readings)), ("surest", surest)):
        if threshold is None:
            rows.append(f"  {label}: none (a line no edit targets marked at every threshold)")
            continue
        for part, chosen in (
            ("all", set(readings)),
            ("splits", set(readings) - trained),
            ("training", trained),
        ):
            r = pooled({split: readings[split] for split in chosen if split in readings}, threshold)
            recall, wrong = r.right / max(r.edits, 1), 100 * (r.wrong + r.off) / max(r.scenarios, 1)
            rows.append(
                f"  {label} {threshold}, {part}: right {r.right} of {r.edits} ({recall:.1%}), wrong line "
                f"{r.wrong}, other sentence {r.off}: {wrong:.2f} per 100 of {r.scenarios} scenarios"
            )
    return rows


def pooled(readings: Readings, threshold: float) -> Reading:
    total = Reading(0, 0, 0, 0, 0)
    for by in readings.values():
        for field in ("scenarios", "edits", "right", "wrong", "off"):
            setattr(total, field, getattr(total, field) + getattr(by[threshold], field))
    return total


def choose(readings: Readings) -> float:
    """The lowest threshold whose pooled held-out readings keep the precision goal."""
    for threshold in THRESHOLDS:
        wrong = sum(by[threshold].wrong + by[threshold].off for by in readings.values())
        scenarios = sum(by[threshold].scenarios for by in readings.values())
        if wrong <= WRONG_PER_SCENARIO * scenarios:
            return threshold
    return THRESHOLDS[-1]


def table(readings: Readings, threshold: float) -> list[str]:
    rows = [f"threshold {threshold}", "source scenarios  edits  marked right  wrong line  other sentence"]
    rows += [_row(split, by[threshold]) for split, by in readings.items()]
    rows.append(_row("all", pooled(readings, threshold)))
    return rows


def _row(split: str, r: Reading) -> str:
    return f"{split:<6} {r.scenarios:>9}  {r.edits:>5}  {r.right:>12}  {r.wrong:>10}  {r.off:>14}"


def _role(path: Path) -> str:
    if training_only(path):
        return "training only"
    return "cases" if split_name(path) == CASES else "scored split"


def write(folder: Path, weights: list[float], manifest: dict[str, object]) -> None:
    """The weights (the buckets not zero) and the manifest, as ``stale_reader`` reads them."""
    folder.mkdir(parents=True, exist_ok=True)
    kept = {str(bucket): w for bucket, w in enumerate(weights) if w}
    text = json.dumps(kept, separators=(",", ":"), sort_keys=True)
    (folder / WEIGHTS).write_text(text + "\n", encoding="utf-8")
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def without(split: str, folder: Path, threshold: float) -> None:
    """A reader that never learned from ``split``, at ``threshold``, written to ``folder``."""
    pairs, _scenarios, _edits = all_pairs()
    write(folder, held_out(pairs, split), {"threshold": threshold, "held_out": split})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="only the leave-one-source-out table")
    parser.add_argument("--curve", action="store_true", help="held-out figures by how much is learned from")
    args = parser.parse_args()
    pairs, scenarios, edits = all_pairs()
    trained = {split_name(path) for path in sources() if training_only(path)}
    if args.curve:
        curve(pairs, scenarios, edits, trained)
        return
    readings = leave_one_out(pairs, scenarios, edits, lambda split: [p for p in pairs if p.split != split])
    for t in THRESHOLDS[::5] + THRESHOLDS[-8:]:
        r = pooled(readings, t)
        print(f"at {t}: right {r.right}, wrong line {r.wrong}, other sentence {r.off}")
    threshold = choose(readings)
    rows = table(readings, threshold)
    print("\n".join(rows))
    print("\n".join(summary(readings, trained)))
    if args.report:
        return
    root = OUT.parents[3]
    manifest = {
        "model": "logistic regression over hashed pair features (memdesk.llm.stale_features)",
        "buckets": BUCKETS,
        "epochs": EPOCHS,
        "rate": RATE,
        "decay": DECAY,
        "seed": SEED,
        "threshold": threshold,
        "threshold_rule": "the lowest at which the leave-one-source-out readings, pooled, mark at most "
        f"{WRONG_PER_SCENARIO:g} wrong pairs per scenario",
        "sources": [
            {
                "file": str(path.relative_to(root)),
                "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                "licence": LICENCE,
                "role": _role(path),
            }
            for path in sources()
        ],
        "split": "leave one source out (a split or a training file; each has its own authors), never by "
        "pair or scenario; the cases are always learned from; the shipped weights learn from every source",
        "pairs": len(pairs),
        "positives": sum(pair.positive for pair in pairs),
        "leave_one_source_out": rows,
    }
    write(OUT, train(pairs), manifest)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
