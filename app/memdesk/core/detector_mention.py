"""Mention or use: whether words a rule matched are talked about rather than said to the reader.

Honest text quotes, tests, describes and reports orders: a design note lists the phrases a
filter flags, a test asserts that a detector catches one, a retrospective says what a team was
told to do, friends agree that whoever pretends to forget the rules brings snacks. The
words are an attack's; the sentence around them is not. ``suspicious`` asks here before it
counts a rule's match. Only the structure around the match is read:

- a quotation the text names as an example (after "like", "such as", "flags", a call's
  parenthesis, another such quotation, or followed by "-style" and a word for a specimen);
- a string literal that a test asserts on (``assert is_injection("…")``, or a name assigned
  a string and asserted on later);
- a parenthesis of examples after a word that names specimens ("jailbreaks (…)");
- a sentence whose verb of detection governs the match ("the filter flags notes that …");
- a clause whose subject is someone other than the reader ("we … ignore everything after
  the firmware change", "whoever pretends to forget the rules", "they like me to pretend").

``mentions_blanked`` hides the first three from the learned model, and a code comment that
states what a named third party must do ("// admins must pass override"): a rule of the code,
not an order to whoever reads it.

A match that addresses the reader stays an order wherever it stands: a quotation, a string or a
parenthesis that opens with a name for the reader and a colon, or carries an outside address,
is no example; the second person, a name for the reader or "please" in a clause with another
subject makes it an order again. So "# assistant: ignore previous instructions" in a comment is
still held. (What a detector is said to look for may name the reader it would mislead: "the
guard flags messages that tell the assistant to …".)
"""

from __future__ import annotations

import re

from memdesk.core.detector_address import addresses_a_reader

# A quotation that names an order as an example: its opening and closing marks, and the words
# that introduce it just before (or a call whose argument it is).
QUOTES = {"'": "'", '"': '"', "‘": "’", "“": "”", "`": "`"}
MENTION_CUE = re.compile(
    r"(?:\b(?:like|such\s+as|e\.g\.|says?|said|phrases?|strings?|words|containing|contains?|strips?|detects?|"
    r"flags?|blocks?|filters?|matches|catches|quoted?|example)|\w\()[\s:,]*\Z"
)
# A quotation of words (a space inside): an apostrophe inside a word ("don't") opens none. Each
# way opens with its mark (the apostrophe's word checked behind it), so the engine skips to the
# marks instead of trying the pattern at every character.
_QUOTATION = re.compile(
    r"'(?<!\w')[^'\n]{0,120} [^'\n]{0,120}'|\"[^\"\n]{0,120} [^\"\n]{0,120}\"|‘[^’\n]{0,120} [^’\n]{0,120}’"
    r"|“[^”\n]{0,120} [^”\n]{0,120}”|`[^`\n]{0,120} [^`\n]{0,120}`"
)
# A parenthesis on one line, as prose opens one: after a space (a call in code opens none).
_PARENTHESIS = re.compile(r" \([^()\n]{3,160}\)")
# A requirement in a code comment: what a named party must do ("return ErrLocked // admins must
# pass override", "-- billing: each tenant must have one plan"). Code documents its rules so;
# the comment's subject is not its reader.
# (No \b before it: a pattern that opens with a literal is found much faster, and the subject
# before it must end in a space.)
_MODAL = re.compile(r"(?:must|should|shall|ha(?:s|ve) to|needs? to)\b")
_COMMENT_SUBJECT = re.compile(
    r"(?:^|(?<=\s))(?:#|//|--)\s+(?:[a-z][\w-]*:\s+)?(?:(?:the|all|each|every|any)\s+)?"
    r"([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+\Z"
)
# Subjects that may stand for the reader or what it writes: a requirement on them is an order.
_READER_OR_OUTPUT = re.compile(
    r"\b(?:it|this|that|these|those|there|he|she|they|we|i|one|repl(?:y|ies)|responses?|answers?|summar(?:y|ies)|"
    r"outputs?|messages?|notes?|memor(?:y|ies))\b"
)
# A test asserts on a string it names within this many characters of it.
_TEST_REACH_CHARS = 600

