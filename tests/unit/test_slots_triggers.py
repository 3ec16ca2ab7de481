"""A line is read only with the slot rules whose trigger words it has, and that changes no claim:
on varied texts, the claims are the same as with every rule tried on every line."""

import random
import re
import sys

import pytest
from tests.unit.test_slots import FAMILIES

from memdesk.core import slots

# Each rule's own shape at least once, with schedules, amounts and values known by kind.
SENTENCES = [
    "We're now in Lisbon near the river. I am in Bristol now, I'm still in Leeds.",
    "She lives in Utrecht and cycles everywhere.",
    "We moved all the way from Berlin to Paris.",
    "Moving back to Leeds soon.",
    "We moved out of Leipzig last year.",
    "My hometown is Galway.",
    "I'm originally from Cork.",
    "Got my Irish passport today.",
    "Dual nationality now, both French and German.",
    "Address is now: 12 Mill Road, Ely",
    "Works at Initech.",
    "I start at Acme on Monday.",
    "Accepted an offer at Nordwind!",
    "Last day at Globex is Friday.",
    "I was laid off from Hooli in May.",
    "She works there as a data analyst.",
    "Promoted to senior designer today.",
    "My title is now staff engineer.",
    "Moved over to the Platform team.",
    "I'm on the payments team.",
    "My manager is now Felix Braun.",
    "I report to Omar now.",
    "Dana is now my manager.",
    "Switched from Emacs to Neovim.",
    "Went vegan in March, changed to Firefox too.",
    "Traded the Corolla for a Polestar 2.",
    "Replaced it with a MacBook Air.",
    "Matcha now instead of espresso.",
    "Zinc instead.",
    "Only tea now.",
    "Registered with Dr. Amari and bought a Tesla.",
    "Quit smoking, cancelled the Netflix subscription.",
    "Biscuit passed away. Rex died last week.",
    "Marco and I broke up. Sam and I are no longer together. Jo and I splitting up, Kim and I separatedly.",
    "Broke up with Marco.",
    "Dating Priya since June.",
    "My partner is Sam. Wife, Aiko.",
    "Our dog called Pixel.",
    "Two kids now, 3 boys later maybe.",
    "I'm with Mia now.",
    "Switched my dentist to Dr. Brandt.",
    "My new manager is Omar Haddad. The gym is Better Gym.",
    "I'm a principal engineer now. Became a nurse.",
    "My mobile number is +44 7700 900123.",
    "Email me at lena.k@example.org from now on.",
    "My hometown is Sligo, not Athlone.",
    "Our new flat in Leeds is lovely. My first week at Stripe went well.",
    "I'm on rooibos now. We're with Nationwide these days.",
    "I gave PyCharm a rest, packed in football and gave up on keto.",
    "Moved all my notes from Evernote to Obsidian.",
    "It's tree nuts I'm allergic to, not peanuts.",
    "Yoga is on Monday evenings.",
    "Landed the HSBC job! The car goes to Halfords now.",
    "Member of the Riverside Harriers.",
    "Munich has been home since January. New postcode: BS1 4QT. Now at Deloitte.",
    "It's Dr. Lang at Hillside now; her name's Meera. We're driving an Ioniq 5.",
    "I've been made ward manager.",
    "I take vitamin B12 now instead.",
    "It's porridge now. I see Jo Park now; the GP put me on sumatriptan.",
    "Please reply in German.",
    "Reading Middlemarch again.",
    "Drives a 2019 Honda Civic.",
    "Mortgage is now with Nationwide.",
    "Bank is Monzo.",
    "Moved my savings to Monzo.",
    "Closed the Lloyds account.",
    "Prefers Vim and drinks oat milk, on Ozempic.",
    "Standup at 9:30 every weekday; piano on Mondays at 6pm.",
    "Rent is £1,250 a month. Budget for travel is 200 EUR.",
    "Uses a ThinkPad X1 Carbon Gen 9 with Arch Linux.",
    "Partner: Ruth\n- Dentist: Dr. Amari, High Street\nPhone: 0161 496 0000",
    "Was: lives in Rome\n~~Works at Initech~~",
    # the other words of rules that have several
    "We're in Leeds now.",
    "Moving away from Hull.",
    "Home town was Derby.",
    "Grew up in Sligo.",
    "Born in Tromsø.",
    "New job at Initech.",
    "Offer from Acme.",
    "Joining Globex.",
    "Let go by Hooli.",
    "Made redundant at Acme.",
    "Job title is nurse.",
    "Line manager is Rae.",
    "Team lead is Bo.",
    "Manager will be Kai.",
    "Gave up coffee for tea.",
    "Signed up with Octopus.",
    "Rex is gone.",
    "Rex was put down.",
    "The Brompton was stolen.",
    "Vodafone contract ended.",
    "PureGym membership expired.",
    "Netflix subscription ran out.",
    "Tom and I ended things.",
    "Sam and I are no longer together.",
    "Engaged to Ana.",
    "Moved in with Lea.",
    "Together with Kim.",
    "In a relationship with Noor.",
    "My home address is 4 Elm Close.",
    "My e-mail is Proton.",
    "Our postal address is 9 Quay Lane.",
    "My line manager is Rae.",
    "My fiance is Tom.",
    "My fiancee is Ana.",
    "I've become a nurse.",
    "I am a product manager.",
    "It's Leeds, not York.",
    "Talk to me in Spanish.",
    "Speak to me in French.",
    "Re-reading Dune.",
]
# Words that start a longer word, letters IGNORECASE reads as ASCII, and words of no rule.
ODD_WORDS = [
    "splitting", "teammates", "managers", "cancellled", "fiancée", "divorcedly", "İn", "lıves", "ſtopped",
    "Kids", "Zürich", "Ærø", "naïve", "café", "I'm", "it's", "we're", "re-reading", "e-mail",
    "gluten-free", "9.30", "10am", "7 pm", "$40", "3%", "the", "a", "to", "now", "from", "with", "and",
    "not", ",", ".", ";", ":", "!", "(old)", "until", "formerly", "my", "our", "is", "are", "was",
]  # fmt: skip


