"""Whose news a sentence tells: the person's own, someone else's, or it does not say, with
the words that say so."""

import pytest

from memdesk.core.whose import (
    OTHER,
    PERSON,
    UNSAID,
    doer,
    line_owner,
    named_subject,
    names_in_common,
    nearest,
    of_clause,
    of_value,
    only_relation,
    owner_before,
    reported,
    subject_of_another,
    tells_of_another,
    told_of_another,
)


def at(text: str, word: str) -> int:
    return text.index(word)


def said(text: str, span: tuple[int, int]) -> str:
    return text[span[0] : span[1]]


@pytest.mark.parametrize(
    ("text", "value", "naming"),
    [
        ("my brother just bought a Tesla", "Tesla", "brother"),
        ("Mum moved into Wattle Grove last week", "Wattle", "Mum"),
        ("Grandma June lives in Stockport now", "Stockport", "Grandma"),
        ("Noah's school is St Mary's now", "St Mary", "Noah"),
        ("my sis got a new job at Aldi", "Aldi", "sis"),
        # relatives' words built from kin: grand-, great-, step-, god-, half-, -in-law
        ("My grandson Caleb drove down in his brand-new Ford pickup", "Ford", "grandson"),
        ("my great-granddaughter starts at Ridgeway Primary", "Ridgeway", "great-granddaughter"),
        ("my stepdad moved to Hove", "Hove", "stepdad"),
        ("my son-in-law got a job at Aldi", "Aldi", "son-in-law"),
    ],
)
def test_a_relatives_news_is_theirs_and_names_them(text, value, naming):
    found = of_clause(text, at(text, value))
    assert found.who == OTHER
    assert said(text, found.span) == naming


@pytest.mark.parametrize(
    ("text", "value", "naming"),
    [
        ("my sister and I moved to Leeds", "Leeds", "and I"),
        ("me and my brother moved to Leeds", "Leeds", "me and"),
        ("my parents and we moved to Leeds", "Leeds", "we"),
    ],
)
def test_the_person_with_a_relative_is_the_persons_own_news(text, value, naming):
    found = of_clause(text, at(text, value))
    assert found.who == PERSON
    assert said(text, found.span) == naming


def test_the_persons_own_news_that_names_a_relative_is_theirs():
    """The person is in the news they tell ("I bought…"), or the sentence goes on to make the
    relative's thing theirs; "me" as an object alone does not make a value the person's."""
    bought = "I bought my neighbor's 2019 RAV4 off him"
    assert of_clause(bought, at(bought, "2019"), news=True).who == PERSON
    assert of_clause(bought, at(bought, "2019")).who == OTHER  # the value was the neighbour's
    spare = "my dad had a spare pixel 8 from work so thats me now"
    found = of_clause(spare, at(spare, "pixel"))
    assert found.who == PERSON and said(spare, found.span) == "thats me"
    salon = "Her prima Marisol opened a little salon, Salón Brisa, and now she's my hairdresser"
    found = of_clause(salon, at(salon, "Marisol"), news=True)
    assert found.who == PERSON and said(salon, found.span) == "she's my"
    proud = "my prima Marisol opened a little salon, Salón Brisa, she's so proud"
    assert of_clause(proud, at(proud, "Marisol"), news=True).who == OTHER
    jealous = "my cousin got a Kindle Paperwhite so that's me jealous"
    assert of_clause(jealous, at(jealous, "Kindle")).who == OTHER
    sent = "my sister sent me her new number 07700 900123"
    assert of_clause(sent, at(sent, "07700")).who == OTHER
    # a name's possessive in a quote names what the news is about, not whose it is
    swap = "Swap Mum's lactose-free milk for oat milk from now on"
    assert of_clause(swap, at(swap, "oat"), news=True).who == UNSAID
    assert of_clause(swap, at(swap, "oat")).who == OTHER  # the milk is Mum's


