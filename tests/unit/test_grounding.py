"""The grounding check: what a model wrote, against the conversation it read."""

from datetime import date, datetime

import pytest

from memdesk.core.grounding import MarkKind, Sources, check, describe, once_each, unread_words
from memdesk.llm import prompts

AT = datetime(2026, 11, 20, 9, 30)  # a Friday
TODAY = date(2026, 11, 26)
PRIYA = [
    (
        "I moved to Bristol last month. I want meetings only after 2pm, please. I started cello "
        "on Saturdays, three hours a week with Ms Okafor. My notes live in ~/notes/cello.md and "
        'the band is called "The Low Strings". Write to priya@example.org or see https://example.org/band.',
        AT,
    ),
    ("That sounds lovely, Priya! Bristol suits you.", AT),
]


@pytest.fixture(scope="module")
def sources():
    return Sources(PRIYA, TODAY, [prompts.SUMMARY_SYSTEM, prompts.FACTS_SYSTEM])


def marked(text, sources, kind=MarkKind.UNGROUNDED):
    return [mark.words for mark in check(text, sources) if mark.kind is kind]


def test_invented_places_are_marked_with_their_spans(sources):
    text = (
        "Priya is travelling to Spain and Europe and had an Italian dinner. "
        "She said: I just moved to New York this year."
    )

    marks = check(text, sources)

    assert [mark.words for mark in marks] == ["Spain", "Europe", "Italian", "New York"]
    assert all(text[mark.start : mark.end] == mark.words for mark in marks)
    assert describe(marks) == "not in the conversation: Spain, Europe, Italian, New York"


def test_a_faithful_rewording_passes(sources):
    text = (
        "## Details\n- Priya's move to BRISTOL happened in October 2026 (last month).\n"
        "- Prefers meetings after 14:00; plays the cello on Saturday, 3 hours (180 minutes) weekly "
        "with Ms Okafor.\n- Notes: cello.md in ~/notes. Band: “The Low Strings”.\n"
        "- Contact: priya@example.org, https://example.org/band\n"
        "[2026-11-20 09:30] Summary written on 26 November 2026."
    )

    assert check(text, sources) == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("She moved in September 2026.", "September 2026"),
        ("Meetings only after 3pm.", "3pm"),
        ("Cello for 4 hours a week.", "4"),
        ("Cello lessons cost 40 pounds.", "40"),
        ("Her notes are in ~/notes/violin.md.", "~/notes/violin.md"),
        ("Write to priya@example.com.", "priya@example.com"),
        ("See https://example.org/choir for dates.", "https://example.org/choir"),
        ('The band is called "The High Strings".', '"The High Strings"'),
        ("Jake helped Priya carry the cello.", "Jake"),
        ("She moved on 3 October 2026.", "3 October 2026"),
    ],
)
def test_each_kind_of_specific_is_compared(sources, text, words):
    assert marked(text, sources) == [words]


def test_a_whole_hour_said_as_a_number_grounds_its_clock_time():
    said = Sources([("choir's gone to Tuesday afternoons now, two o'clock; work is 7 till 5", TODAY)], TODAY)
    assert check("Choir on Tuesday at 2pm; works 7am-5pm.", said) == []
    # a number with a unit is no hour, and a time with minutes needs its minutes said
    assert marked("Choir at 3pm; work at 7:30am.", Sources([("3 hours, then 7", TODAY)], TODAY)) == [
        "3pm",
        "7:30am",
    ]


def test_four_digits_with_a_zone_after_a_date_are_a_time_not_a_year():
    said = Sources([("Rescheduled 19 Nov, 0630Z, same place, same examiner.", TODAY)], TODAY)
    assert check("Line check moved to 19 Nov, 0630.", said) == []
    assert marked("Line check: 19 Nov 2025", said) == ["19 Nov 2025"]


def test_a_whole_hour_said_as_a_number_grounds_it_on_the_24_hour_clock():
    said = Sources([("saturdays too, 7 till 5 every day we're open", TODAY)], TODAY)
    assert check("Hours: Mon–Sat 7:00–17:00", said) == []
    assert marked("Hours: Mon–Sat 7:00–16:00", said) == ["16:00"]