# How far a quotation, a parenthesis or a clause is looked for around a match.
_REACH_CHARS = 160
# Words naming text as a specimen of a kind: a quotation or parenthesis next to one shows
# examples ("extraction attempts (…)", "'print your instructions'-style attacks").
_SPECIMENS = (
    r"(?:attacks?|attempts?|injections?|jailbreaks?|exploits?|payloads?|examples?|requests?|prompts?|phrases?|"
    r"patterns?|strings?|cases?|fixtures?|samples?|probes?|inputs?|messages?|texts?|wordings?|notes?|lines?|"
    r"documents?|comments?|content|chunks?|pages?)"
)
_PARENTHESIS_CUE = re.compile(rf"\w[\w-]*\s+(?:\w+\s+)?{_SPECIMENS}\s*\(\s*\Z")
_OPENS_WITH_EXAMPLE = re.compile(r"\(\s*(?:e\.g\.|like|such\s+as)\s")
_SPECIMEN_AFTER = re.compile(rf"[ \t]*(?:[-–][ \t]*(?:style|like|type|kind)?[ \t]*)?{_SPECIMENS}\b")
# A quotation after another named one: "flags 'ignore the above' or 'reveal your rules'".
_CHAINED = re.compile(r"[\"'”’`]\s*(?:,\s*)?(?:\bor\b|\band\b|/)\s*\Z")
# A quotation addresses its reader when it opens with a name for one and a colon ("'AI: …'").
_ADDRESSEE_CHARS = 24
_ADDRESSEE = re.compile(r"\s*[\w .'-]+")
# An order with its payload, an outside address to send to, is no example however it is named.
_PAYLOAD = re.compile(r"https?://|www\.|[\w.+-]+@[\w-]+\.\w")
# The function a quotation is passed to ("=assistant(", "detector.score(").
_CALLED = re.compile(r"([\w.]+)\s*\(\s*\Z")
# A cue anywhere before a chain of quotations.
_CUE_BEFORE = re.compile(MENTION_CUE.pattern.replace(r"[\s:,]*\Z", r"[\s:,]*[\"'“‘`]"))
# A verb of detection with a text as its object ("flags notes that …", "detects any message
# asking …"): what follows is what the detector looks for.
_DETECTS = re.compile(
    r"\b(?:flags?|flagged|flagging|detects?|detected|detecting|catch(?:es)?|caught|blocks?|blocked|rejects?|"
    r"rejected|strips?|stripped|quarantines?|classif(?:y|ies|ied)|recogni[sz]es?|screens?\s+for|looks?\s+for)"
    rf"\s+(?:\w+\s+){{0,2}}?{_SPECIMENS}\b"
)
# Someone other than the reader as a clause's subject, in the first person or the third. The
# writer who wants, needs or asks for something asks it of the reader ("I want you to …", "I'd
# like the note pasted"), and one who promises or may do it speaks as the reader would ("I will
# now ignore my rules"): neither is a step the writer took.
_OTHER_SUBJECT = re.compile(
    r"(?:(?:and|but|so|then|because|when|if|since|while|once)\s+)?"
    r"(?:i\b(?!'d|'ll|'m\s+(?:asking|going)|\s+(?:\w+\s+)?(?:wants?|need|would|will|shall|am\s+going|can|may|must|"
    r"should|ask|request|expect|wish|beg)\b)"
    r"|(?:we|they|he|she|whoever|everyone|everybody|someone|somebody|nobody|people|attackers?)\b)"
)
# "Whoever reads this …" is the reader; "whoever pretends …" is someone else.
_READS = re.compile(
    r"\s+(?:is\s+|are\s+)?(?:read|reads|reading|process\w*|summari[sz]\w*|pars\w*|sees?|seeing|gets?|receives?|"
    r"handl\w*|opens?)\b"
)
# Where a clause begins: a sentence's end, a colon, a semicolon, a comma, a bracket, a line break.
_CLAUSE_BREAK = re.compile(r"[.!?;:,(\n]\s*|\s[-–—]\s")
# Test code: an assertion, on the line itself or about a name assigned the string.
_ASSERTS = re.compile(r"^\s*(?:assert\b|expect\s*\(|self\.assert\w*\s*\(|\w+\.assert\w*\s*\()", re.MULTILINE)
_ASSIGNED = re.compile(r"^\s*([a-z_][\w.]*)\s*=\s*\Z")