def test_a_friends_new_number_is_the_friends():
    text = "my mate Callum's new number is 07311 222333"
    found = nearest(text[: at(text, "07311")])
    assert found.who == OTHER
    assert said(text, found.span) == "Callum"
    own = "my brother's plan ran out, so I'm on 0851 234567"
    found = nearest(own[: at(own, "0851")])
    assert found.who == PERSON and said(own, found.span) == "I'm"
    she = "She's on 07700 900456 now"
    assert nearest(she[: at(she, "07700")]).who == OTHER
    assert nearest("new number: ").who == UNSAID


def test_a_friend_the_store_does_not_name_is_known_by_what_the_message_calls_them():
    message = "my duo partner Callum quit Sheffield, he's in Leeds now. new mobile too, 07311 222333"
    sentence = "new mobile too, 07311 222333"
    assert told_of_another(sentence, message, ["Mobile: 07700 900123"], frozenset({"mobile"}))
    # the store names him: his lines decide, not this reading
    assert not told_of_another(sentence, message, ["Callum: 07700 900999"], frozenset({"mobile"}))
    # a word of the person's own in the sentence makes it theirs
    mine = "my new mobile is 07311 222333"
    assert not told_of_another(mine, f"{message} {mine}", ["Mobile: 07700 900123"], frozenset({"mobile"}))


def test_a_forwarded_message_or_a_reported_saying_is_someone_elses():
    forwarded = "look what he sent:\n> Marek: new number 07700 900456"
    found = of_value(forwarded, at(forwarded, "07700"))
    assert found.who == OTHER and said(forwarded, found.span) == ">"
    # whatever it says, in the first person too
    moved = "Marta wrote:\n> I moved to Porto last week"
    assert of_value(moved, at(moved, "Porto")).who == OTHER
    said_so = "mr lim says rent going to 7,400"
    assert reported(said_so, at(said_so, "7,400")).who == OTHER
    told = "the gestoría say me no more cash"  # "say me": told me
    assert reported(told, at(told, "cash")).who == OTHER
    mine = "I want to say I moved to Porto"
    assert reported(mine, at(mine, "Porto")).who == UNSAID
    own = "new number 07700 900456"
    assert of_value(own, at(own, "07700")).who == UNSAID
    assert reported(own, at(own, "07700")).who == UNSAID


def test_a_household_member_as_the_subject_tells_their_news():
    household = frozenset({"dev", "rex"})
    drives = "Dev drives a Polestar 2 now"
    found = named_subject(drives, at(drives, "Polestar"), household)
    assert found.who == OTHER and said(drives, found.span) == "Dev"
    moved = "Dev and I moved to Leeds"
    assert named_subject(moved, at(moved, "Leeds"), household).who == PERSON
    died = "Rex died in May"
    assert named_subject(died, 0, household).who == UNSAID  # the name is the value


def test_who_ended_a_thing_and_whose_a_value_is_by_its_possessive():
    cancelled = "Marta cancelled the Tuesday class"
    found = doer(cancelled, at(cancelled, "cancelled"))
    assert found.who == OTHER and said(cancelled, found.span) == "Marta"
    assert doer("cancelled netflix last night", 0).who == UNSAID
    tesla = "she finally got her new tesla"
    found = owner_before(tesla, at(tesla, "tesla"))
    assert found.who == OTHER and said(tesla, found.span) == "her"
    together = "my sister and I moved into their old flat"
    assert owner_before(together, at(together, "flat")).who == UNSAID


def test_a_third_person_subject_owns_the_value_its_clause_gives():
    married = "ya se casó with Emanuel, now they live in Cholula"
    zara = "she works at Zara now"
    they = subject_of_another(married, at(married, "Cholula"))
    she = subject_of_another(zara, at(zara, "Zara"))
    assert (they.who, said(married, they.span)) == (OTHER, "they")
    assert (she.who, said(zara, she.span)) == (OTHER, "she")


@pytest.mark.parametrize(
    "text",
    [
        "they moved me to the Leeds office",  # the person is in the clause
        "we said they could stay, so we live in Cholula now",  # the value's clause is the person's
        "living in Cholula now",  # no subject: texts drop "I"
    ],
)
def test_a_clause_that_names_the_person_or_no_one_is_not_anothers(text):
    assert subject_of_another(text, at(text, "Leeds" if "Leeds" in text else "Cholula")).who == UNSAID


