"""Recall: BM25 order, LIKE fallback, filters, and queries that can never raise."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from memdesk.core.privacy import ReadScope
from memdesk.core.search_text import query_words
from memdesk.services.prompt import PromptSpec


@pytest.fixture
def entries(memdesk_app, clock):
    app = memdesk_app
    app.entries.upsert("rust_pref", "User prefers Rust for all backend services")
    app.entries.upsert("stack", "PicoBot uses Rust, axum, sqlx and tokio; Rust everywhere in Rust land")
    app.entries.upsert("tdd", "User likes a TDD workflow with cargo test")
    app.entries.upsert("tokyo", "東京の天気は晴れです")
    clock.now = datetime(2026, 1, 10, 9, 0)
    app.entries.upsert("ctx_a", "[2026-01-10 09:00] talked about Rust async", category="timeline")
    clock.now = datetime(2026, 2, 20, 9, 0)
    app.entries.upsert("ctx_b", "[2026-02-20 09:00] talked about Rust macros", category="timeline")
    clock.now = datetime(2026, 3, 1, 12, 0)
    return app


def keys(hits):
    return [hit.ref for hit in hits]


def test_best_match_first(entries):
    assert keys(entries.recall.entries("rust", category="knowledge")) == ["stack", "rust_pref"]


def test_words_are_ored_and_stopwords_dropped(entries):
    hits = entries.recall.entries("what is the cargo workflow for the backend?", category="knowledge")
    assert set(keys(hits)) == {"tdd", "rust_pref"}


def test_like_fallback_when_fts_finds_nothing(entries):
    # no index holds a piece from inside a word; the LIKE match does
    assert keys(entries.recall.entries("orkflo")) == ["tdd"]


def test_words_are_stemmed(entries):
    entries.entries.upsert("habit", "User goes running every morning")
    assert keys(entries.recall.entries("runs")) == ["habit"]
    assert keys(entries.recall.entries("prefer")) == ["rust_pref"]


def test_question_words_and_chat_filler_are_stop_words(entries):
    entries.entries.upsert("chat", "yeah I really like what you did there, just wow")
    assert keys(entries.recall.entries("what did you really like? yeah, just wow")) == []
    assert query_words("What kind of music does Ada like?") == ["music", "ada"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("C++", "cpp"),
        ("c#", "csharp"),
        ("F#", "fsharp"),
        ("C", "c"),
        ("R", "r"),
        (".NET", "dotnet"),
        ("Node.js", "node"),
    ],
)
def test_technical_terms_with_symbols_are_found(memdesk_app, query, expected):
    memdesk_app.entries.upsert("cpp", "Ada writes the engine in C++ 20")
    memdesk_app.entries.upsert("csharp", "The shop front is C# on Azure")
    memdesk_app.entries.upsert("fsharp", "Pricing rules are written in F#")
    memdesk_app.entries.upsert("c", "The firmware is plain C, no libc")
    memdesk_app.entries.upsert("r", "Statistics are done in R with ggplot")
    memdesk_app.entries.upsert("dotnet", "Moving the billing service to .NET 8")
    memdesk_app.entries.upsert("node", "The API runs on Node.js behind nginx")
    memdesk_app.entries.upsert("js", "Node affinity and js bundles are separate topics")
    assert keys(memdesk_app.recall.entries(query)) == [expected]


def test_a_word_inside_a_run_without_spaces_is_found(entries):
    entries.entries.upsert("bkk", "กรุงเทพมหานครร้อนมากวันนี้")
    entries.entries.upsert("rust_tokyo", "Rust meetup in Tokyo next month")
    assert keys(entries.recall.entries("東京")) == ["tokyo"]
    assert keys(entries.recall.entries("天気は晴れ")) == ["tokyo"]
    assert keys(entries.recall.entries("กรุงเทพ")) == ["bkk"]
    # found next to what the word index finds, not only when it finds nothing
    assert set(keys(entries.recall.entries("Tokyo 東京の天気", category="knowledge"))) == {
        "tokyo",
        "rust_tokyo",
    }


def test_a_named_date_boosts_without_filtering(memdesk_app, clock):
    clock.now = datetime(2023, 5, 8, 12, 0)
    memdesk_app.entries.upsert("may", "Went to a pottery class")
    clock.now = datetime(2023, 9, 1, 12, 0)
    memdesk_app.entries.upsert("sept", "Pottery class again, pottery is great, pottery forever")
    clock.now = datetime(2023, 10, 1, 12, 0)
    assert keys(memdesk_app.recall.entries("pottery class"))[0] == "sept"
    assert keys(memdesk_app.recall.entries("pottery class in May 2023")) == ["may", "sept"]
    assert keys(memdesk_app.recall.entries("pottery class on 8 May, 2023")) == ["may", "sept"]
    last_week = memdesk_app.recall.entries("what pottery class last week?", now=datetime(2023, 5, 12))
    assert keys(last_week) == ["may", "sept"]
    assert keys(memdesk_app.recall.entries("pottery class in 2021")) == ["sept", "may"]
    since = memdesk_app.recall.entries("pottery in May 2023", since=datetime(2023, 6, 1))
    assert keys(since) == ["sept"]  # explicit bounds do filter


def test_the_answer_to_a_recalled_question_is_recalled_with_it(memdesk_app, clock):
    app = memdesk_app
    clock.now = datetime(2026, 2, 1, 18, 0)
    app.entries.upsert("asks", "Sam: Which instrument did you pick up this winter?")
    app.entries.upsert("answers", "Ada: The cello! Lessons every Tuesday.")
    app.entries.upsert("aside", "Ada: Unrelated: the boiler needs a service.")
    clock.now = datetime(2026, 2, 1, 20, 0)
    app.entries.upsert("later", "Ada: Bought new strings today.")
    clock.now = datetime(2026, 3, 1, 12, 0)
    hits = app.recall.entries("Which instrument was picked up?")
    # the answer shares no word with the question but follows the entry asking it; the entry
    # after a statement, and one written hours later, are not pulled in
    assert keys(hits) == ["asks", "answers"]
    assert hits[1].score < hits[0].score
    app.entries.delete_key("answers")
    assert keys(app.recall.entries("Which instrument was picked up?")) == ["asks"]
    app.trash.restore(next(i.id for i in app.trash.list() if i.label.endswith("answers")))
    # the full-width question mark asks too, and an anchor found by the trigram index
    clock.now = datetime(2026, 2, 8, 18, 0)
    app.entries.upsert("asks_zh", "Sam: 周末你去哪里了？")
    app.entries.upsert("answers_zh", "Ada: 京都，看了红叶。")
    clock.now = datetime(2026, 3, 1, 12, 0)
    assert keys(app.recall.entries("去哪里")) == ["asks_zh", "answers_zh"]
    app.entries.edit(app.entries.get("asks").id, None, content="Sam: I picked up an instrument this winter.")
    assert keys(app.recall.entries("Which instrument was picked up?")) == ["asks"]


def test_category_since_until_filters(entries):
    # "rusts" reaches the timeline entries only through the stemming index, not the LIKE fallback
    assert set(keys(entries.recall.entries("rusts", category="timeline"))) == {"ctx_a", "ctx_b"}
    since = entries.recall.entries("rust", category="timeline", since=datetime(2026, 2, 1))
    assert keys(since) == ["ctx_b"]
    until = entries.recall.entries("rust", category="timeline", until=datetime(2026, 2, 1))
    assert keys(until) == ["ctx_a"]


def test_expired_timeline_entries_are_hidden(entries, clock):
    clock.now = datetime(2026, 1, 10, 9, 0) + timedelta(days=91)
    assert keys(entries.recall.entries("rust", category="timeline")) == ["ctx_b"]


def test_deleted_entries_are_not_recalled_until_restored(entries):
    entries.entries.delete_key("tdd")
    assert "tdd" not in keys(entries.recall.entries("cargo workflow"))
    entries.trash.restore(next(i.id for i in entries.trash.list() if i.label.endswith("tdd")))
    assert keys(entries.recall.entries("cargo workflow")) == ["tdd"]


def test_a_recall_on_a_budget_ranks_the_rare_words_and_leaves_out_the_common(entries):
    """Together the words find more entries than the budget: the rarest words are kept while
    their entries fit it ("axum", "workflow"), the one most entries hold is left out ("rust")."""
    query = "rust axum workflow"
    assert set(keys(entries.recall.entries(query, limit=10))) == {
        "stack",
        "rust_pref",
        "tdd",
        "ctx_a",
        "ctx_b",
    }
    assert set(keys(entries.recall.entries(query, limit=10, budget=2))) == {"stack", "tdd"}
    # Within the budget every word is ranked, as without one.
    assert keys(entries.recall.entries(query, limit=10, budget=5)) == keys(
        entries.recall.entries(query, limit=10)
    )
    # Every word over the budget alone: nothing is ranked, and no scan of every entry is made.
    assert entries.recall.entries("rust", limit=10, like=False, budget=2) == []


def test_index_follows_updates(entries):
    entries.entries.upsert("tdd", "User now prefers property-based tests")
    assert keys(entries.recall.entries("cargo")) == []
    assert keys(entries.recall.entries("property")) == ["tdd"]


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced quote',
        "rust AND OR NOT NEAR(",
        "col:rust * ^ - + {} [] ()",
        "'; DROP TABLE entries; --",
        "🦀🦀 rust 🚀",
        "Привет мир",
        "مرحبا",
        "",
        "   ",
        "\x00 rust",
        "a" * 10_000,
        "%_\\",
    ],
)
def test_any_text_is_a_safe_query(entries, query):
    hits = entries.recall.entries(query)
    assert isinstance(hits, list)
    if "rust" in query.lower():
        assert "stack" in keys(hits)


def prompt_lines(app, message):
    text = app.prompt.compose(PromptSpec(message=message)).text
    return text.split("## Memory Context\n\n", 1)[1].splitlines()


def by_words_alone(app):
    """Recall without meaning, whose free places would take what is alike the question
    (``test_recall_meaning``): what the word and slot rules find, and only that."""
    app.update_settings(app.settings.with_values({"memory.recall_by_meaning": False}))
    return app


def test_prompt_ranks_entries_and_paragraphs_on_one_scale(memdesk_app):
    app = memdesk_app
    for number in range(30):  # a big entries table: BM25 there runs on another scale
        app.entries.upsert(f"note{number}", f"Unrelated note number {number} about gardening")
    app.entries.upsert("weak", "Heard the word espresso once")
    app.entries.upsert("strong", "Ada's grinder setting for espresso beans from Kenya is 12")
    app.documents.set("user/facts", "- Ada drinks espresso\n- Ada's Kenya beans come from Nairobi roasters")
    lines = prompt_lines(app, "espresso beans from Kenya grinder")
    assert lines[0] == "- strong: Ada's grinder setting for espresso beans from Kenya is 12"
    assert lines.index("- user/facts: Ada's Kenya beans come from Nairobi roasters") < lines.index(
        "- weak: Heard the word espresso once"
    )
    lines = prompt_lines(app, "Nairobi roasters Kenya beans")
    assert lines[0] == "- user/facts: Ada's Kenya beans come from Nairobi roasters"


def test_owning_something_is_what_a_question_about_it_asks(memdesk_app):
    """ "Own" is no filler: "Does Hugh own a boat?" asks about the fact that he owns one."""
    app = by_words_alone(memdesk_app)
    app.documents.set("user/facts", "- Owns 'Kittiwake', a Contessa 32\n- Holds Yachtmaster Offshore")

    assert prompt_lines(app, "Does Hugh own a boat?") == ["- user/facts: Owns 'Kittiwake', a Contessa 32"]
    assert query_words("Do I own my own flat?") == ["own", "flat"]


def test_trigram_index_follows_updates_deletes_and_documents(entries):
    entries.entries.upsert("tokyo", "大阪の天気は雨です")
    assert keys(entries.recall.entries("東京")) == []
    assert keys(entries.recall.entries("大阪")) == ["tokyo"]
    entries.entries.delete_key("tokyo")
    assert keys(entries.recall.entries("大阪")) == []
    entries.documents.set("user/facts", "- 私は毎朝コーヒーを飲みます\n- 猫を二匹飼っています")
    assert prompt_lines(entries, "コーヒー") == ["- user/facts: 私は毎朝コーヒーを飲みます"]


def test_filters_that_leave_too_few_of_the_best_matches_rank_every_match(entries, monkeypatch):
    from memdesk.services import recall as recall_module

    monkeypatch.setattr(recall_module, "FTS_TOP", 2)
    monkeypatch.setattr(recall_module, "CANDIDATES", 2)
    for number in range(5):
        entries.entries.upsert(f"rust{number}", "Rust rust rust, all about Rust")
    # "rusts" reaches the timeline entries only through the stemming index, not the LIKE fallback
    assert set(keys(entries.recall.entries("rusts", category="timeline"))) == {"ctx_a", "ctx_b"}
    entries.entries.delete_key("rust0")
    entries.entries.delete_key("rust1")
    assert "rust0" not in keys(entries.recall.entries("rust", limit=10))


def test_a_fact_marked_past_ranks_below_the_current_one(memdesk_app):
    app = memdesk_app
    # The past one matches the question better: only its mark puts it below.
    app.entries.upsert("home_now", "Lives in Lyon, in a flat near the river, with Claire and the twins")
    app.entries.upsert("home_then", "Lives with Claire in Dijon (until March 2026)")
    assert keys(app.recall.entries("where does she live with Claire", limit=2)) == ["home_now", "home_then"]


def test_a_past_line_of_the_facts_ranks_below_the_current_line(memdesk_app):
    app = memdesk_app
    app.documents.set(
        "user/facts", "- Drinks oolong tea (old)\n\n- Drinks rooibos tea, brewed strong, with lemon"
    )
    hits = app.recall.for_prompt("which tea do I drink", "user", 2, app.now(), ReadScope())[0]
    assert [hit.text for hit in hits] == [
        "Drinks rooibos tea, brewed strong, with lemon",
        "Drinks oolong tea (old)",
    ]


def test_a_paragraph_filling_the_slot_asked_about_is_found_without_shared_words(memdesk_app):
    app = memdesk_app
    app.documents.set(
        "user/facts", "- Has a Polestar 2\n\n- Sold the Corolla (until May 2026)\n\n- Likes jazz"
    )
    hits = app.recall.for_prompt("What car do I have?", "user", 3, app.now(), ReadScope())[0]
    # first; by meaning, the car sold comes after it, marked past, and jazz never
    assert [hit.text for hit in hits] == ["Has a Polestar 2", "Sold the Corolla (until May 2026)"]


def test_a_vehicle_line_is_found_for_a_question_about_the_car(memdesk_app):
    app = memdesk_app
    app.documents.set("user/facts", "- Vehicle: Maruti Swift Dzire, white\n\n- Likes jazz")
    hits = app.recall.for_prompt("Which car do I have?", "user", 3, app.now(), ReadScope())[0]
    assert [hit.text for hit in hits] == ["Vehicle: Maruti Swift Dzire, white"]


def test_a_paragraph_holding_another_form_of_a_question_word_or_its_date_is_found(memdesk_app):
    app = memdesk_app
    app.documents.set(
        "user/facts",
        "- Allergy: sulfonamides (rash)\n\n- Going to Nottingham in September\n\n- Plays badminton",
    )
    asked = [
        ("What am I allergic to?", "Allergy: sulfonamides (rash)"),
        ("Which uni am I starting at in September?", "Going to Nottingham in September"),
    ]
    for question, line in asked:
        hits = app.recall.for_prompt(question, "user", 3, app.now(), ReadScope())[0]
        assert [hit.text for hit in hits] == [line]


def test_a_question_about_a_rate_per_period_finds_the_amount_given_per_that_period(memdesk_app):
    app = by_words_alone(memdesk_app)
    app.documents.set(
        "user/facts", "- Charges $105/hr + GST\n\n- Gym: £24.99 a month\n\n- Quotes free within 20km"
    )
    asked = [
        ("What's my hourly rate?", "Charges $105/hr + GST"),
        ("What do I pay monthly?", "Gym: £24.99 a month"),
    ]
    for question, line in asked:
        hits = app.recall.for_prompt(question, "user", 3, app.now(), ReadScope())[0]
        assert [hit.text for hit in hits] == [line]


def test_a_question_asking_for_a_contact_finds_the_paragraph_holding_one_of_its_kind(memdesk_app):
    app = memdesk_app
    app.documents.set(
        "user/facts",
        "- Main line: 0708 558 2190 (Airtel)\n\n- Writes from rita.okafor@proton.me"
        "\n\n- Works at Acme in Lagos",
    )
    asked = [
        ("What's my phone number now?", "Main line: 0708 558 2190 (Airtel)"),
        ("What is my email?", "Writes from rita.okafor@proton.me"),
        # a number someone is reached on is a phone number
        ("What number should dispatch call to reach me?", "Main line: 0708 558 2190 (Airtel)"),
        ("Which number do I text?", "Main line: 0708 558 2190 (Airtel)"),
    ]
    for question, line in asked:
        hits = app.recall.for_prompt(question, "user", 3, app.now(), ReadScope())[0]
        assert [hit.text for hit in hits] == [line]


def test_a_question_about_where_the_person_lives_finds_the_paragraph_giving_an_address(memdesk_app):
    app = memdesk_app
    app.documents.set(
        "user/facts",
        "- Renting the top flat at 27 Quarry Hill Road since May\n\n- Keeps 3 cats and a tortoise"
        "\n\n- Desk in Room 12 at the lab\n\n- Phone: 0708 558 2190",
    )
    for question in ("What's my current address?", "Where do I live these days?"):
        hits = app.recall.for_prompt(question, "user", 3, app.now(), ReadScope())[0]
        # the address is found though no word of the question is in it, and comes first; the
        # counted cats and the room number are not addresses (the phone number, as close in
        # meaning as the address, may follow it)
        texts = [hit.text for hit in hits]
        assert texts[0] == "Renting the top flat at 27 Quarry Hill Road since May"
        assert set(texts[1:]) <= {"Phone: 0708 558 2190"}


def test_a_question_asking_for_an_address_finds_the_entry_giving_one(memdesk_app):
    app = memdesk_app
    app.entries.upsert("lease", "Tenancy at 9 Marlowe Court with Cresswell Lettings; rent £825/month")
    app.entries.upsert("walk", "Takes the long way round the Park on Sundays")  # a street word, no address
    app.entries.upsert("flat-hunt", "Looking at flats in Beeston for May")
    hits = app.recall.for_prompt("What's my current address?", "user", 5, app.now(), ReadScope())[0]
    assert [hit.ref for hit in hits] == ["lease"]


def test_a_paragraph_saying_a_word_that_asks_for_the_slot_is_found(memdesk_app):
    app = by_words_alone(memdesk_app)
    app.documents.set(
        "user/facts",
        "- Living on the narrowboat Kingfisher, moored at Stoke Bruerne\n\n- Grows chillies on the roof"
        "\n\n- Role: senior archivist, Northamptonshire Record Office\n\n- Likes Scrabble",
    )
    asked = [
        # "live" asks where home is: a paragraph that says where the person lives answers it
        (
            "What's my home address these days?",
            "Living on the narrowboat Kingfisher, moored at Stoke Bruerne",
        ),
        # "work" asks who the person works for and as what: the role's paragraph answers it
        ("Where do I work at the moment?", "Role: senior archivist, Northamptonshire Record Office"),
    ]
    for question, line in asked:
        hits = app.recall.for_prompt(question, "user", 3, app.now(), ReadScope())[0]
        assert [hit.text for hit in hits] == [line]


def test_a_question_about_work_finds_the_paragraph_giving_a_post_at_an_organisation(memdesk_app):
    app = memdesk_app
    app.documents.set(
        "user/facts",
        "- Present appointment: locum pharmacist at Bridgewater Pharmacy, Wigan\n\n"
        "- Swims at Robin Park on Fridays\n\n- Has two cats",
    )
    post = "Present appointment: locum pharmacist at Bridgewater Pharmacy, Wigan"
    for question in ("Where do I work now?", "What's my job title?"):
        hits = app.recall.for_prompt(question, "user", 3, app.now(), ReadScope())[0]
        # found by its shape, though no word of the question is in it; a pastime "at" a place
        # named by a verb is no post
        assert [hit.text for hit in hits] == [post]


def test_a_question_about_medicines_finds_the_paragraph_giving_a_dose(memdesk_app):
    app = memdesk_app
    inhalers = "Inhalers: Clenil 100mcg morning and night, Ventolin as needed"
    app.documents.set(
        "user/facts",
        f"- Asthma since childhood\n\n- {inhalers}\n\n- Runs 5 km on Saturdays\n\n- Weighs 71 kg",
    )
    for question in ("Which asthma pills am I on?", "What medication do I take?"):
        found = {hit.text for hit in app.recall.for_prompt(question, "user", 3, app.now(), ReadScope())[0]}
        # the dose is found by its shape though the question names no medicine; a distance and a
        # weight are no doses
        assert inhalers in found
        assert not {"Runs 5 km on Saturdays", "Weighs 71 kg"} & found