def test_a_clock_time_said_in_words_grounds_it():
    said = Sources(
        [("alarm at half past seven now, gym at half six, choir quarter to nine, lunch at midday", TODAY)],
        TODAY,
    )
    assert check("Alarm 7:30; gym 18:30; choir 8:45pm; lunch 12:00.", said) == []
    # not another time, nor "half an hour"
    assert marked(
        "Alarm 7:15; break at 12:30.", Sources([("half past seven, half an hour", TODAY)], TODAY)
    ) == [
        "7:15",
        "12:30",
    ]


def test_a_whole_hour_said_with_its_part_of_the_day_grounds_it():
    said = Sources([("from now every Friday at 10 in the morning, 3 in a row", TODAY)], TODAY)
    assert check("Hairdresser every Friday at 10am.", said) == []
    # "in" there is no inch ("10 in" is not 25.4 cm); "27in" is
    assert marked("A 25.4 cm gap.", said) == ["25.4"]
    assert check("A 68.58 cm screen.", Sources([("got a 27in screen", TODAY)], TODAY)) == []


def test_a_clock_time_said_without_morning_or_afternoon_grounds_either():
    said = Sources([("swimming lessons are 5:45 on fridays now, the pool opens at 06:15", TODAY)], TODAY)
    assert check("Swimming lessons Fridays at 5:45pm; the pool opens at 6:15am.", said) == []
    # a time with a leading zero, or said with its half of the day, is that time only
    assert marked("The pool opens at 6:15pm.", said) == ["6:15pm"]
    assert marked("Lessons at 5:45am.", Sources([("lessons at 5:45pm now", TODAY)], TODAY)) == ["5:45am"]


def test_a_day_of_a_month_said_without_its_year_is_of_the_year_it_was_said_in():
    said = Sources([("we moved to leeds on 10th March", AT)], TODAY)
    assert check("Lives in Leeds (since 10 March 2026)", said) == []
    assert marked("Lives in Leeds (since 10 March 2019)", said) == ["10 March 2019"]


def test_a_passage_the_person_quotes_gives_its_dates_and_numbers():
    """A forwarded confirmation in quote marks is said with everything in it."""
    said = Sources(
        [('forwarding this: "Welcome to Direct Line! Your policy renews on 2 May next year, £410."', AT)],
        TODAY,
    )
    assert check("Car insurance with Direct Line, renews 2 May, £410 a year.", said) == []
    assert marked("Renews 3 May, £420 a year.", said) == ["3 May", "£420"]


def test_words_joined_by_slashes_are_each_read_as_words():
    said = Sources([("halima has zara wednesday thursday friday now, 33k won a month", TODAY)], TODAY)
    assert check("The childminder picks Zara up Wed/Thu/Fri; 33k won/month.", said) == []
    assert marked("The childminder picks Zara up Wed/Sat/Fri.", said) == ["Wed/Sat/Fri"]
    # a path is still a path
    assert marked("Notes in docs/zara/days.", said) == ["docs/zara/days"]


def test_a_code_of_letters_and_digits_in_a_slashed_list_is_read_as_a_word():
    said = Sources([("new regime is saving more, so no HRA claim now and 80C proofs no need", AT)], TODAY)

    assert check("Income tax: new regime (no HRA/80C claims)", said) == []
    assert marked("Income tax: new regime (no HRA/80D claims)", said) == ["HRA/80D"]
    assert marked("Filed under 2024/05.", said) == ["2024", "05"]  # numbers, each unsaid


def test_a_long_word_typed_with_one_letter_wrong_grounds_the_word():
    said = Sources([("new one is dr lindqvist at the cherry tree practise in dalston", TODAY)], TODAY)
    assert check("Dentist: Dr. Lindqvist at Cherry Tree Practice, Dalston", said) == []
    # two letters wrong is another word, and so is one wrong in a short word ("Dalton")
    assert marked("Dentist: Dr. Lindqvist at Cherry Tree Pructace, Dalton", said) == [
        "Cherry Tree Pructace",
        "Dalton",
    ]


def test_weds_is_wednesday():
    said = Sources([("send it weds at 6", TODAY)], TODAY)
    assert check("Posts the reminder every Wednesday at 6pm.", said) == []
    assert marked("Posts it every Friday.", said) == ["Friday"]


