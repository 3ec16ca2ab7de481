"""What the learned reader of stale facts learns from and how it is measured
(``scripts.stale_reader_data``, ``scripts.train_stale_reader``): the training files are learned
from but never scored as splits, and a held-out source's reader never learns from its authors.
"""

import json

from scripts.stale_reader_data import CASES, TRAINING, Pair, sources, split_name, training_only
from scripts.train_stale_reader import some_authors
from tests.support.updates import SPLITS


def test_the_training_files_are_sources_with_one_author_each_but_never_scored_splits():
    training = [path for path in sources() if training_only(path)]
    assert training, f"no training file in {TRAINING}"
    assert not set(training) & set(SPLITS)
    assert {split_name(path) for path in sources()} >= {split_name(path) for path in SPLITS} | {CASES}
    for path in training:
        document = json.loads(path.read_text(encoding="utf-8"))
        assert document["author"] and document["scenarios"], path.name


def _pair(split: str, author: str, index: int) -> Pair:
    return Pair(split, author, f"{author}-{index}", 0, 0, [index], False, True)


def test_a_held_out_source_learns_from_a_part_of_the_other_authors_and_every_case():
    pairs = [_pair(split, f"{split}{n}", n) for split in ("a", "b", "t1") for n in range(1, 5)]
    pairs += [_pair(CASES, CASES, 99)]
    for fraction, authors in ((0.5, 4), (1.0, 8)):
        learned = some_authors(pairs, "a", fraction=fraction, sources={"a", "b", "t1"})
        assert not any(pair.split == "a" for pair in learned)
        assert any(pair.split == CASES for pair in learned)
        assert len({pair.author for pair in learned if pair.split != CASES}) == authors
    splits_only = some_authors(pairs, "a", fraction=1.0, sources={"a", "b"})
    assert {pair.split for pair in splits_only} == {"b", CASES}
