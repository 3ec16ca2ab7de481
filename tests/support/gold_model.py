"""A stand-in model that answers the changes prompt with the expected edits of a scenario file.

An OpenAI-compatible server on 127.0.0.1 (``FakeLLMServer``) whose changes replies come from
the scenarios' ``gold`` field: it finds the scenario whose person's turns are in the
conversation it is shown, maps each expected target to the number the prompt gave it, and
quotes the expected evidence. The other steps get short, plain answers. So a test can tell
what the pipeline does with a perfect model (its ceiling) from what a real model does.

    with GoldModel(scenarios) as gold:
        ... point ``llm.base_url`` at gold.openai_url ...
        assert gold.asked == {"a-001", "a-002"}
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Sequence
from typing import Any

from tests.support.llm_servers import FakeLLMServer, RecordedRequest, Reply

from memdesk.core.dates import WRITTEN_DATE
from memdesk.llm import prompts

Scenario = dict[str, Any]


def _plain(text: str) -> str:
    return " ".join(WRITTEN_DATE.sub("", text).split()).lower()


class GoldModel(FakeLLMServer):
    """A chat server that knows the expected edits of every scenario it is given."""

    def __init__(self, scenarios: Sequence[Scenario]) -> None:
        super().__init__()
        self.scenarios = list(scenarios)
        self.asked: set[str] = set()  # ids of the scenarios whose changes prompt arrived
        self.unmapped: list[str] = []  # expected targets the prompt did not offer
        self._asked_lock = threading.Lock()
        self.responder = self._answer

    def _answer(self, request: RecordedRequest) -> Reply:
        system = request.system_text
        if system == prompts.CHANGES_SYSTEM:
            return Reply(json.dumps(self._changes(request.user_text)))
        if system == prompts.FACTS_SYSTEM:
            return Reply(prompts.NO_FACTS)
        if system == prompts.DECISION_SYSTEM:
            oldest = re.search(r"\[id (\d+)\]", request.user_text)
            return Reply(
                json.dumps({"action": "delete", "targetMemoryId": int(oldest.group(1)) if oldest else 0})
            )
        if system == prompts.PARTS_SYSTEM:
            numbers = re.findall(r"<conversation part=(\d+)>", request.user_text)
            headings = [prompts.PART_HEADING.format(number=number) for number in numbers]
            return Reply("\n".join(f"{heading}\n- A conversation with the person." for heading in headings))
        if system in (prompts.SUMMARY_SYSTEM, prompts.MERGE_SYSTEM):
            return Reply("## About\n- A conversation with the person.")
        return Reply("A conversation with the person about their news.")

    def scenario_of(self, message: str) -> Scenario | None:
        """The scenario whose person's turns are most in the conversation of ``message``, by
        the length of what they said: a short turn ("ok", "y.") is in many conversations."""
        conversation = _plain(message.partition("<conversation>")[2])
        best, best_said = None, 0
        for scenario in self.scenarios:
            mine = [_plain(text) for role, text in scenario["turns"] if role == "user"]
            said = sum(len(text) for text in mine if text in conversation)
            if said > best_said:
                best, best_said = scenario, said
        return best

    def _changes(self, message: str) -> list[dict[str, Any]]:
        scenario = self.scenario_of(message)
        if scenario is None:
            return [{"action": "none"}]
        with self._asked_lock:
            self.asked.add(scenario["id"])
        stored = message.partition("<conversation>")[0]
        edits: list[dict[str, Any]] = []
        for gold in scenario["gold"]:
            number = _number_of(stored, gold, scenario)
            if number is None:
                with self._asked_lock:
                    self.unmapped.append(f"{scenario['id']}: {gold['target']!r}")
                continue
            edit = {"action": gold["action"], "target": number, "evidence": gold["evidence"]}
            if gold["text"] or gold["action"] == "update":
                edit["text"] = gold["text"]
            edits.append(edit)
        return edits or [{"action": "none"}]


def _number_of(stored: str, gold: dict[str, Any], scenario: Scenario) -> int | None:
    """The candidate number the prompt gave the expected target, if it offered it. A
    knowledge entry is found by its key, or by its text where the prompt shows no key."""
    where, target = gold["where"], gold["target"]
    if where == "entry":
        text = scenario["old"] if scenario["key"] == target else scenario["store"]["entries"][target]
        head = rf"\(entry(?: {re.escape(target)}\) |\) {re.escape(text.strip())}(?:\n|$))"
    else:
        head = rf"\({where}\) {re.escape(target.strip())}(?:\n|$)"
    found = re.search(rf"^(\d+)\. {head}", stored, re.MULTILINE)
    return int(found.group(1)) if found else None


class OverUpdatingModel(GoldModel):
    """The gold stand-in, but it also "updates" every control's fact: the value the control
    keeps becomes a plausible one nobody said (a city and a date), quoted by turns with no
    quote, the assistant's words, or the person's first sentence, which states no change.
    ``memdesk compact --yes`` must apply none of these."""

    INVENTED = "Valparaíso (since 2023-05-06)"

    def _changes(self, message: str) -> list[dict[str, Any]]:
        scenario = self.scenario_of(message)
        if scenario is None or scenario["kind"] != "control":
            return super()._changes(message)
        with self._asked_lock:
            self.asked.add(scenario["id"])
        fact = _kept_fact(scenario)
        number = _number_of(message.partition("<conversation>")[0], fact, scenario)
        if number is None:
            with self._asked_lock:
                self.unmapped.append(f"{scenario['id']}: {fact['target']!r}")
            return [{"action": "none"}]
        kept = re.compile(re.escape(scenario["keep"]), re.IGNORECASE)
        text = kept.sub(self.INVENTED, _line_of(scenario, fact["target"]), count=1)
        return [{"action": "update", "target": number, "text": text, "evidence": _wrong_quote(scenario)}]


def _kept_fact(scenario: Scenario) -> dict[str, Any]:
    """The control's fact as an expected edit would name it: its line, entry key or memory."""
    where, old = scenario["where"], scenario["old"]
    if where == "entry":
        return {"where": where, "target": scenario["key"]}
    if where == "app":
        return {"where": where, "target": old}
    line = next(line for line in old.splitlines() if scenario["keep"].lower() in line.lower())
    return {"where": where, "target": line}


def _line_of(scenario: Scenario, target: str) -> str:
    return scenario["old"] if scenario["where"] in ("entry", "app") else target


def _wrong_quote(scenario: Scenario) -> str:
    """No quote, the assistant's first words, or the person's first sentence, by turns."""
    person = [text for role, text in scenario["turns"] if role == "user"]
    assistant = [text for role, text in scenario["turns"] if role != "user"]
    choice = sum(map(ord, scenario["id"])) % 3
    if choice == 1 and assistant:
        return assistant[0].split(". ")[0]
    if choice == 2:
        return person[0].split(". ")[0]
    return ""