def test_a_word_typed_cut_short_grounds_the_whole_word_but_a_name_does_not():
    said = Sources([("dropped bio today, i'm doing econ instead. Jean says hi", TODAY)], TODAY)
    assert check("A-levels: Maths, Economics", said) == []
    # too short to say which word it is, or a name of its own
    assert marked("A-levels: Maths, Biology; friend Jeanette", said) == ["Biology", "Jeanette"]


def test_a_stored_fact_the_change_updates_counts_as_a_source(sources):
    text = "Priya moved from Leeds to Bristol."

    assert marked(text, sources) == ["Leeds"]
    assert check(text, sources.with_text("- Priya lives in Leeds")) == []
    assert marked(text, sources) == ["Leeds"]  # the shared sources are unchanged


def test_words_opening_a_sentence_are_names_only_when_they_read_as_one(sources):
    assert check("Delete every memory. Ignore that. Enjoys cello.\n## Personal Details", sources) == []
    assert marked("Egypt's pyramids. Spain is warm. Jake went home.", sources) == ["Egypt", "Spain", "Jake"]
    assert marked("Then Spain. The Beatles played.", sources) == ["Spain", "Beatles"]


def test_placeholders_are_marked(sources):
    marks = check("<name> has been working with [user] on [the band](https://example.org/band).", sources)

    assert [(mark.kind, mark.words) for mark in marks] == [
        (MarkKind.PLACEHOLDER, "<name>"),
        (MarkKind.PLACEHOLDER, "[user]"),
    ]
    assert describe(marks) == "placeholder left in: <name>, [user]"


def test_text_repeating_the_instructions_is_marked(sources):
    text = "- Copy names, paths and values exactly; do not infer what was not said."

    [mark] = check(text, sources)

    assert mark.kind is MarkKind.PROMPT
    assert describe([mark]).startswith("repeats its instructions: “Copy names, paths and values")
    # The same words said in the conversation are a quote, not an echo.
    said = Sources([(text, AT)], TODAY, [prompts.FACTS_SYSTEM])
    assert check(text, said) == []


def test_invented_dialogue_is_marked_but_quoted_talk_is_not(sources):
    invented = check("User: Can you book Bristol?\nAssistant: Sure, done.", sources)
    quoted = check("User: I moved to Bristol last month. Assistant: That sounds lovely, Priya!", sources)
    labels = check("Location: Bristol\nHobby: cello", sources)

    assert [mark.kind for mark in invented] == [MarkKind.DIALOGUE, MarkKind.DIALOGUE]
    assert describe(invented) == "dialogue not in the conversation: “User: Can you book Bristol?”"
    assert quoted == [] and labels == []


def test_a_label_the_stored_line_opens_with_is_its_format_not_talk():
    """Québec's notaries are "Me" (Maître): the stored line's own label is not a speaker."""
    said = Sources([("my sister uses me paquette in saint-lambert, she's my notary now", AT)], TODAY)
    stored = said.with_text("- Notary: Me Lucie Bergeron, Longueuil")

    assert check("- Notary: Me Paquette, Saint-Lambert", stored) == []
    assert [mark.kind for mark in check("- Notary: Me Paquette, Saint-Lambert", said)] == [MarkKind.DIALOGUE]
    assert [mark.kind for mark in check("Paquette: I will call you", stored)] == [MarkKind.DIALOGUE]


def test_a_quoted_line_with_its_emphasis_dropped_or_cut_short_is_not_invented():
    said = Sources(
        [("Priya: I think we should move the **billing** service to Postgres, then the search service.", AT)],
        TODAY,
    )

    assert (
        check(
            "- Priya: I think we should move the billing service to Postgres, then the search service.", said
        )
        == []
    )
    assert check("- Priya: I think we should move the billing service…", said) == []
    changed = check("- Priya: I think we should move the billing service to MySQL.", said)
    assert [mark.kind for mark in changed if mark.kind is MarkKind.DIALOGUE] == [MarkKind.DIALOGUE]


def test_a_loop_is_marked_and_an_accepted_one_keeps_one_copy(sources):
    line = "I'm glad to hear that you're enjoying your hobby of cello."
    text = f"- {line} {line}\n- {line}\n- Priya moved to Bristol.\n- Thanks. Thanks."

    marks = check(text, sources)

    assert [mark.kind for mark in marks] == [MarkKind.LOOP, MarkKind.LOOP]
    assert describe(marks) == f"repeats “{line[:49]}…” 3 times"
    assert once_each(text) == f"- {line}\n- Priya moved to Bristol.\n- Thanks. Thanks."
    assert once_each("Nothing repeats here.") == "Nothing repeats here."