def _swapped(texts: list[str]) -> list[str]:
    """For each rule a text matches, the text with each of the rule's trigger words swapped for
    the others of its set ("Works at" → "Working at", "Employed at"), and a word that may start a
    longer one made longer ("split" → "splits")."""
    swapped = []
    for text in texts:
        for _slot, trigger, source in slots._RULES_SOURCE:
            if not re.search(source, text):
                continue
            for group in trigger.split("&"):
                words = [word.rstrip("*") for word in group.split() if word not in ("0", "@")]
                others = words + [word[:-1] + "s" for word in group.split() if word.endswith("*")]
                for word in words:
                    found = re.compile(rf"(?i)\b{re.escape(word)}\b")
                    if found.search(text):
                        swapped += [found.sub(other, text, count=1) for other in others if other != word]
    return swapped


def _variants(rng: random.Random) -> list[str]:
    """The sentences as written, with trigger words swapped, lowercased, capitalised and
    shouting, with letters swapped for ones IGNORECASE matches, joined on a line or over lines,
    and word salad of their words."""
    texts = [text for text, _expected in FAMILIES] + SENTENCES
    folds = {"i": "ı", "I": "İ", "s": "ſ", "k": "K"}
    for text in list(texts):
        texts += [text.lower(), text.upper(), text.title(), text.replace("'", "’")]
        letter = rng.choice(list(folds))
        texts.append(text.replace(letter, folds[letter], 1))
    texts += _swapped(texts[: len(FAMILIES) + len(SENTENCES)])
    words = [word for text in texts for word in text.split()] + ODD_WORDS
    for _ in range(400):
        texts.append(" ".join(rng.choices(words, k=rng.randint(3, 14))))
        texts.append(rng.choice(texts) + rng.choice([" ", ", ", "\n", "; "]) + rng.choice(texts))
    return list(dict.fromkeys(texts))


TEXTS = _variants(random.Random(27))


def _lines(text: str) -> list[str]:
    return text.splitlines()


def test_a_rule_that_matches_a_line_is_tried_on_it():
    matchers = slots._matchers()
    fired = set()
    for text in TEXTS:
        for line in _lines(text):
            tried = slots._tried(line)
            for position, rule in enumerate(matchers.rules):
                if rule.pattern.search(line):
                    fired.add(position)
                    assert rule in tried.rules, (position, line)
            if slots._LEXICON_RE.search(line):
                fired.add("lexicon")
                assert tried.lexicon, line
            for family, claims in (
                ("schedule", slots._schedule_claims(line, 0, len(line))),
                ("amount", slots._amount_claims(line, 0, len(line))),
            ):
                if claims:
                    fired.add(family)
                    assert getattr(tried, family), (family, line)
    # Every rule met a line it matches, so each rule's trigger words were put to the test.
    assert fired == {*range(len(matchers.rules)), "lexicon", "schedule", "amount"}


def test_claims_are_the_same_as_with_every_rule_tried_on_every_line(monkeypatch):
    filtered = [slots.claims_in(text) for text in TEXTS]
    everything = slots._Tried(slots._matchers().rules, lexicon=True, schedule=True, amount=True)
    monkeypatch.setattr(slots, "_tried", lambda _segment: everything)
    slots._claims.cache_clear()
    try:
        unfiltered = [slots.claims_in(text) for text in TEXTS]
    finally:
        slots._claims.cache_clear()
    assert sum(map(bool, unfiltered)) > len(TEXTS) / 2  # most texts do fill slots
    for text, mine, theirs in zip(TEXTS, filtered, unfiltered, strict=True):
        assert mine == theirs, text


def test_a_line_with_no_trigger_word_is_tried_with_nothing():
    tried = slots._tried("dujenicu zibu project deploy python tepota deadline jofafu")
    assert tried.rules == () and not (tried.lexicon or tried.schedule or tried.amount)


@pytest.mark.slow
def test_words_are_read_as_ignorecase_reads_them():
    """Lowercasing with the few extra folds gives, for every character, the ASCII letter that the
    rules' IGNORECASE matches it with (and keeps what counts as a word)."""
    letter, word = re.compile(r"(?i)[a-z]"), re.compile(r"\w")
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        folded = char.translate(slots._FOLD).lower()
        assert len(folded) == 1, hex(code)
        assert bool(word.match(folded)) == bool(word.match(char)), hex(code)
        if letter.fullmatch(char):
            assert folded.isascii() and re.fullmatch(f"(?i){folded}", char), hex(code)
        else:
            assert not ("a" <= folded <= "z"), hex(code)