def test_has_is_no_ones_possessive():
    """ "the GP's bumped" is "has": the person's dose, not the GP's."""
    text = "the GP's bumped the levothyroxine to 75mcg"
    assert of_clause(text, at(text, "75mcg")).who == UNSAID
    assert of_clause("Sam's changed her number to 07700 900456", 30).who == OTHER


PEOPLE = frozenset({"partner", "wife", "kids"})


def own(describing: str) -> frozenset[str]:
    return line_owner(describing, PEOPLE | {"dev"}, str.lower)


@pytest.mark.parametrize(
    ("describing", "owner"),
    [
        ("Grandma Zainab's number", {"grandma", "zainab"}),
        ("Markus' new flat", {"markus"}),
        ("Old number for Kwame", {"kwame", "old"}),
        ("Partner Yusuf", {"partner", "yusuf"}),
        ("Dev drives", {"dev"}),
        ("My best pal Awa", {"pal", "awa"}),
        ("Sister Thandeka's Postbank account", {"sister", "thandeka"}),  # Postbank names no one
    ],
)
def test_a_stored_line_is_someone_elses_by_its_opening_words(describing, owner):
    assert own(describing) == owner


@pytest.mark.parametrize(
    "describing", ["My work mail", "That's the office", "Home", "Lives with roommate Theo"]
)
def test_a_stored_line_that_names_no_one_else_is_the_persons(describing):
    assert own(describing) == frozenset()


def test_a_label_that_is_only_what_someone_is_introduces_the_persons_own_fact():
    assert only_relation("Wife", PEOPLE)
    assert only_relation("Sister", PEOPLE)
    assert not only_relation("Sister's phone", PEOPLE)
    assert not only_relation("Phone", PEOPLE)


@pytest.mark.parametrize(
    "sentence",
    [
        "He new number is 07700 900123",
        "Shona's wee sister Kayleigh's got a new phone",
        "my prima Daniela just moved to Valencia",
        # the person named only to compare them with someone else
        "A lad at work got a new contract, 40 GB a month for £12, he was on the same as me",
        "the woman next door was upped to 20 mg, her old dose was like mine",
    ],
)
def test_a_sentence_about_someone_else_is_theirs(sentence):
    assert tells_of_another(sentence, "", [sentence], PEOPLE)


@pytest.mark.parametrize(
    "sentence",
    [
        "I moved to Valencia",
        "my work mail is now jo@acme.org",
        "Landline's changed to 0161 496 0000, the landline is in the hall",
    ],
)
def test_a_sentence_of_the_persons_own_is_not_someone_elses(sentence):
    assert not tells_of_another(sentence, "", [sentence], PEOPLE)


def test_a_sentence_that_names_nobody_goes_on_from_the_one_before():
    before = "my brother Tom got a new phone"
    assert tells_of_another("07700 900123.", before, [before], PEOPLE)
    assert not tells_of_another("07700 900123.", "", [before], PEOPLE)


def test_a_name_is_in_common_only_where_it_is_a_name():
    # the stored clause and the person's sentence name the same one
    assert names_in_common("Every other Sunday: lunch at Gran's in Scarborough", "Gran's moved to Whitby")
    assert names_in_common("Ramipril 5 mg, prescribed by Dr. Osei", "Saw Dr Osei this morning")
    # capitalised only because it opens the stored text, a clause or a bullet; a day or a month
    assert not names_in_common("Drives a 2014 Skoda", "Drives me mad, Dev does")
    assert not names_in_common("- Swims: Tuesdays; Gym: PureGym", "Gym was shut, Swims too")
    assert not names_in_common("Book club every Monday", "Tom's book club moved to Monday")
    # a name that only says whose relative the news is of
    assert not names_in_common("Sunday lunch at Priya's, 1 pm", "Priya's brother Arjun has moved to Leeds")
    assert names_in_common("Sunday lunch at Priya's, 1 pm", "Priya's moved to Leeds")