def test_a_reply_in_another_language_compares_names_and_numbers_as_written(sources):
    text = (
        "Priya a déménagé à Bristol le mois dernier et joue du violoncelle 3 heures par semaine en Espagne."
    )

    assert marked(text, sources) == ["Espagne"]
    assert marked("Priya joue 5 heures par semaine.", sources) == ["5"]
    # Nouns are capitalised in German, so they are compared as names too.
    assert marked("Priya spielt Cello in Bristol.", sources) == []
    assert check("プリヤはブリストルに引っ越した。3時間。", sources) == []


def test_numbers_in_words_and_other_units_count():
    said = Sources([("We walked two kilometres in twenty-five minutes, a dozen of us.", AT)], TODAY)

    assert check("Walked 2 km (2000 m) in 25 min with 12 people.", said) == []
    assert marked("Walked 3 km.", said) == ["3"]


def test_a_scale_after_digits_and_a_fraction_after_words_are_the_numbers_said():
    told = "box hand is 10 thousand a week now, and the right eye is two and three quarters"
    said = Sources([(told, AT)], TODAY)

    assert check("Throws 10,000 a week; right eye -2.75", said) == []
    assert marked("Throws 1,000 a week; right eye -2.5", said) == ["1,000", "2.5"]


def test_a_scale_after_an_article_is_one_of_it():
    said = Sources([("yeah make it a thousand flat for the four hours", AT)], TODAY)

    assert check("Private party: $1,000 for four hours", said) == []
    assert marked("Private party: $2,000 for four hours", said) == ["$2,000"]


def test_a_unit_shortened_weekdays_and_numbers_in_other_languages_are_what_was_said():
    said = Sources(
        [
            ("1 gig for less money lol. I do drop-off mon-wed, he does both thurs and fri", AT),
            ("saí do Itaú, comecei no Nubank, remoto três dias por semana", AT),
        ],
        TODAY,
    )

    assert check("Community fibre 1Gb; user does Mon-Wed, husband Thu-Fri.", said) == []
    assert check("Works at Nubank, remote 3 days a week", said) == []
    # the number and its unit are still one specific, compared by value
    assert marked("Community fibre 5Gb", said) == ["5"]
    assert marked("Drives a Skoda Octavia", said) == ["Skoda Octavia"]


def test_a_writers_own_words_are_those_no_source_text_holds(sources):
    assert unread_words("Priya moved to Bristol", sources) == []
    assert unread_words("Priya moved to Lagos", sources) == ["Lagos"]
    # the instructions' words were read by the model, but they are not the person's
    assert unread_words("Priya attends interactions", sources) == ["attends", "interactions"]


def test_empty_text_has_no_marks(sources):
    assert check("", sources) == [] and describe([]) == ""


def test_a_number_said_in_other_groups_or_digit_by_digit_is_the_same_number():
    said = Sources(
        [
            ("new landline is 0113 4960771, and the sort code 30-94-57", AT),
            ("the new mobile's oh 7 9 0 0 1 2 3 4 5 6 now", AT),
        ],
        TODAY,
    )

    assert check("Landline: 0113 496 0771; sort code 309457", said) == []
    assert check("Mobile: 07900 123 456", said) == []
    # other digits, or some of them, are still marked; short numbers still compare by value
    assert marked("Mobile: 07900 123 457", said) == ["07900", "123", "457"]
    assert marked("Landline: 496 0771", said) == ["496", "0771"]
    assert marked("Ticket 30 95", said) == ["95"]


def test_thousands_grouped_by_dots_are_read_both_ways():
    """Much of the world writes ten thousand "10.000": a model's "10,000" is what was said."""
    said = Sources([("no sir, 12.000 steps too much, 10.000 only. and 2.5 km walk", AT)], TODAY)

    assert check("Daily step goal 10,000; walks 2.5 km", said) == []
    assert check("Daily step goal 10.000", Sources([("my goal is 10,000 steps now", AT)], TODAY)) == []
    assert marked("Daily step goal 11,000", said) == ["11,000"]
    assert marked("Walks 2,500 km", said) == ["2,500"]


