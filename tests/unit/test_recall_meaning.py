"""Recall by meaning in the prompt: a fact that answers the question without sharing its words
is recalled, lexical matches still lead, places the words leave free go to the nearest facts
and knowledge entries, and the setting turns it off."""

from __future__ import annotations

import subprocess
import sys

import pytest

from memdesk.meaning import encoder as encoder_module
from memdesk.services.prompt import PromptSpec

FACTS = "\n".join(
    [
        "- Goes to Planet Fitness in Burbank, usually 6am before call",
        "- Pays $1,475/mo for half of a 2br in Los Feliz, roommate Jess",
        "- Sister Ana lives in Sacramento, calls on Sundays",
        "- Allergic to penicillin",
    ]
)


@pytest.fixture
def app(memdesk_app):
    memdesk_app.documents.set("user/facts", FACTS)
    return memdesk_app


def recalled(app, message: str) -> list[str]:
    section = next(s for s in app.prompt.compose(PromptSpec(message=message)).sections if s.name == "recall")
    return [line for line in section.text.splitlines() if line.startswith("- ")]


def test_a_fact_sharing_no_word_with_the_question_is_recalled_first(app):
    assert "Planet Fitness" in recalled(app, "which gym am i at again, trying to find the class schedule")[0]
    assert "$1,475/mo" in recalled(app, "how much is my share of the rent now?")[0]


def test_a_fact_matching_the_words_still_comes_first(app):
    assert "Sister Ana" in recalled(app, "When does my sister call?")[0]


def test_turned_off_it_recalls_by_words_alone(app):
    app.update_settings(app.settings.with_values({"memory.recall_by_meaning": False}))
    assert not any("Planet Fitness" in line for line in recalled(app, "which gym am i at again?"))


def test_the_vectors_of_the_facts_are_kept_beside_the_store(app, monkeypatch):
    recalled(app, "which gym am i at again?")
    assert app.paths.meaning_cache.with_name("meaning-vectors-use-lite-0.2.0.sqlite3").is_file()
    encoded: list[str] = []
    encoder = encoder_module.shared_encoder()
    original = encoder.vectors
    monkeypatch.setattr(encoder, "vectors", lambda texts: encoded.extend(texts) or original(texts))
    recalled(app, "what am I allergic to?")
    assert encoded == ["what am I allergic to?"]  # only the question is run through the model


def test_writing_the_facts_computes_their_vectors_so_a_prompt_runs_only_its_question(app, monkeypatch):
    encoder = encoder_module.shared_encoder()  # loaded, as in the window or a server
    original = encoder.vectors
    encoded: list[str] = []
    monkeypatch.setattr(encoder, "vectors", lambda texts: encoded.extend(texts) or original(texts))
    app.documents.append("user/facts", "- Plays the cello in a community orchestra")
    assert encoded == ["Plays the cello in a community orchestra"]  # after the write, only the new line
    encoded.clear()
    assert "cello" in recalled(app, "what instrument do I play?")[0]
    assert encoded == ["what instrument do I play?"]


BIKE_SHOP = "Cycle repairs: Spokes & Co on Mill Road do the Brompton"


def test_places_the_words_leave_free_go_to_what_is_nearest_in_meaning(app):
    app.entries.add("repairs", BIKE_SHOP, "knowledge")
    lines = recalled(app, "where can I get my bike fixed?")  # no word of it is in the entry
    assert BIKE_SHOP in lines[0]
    # what is hardly alike stays out, though places are left
    assert len(lines) < 5
    assert not any("penicillin" in line or "Sister Ana" in line for line in lines)


def test_without_meaning_free_places_stay_free(app):
    app.entries.add("repairs", BIKE_SHOP, "knowledge")
    app.update_settings(app.settings.with_values({"memory.recall_by_meaning": False}))
    assert recalled(app, "where can I get my bike fixed?") == []


def test_writing_a_knowledge_entry_computes_its_vector(app, monkeypatch):
    encoder = encoder_module.shared_encoder()  # loaded, as in the window or a server
    original = encoder.vectors
    encoded: list[str] = []
    monkeypatch.setattr(encoder, "vectors", lambda texts: encoded.extend(texts) or original(texts))
    app.entries.add("repairs", BIKE_SHOP, "knowledge")
    app.entries.add("yesterday", "Rode to the coast and back", "timeline")  # not read by meaning
    assert encoded == [BIKE_SHOP]


COMPOSE_AND_LIST_NUMPY = """
import sys
from memdesk.services.memdesk import Memdesk
from memdesk.services.prompt import PromptSpec
app = Memdesk.open(data_dir=sys.argv[1])
app.prompt.compose(PromptSpec(message="which gym am i at?"))
print(any(name == "numpy" for name in sys.modules))
"""


@pytest.mark.parametrize("on", [True, False])
def test_numpy_loads_only_when_a_prompt_recalls_by_meaning(app, on):
    app.update_settings(app.settings.with_values({"memory.recall_by_meaning": on}))
    command = [sys.executable, "-c", COMPOSE_AND_LIST_NUMPY, str(app.paths.data_dir)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == str(on)
