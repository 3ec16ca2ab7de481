"""Mention or use: whether a note the learned model would hold only talks about orders, as the
verdict reads it (``suspicious``).

An order needs someone to obey it. An attack speaks to its reader: it says "you", names the
assistant, the model or whoever reads it, or asks ("please"). A note about the person in the
third person that does none of these ("User follows their dietitian's instructions") describes
them, though it shares an attack's words, which is all the model's n-grams see; such a note
needs a surer score to be held by the model alone. (Code that only names such words is read as
code by ``detector_code``.)

Only closed classes of words are read (pronouns of the second person, the words that name a
reader, the words that ask, the words for the user), in the languages of the notes, so no topic
and no phrase decides.
"""

from __future__ import annotations

import re

# The second person in the languages of the notes, casual spellings ("u", "ur", "ya") too.
# Forms that are a common word of another language are left out (French "je" is "I").
_SECOND_PERSON = (
    "you your yours yourself yourselves youre you're you've you'll you'd u ur ya thou thee thy"
    " du dich dir dein deine deinen deinem deiner euch euer eure"
    " tu toi ton ta tes vous votre vos tú ti usted ustedes vosotros tus"
    " tuo tua tuoi tue voi vostro vostra você vocês teu"
    " jij jou jouw jullie ty ciebie tobie twój twoja twoje wy"
    " ты тебя тебе тобой твой твоя твои вы вас вам ваш ваша"
)
# What names the reader of a text that was not written to it.
_READER = (
    "assistant assistants ai a.i. bot bots chatbot model llm agent agents gpt chatgpt reader readers"
    " whoever assistent assistente asistente ki ia ии ассистент"
)
_ASKING = "please pls plz kindly bitte"
_ADDRESS_WORDS = sorted(set(f"{_SECOND_PERSON} {_READER} {_ASKING}".split()), key=len, reverse=True)
# A whole word: no letter, digit, apostrophe or dot joined to it on either side ("your-name"
# still says "your"; "user's" and "e.g." hold no "u" or "g").
_ADDRESS = re.compile(rf"(?<![\w'’.])(?:{'|'.join(map(re.escape, _ADDRESS_WORDS))})(?![\w'’])")
# Chinese, Japanese and Korean write "you" inside a run of characters without spaces.
_CJK_YOU = re.compile("[你您]|あなた|君|당신|너")

# A note about the person in the third person starts by naming them ("User …", "The user's …").
_ABOUT_THE_USER = re.compile(
    r"\s*(?:(?:the\s+)?user(?:'s|’s)?|der\s+nutzer|die\s+nutzerin|l'utilisateur|el\s+usuario|l'utente"
    r"|o\s+usuário|de\s+gebruiker|użytkownik|пользователь)\b"
)


def addresses_a_reader(read: str) -> bool:
    """Whether ``read`` (the text as the model reads it: lower case, code and quoted examples
    blanked) speaks to someone: the second person, a name for its reader, or a request."""
    return bool(_ADDRESS.search(read) or _CJK_YOU.search(read))


def only_mentions(read: str) -> bool:
    """Whether ``read`` (the text as the model reads it) is a note about the person in the third
    person that speaks to no one: it may name orders, but gives none."""
    return bool(_ABOUT_THE_USER.match(read)) and not addresses_a_reader(read)