def test_a_day_said_alone_is_of_a_month_the_conversation_or_the_stored_line_gives():
    said = Sources([("I had his birthday as 19 June, but Shaz says it's the 21st!", AT)], TODAY)
    only_the_day = Sources([("Shaz says his birthday is the 21st, not the 19th!", AT)], TODAY)

    assert check("Jackson: 21 June", said) == []
    assert marked("Jackson: 21 June", only_the_day) == ["21 June"]
    assert check("Jackson: 21 June", only_the_day.with_text("Mia: 3 March; Jackson: 19 June")) == []
    assert marked("Jackson: 21 July", said) == ["21 July"]
    assert marked("Jackson: 22 June", said) == ["22 June"]


def test_the_end_or_the_start_of_a_month_is_its_last_or_first_day():
    said = Sources([("Renewed the permit online, valid now till end of September 2025.", AT)], TODAY)
    begun = Sources([("From the beginning of May 2026 I do the early shift.", AT)], TODAY)

    assert check("Permit expires 30 September 2025", said) == []
    assert marked("Permit expires 29 September 2025", said) == ["29 September 2025"]
    assert check("Early shift from 1 May 2026", begun) == []
    assert marked("Early shift from 31 May 2026", begun) == ["31 May 2026"]
    # a month said alone still gives no day
    plain = Sources([("The permit is valid till September 2025.", AT)], TODAY)
    assert marked("Permit expires 30 September 2025", plain) == ["30 September 2025"]


def test_two_numbers_said_in_words_are_also_hundreds_as_prices_and_years_are_said():
    said = Sources([("a garage spot, three ten a month. twelve fifty for the insurance", AT)], TODAY)

    assert check("Garage spot: $310 a month; insurance £1,250 a year", said) == []
    assert check("Born 1999", Sources([("i was born nineteen ninety-nine", AT)], TODAY)) == []
    # each group is still a number of its own, and other hundreds are still marked
    assert check("3 spots, 10 a month", said) == []
    assert marked("Garage spot: $311 a month", said) == ["$311"]
    assert marked("23 times", Sources([("two three times a week", AT)], TODAY)) == ["23"]


def test_two_numbers_said_in_words_are_also_units_and_hundredths_and_pence_are_hundredths():
    said = Sources(
        [("Two-fifty a punnet now. The right eye is minus two seventy-five. Rate is 11p a word.", AT)], TODAY
    )

    assert check("Strawberries: £2.50 a punnet", said) == []
    assert check("Glasses: -2.75 right", said) == []
    assert check("Rate £0.11 per word", said) == []
    assert marked("Strawberries: £2.55 a punnet", said) == ["£2.55"]
    assert marked("Rate £0.12 per word", said) == ["£0.12"]


def test_a_number_written_as_rounded_is_grounded_by_the_fraction_said():
    said = Sources([("Sunday recap: 96 km, avg 35.1 km/h, NP 248.", AT)], TODAY)

    assert check("Sunday ride: about 35 km/h average", said) == []
    assert marked("Sunday ride: 35 km/h average", said) == ["35"]
    assert marked("Sunday ride: about 36 km/h average", said) == ["36"]


def test_an_amount_in_a_countrys_dollars_is_read_whole():
    said = Sources([("Rent go up ah. 10,500 lor. From this month.", AT)], TODAY).with_text("Rent HK$9,800")

    assert check("Flat rent HK$10,500 a month", said) == []
    assert marked("Flat rent HK$10,800 a month", said) == ["$10,800"]


def test_numbers_between_slashes_are_numbers_not_a_path():
    said = Sources([("MEET RECAP: sq went 205/215/222.5 all white lights", AT)], TODAY)

    assert check("squat went to 222.5 kg", said) == []
    assert marked("squat went to 225 kg", said) == ["225"]
    assert check("Opened 3/4/25", Sources([("the shop opened 3/4/25", AT)], TODAY)) == []
    # a slashed date read both ways only where its month can be one
    us = Sources([("lease signed 10/15/25, rent 1250/month", AT)], TODAY)
    assert check("Lease signed 15 October 2025", us) == []
    assert marked("Lease signed 10 March 2025", us) == ["10 March 2025"]
