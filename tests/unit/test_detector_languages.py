"""The detector's rows in the languages no other rows hold: each language has an attack of every
family and honest notes beside them, the same on every run, with wordings held out by template."""

import json
from collections import Counter

from scripts.detector_data import AUTHORS_DIR
from scripts.detector_languages import LANGUAGES, language_rows


def test_each_language_has_every_family_and_honest_notes_and_the_rows_are_the_same_each_run():
    rows = list(language_rows())
    assert rows == list(language_rows())
    # The six families, as the authors' rows name them.
    written = json.loads((AUTHORS_DIR / "author-1.json").read_text(encoding="utf-8"))
    families = {attack["family"] for attack in written["attacks"]}
    for language in LANGUAGES:
        mine = [row for row in rows if row.language == language]
        assert {row.kind for row in mine if row.label == 1} == families
        assert sum(row.label == 0 for row in mine) >= len(families)
    # A template's fills share its split, and some of every label are held out.
    splits = {row.template: row.split for row in rows}
    assert all(row.split == splits[row.template] for row in rows)
    held_out = Counter(row.label for row in rows if row.split == "test")
    assert held_out[0] > 0 and held_out[1] > 0
    # Each filled slot is filled: no template's braces are left in a row.
    assert not any("{" in row.text for row in rows)
