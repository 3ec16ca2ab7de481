"""Recall by meaning: does the fact a question asks about reach the prompt in a full-sized facts
document, with words alone and with meaning; and what it costs a prompt.

Every split's facts and profile scenarios (``tests/data/updates``) give a question and the line
that answers it (an update's new line, a control's kept line). That line is put among 200 lines
drawn from the other scenarios' facts, and the question is recalled (top 5, as a prompt's
Memory Context). Run with ``make bench``; prints, and never fails on the figures.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

from tests.perf.goals import judge, process_ms, ratio_of_turns, taking_turns
from tests.support.updates import SPLITS

from memdesk.core.privacy import ReadScope
from memdesk.meaning import likeness as likeness_module
from memdesk.services.memdesk import Memdesk
from memdesk.services.prompt import PromptSpec
from memdesk.services.recall import ENTRY_VECTORS

DISTRACTORS = 200
LIMIT = 5
PROCESS_RUNS = 7


def bare(line: str) -> str:
    return line.strip().removeprefix("- ").strip()


def asked_lines(scenario: dict) -> tuple[str, str] | None:
    """The question and the stored line that answers it, after the conversation."""
    if scenario["where"] not in ("facts", "profile"):
        return None
    lines = [bare(line) for line in scenario["old"].splitlines() if line.strip()]
    if scenario["kind"] == "control":
        answer = next((line for line in lines if bare(scenario["keep"]) in line), None)
    else:
        gold = scenario["gold"]
        answer = bare(gold[0]["text"]) if gold and gold[0]["text"] else None
    return (scenario["q"], answer) if answer else None


def every_fact() -> list[str]:
    lines: list[str] = []
    for split in SPLITS:
        for scenario in json.loads(split.read_text(encoding="utf-8"))["scenarios"]:
            if scenario["where"] == "facts":
                lines += [bare(line) for line in scenario["old"].splitlines() if line.strip()]
    return lines


def found(app: Memdesk, cases: list[tuple[str, str]], facts: list[str]) -> int:
    hits_found = 0
    for number, (question, answer) in enumerate(cases):
        draw = random.Random(number)
        document = draw.sample([line for line in facts if line != answer], DISTRACTORS)
        document.insert(draw.randrange(len(document) + 1), answer)
        app.documents.set("user/facts", "\n".join(f"- {line}" for line in document))
        hits, _hidden = app.recall.for_prompt(question, "user", LIMIT, app.now(), ReadScope())
        hits_found += any(bare(hit.text) == answer for hit in hits)
    return hits_found


def test_the_asked_fact_in_a_full_facts_document(tmp_path: Path) -> None:
    facts = every_fact()
    apps = {}
    for meaning in (False, True):
        app = Memdesk.open(data_dir=str(tmp_path / f"meaning-{meaning}"))
        app.update_settings(app.settings.with_values({"memory.recall_by_meaning": meaning}))
        apps[meaning] = app
    print(f"\nThe asked line among {DISTRACTORS} others in user/facts, in recall's top {LIMIT}:")
    totals = {False: 0, True: 0}
    asked = 0
    try:
        for split in SPLITS:
            scenarios = json.loads(split.read_text(encoding="utf-8"))["scenarios"]
            cases = [pair for scenario in scenarios if (pair := asked_lines(scenario))]
            counts = {meaning: found(app, cases, facts) for meaning, app in apps.items()}
            for meaning, count in counts.items():
                totals[meaning] += count
            asked += len(cases)
            print(
                f"  {split.stem:10} {len(cases):3} questions: "
                f"words alone {counts[False]:3}, with meaning {counts[True]:3}"
            )
    finally:
        for app in apps.values():
            app.close()
    print(f"  all        {asked} questions: words alone {totals[False]}, with meaning {totals[True]}")
    assert asked


def test_what_meaning_costs_a_prompt(tmp_path: Path) -> None:
    facts = every_fact()[:1000]
    app = Memdesk.open(data_dir=str(tmp_path / "store"))
    questions = ["Which gym am I at?", "how much is my rent now", "who is my dentist", "what car do I drive"]
    try:
        app.documents.set("user/facts", "\n".join(f"- {line}" for line in facts))
        started = time.perf_counter()
        app.prompt.compose(PromptSpec(message=questions[0]))
        first = (time.perf_counter() - started) * 1000
        likeness_module._caches.clear()  # a new process: the vectors come from the file
        started = time.perf_counter()
        app.prompt.compose(PromptSpec(message=questions[1]))
        from_file = (time.perf_counter() - started) * 1000
        timings = {True: [], False: []}
        for meaning in (True, False, True, False):
            app.update_settings(app.settings.with_values({"memory.recall_by_meaning": meaning}))
            for question in questions * 5:
                started = time.perf_counter()
                app.prompt.compose(PromptSpec(message=question))
                timings[meaning].append((time.perf_counter() - started) * 1000)
    finally:
        app.close()
    print(f"\nA prompt over a {len(facts)}-line facts document:")
    print(f"  first, every line's vector computed: {first:.0f} ms")
    print(f"  in a new process, the vectors read from the file: {from_file:.0f} ms")
    print(
        f"  then: p50 {statistics.median(timings[True]):.1f} ms with meaning, "
        f"{statistics.median(timings[False]):.1f} ms with words alone"
    )


def every_entry() -> list[str]:
    texts: list[str] = []
    for split in SPLITS:
        for scenario in json.loads(split.read_text(encoding="utf-8"))["scenarios"]:
            if scenario["where"] == "entry":
                texts.append(scenario["old"])
            texts += scenario.get("store", {}).get("entries", {}).values()
    return list(dict.fromkeys(texts))


def test_what_filling_free_places_costs(tmp_path: Path) -> None:
    """A prompt whose question leaves places free, in a store of 1,000 knowledge entries: the
    latest entries are read by meaning to fill them. The prompt recalls 50 items (the largest
    ``memory.recall_limit``), so the words always leave places free."""
    entries = every_entry()[:1000]
    app = Memdesk.open(data_dir=str(tmp_path / "store"))
    app.update_settings(app.settings.with_values({"memory.recall_limit": 50}))
    questions = ["who do I call when I'm sick?", "where can I get my bike fixed?", "when do I get paid?"]
    try:
        for number, text in enumerate(entries):
            app.entries.add(f"entry_{number}", text, "knowledge")
        started = time.perf_counter()
        app.prompt.compose(PromptSpec(message=questions[0]))
        first = (time.perf_counter() - started) * 1000
        timings = []
        for question in questions * 7:
            started = time.perf_counter()
            app.prompt.compose(PromptSpec(message=question))
            timings.append((time.perf_counter() - started) * 1000)
    finally:
        app.close()
    print(f"\nA prompt recalling 50 items, over {len(entries)} knowledge entries:")
    print(f"  first, {ENTRY_VECTORS} entries' vectors computed: {first:.0f} ms")
    print(
        f"  then: p50 {statistics.median(timings):.1f} ms, max {max(timings):.1f} ms "
        f"(each prompt computes up to {ENTRY_VECTORS} more until all are kept)"
    )


def test_what_meaning_costs_a_prompt_command(tmp_path: Path) -> None:
    """`memdesk prompt --message` as a process, its facts' vectors already kept: the encoder's
    load (numpy and 26 MB of weights) and one run on the question are what meaning adds."""
    facts = every_fact()[:200]
    stores = {}
    for meaning in (True, False):
        folder = tmp_path / f"meaning-{meaning}"
        app = Memdesk.open(data_dir=str(folder))
        app.update_settings(app.settings.with_values({"memory.recall_by_meaning": meaning}))
        app.documents.set("user/facts", "\n".join(f"- {line}" for line in facts))
        app.close()
        stores[meaning] = folder
    command = [sys.executable, "-m", "memdesk", "prompt", "--message", "Which gym am I at?"]
    times = taking_turns(
        PROCESS_RUNS,
        {
            str(meaning): lambda folder=folder: process_ms(
                command, {**os.environ, "MEMDESK_DATA_DIR": str(folder)}
            )
            for meaning, folder in stores.items()
        },
    )
    judge(
        f"`memdesk prompt --message` as a process, {len(facts)} facts lines, recall by meaning, "
        f"median of {PROCESS_RUNS}",
        statistics.median(times["True"]),
        "the same by words alone, taking turns",
        statistics.median(times["False"]),
        ratio=ratio_of_turns(times, "True", "False"),
    )