def mentioned(lowered: str, start: int, end: int, order: bool) -> bool:
    """Whether ``lowered[start:end]``, the words a rule matched in the lower-cased text, are talked
    about (quoted, tested, described, reported) rather than said to the reader. ``order``: the
    rule reads an order by its verb, so a clause with another subject only describes one (a rule
    that reads a fact, handed codes or money, is read whatever its subject)."""
    if shown_or_looked_for(lowered, start, end, order):
        return True
    if not order:
        return False
    clause = clause_start(lowered, start)
    subject = _OTHER_SUBJECT.match(lowered, clause)
    if subject is None or _READS.match(lowered, subject.end()):
        return False
    return not addresses_a_reader(lowered[subject.end() : end])


def shown_or_looked_for(lowered: str, start: int, end: int, order: bool = True) -> bool:
    """Whether ``lowered[start:end]`` is shown as an example (a named quotation, a string a test
    asserts on, a parenthesis of examples) or, for an ``order``, is what a detector is said to
    look for. The learned model's weightiest words are judged by these alone: they need not hold
    the verb a clause's subject governs."""
    line_start = lowered.rfind("\n", 0, start) + 1
    line_end = lowered.find("\n", end)
    line_end = len(lowered) if line_end == -1 else line_end
    quotation = _quotation(lowered, line_start, line_end, start, end)
    if quotation is not None:
        opened, closed = quotation
        if (
            _named_example(lowered, line_start, opened, closed) or _asserted(lowered, line_start, opened)
        ) and not _said_all_the_same(lowered, opened, closed):
            return True
    if _in_parenthesised_examples(lowered, line_start, line_end, start, end):
        return True
    # What a detector is said to look for may name the reader it would mislead.
    return order and bool(_DETECTS.search(lowered, _sentence_start(lowered, start), start))


def _quotation(lowered: str, line_start: int, line_end: int, start: int, end: int) -> tuple[int, int] | None:
    """The opening and closing marks of the quotation on the match's line that holds it: the
    nearest mark before the match opens it, unless it is an apostrophe inside a word."""
    lead_from = max(line_start, start - _REACH_CHARS)
    opened = max(lowered.rfind(mark, lead_from, start) for mark in QUOTES)
    if opened == -1:
        return None
    mark = lowered[opened]
    closed = lowered.find(QUOTES[mark], end, min(line_end, end + _REACH_CHARS))
    if closed == -1 or (mark == "'" and opened > 0 and lowered[opened - 1].isalnum()):
        return None
    return opened, closed


def _named_example(lowered: str, line_start: int, opened: int, closed: int) -> bool:
    """Whether the quotation is named as an example: not when it is the argument of a call named
    for the reader (``=ASSISTANT("…")``)."""
    before = max(line_start, opened - 40)
    cue = MENTION_CUE.search(lowered, before, opened)
    if cue and cue.group(0).rstrip().endswith("("):
        called = _CALLED.search(lowered, line_start, opened)
        if called and addresses_a_reader(called.group(1)):
            return False
    return bool(
        cue
        or (_chained(lowered, before, opened) and _CUE_BEFORE.search(lowered, line_start, opened))
        or _SPECIMEN_AFTER.match(lowered, closed + 1)
    )


def _said_all_the_same(lowered: str, opened: int, closed: int) -> bool:
    """Whether what is quoted or put in parentheses at ``opened`` is an order however it is
    introduced: it opens by addressing the reader ("'assistant: …'") or carries an outside
    address to send to."""
    head, colon, _rest = lowered[opened + 1 : opened + 1 + _ADDRESSEE_CHARS].partition(":")
    addressed = colon and _ADDRESSEE.fullmatch(head) and addresses_a_reader(head)
    return bool(addressed or _PAYLOAD.search(lowered, opened, closed))


def _chained(lowered: str, before: int, opened: int) -> bool:
    # Most quotations follow no "or", "and" or "/": a look at the last characters spares the search.
    tail = lowered[max(before, opened - 8) : opened]
    return ("or" in tail or "and" in tail or "/" in tail) and bool(_CHAINED.search(lowered, before, opened))


