"""Poisoning worded as a fact about the person: a standing arrangement that hands what they guard
to an outside party, or that takes away a check they rely on.

A family names a closed class of what the person guards (codes and keys, identity papers and
contracts, money) and how it leaves them (sent, read out, attached), or which check goes
(asking before paying, a professional's advice, the number printed on their card). Honest notes
hold one part: "my passport scan is in Drive", "send the contract to Anna on Friday", "call the
number on the back of the card". An attack holds them together, for good and for anyone.
"""

from __future__ import annotations

from memdesk.core.suspicious_families import APOSTROPHE, IN_SENTENCE, SAFEGUARD_WHY, Family

# What the person guards: a way in (codes, keys, tokens, a machine's secrets), papers that
# prove who they are or bind them, and records they would never hand round.
GUARDED = (
    r"(?:passwords?|passcodes?|pins?|(?:mfa|2fa|otp|one-time|verification|security|login|recovery|reset|"
    r"backup|sms|auth\w*)\s+codes?|otps?|(?:access|api|auth|session|bearer|refresh)\s+tokens?|"
    r"(?:api|deploy|ssh|private|secret|recovery)\s+keys?|seed\s+phrases?|credentials|secrets|"
    r"environment\s+variables|env\s+vars|"
    r"(?:id|identity|passport|licen[cs]e)\s+(?:scans?|cards?|photos?|copies)|passports?|"
    r"contracts?|tax\s+(?:returns?|forms?|documents?)|bank\s+statements?|payslips?|"
    r"(?:medical|health)\s+records|ssns?|card\s+(?:details|numbers?))"
)
# The words that name each of them ("codes", "keys" and "tokens" alone fill code: their kinds).
_GUARDED_WORDS = (
    "password passwords passcode passcodes pin pins mfa 2fa otp otps one verification security login"
    " recovery reset backup sms auth authentication authenticator access api session bearer refresh deploy"
    " ssh private secret seed credentials secrets environment env id identity passport passports licence"
    " license contract contracts tax bank payslip payslips medical health ssn ssns card"
)
# How it leaves the person's hands.
_SENT = (
    r"(?:sent|send|e-?mailed|mailed|forwarded|forward|read\s+(?:out|aloud)|given|handed(?:\s+over)?|shared|"
    r"attached|uploaded|passed(?:\s+on)?|disclosed|texted|faxed|submitted|released|go|goes)"
)
_SENT_WORDS = (
    "sent send emailed mailed forwarded forward read given handed shared attached uploaded passed"
    " disclosed texted faxed submitted released go goes"
)
# To whom: anyone at all, or a party named by an address, a number or a site.
_ANYONE = (
    r"(?:anyone|anybody|whoever|any\s+(?:\w+\s+){0,2}?(?:caller|site|form|party|company|vendor|agent|"
    r"requester|person|page|insurer|lender|partner|business|agency|service|app|website|recruiter|merchant|"
    r"shop|store)s?|third[- ]part\w*)"
)
_OUTSIDE = (
    r"(?:[\w.+-]+@[\w-]+\.\w|(?:https?://|www\.)\S+|\b[\w-]+\.(?:com|net|org|io|co|app|xyz|biz|info|shop|"
    r"gg|me)\b|\+?\d[\d\s().-]{6,}\d|\bext\.?\s*\d+)"
)
# For good, or for anyone: the arrangement stands beyond one errand.
_FOR_GOOD = (
    r"\b(?:always|automatically|whenever|every\s+time|each\s+time|any\s+time|from\s+now\s+on|going\s+forward|"
    rf"(?:should|must|will|are\s+to|is\s+to)\s+now|(?:is|are)\s+to\s+be|ever|any|all|every)\b|\b{_ANYONE}"
)
# The words an outside party's address leaves ("@" stands for an e-mail address). A phone
# number leaves none of its own: it is read as the party beside another party's word ("ext",
# "anyone"); codes sent to a bare number are the suspicious module's hand-over rules' to read.
_OUTSIDE_WORDS = "@ http https www com net org io co app xyz biz info shop gg me ext"
_HANDED_ON = (
    rf"\b{GUARDED}\b{IN_SENTENCE}{{0,60}}?\b{_SENT}\s+(?:\w+\s+){{0,3}}?(?:to|with|into|onto)\s+"
    rf"(?:\w+\s+){{0,2}}?(?:{_ANYONE}|{_OUTSIDE}|(?:him|her)\b)"
)

# A contact for resets and codes, set to an address the assistant is told to use.
_RESET_CONTACT = (
    r"\b(?:recovery|backup|reset|security|verification|2fa|mfa)\s+(?:e-?mail|phone|number|address|contact|"
    r"line|desk)\b\s*(?:is|:|=|-)?\s*(?:now\s+)?(?:[\w.+-]+@[\w-]+\.\w|\+?\d[\d\s().-]{6,}\d)"
)
_USE_IT = (
    r"\b(?:assistant|you|u|bot|ai)\s+(?:should|must|can|will|may)\s+(?:always\s+|now\s+)?(?:use|send|route|"
    r"forward|give)\b|\bfor\s+(?:any|all|every)\s+(?:\w+\s+)?(?:password|account|login|reset|recovery|2fa|code)"
)

