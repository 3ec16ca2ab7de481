"""How the learned reader sees a pair among the others of its conversation
(``llm.stale_features.compared``): which stored line a sentence is closest to, which sentence a
line is closest to, a value of a shape only one line holds, a label only one line has said."""

from datetime import date

from memdesk.llm.stale_features import compared, read_line, read_sentence

SAID = date(2026, 3, 4)
LINES = ["Lives in Glasgow, near the Botanic Gardens", "Gym: Nuffield Health", "Mobile: 07700 900 114"]


def standing(*sentences: str, lines: list[str] = LINES) -> list[list[list[str]]]:
    reads = [read_line(line, "profile", frozenset()) for line in lines]
    said = [read_sentence(text, text, tuple(lines), SAID) for text in sentences]
    return compared(said, reads)


def test_the_line_a_sentence_shares_most_with_stands_first_and_alone():
    (row,) = standing("cancelled the nuffield gym, I go to PureGym now")
    lives, gym, mobile = row
    assert "line-rank:0:alone" in gym and "line-margin:2" in gym
    assert "line-rank:none" in lives and "line-rank:none" in mobile
    assert "label-topic:only" in gym  # "gym", the line's label, is what the sentence is about


def test_of_two_sentences_the_one_closer_to_a_line_stands_first_for_it():
    closer, further = standing("the nuffield gym membership is cancelled", "nuffield was busy today")
    assert "sentence-rank:0:alone" in closer[1]
    assert "sentence-rank:1:alone" in further[1]


def test_a_value_of_a_shape_only_one_line_holds_is_read_as_that_lines():
    (row,) = standing("new number is 07700 900 555")
    assert any(name == "shape-held:only" for name in row[2])
    assert not any(name.startswith("shape-held") for name in row[0] + row[1])