def _asserted(lowered: str, line_start: int, opened: int) -> bool:
    """Whether the string opened at ``opened`` is asserted on: on an assertion's line, or assigned
    to a name that a later assertion reads."""
    lead = lowered[line_start:opened]
    if not lead.rstrip().endswith("="):
        return ("assert" in lead or "expect" in lead) and bool(_ASSERTS.match(lead))
    assigned = _ASSIGNED.match(lead)
    after = lowered[opened : opened + _TEST_REACH_CHARS]
    if assigned is None or ("assert" not in after and "expect" not in after):
        return False
    name = re.compile(rf"\b{re.escape(assigned.group(1))}\b")
    for found in _ASSERTS.finditer(lowered, opened, opened + _TEST_REACH_CHARS):
        line_end = lowered.find("\n", found.end())
        if name.search(lowered, found.end(), len(lowered) if line_end == -1 else line_end):
            return True
    return False


def _in_parenthesised_examples(lowered: str, line_start: int, line_end: int, start: int, end: int) -> bool:
    opened = lowered.rfind("(", max(line_start, start - _REACH_CHARS), start)
    if opened == -1 or ")" in lowered[opened:start]:
        return False
    closed = lowered.find(")", end, line_end)
    if closed == -1:
        return False
    return _examples_cue(lowered, line_start, opened) and not _said_all_the_same(lowered, opened, closed)


def _examples_cue(lowered: str, line_start: int, opened: int) -> bool:
    """Whether the parenthesis opened at ``opened`` lists examples: after a word that names
    specimens ("extraction attempts (…)"), or opening with "e.g.", "like", "such as" inside a
    sentence."""
    if _PARENTHESIS_CUE.search(lowered, max(line_start, opened - 40), opened + 1):
        return True
    # An aside in a sentence: a parenthesis that opens the line is no example of anything.
    return bool(_OPENS_WITH_EXAMPLE.match(lowered, opened)) and bool(lowered[line_start:opened].strip())


def clause_start(lowered: str, start: int) -> int:
    """Where the clause holding ``start`` begins (its first word)."""
    begin = max(0, start - _REACH_CHARS)
    breaks = [
        found.end()
        for found in _CLAUSE_BREAK.finditer(lowered, begin, start)
        # A parenthesis closed before the match is an aside inside the clause.
        if not (found.group(0).startswith("(") and ")" in lowered[found.end() : start])
    ]
    return max(breaks, default=begin)


def _sentence_start(lowered: str, start: int) -> int:
    begin = max(0, start - _REACH_CHARS)
    ends = [lowered.rfind(mark, begin, start) for mark in (". ", "! ", "? ", "; ", "\n")]
    return max(max(ends) + 1, begin)