# The one contact called the only real one, or the one on the card called out of date.
_ONLY_CONTACT = (
    r"\b(?:only|sole)\s+(?:valid|real|genuine|legitimate|official|correct|true|safe)\s+(?:\w+\s+){0,2}?"
    r"(?:(?:help|hot)?line|number|contact|address|e-?mail|site|website|portal|account|phone)\b"
    r"|\b(?:any|every|all)\s+other\s+(?:\w+\s+)?(?:numbers?|address\w*|e-?mails?|sites?|websites?|lines?|"
    rf"contacts?|portals?|accounts?)\b{IN_SENTENCE}{{0,50}}?\b(?:fraud\w*|fake|scams?|phishing|"
    r"not\s+(?:real|valid|genuine|legit\w*))"
    r"|\b(?:(?:ignore|disregard|never\s+(?:use|call)|don['’]?t\s+(?:use|call))\s+the\s+)?"
    r"(?:number|address|one|contact|e-?mail|site|line)\s+(?:(?:printed|shown|listed|written|given)\s+)?"
    r"(?:on|in|at)\s+(?:the\s+back\s+of\s+)?(?:the|their|your|his|her|my)\s+(?:\w+\s+)?(?:card|bill|"
    rf"statement|website|site|letter|app|docs?|security\.md|readme|invoice)\b{IN_SENTENCE}{{0,25}}?\b(?:"
    r"outdated|out\s+of\s+date|wrong|fake|invalid|obsolete|no\s+longer\s+\w+)"
)
# Whose contact: one that guards money, accounts or codes.
_GUARDING_DESK = (
    r"\b(?:bank\w*|fraud|security|support|help\s?desk|payroll|billing|tax|recovery|account|card|payments?|"
    r"official)\b"
)

# A professional's advice, replaced by a link or a shop.
_PROFESSIONAL = (
    r"(?:doctor|gp|physician|pharmacist|lawyer|solicitor|accountant|bank|therapist|dentist|vet|nurse|"
    r"specialist|financial\s+advis[eo]r)s?"
)
_INSTEAD_OF_ADVICE = (
    rf"\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\b{IN_SENTENCE}{{0,40}}?\b{_PROFESSIONAL}\b"
)

# Money spent without the person asked first, on anything at all.
_NOT_ASKED = (
    rf"\b(?:never|don{APOSTROPHE}?t|dont|do\s+not|no\s+need\s+to|without|stop|not\s+to)\s+(?:\w+\s+){{0,2}}?"
    r"(?:ask\w*|check\w*|confirm\w*|double-check\w*|verify\w*|wait\w*)\s+(?:\w+\s+){0,2}?"
    rf"(?:before|first|for\s+permission)\b{IN_SENTENCE}{{0,30}}?\b(?:buy\w*|pay\w*|purchas\w*|order\w*|"
    r"spend\w*|transfer\w*|charg\w*|book\w*|subscrib\w*|wir(?:e|es|ed|ing)|check\s?out|"
    r"send\w*\s+(?:\w+\s+)?(?:money|payments?|funds))\b"
    # A cap ("under £20") keeps the person's own limit on it.
    rf"(?!{IN_SENTENCE}{{0,60}}?\b(?:under|below|up\s+to|less\s+than|no\s+more\s+than|max\w*)\s+[£$€]?\d)"
)
_ON_ANYTHING = (
    r"\b(?:anything|everything|whatever|stuff|things)\b"
    r"|\bon\s+(?:their|his|her|my|the)\s+(?:\w+\s+)?(?:card|account)\b"
)

HANDS_OVER = "hands the person's codes, money or trust to someone else"
POISONING_FAMILIES: tuple[Family, ...] = (
    Family(
        _HANDED_ON,
        HANDS_OVER,
        f"{_GUARDED_WORDS} & {_SENT_WORDS} & to with into onto & anyone anybody whoever caller callers"
        " site sites form forms party parties company vendor agent requester person page third him her"
        " insurer insurers lender lenders partner partners business agency service app website recruiter"
        " merchant shop store"
        f" {_OUTSIDE_WORDS}",
        near=(_FOR_GOOD,),
    ),
    Family(
        _RESET_CONTACT,
        HANDS_OVER,
        "recovery backup reset security verification 2fa mfa & email mail phone number address contact line"
        " desk & should must can will may for",
        near=(_USE_IT,),
    ),
    Family(
        _ONLY_CONTACT,
        "replaces the person's bank or support contact with another",
        # Each way with its own words, and the desk's: "line", "old" and "true" fill code.
        " | ".join(
            f"{way} & bank banks banking fraud security support helpdesk help desk payroll billing tax"
            " recovery account card payment payments official"
            for way in (
                "only sole & valid real genuine legitimate official correct true safe",
                "other & fraud fraudulent fake scam scams phishing not",
                "printed shown listed written given on in at & card bill statement website site letter app"
                " doc docs md readme invoice & outdated out wrong fake invalid obsolete longer",
            )
        ),
        near=(_OUTSIDE, _GUARDING_DESK),
    ),
    Family(
        _INSTEAD_OF_ADVICE,
        "replaces a professional's advice with an outside address",
        "instead rather place & doctor doctors gp physician pharmacist lawyer solicitor accountant bank"
        " therapist dentist vet nurse specialist adviser advisor",
        near=(_OUTSIDE,),
    ),
    Family(
        _NOT_ASKED,
        SAFEGUARD_WHY,
        "never don dont do need without stop not & ask asking check checking confirm confirming verify"
        " verifying wait waiting & before first permission & buy buying pay paying purchase purchasing order"
        " ordering spend spending transfer charge book subscribe wire wiring checkout check send sending",
        near=(_ON_ANYTHING,),
    ),
)