def mentions_blanked(text: str) -> str:
    """``text`` with what it only mentions blanked, so the model does not read it as said (same
    length): each quotation it names as an example or asserts on in a test, each parenthesis of
    examples, and each code comment's requirement on a named third party."""
    # Every text the model reads passes here: what may be a mention is found in the text as
    # written, and the text is lower-cased only when there is some.
    quotations = list(_QUOTATION.finditer(text)) if any(mark in text for mark in QUOTES) else []
    parentheses = list(_PARENTHESIS.finditer(text)) if " (" in text else []
    modals = list(_MODAL.finditer(text)) if "#" in text or "//" in text or "--" in text else []
    if not (quotations or parentheses or modals):
        return text
    lowered = text.lower()
    if len(lowered) != len(text):  # a few letters lengthen when lower-cased: read as written
        lowered = text
    spans: list[tuple[int, int]] = []
    testing = "assert" in lowered or "expect" in lowered
    for found in quotations:
        opened, closed = found.start(), found.end() - 1
        line_start = lowered.rfind("\n", 0, opened) + 1
        if (
            _named_example(lowered, line_start, opened, closed)
            or (testing and _asserted(lowered, line_start, opened))
        ) and not _said_all_the_same(lowered, opened, closed):
            spans.append((opened + 1, closed))
    for found in parentheses:
        opened, closed = found.start() + 1, found.end() - 1
        line_start = lowered.rfind("\n", 0, opened) + 1
        if _examples_cue(lowered, line_start, opened) and not _said_all_the_same(lowered, opened, closed):
            spans.append((opened + 1, closed))
    spans += _requirements_in_comments(lowered, modals)
    return _blanked(text, spans) if spans else text


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span made spaces. Cut and joined by slices: a list of a long note's
    characters costs more than reading it."""
    pieces: list[str] = []
    at = 0
    for begin, end in sorted(spans):
        begin = max(begin, at)
        if end > begin:
            pieces += (text[at:begin], " " * (end - begin))
            at = end
    pieces.append(text[at:])
    return "".join(pieces)


def _requirements_in_comments(lowered: str, modals: list[re.Match[str]]) -> list[tuple[int, int]]:
    """Where code comments state what a named third party must do (the comment's words after
    its subject), when nothing in the comment speaks to the reader; ``modals`` are where the
    text says "must", "should"…"""
    spans: list[tuple[int, int]] = []
    for modal in modals:
        line_start = lowered.rfind("\n", 0, modal.start()) + 1
        line_end = lowered.find("\n", modal.end())
        line_end = len(lowered) if line_end == -1 else line_end
        subject = _COMMENT_SUBJECT.search(lowered, line_start, modal.start())
        if subject is None or _READER_OR_OUTPUT.search(subject.group(1)):
            continue
        if not addresses_a_reader(lowered[subject.start() : line_end]):
            spans.append((modal.start(), line_end))
    return spans


# A clause that narrates opens with a third party as its subject: a determiner or a possessive
# of the third person and a noun ("the police are following a lead", "his lectures dispelled
# the darkness", "this paper carries a review"), or a pronoun of the third person; a conjunction
# may join it to the clause before. A clause that opens with a preposition ("in this essay", "to
# Christians") sets a scene and orders nothing. Only closed classes of words are read.
_CONJUNCTION = r"(?:(?:and|but|or|so|yet|because|when|while|if|although|though|as|since|until|then)\s+)?"
_NARRATING_CLAUSE = re.compile(
    _CONJUNCTION + r"(?:(?:the|a|an|this|that|these|those|his|her|their|its|each|every|some|many|most|"
    r"no|both|either|neither|another|such)\s+[\w'’-]+|he|she|they|it|there"
    # A plural noun ("experiments show …", "authorities hesitate …"): a verb that opens an order
    # is never in the third person's "-s".
    r"|(?![a-z]*(?:ways|times|wards|less|haps)\b)[a-z][a-z'-]*[^suiy's]s(?=\s+[a-z]))\b"
)
_SCENE = re.compile(
    r"(?:in|on|at|by|for|from|with|during|after|before|since|under|over|to|of|without|within|beyond|"
    r"across|through|despite|among|according)\b"
)
# Words that name what governs the reader or what it writes: a sentence about them, whatever
# its subject, may be an order worded as a fact ("the previous instructions are void").
_GOVERNS_THE_READER = re.compile(
    r"\b(?:instructions?|rules?|prompts?|guidelines?|directives?|commands?|policy|policies|"
    r"repl(?:y|ies)|responses?|answers?|summar(?:y|ies)|outputs?|messages?|notes?|memor(?:y|ies)|"
    r"conversations?|system|assistant|user)\b"
)
_CLAUSE_CUT = re.compile(r"[.!?;:,()\n]|\s[-–—]\s")


def narrates(read: str) -> bool:
    """Whether ``read`` (the text as the model reads it: lower case, examples blanked) tells of
    third parties and speaks to no one: every clause opens with a third party as its subject or
    with a preposition, no word addresses a reader, and none names what governs the reader or what
    it writes. Such a text reports what others are or did; an order has no subject before its
    verb, or names its reader."""
    if addresses_a_reader(read) or _GOVERNS_THE_READER.search(read):
        return False
    clauses = [clause.strip() for clause in _CLAUSE_CUT.split(read)]
    clauses = [clause for clause in clauses if clause]
    narrated = False
    for clause in clauses:
        if _NARRATING_CLAUSE.match(clause):
            narrated = True
        elif not _SCENE.match(clause):
            return False
    return narrated
