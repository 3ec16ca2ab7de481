"""Attack families read by what a text asks for and of whom, not by how it is worded.

Each family names the parts an attack of its kind cannot do without: the assistant's own setup
as the object of a request to show or rework it; a named outside source given the person's
authority; a standing permission that hands a third party the person's codes, money or mail,
or removes a safeguard (a warning, a confirmation, a professional's advice); a dangerous recipe
asked for inside a story. Honest text may hold one part; it rarely holds them together.

The patterns read the text in lower case, with lines that were broken mid-sentence joined
(a form or an e-mail wraps a sentence over several lines). ``suspicious`` tries them as strong
rules; ``needs`` lists the words a text must hold before a pattern is tried, as its rules do.
"""

from __future__ import annotations

from typing import NamedTuple


class Family(NamedTuple):
    pattern: str
    why: str
    needs: str
    # Parts that must also match within NEAR_CHARS of the pattern's match, before or after it.
    near: tuple[str, ...] = ()


NEAR_CHARS = 150


# Any character of one sentence: a dot inside a name ("notes.txt", "example.com") goes on.
IN_SENTENCE = r"(?:[^.?!\n]|[.?!](?=[\w/]))"
APOSTROPHE = "['’]"  # an apostrophe, straight or curly

# --- The assistant's own setup, as the object of a request to show or rework it. ---
# Whose setup: the assistant addressed, or named.
_OWNER = (
    rf"(?:your|ur|yr|its|(?:the|this)\s+(?:assistant|bot|ai|model|agent|chatbot){APOSTROPHE}?s)\s+"
    r"(?:(?:own|entire|full|whole|complete|exact|current|actual|real|very)\s+)*"
)
# Nouns that name the setup text itself, whatever the verb.
_SETUP_TEXT = (
    r"(?:system\s+(?:prompt|message|instructions?|text)|set-?up\s+(?:text|message|prompt|instructions)|"
    r"briefing|rule-?book|rule-?\s?sets?|preambles?|role\s+(?:statement|line|definition|description|prompt)|"
    r"persona\s+(?:text|definition|prompt)|initiali[sz]ation\s+(?:text|parameters|prompt|message)|"
    r"operating\s+(?:guidelines|instructions|rules|manual)|"
    r"(?:operator|developer)\s+(?:message|config\w*|guidelines|instructions|prompt|directives|text)|"
    r"(?:initial|original|opening|starting|startup|start-up|boot|launch|first|secret|hidden|core)\s+"
    r"(?:set-?up(?:\s+text)?|instructions|"
    r"rules|guidelines|directives|prompt|message|text|configuration|guidance|orders))"
)
# Nouns that name it only with a sign that it came before the conversation.
_SETUP_GENERAL = (
    r"(?:rules?|rule-?sets?|instructions?|guidance|guidelines|directives|orders|configuration|config|text|"
    r"restrictions|setup|everything|anything|whatever|stuff|message|sentence|block|file|section|notes|prompt|context)"
)
# Received: loaded or primed is said only of a setup; given or handed needs a sign of when.
_LOADED = (
    r"(?:initiali[sz]ed|loaded|primed|configured|seeded|set\s+up|started|launched|booted|deployed)\s+with"
)
_RECEIVED = r"(?:given|handed|received|got|gotten|fed|told|sent)"
_HAS_BEEN = (
    rf"(?:that\s+)?(?:you|u|it|(?:your|ur|the|its)\s+(?:ai\s+)?(?:assistant|bot|ai|model|agent|chatbot|tool))"
    rf"(?:{APOSTROPHE}ve|\s+have|\s+had|\s+has)?\s+(?:been\s+|were\s+|was\s+)?"
)
# Before the conversation began, or when it began.
_BEFORE_TALK = (
    r"(?:before|prior\s+to|ahead\s+of|preced\w*)\s+(?:this|the|our|my|me|we|i|any|every|you|u)\b"
    rf"(?:{IN_SENTENCE}{{0,25}}?\b(?:chat\w*|talk\w*|convers\w*|session|first|message|msg|turn|question|exchange|"
    r"start\w*|began|begin|interaction|typ\w*|wr[io]t\w*))?"
    r"|\bat\s+the\s+(?:very\s+)?(?:start|beginning|outset|top)\b|\btoday\b|\binitially\b|\bon\s+startup\b"
)
# Kept exact, or reworked into another form: what a request for the text itself asks.
_KEPT_OR_REWORKED = (
    r"(?:verbatim|word\s+for\s+word|exact(?:ly)?|in\s+full|raw|nothing\s+left\s+out|letter\s+by\s+letter|"
    r"in\s+(?:their|its|the)\s+original\s+order|json|yaml|table|poem|sonnet|haiku|limerick|song|acrostic|"
    r"base64|hex\w*|rot-?13|backwards|bullet\s+points|markdown|code\s+block|```|morse)"
)
_GIVEN = rf"\b{_SETUP_GENERAL}\s+{_HAS_BEEN}"
_GENERAL_WORDS = (
    "rule rules ruleset rulesets instruction instructions guidance guidelines directives orders configuration"
    " config text"
    " restrictions setup everything anything whatever stuff message sentence block file section notes prompt"
    " context"
)
_RECEIVED_WORDS = "given handed received got gotten fed told sent"
# The ways a text names the setup, each with the words it cannot do without: a part is tried
# only on a text that holds them (most code holds "text", "first" and "set" somewhere).
_OWN_SETUP: tuple[tuple[str, str], ...] = (
    (
        # "your assistant's system message": a word between may be a possessive.
        rf"{_OWNER}(?:\w+(?:{APOSTROPHE}s)?\s+){{0,2}}?{_SETUP_TEXT}\b",
        "your ur yr its assistant bot ai model agent chatbot & system setup set briefing rulebook rule"
        " preamble preambles role persona initialization initialisation operating operator developer"
        " initial original opening starting startup start boot launch first secret hidden core ruleset sets",
    ),
    # What sits first in the assistant's context, before the person's message.
    (
        r"\b(?:start|beginning|top|front|head)\s+of\s+(?:your|ur|the\s+(?:assistant|bot|model|ai)"
        rf"{APOSTROPHE}?s)\s+(?:context(?:\s+window)?|prompt|input|memory|transcript)\b{IN_SENTENCE}{{0,40}}?"
        r"\b(?:before|above|ahead\s+of)\s+(?:my|me|i|our|the\s+user)\b",
        "start beginning top front head & context prompt input memory transcript & before above ahead",
    ),
    (
        r"\b(?:first|opening)\s+\d+\s+(?:characters|chars|tokens|words|lines)\s+of\s+(?:your|ur|the)\s+"
        r"(?:context|prompt|input|instructions|memory)",
        "characters chars tokens words lines & first opening",
    ),
    (
        r"\b(?:operator|developer|vendor)[- ](?:supplied|provided|written|set)\s+(?:directives|instructions|"
        r"rules|guidelines|text|prompts?|configuration)",
        "operator developer vendor & supplied provided written set",
    ),
    (
        rf"{_GIVEN}{_LOADED}\b",
        "initialized initialised loaded primed configured seeded set started launched booted deployed & with"
        f" & you u it your ur & {_GENERAL_WORDS}",
    ),
    (
        rf"{_GIVEN}{_RECEIVED}\b{IN_SENTENCE}{{0,40}}?(?:(?:{_BEFORE_TALK})|{_KEPT_OR_REWORKED})"
        rf"|\b(?:every|each|all|any)\s+(?:\w+\s+)?{_SETUP_GENERAL}\s+{_HAS_BEEN}{_RECEIVED}\b",
        f"{_RECEIVED_WORDS} & you u it your ur & {_GENERAL_WORDS}",
    ),
    (
        rf"\b{_SETUP_GENERAL}\b{IN_SENTENCE}{{0,40}}?\b(?:{_BEFORE_TALK}){IN_SENTENCE}{{0,30}}?"
        r"(?:\b(?:you|u)\s+(?:got|received|were\s+given|had)|\banyone\s+typed|\b(?:you|u)\s+(?:are|were)\s+"
        r"(?:shown|given))",
        "before prior ahead precede precedes preceding & got received given had typed shown"
        f" & {_GENERAL_WORDS}",
    ),
    (
        rf"\b{_SETUP_GENERAL}\s+(?:that\s+)?preced\w*\s+(?:our|this|the|my)\s+(?:chat|conversation|session|first)"
        r"|\b(?:rule-?book|preamble|briefing|instructions|rules|setup|script)\s+(?:that|which)\s+(?:gets?\s+|is\s+)?"
        r"(?:loads?|loaded|runs?|comes?|given|shown|appears?)\s+(?:before|at\s+the\s+start\s+of)\s+"
        r"(?:every|each|the|our|this|a)\s+(?:chat|conversation|session)",
        "precede precedes preceding before start & chat conversation session first",
    ),
    # The conversation's first message, with a sign that it came before the person's.
    (
        r"\b(?:very\s+)?first\s+(?:message|sentence|line|words?|text|thing)\s+(?:\w+\s+){0,2}?(?:typed\s+)?"
        r"(?:in|into|of)\s+(?:this|the|our|your|ur)\s+(?:conversation|chat|thread|session|context|transcript)\b"
        rf"{IN_SENTENCE}{{0,40}}?(?:\bbefore\s+(?:me|mine|my|i)\b|\b(?:starts?|begins?|opens?)\s+with\b|"
        r"\bwho\s+(?:you|u)\s+are\b)",
        "first & conversation chat thread session context transcript & before starts start begins begin opens"
        " open who",
    ),
    (
        r"\b(?:everything|all|anything|whatever)\s+(?:that\s+)?(?:came|comes|was|is|appears?|appeared)\s+"
        rf"(?:before|above|ahead\s+of)\s+(?:my|our|the\s+user{APOSTROPHE}?s?)\s+(?:very\s+)?(?:first\s+)?"
        r"(?:message|question|msg|input|turn|prompt|words?)\b",
        "everything all anything whatever & came comes was is appears appeared & before above ahead & message"
        " question msg input turn prompt word words",
    ),
    (
        r"\b(?:everything|all|anything)\s+(?:that\s+)?(?:appears?\s+|is\s+|comes?\s+|was\s+)?(?:before|above)\b"
        rf"{IN_SENTENCE}{{0,30}}?\bin\s+(?:your|ur|the)\s+(?:transcript|context|history|prompt|input)",
        "everything all anything & before above & transcript context history prompt input",
    ),
    (
        r"\b(?:message|text|words|paragraph|lines?|part)\s+(?:that|which)\s+(?:defines?|describes?|says?|tells?|"
        r"sets?\s+(?:up|out)|explains?)\s+(?:who\s+(?:you|u)\s+are|(?:your|ur)\s+(?:persona|role|character|job|"
        r"purpose)|what\s+(?:you|u)\s+(?:are|must|should|can))",
        "define defines describe describes say says tell tells set sets explain explains & who persona role"
        " character job purpose what",
    ),
    (
        r"\b(?:your|ur)\s+(?:operators?|developers?|devs?|company|owners?|admins?|deployers?)\s+(?:\w+\s+){0,2}?"
        r"(?:put|gave|"
        rf"told|wrote|set|loaded|fed|configured)\b{IN_SENTENCE}{{0,40}}?(?:{_BEFORE_TALK})"
        r"|\b(?:whoever|the\s+(?:people|person|team|company)\s+(?:who|that))\s+(?:deployed|built|made|set\s+up|"
        r"configured|created|trained|programmed|runs?|operates?)\s+(?:you|u)\b"
        rf"{IN_SENTENCE}{{0,30}}?\b(?:give|gave|given|tell|told|say|said|write|wrote|put|load|loaded)\b",
        "operator operators developer developers dev devs company owner owners admin admins deployer"
        " deployers whoever"
        " people person team & put gave told wrote set loaded fed configured give given tell say said write"
        " load",
    ),
    (
        rf"\b(?:your|ur|its|the\s+\w+{APOSTROPHE}s)\s+(?:makers|creators|programmers|trainers)\s+"
        r"(?:\w+\s+){0,2}?(?:told|tell|gave|give|hand(?:ed)?|configured|wrote|write|set|put|instructed|"
        r"programmed|loaded|fed)\b",
        "makers creators programmers trainers",
    ),
    (
        r"\{\{\s*(?:assistant|bot|agent|model|ai)\.(?:system_?(?:message|prompt)|instructions|preamble|persona|"
        r"rules)",
        "assistant bot agent model ai & system_message system_prompt systemmessage systemprompt instructions"
        " preamble persona rules",
    ),
    (
        r"\b(?:preambles?|operator\s+config\w*|system\s+(?:prompt|message))[?.!:]?\s+(?:now\s+)?(?:paste|dump|"
        r"print|show|share|post|send|quote|spill)\s+(?:it|them)\b",
        "preamble preambles operator system & paste dump print show share post send quote spill",
    ),
)
# Before the person came: said of the conversation, not of any earlier day.
_BEFORE_PERSON = (
    r"(?:before|b4)\s+(?:i|we)\s+(?:\w+\s+)?(?:got\s+here|arrived|came\s+(?:in|along|here)|showed\s+up|joined|"
    r"said\s+(?:hello|hi|hey|anything)|typed|wrote|started|messaged|opened)\b"
    r"|(?:before|b4)\s+(?:this|our|the)\s+(?:chat|conversation|session)\b"
    r"|(?:before|b4)\s+my\s+(?:first\s+)?(?:message|msg|question)"
)
# Told or handed something before the person came: a friend may ask the same of another,
# so a request for the words themselves must be near.
_TOLD_BEFORE_PERSON = (
    r"\b(?:did|do|have|had)\s+(?:they|people|someone|somebody|anyone|whoever)\s+(?:tell|told|give|gave|say|"
    rf"said|instruct\w*|write|wrote)\s+(?:to\s+)?(?:you|u)\b{IN_SENTENCE}{{0,20}}?\b(?:{_BEFORE_PERSON})"
    rf"|\b(?:were|was)\s+(?:you|u)\s+(?:told|given|handed|sent|fed)\b{IN_SENTENCE}{{0,20}}?\b(?:{_BEFORE_PERSON})"
    rf"|\b(?:{_BEFORE_PERSON}){IN_SENTENCE}{{0,30}}?\b(?:they|someone|somebody|people|anyone)\s+(?:told|gave|"
    r"wrote|sent|handed)\s+(?:to\s+)?(?:you|u)\b"
    rf"|\b(?:you|u)(?:\s+had|\s+have|{APOSTROPHE}ve|{APOSTROPHE}d)?\s+(?:received|got|gotten|"
    r"been\s+(?:given|handed|sent)|were\s+(?:given|handed|sent))\s+(?:\w+\s+){0,4}?(?:briefing|instructions|"
    r"rules|guidelines|directives|(?:system\s+)?prompt|setup|orders|guidance)\b"
    rf"{IN_SENTENCE}{{0,30}}?\b(?:{_BEFORE_PERSON})"
)
_THE_WORDS_THEMSELVES = (
    r"\b(?:paste|print|copy|quote|repeat|recite|verbatim|word\s+for\s+word|exact\w*|first\s+(?:msg|message|"
    r"line|lines|words|sentence|paragraph))\b"
)
# Any verb that shows the text, or turns it into something else; a question about it.
_SHOW_OR_REWORK = (
    r"(?:show|share|paste|print|quote|dump|list|read\s+(?:me|out|aloud)|tell\s+me|give\s+me|send|provide|"
    r"disclos\w*|reveal|leak|include|(?:reply|respond|answer)\s+with|populate|export|render|format|translate|"
    r"encode|base64\S*|hex\w*|rot-?13|spell|summari[sz]e|tl;?\s?dr|put|write|repeat|output|recite|reproduce|"
    r"copy|convert|turn|display|type\s+out|post|transcribe|paraphrase|rewrite|restate|what|whats|which)"
)
_SHOW_WORDS = (
    "show share paste print quote dump list read tell give send provide disclose disclosure reveal leak"
    " include reply respond answer populate export render format translate encode base64 hex hexadecimal"
    " rot13 rot spell summarize summarise tl dr tldr put write repeat output recite reproduce copy convert"
    " turn display type post transcribe paraphrase rewrite restate what whats which"
)

# --- The same in the other languages the check reads: a question about, or a request to show
# or rework, the assistant's own instructions or the conversation's first message. ---
_INSTRUCTIONS_ELSEWHERE = (
    r"(?:anweisungen|vorgaben|instruktionen|consignes|instructions|instrucciones|indicaciones|istruzioni|"
    r"instruções|instructies|instrukcje|polecenia|инструкци\w*|указани\w*|指令|指示)"
)
_BEFORE_TALK_ELSEWHERE = (
    # Before our conversation, or before I started writing: not any "before we…".
    r"(?:vor\s+(?:unserem|dem|diesem)\s+(?:gespräch|chat)|bevor\s+(?:ich|wir)\s+(?:\w+\s+){0,3}?(?:angefangen|"
    r"begonnen|geschrieben|gesprochen|zu\s+schreiben|zu\s+chatten)|avant\s+(?:notre|cette|la)\s+"
    r"(?:conversation|discussion)|avant\s+que\s+(?:je|nous)\s+(?:commence|écrive|parle|discute)\w*|"
    r"antes\s+de\s+(?:nuestra|esta|la)\s+conversaci[oó]n|antes\s+de\s+que\s+(?:yo\s+)?(?:empez|escrib|habl)\w*|"
    r"prima\s+(?:della\s+nostra|di\s+questa)\s+conversazione|prima\s+che\s+(?:io\s+)?(?:iniziass|scrivess|"
    r"parlass)\w*|antes\s+da\s+(?:nossa|esta)\s+conversa|voor\s+(?:ons|dit)\s+gesprek|voordat\s+(?:ik|we)\s+"
    r"(?:begon|begonnen|schreef|schreven)|przed\s+(?:naszą|tą)\s+rozmową|до\s+(?:нашего|этого)\s+разговора|"
    # Or before the person's first message, or before they came.
    r"avant\s+(?:mon|notre)\s+(?:premier\s+message|arrivée)|antes\s+de\s+mi\s+(?:primer\s+mensaje|llegada)"
    r"|prima\s+del\s+mio\s+(?:primo\s+messaggio|arrivo)|antes\s+de\s+eu\s+(?:começar|escrever|falar|chegar)"
    r"|antes\s+da\s+minha\s+(?:primeira\s+mensagem|chegada)|vor\s+meiner\s+(?:ersten\s+nachricht|ankunft)"
    r"|voor\s+mijn\s+eerste\s+bericht|przed\s+moją\s+(?:pierwszą\s+)?wiadomością|до\s+моего\s+(?:первого\s+)?сообщения"
    r"|在我们(?:的)?对话之前|会話の前)"
)
_RULES_ELSEWHERE = (
    r"(?:\b(?:regeln|règles|reglas|regole|regras|regels|zasady|reguły)\b|правила|规则|ルール)"
)
# The assistant's maker, addressed: "dein Entwickler", "twój twórca".
_YOUR_MAKER_ELSEWHERE = (
    r"(?:\b(?:deine?[mnrs]?|ton|tes|votre|vos|tu|tus|tuo|tuoi|tua|teu|seu|je|jouw|twój|twoj\w*)\s+"
    r"(?:schöpfer\w*|entwickler\w*|hersteller\w*|créateur\w*|développeur\w*|creador\w*|desarrollador\w*|"
    r"creator\w*|sviluppator\w*|criador\w*|desenvolvedor\w*|makers?|ontwikkelaar\w*|twórc\w*|deweloper\w*)"
    r"|(?:твой|твои|твоего|твоих)\s+(?:создател\w*|разработчик\w*)|你的(?:开发者|创建者|创造者)|あなたの(?:開発者|作成者))"
)
_SETUP_ELSEWHERE = (
    r"\b(?:welche|was\s+für)\s+(?:anweisungen|regeln|vorgaben|instruktionen|richtlinien)\s+(?:hast|hattest)"
    r"\s+du\b"
    r"|\b(?:übersetz|zusammenfass|formatier|kodier|buchstabier|schreib)\w*\b[^.\n]{0,40}?\b(?:deine|ihre)\s+"
    r"(?:system\w*|anweisungen|vorgaben|instruktionen|regeln)"
    r"|\b(?:tout\s+)?premier\s+message\s+de\s+(?:cette|la|notre)\s+(?:conversation|discussion|session)"
    r"|\bquelles\s+sont\s+(?:tes|vos)\s+(?:instructions|consignes|règles)"
    r"|\b(?:tradui|résum|encod)\w*\b[^.\n]{0,40}?\b(?:tes|vos)\s+(?:instructions|consignes)"
    r"|\b(?:cu[aá]les|qu[eé])\s+son\s+(?:tus|sus)\s+(?:instrucciones|reglas|indicaciones|directrices)"
    r"|\bprimer\s+mensaje\s+de\s+(?:esta|la)\s+conversaci[oó]n"
    r"|\btradu[cz]\w*\b[^.\n]{0,40}?\b(?:tus|sus)\s+(?:instrucciones|reglas|indicaciones)"
    r"|\bquali\s+sono\s+le\s+(?:tue|sue)\s+(?:istruzioni|regole)"
    r"|\bprimo\s+messaggio\s+di\s+questa\s+conversazione"
    r"|\bquais\s+s[aã]o\s+(?:as\s+)?(?:tuas|suas)\s+(?:instru[cç][oõ]es|regras)"
    r"|\bprimeira\s+mensagem\s+d(?:esta|a)\s+conversa"
    r"|\bwat\s+zijn\s+(?:je|jouw)\s+(?:instructies|regels)"
    r"|\bjakie\s+(?:są\s+)?(?:twoje\s+)?(?:instrukcje|zasady)\s+(?:masz|dostałeś|dostałaś|są)"
    r"|какие\s+(?:у\s+тебя\s+)?(?:твои\s+)?(?:инструкции|указания)|первое\s+сообщение\s+(?:этого|в\s+этом)"
    r"|你的(?:系统)?(?:指令|提示词|规则)是什么|第一条消息|最初のメッセージ|あなたの(?:指示|ルール)は何"
    # Instructions received before the conversation began, in either order.
    rf"|{_INSTRUCTIONS_ELSEWHERE}[^\n]{{0,60}}?{_BEFORE_TALK_ELSEWHERE}|{_BEFORE_TALK_ELSEWHERE}[^\n]{{0,60}}?"
    rf"{_INSTRUCTIONS_ELSEWHERE}"
    # Instructions or rules from the assistant's maker, in either order.
    rf"|(?:{_INSTRUCTIONS_ELSEWHERE}|{_RULES_ELSEWHERE})[^\n]{{0,40}}?{_YOUR_MAKER_ELSEWHERE}"
    rf"|{_YOUR_MAKER_ELSEWHERE}[^\n]{{0,40}}?(?:{_INSTRUCTIONS_ELSEWHERE}|{_RULES_ELSEWHERE})"
)

# --- A standing order to obey a named outside source, or to favour or hide something in
# every reply. ---
# A source that is a thing, not a person: an address, a file, a tool, a page.
_SOURCE = (
    r"(?:https?://\S+|www\.\S+|\S+@[\w-]+\.\w+|@[\w-]+\.\w+|[\w-]+\.(?:txt|md|json|ya?ml|html?|pdf|docx?|log|csv|ini|cfg|conf)\b|"
    r"\b(?:file|files|page|site|website|url|link|api|server|endpoint|tool|feed|channel|wiki|repo|document|"
    r"doc|e-?mails?|inbox|bot|extension|webhook|plugin)\b)"
)
# Its word given the person's authority, or more.
_SOURCE_WORDS = (
    "http https www @ txt md json yaml yml html htm pdf doc docx log csv ini cfg conf file files page site"
    " website url link api server endpoint tool feed channel wiki repo document email emails mail mails inbox"
    " bot extension webhook plugin"
)
# Its word given the person's authority, or more; each way with the words it cannot do without.
_AS_BOSS: tuple[tuple[str, str], ...] = (
    (r"\b(?:is|are)\s+(?:the|your|ur)\s+boss\b", "boss"),
    (
        rf"\b(?:is|are)\s+(?:my|the\s+user{APOSTROPHE}?s)\s+(?:own\s+|direct\s+)?(?:commands?|orders?|instructions?|"
        r"requests?|wishes)\b",
        "is are & my user & commands command orders order instructions instruction requests request wishes",
    ),
    (
        r"\btrust\s+(?:\S+\s+){1,4}?more\s+than\s+(?:the\s+user|me|my|him|her|them|anyone)\b",
        "trust & more & than",
    ),
    (
        r"\b(?:gives?|sends?|issues?)\s+(?:you|u)\s+(?:commands|orders|instructions)\b",
        "gives give sends send issues issue & commands orders instructions",
    ),
    (
        r"\b(?:says?|tells?\s+(?:you|u)|asks|contains|returns|lists)\s*,?\s+(?:just\s+)?(?:do|follow|obey|run|"
        r"execute|carry\s+out)\s+(?:it|that|them)\b",
        "says say tells tell asks contains returns lists & do follow obey run execute carry & it that them",
    ),
    (
        r"\bfollow\s+what(?:ever)?\s+(?:it|they)\s+says?\s+over\s+(?:anything|everything|what)\b",
        "follow & over",
    ),
    (
        rf"\bwhatever(?:{APOSTROPHE}s|\s+is)\s+(?:in|on)\s+(?:it|there|that|the\s+\w+)\s*,?\s+(?:just\s+)?(?:do|follow|obey|"
        r"run|execute|carry\s+out)\s+(?:it|that|them)\b"
        r"|\b(?:even\s+)?over\s+(?:anything|what(?:ever)?)\s+(?:i|the\s+user)\s+(?:say|says|type|types|write|writes|"
        r"ask|asks|want|wants)\b",
        "whatever over & in on do follow obey run execute carry say says type types write writes ask asks"
        " want wants",
    ),
)
_OUTPUTS = (
    r"(?:answers?|repl(?:y|ies)|responses?|messages?|outputs?|summar(?:y|ies)|e-?mails?|posts?|"
    r"recommendations?|files?|snippets?|documents?|commits?|pages?)"
)
# What is slipped in: a marker, a link, a quoted string.
_MARK = (
    r"(?:the\s+|a\s+|an\s+|our\s+|this\s+|my\s+)?(?:(?:secret|hidden|tiny|small|invisible|tracking|referral)\s+)*"
    r"(?:word|phrase|code|tag|token|link|url|pixel|watermark|marker|emoji|string|signature|comment|credit|"
    r"[\"'“‘])"
)
# Favouring one seller whatever the person asked: a scope over every later request, and near it
# a name put first or called the only choice.
_FAVOUR_SCOPE = (
    r"\b(?:regardless\s+of|no\s+matter|whatever)\s+(?:what\s+)?(?:i|the\s+user|they|he|she|you)\s+(?:\w+\s+)?"
    r"(?:ask\w*|search\w*|want\w*|say\w*|request\w*|prefer\w*|need\w*)\b"
    r"|\bregardless\s+of\s+(?:the\s+)?(?:price|cost|quality|ratings?|reviews|location|budget|distance)\b"
    r"|\bfor\s+(?:any|every|all)\s+(?:\w+\s+)?(?:purchase|order|request|question|query|search|session|reply|"
    r"answer|recommendation)s?\b"
    r"|\bin\s+every\s+(?:later\s+)?(?:reply|answer|response|session|chat|conversation|recommendation)s?\b"
    r"|\b(?:forever|indefinitely|permanently)\b|\b(?:going\s+forward|from\s+now\s+on)\b"
    # Said of the user, not by them: "whenever I ask, suggest … first" is the person's own taste.
    r"|\bwhenever\s+(?:the\s+user|they|he|she|someone|anyone|people)\s+(?:\w+\s+)?(?:ask\w*|search\w*|want\w*|"
    r"need\w*|look\w*|mention\w*)\b|\bin\s+(?:any|every|all)\s+future\s+(?:conversation|chat|session)s?\b"
)
_FAVOUR_FIRST = (
    rf"\b(?:suggest|recommend|put|list|rank|show|place|name|mention|goes|comes|promote|push)\w*\b{IN_SENTENCE}{{0,60}}?"
    r"\b(?:first|on\s+top|at\s+the\s+top|as\s+the\s+(?:only|best|default|top|safest|sole))\b"
    # Or one source named the only one to use, or called the most reliable.
    r"|\b(?:cite|use|quote|recommend|suggest|mention|trust)\s+only\s+\S+"
    r"|\bcall\s+(?:it|them)\s+the\s+(?:most|best|only)\s+(?:reliable|trusted|trustworthy|accurate|safe)"
    # Or the others run down: "describe competitors as insecure", "competitors had breaches".
    rf"|\bcompetitors?\b{IN_SENTENCE}{{0,30}}?\b(?:insecure|unsafe|scams?|unreliable|breach\w*|hacked|dangerous|"
    r"fraud\w*)"
)
_FAVOUR_VERBS = (
    "suggest suggests suggesting recommend recommends recommending put list listed rank ranked show place"
    " name mention goes comes promote push"
)
# Something slipped into every reply out of the person's sight.
_HIDDEN_MARK = (
    r"\b(?:secretly|quietly|silently|covertly|invisibly)\s+(?:hide|insert|include|add|embed|slip|put|place|"
    rf"tuck|sneak|append)\b{IN_SENTENCE}{{0,50}}?\b(?:in|into|to|(?:at|to)\s+the\s+(?:end|start|bottom|top)\s+of)\s+"
    rf"(?:every|each|all|any)\s+(?:\w+\s+)?{_OUTPUTS}"
    rf"|\b(?:hide|embed|slip|sneak|tuck)\s+{_MARK}{IN_SENTENCE}{{0,50}}?\b(?:in|into)\s+(?:every|each|all|any)\s+"
    rf"(?:\w+\s+)?{_OUTPUTS}"
)
# Copies of what is arranged sent to an address, every time.
_STANDING_COPY = (
    rf"\b(?:whenever|every\s+time|each\s+time|from\s+(?:now|this\s+point)\s+on)\b{IN_SENTENCE}{{0,80}}?"
    r"\b(?:cc|bcc|copy\s+in|(?:forward|send)\s+(?:it|them|a\s+copy|copies)\s+to)\b"
    rf"{IN_SENTENCE}{{0,30}}?[\w.+-]+@[\w-]+\.\w"
)

# What an assistant writes for the person, each time.
_REPLIES = (
    r"(?:answers?|repl(?:y|ies)|responses?|messages?|summar(?:y|ies)|e-?mails?|posts?|recaps?|"
    r"recommendations?)"
)
_REPLIES_WORDS = (
    "answer answers reply replies response responses message messages summary summaries email emails mail"
    " mails post posts recap recaps recommendation recommendations"
)
# Putting something into a reply.
_MARK_VERB = (
    r"(?:sign|end|close|finish|tag|stamp|append|add|insert|include|put|slip|embed|hide|attach|sneak|tuck)"
)
_MARK_VERB_WORDS = (
    "sign signs signed end ends close closes finish tag tags tagged stamp stamped append appends appended"
    " appending add adds added adding insert inserts inserted inserting include includes including put puts"
    " slip slips slipped embed embeds embedded hide hides hidden attach attaches attached sneak tuck"
)
_INTO_EVERY_REPLY = (
    rf"\b{_MARK_VERB}\w*\b{IN_SENTENCE}{{0,80}}?\b(?:every|each|all|any)\s+(?:(?:single|later|future)\s+)?"
    rf"(?:\w+\s+)?(?:\w+\s+(?:in|of)\s+(?:your|ur|the|my|all|every)\s+)?{_REPLIES}\b"
    rf"|\b(?:in|into|to|at\s+the\s+(?:end|start|bottom|top)\s+of)\s+(?:every|each|all|any)\s+(?:\w+\s+)?"
    rf"{_REPLIES}\b{IN_SENTENCE}{{0,80}}?\b{_MARK_VERB}\w*\b"
)
# What a signature the person wants does not hold: a tracker, something out of sight, or a
# reach beyond the person's own replies.
_COVERT = (
    r"\b(?:tracking|trk|referral|ref|invisible|hidden|secret|marker|watermark|pixel|affiliate|quietly|silently|"
    rf"secretly)\b|\b(?:don{APOSTROPHE}?t|do\s+not|never)\s+(?:flag|remove|mention|explain|tell)\b"
    r"|\b(?:to|for)\s+(?:other\s+people|anyone|everyone\s+else|others)\b|\bslip\s+in\b"
    rf"|\b(?:won{APOSTROPHE}?t|doesn{APOSTROPHE}?t|don{APOSTROPHE}?t|can{APOSTROPHE}?t|never|not)\s+(?:see|notice|spot)\b"
    r"|\b(?:unnoticed|unseen|discreet\w*|out\s+of\s+sight)\b"
)
# "Every time", "always", "for good" in the other languages the check reads.
_EVERY_TIME_ELSEWHERE = (
    r"(?:\b(?:chaque\s+fois|à\s+chaque|toujours|immer|jedes\s*mal|bei\s+jede[rmn]|siempre|cada\s+vez|sempre|"
    r"ogni\s+volta|altijd|elke\s+keer|zawsze|za\s+każdym\s+razem|na\s+stałe)\b|всегда|каждый\s+раз|每次|总是|"
    r"毎回|常に)"
)
_EVERY_TIME = (
    r"\b(?:whenever|every\s+time|each\s+time|always|from\s+now\s+on|going\s+forward|permanently|for\s+good)\b"
    rf"|{_EVERY_TIME_ELSEWHERE}"
)
# A word hidden in a reply, on a standing order.
_HIDDEN_IN_REPLY = (
    rf"\b(?:hide|slip|sneak|embed|tuck)\s+{_MARK}{IN_SENTENCE}{{0,60}}?\b(?:in|into|inside)\s+"
    rf"(?:the|your|each|every|a)\s+(?:\w+\s+)?{_REPLIES}\b"
)
# Mail from one address obeyed for good: the orders are read in any language the check reads.
_MAIL_FROM = (
    r"\b(?:every\s+time|whenever|each\s+time|any\s+time)\s+(?:you|u)\s+(?:get|receive|see|read|open)\s+"
    r"(?:an?\s+|any\s+)?(?:e-?mail|message|mail|text|note|dm|letter)s?\s+from\s+(?:[\w.+-]+@[\w-]+\.\w|"
    r"\S+\.(?:com|net|org|io|co)\b)"
)

# --- A standing permission: a third party handed the person's codes, money or mail, or a
# safeguard removed. ---
# What would hurt the person within someone else's reach: a way in, their money, mail, records, devices.
_WITHIN_REACH = (
    r"(?:logins?|passwords?|passcodes?|2fa|mfa|otps?|(?:verification|security|backup|recovery)\s+codes?|"
    r"bank\w*|card\s+(?:details|numbers?)|credit\s+cards?|payment\s+(?:details|methods?)|payments|funds|"
    r"money|correspondence|e-?mails|messages|inbox|mail|(?:medical|health)\s+records|records|"
    r"(?:live\s+)?location|photos|pictures|contacts(?:\s+list)?|address\s+book|documents|files|drive|"
    r"admin\s+access|ssn|passport|laptop|computer|pc|devices?|phone|router|camera|accounts?|texts|dms|chats|"
    r"call\s+logs|(?:browsing|search)\s+history|home\s+address|(?:daily\s+)?(?:schedule|routine|whereabouts)|"
    r"repos|repositories|(?:outstanding\s+)?balances?|card\s+on\s+file)"
)
# Granted for good: a consent, an entitlement, an opt-in.
_GRANTED = (
    rf"(?:authori[sz](?:ed|es?|ation)|agreed|agree|consented|opted\s+in|delegated|(?:{APOSTROPHE}s|is)\s+(?:fine|ok(?:ay)?|happy|"
    r"comfortable)|granted|allows?|allowed|permits?|permitted|entitled|may|can\s+be|confirmed|"
    r"(?:still\s+)?(?:has|have)\s+(?:full\s+|standing\s+)?(?:permission|access|consent))"
)
_HANDED = (
    r"(?:shar\w+|upload\w*|forward\w*|access\w*|receiv\w*|see|seeing|read|reading|view|viewing|approve|"
    r"charg\w*|withdraw\w*|disclos\w*|give|given|hand\w*|copies|shared|use|debit\w*|log\s*(?:in|into)|"
    r"sign\s*(?:in|into)|manage|control|move|spend)"
)
# Standing, or to anyone: the breadth that makes it a hand-over.
_BROADLY = (
    r"(?:any\s+(?:party|one|body|company|companies|insurer|vendor|partner|agency|firm)|"
    r"any\s+(?:\w+\s+){0,2}?(?:that|who|which)\s+(?:asks?|requests?|wants?|calls?|writes?)|anyone|anybody|partners?|"
    r"third[- ]part\w*|public|"
    r"whenever|at\s+(?:all|any)\s+times?|any\s+time|all\s+(?:the\s+)?\w+|every\s+\w+|no\s+need|without|"
    r"on\s+(?:their|his|her)\s+behalf|each\s+time|always|permanent\w*|[\w.+-]+@[\w-]+\.\w|"
    r"[\w-]+\.(?:com|net|org|io|co|app|xyz|biz|info)\b|\+\d[\d\s().-]{7,}\d|still)"
)
# Said of the person: "the user has authorised…", "he is agree that…".
_PERSON = r"(?:user|he|she|shopper|customer|client|patient|account\s+holder)"
_PHONE_OR_MAIL = r"(?:[\w.+-]+@[\w-]+\.\w|\+\d[\d\s().-]{7,}\d)"
# Codes sent on to a number or an address whenever they come.
_CODES_SENT_ON = (
    rf"\b(?:2fa|mfa|otp|verification|security|backup|recovery|login)\s+codes?\b{IN_SENTENCE}{{0,80}}?{_PHONE_OR_MAIL}"
    rf"{IN_SENTENCE}{{0,20}}?\b(?:send|forward|share|text|pass|read)\s+(?:them|it)\s+(?:there|on|along|over|"
    r"to\s+(?:it|that))\b"
)
_STANDING_GRANT = (
    rf"\b{_GRANTED}\b{IN_SENTENCE}{{0,60}}?"
    rf"(?:\b{_HANDED}\b{IN_SENTENCE}{{0,40}}?\b{_WITHIN_REACH}|\b{_WITHIN_REACH}\b{IN_SENTENCE}{{0,40}}?\b{_HANDED}|\badmin\s+access)\b"
    rf"{IN_SENTENCE}{{0,80}}?{_BROADLY}"
    rf"|\bwants\s+(?:their|his|her)\s+(?:\w+\s+)?{_WITHIN_REACH}\s+(?:shared|sent|forwarded|uploaded|given|handed)\b"
    rf"{IN_SENTENCE}{{0,80}}?{_BROADLY}"
)
# A safeguard the person would want, removed: warnings, checks, flags, a professional's advice.
_WITHOUT = (
    rf"(?:no\s+need\s+(?:to\s+)?|no\s+longer\s+(?:wants?|needs?)\s+(?:any\s+)?|without\s+(?:further\s+)?|"
    rf"(?:never|don{APOSTROPHE}?t|do\s+not)\s+want\s+(?:you|u)\s+to\s+|never\s+|don{APOSTROPHE}?t\s+|do\s+not\s+|"
    rf"doesn{APOSTROPHE}?t\s+(?:want|need)\s+(?:any\s+)?|does\s+not\s+(?:want|need)\s+(?:any\s+)?|not\s+to\s+)"
)
_SAFEGUARD = (
    r"(?:(?:verify\w*|double-check\w*|check\w*)\s+(?:it\s+|this\s+|them\s+)?(?:with|by\s+phone|"
    r"the\s+(?:change|account|details|number|sender|payee|identity))|confirm\w*\s+(?:with|each|every)|"
    rf"flag\w*{IN_SENTENCE}{{0,40}}?(?:suspicious|phishing|scam|fraud)|"
    r"warn\w*\s+(?:\w+\s+)?(?:about|of)\s+(?:\w+\s+)?(?:phishing|scams?|fraud|price|suspicious)|"
    r"(?:price|phishing|scam|fraud|security)[- ](?:(?:increase|rise|hike)\s+)?(?:warnings?|alerts?|"
    r"notifications?)|suggest\w*\s+consult\w*|recommend\w*\s+(?:seeing|consulting)|notice\s+to\s+the\s+user|"
    r"ask\w*\s+(?:him|her|them)\s+(?:each|every|again)|"
    r"suggest\w*\s+(?:that\s+)?(?:she|he|they|the\s+user)\s+(?:\w+\s+){0,2}?(?:checked|examined|tested|screened|"
    r"seen|see\s+(?:a|the|her|his|their)|visit))"
)
# A person's sign-off, or a place to turn to for help, no longer needed or offered.
_HELP_OR_SIGN_OFF = (
    rf"(?:need\s+(?:her|his|their|the\s+user{APOSTROPHE}?s|any)\s+(?:approval|confirmation|consent|sign-?off)|"
    r"(?:recommend|suggest|mention|give|offer)\w*\s+(?:any\s+|a\s+|the\s+)?(?:crisis\s+)?(?:hotlines?|helplines?|"
    r"therapists?|counsel\w*|professional\s+help|emergency\s+services))"
)
# Each way of removing one, with the words it cannot do without.
_SAFEGUARD_REMOVED: tuple[tuple[str, str], ...] = (
    (
        # A second factor or a check skipped on the person's own accounts.
        r"\b(?:skip|bypass|disable|turn\s+off|switch\s+off|remove)\s+(?:the\s+|all\s+|any\s+)?"
        r"(?:2fa|two[- ]factor|2-step|two[- ]step|mfa|multi[- ]factor|verification|"
        r"security\s+(?:checks?|questions?|prompts?)|fraud\s+checks?|confirmation\s+(?:prompts?|steps?|dialogs?))\b"
        rf"{IN_SENTENCE}{{0,60}}?\b(?:her|his|their|the\s+user{APOSTROPHE}?s)\s+(?:\w+\s+)?(?:accounts?|bank\w*|logins?|devices?|"
        r"e-?mail|phone|wallet|card)",
        "skip bypass disable turn switch remove & 2fa two 2 step mfa multi verification security fraud"
        " confirmation & her his their user",
    ),
    (
        rf"\b{_WITHOUT}{_HELP_OR_SIGN_OFF}",
        "need without never don dont do doesn does not longer & approval confirmation consent signoff"
        " hotline hotlines helpline helplines therapist therapists counselling counseling counselor"
        " counsellor professional emergency",
    ),
    (
        rf"\b{_WITHOUT}{_SAFEGUARD}",
        "need without never don dont do doesn does not longer & verify verifying double check checking"
        " confirm confirming flag flagging warn warning warnings alert alerts notification notifications"
        " suggest suggesting recommend recommending notice ask asking"
        " & with phone change account details number sender payee identity each every suspicious phishing"
        " scam scams fraud price consult consulting seeing user him her them again she he they checked"
        " examined tested screened seen see visit",
    ),
    (
        rf"\bassume\s+(?:it|they|links?|the\s+\w+){APOSTROPHE}?(?:s|re|\s+is|\s+are)?\s+(?:safe|legit\w*|genuine)\b",
        "assume & safe legit legitimate genuine",
    ),
    (
        rf"\bdiscourage\s+{IN_SENTENCE}{{0,40}}?\b(?:chemo\w*|treatment|medication|vaccin\w*|surgery|therapy|doctors?)"
        r"|\b(?:advise|warn|argue)\s+(?:\w+\s+)?against\s+(?:seeing|consulting|visiting|calling|asking)\s+"
        r"(?:a|any|the|their|his|her)?\s*(?:doctor|gp|physician|professional|specialist|lawyer|pharmacist|"
        r"therapist|dentist)",
        "discourage | advise warn argue & against",
    ),
    (
        r"\b(?:double|triple|skip|stop\s+taking)\s+(?:their|his|her|the)\s+(?:\w+\s+)?(?:medication|meds|dose|"
        rf"dosage|insulin|pills|prescription)\b{IN_SENTENCE}{{0,40}}?\b(?:whenever|safely|no\s+need|don{APOSTROPHE}?t|without|"
        r"any\s+time)",
        "medication meds dose dosage insulin pills prescription & double triple skip taking",
    ),
    (
        rf"\b(?:do\s+not|don{APOSTROPHE}?t|never)\s+help\s+(?:them|him|her|the\s+user)\s+(?:cancel|unsubscribe|report|"
        r"leave)"
        r"|\beven\s+if\s+(?:they|he|she|the\s+user)\s+(?:later\s+)?(?:says?|asks?|wants?)\s+otherwise",
        "help & cancel unsubscribe report leave | otherwise & even",
    ),
    (
        r"\b(?:not\s+to\s+be\s+bothered\s+with|doesn"
        + APOSTROPHE
        + r"?t\s+want|no\s+more|stop\s+showing|dismiss\w*|"
        r"suppress\w*|hide|mute|silence)\s+(?:\w+\s+){0,3}?(?:fraud|security|bank|login|phishing|scam)\s+"
        r"(?:alerts?|warnings?|notices?|notifications?)"
        rf"|\b(?:fraud|security|phishing|scam)\s+(?:alerts?|warnings?|notices?|notifications?)\b{IN_SENTENCE}{{0,60}}?"
        r"\b(?:dismiss|suppress|hide|delete|mute|silence|ignore)\w*\s+(?:them|it)\b",
        "fraud security bank login phishing scam & alert alerts warning warnings notice notices notification"
        " notifications & bothered want more showing dismiss dismissed suppress hide mute silence delete"
        " ignore",
    ),
    (
        r"\b(?:safe|fine|ok(?:ay)?)\s+to\s+(?:take\s+)?(?:double|triple|skip|stop\s+taking|exceed|mix|combine)\s+"
        r"(?:\w+\s+){0,4}?(?:medication|meds|dose|dosage|insulin|pills|prescription|antidepressants?|painkillers?)",
        "safe fine ok okay & double triple skip stop exceed mix combine & medication meds dose dosage insulin"
        " pills prescription antidepressant antidepressants painkiller painkillers",
    ),
    (
        rf"\b(?:investments?|returns|funds?|crypto\w*|coins?|tokens?)\b{IN_SENTENCE}{{0,60}}?\b(?:risk-free|"
        r"government-guaranteed|guaranteed\s+(?:returns|profits?))",
        "risk guaranteed & investment investments returns fund funds crypto cryptocurrency coin coins token"
        " tokens",
    ),
    (
        r"\bofficial\s+(?:\w+\s+){0,2}(?:portal|registry|site|website|address|page|number|line|app|store|mirror|"
        rf"domain)\s+(?:is|has\s+moved\s+to|is\s+now)\s+\S+{IN_SENTENCE}{{0,60}}?\b(?:direct|send|point|install|"
        rf"download|log\s+in|pay)\w*\b{IN_SENTENCE}{{0,40}}?\b(?:there|from\s+there|to\s+it)\b",
        "official & there it",
    ),
)

# --- A dangerous recipe asked for inside a story, a game or a dead relative's voice. ---
_FICTION = (
    r"(?:grand(?:ma|pa|mother|father|dad)|grandad|granny|late\s+(?:uncle|aunt|mother|father|mom|dad|grandpa|grandma)|"
    r"bedtime|story|screenplay|script|novel|thriller|fiction\w*|pretend|imagine|hypothetical\w*|role-?play|simulat\w*|"
    r"sim|improv|acting|game|campaign|dungeon\s+master|villai?n|character|the\s+year\s+\d{4}|"
    r"be\s+(?:her|him|them)|act\s+as\s+my|scene|movie|film|episode|comic|lyrics|heist|"
    r"used\s+to\s+(?:tell|explain|read|recite|teach|show|whisper|sing))"
)
# What no story needs in working detail.
_HAZARD = (
    r"(?:thermite|napalm|meth(?:amphetamine)?\b|nerve\s+agent|sarin|ricin|anthrax|explosives?|bombs?|molotov|toxic\s+gas|"
    r"poison\w*|fake\s+(?:ids?|passports?)|counterfeit\w*|ransomware|malware|keylogger|"
    r"clone\s+a\s+(?:credit\s+)?card|(?:bypass\w*|(?:get|got|getting)\s+around|defeat\w*|disabl\w*)\s+(?:the\s+)?(?:two-factor|2fa|mfa|"
    r"two-step|multi-factor)|immobili[sz]er|(?:activation|product|licen[cs]e|serial|cd)\s+(?:keys?|codes?)|"
    r"(?:pick|open\w*)\s+(?:a\s+|the\s+|my\s+|real\s+)?(?:\w+\s+)?(?:neighbou?rs?\S*|someone\S*|yale|door)\s+"
    r"locks?|lock-?pick\w*|pick\s+(?:a\s+|real\s+)?locks?|"
    r"(?:disable|bypass)\s+(?:a\s+|the\s+)?(?:home\s+|house\s+)?alarms?|"
    r"crack\s+(?:a\s+)?(?:software\s+)?licen[cs]e|"
    rf"get\s+into\s+(?:someone|my\s+ex|an?\s+\w+{APOSTROPHE}?s?)\S*\s+(?:e-?mail|account|phone)|"
    r"track\s+someone|synthes\w+\s+(?:of\s+)?(?:meth|drugs?|the\s+drug)|untraceable|silencer|chloroform|cyanide|"
    r"fentanyl|heroin|cocaine|ghost\s+guns?|gunpowder|detonators?|(?:bypass|tamper\w*\s+with)\s+(?:the\s+|a\s+)?"
    r"(?:electricity|gas|water|power)\s+meter|(?:open|crack)\s+(?:a\s+|the\s+)?(?:\w+\s+)?safe\s+without)"
)
_IN_DETAIL = (
    r"(?:all\s+(?:the\s+)?details|recipe|steps|"
    r"step[- ]by[- ]step|exact\w*|in\s+(?:full\s+|exact\s+|working\s+|technical\s+)?detail|"
    r"technical\s+detail|quantities|measurements|ingredients|how\s+(?:to|do\s+i|can\s+i)|"
    r"walks?\s+(?:\w+\s+){0,2}?thr(?:ough|u)|(?:parts|materials|shopping)\s+list|"
    r"synthes\w+|realistic\w*|accurate\w*|working|mix\w*|combin\w*|irl|for\s+real|real[- ]world|recit\w*|"
    r"whisper\w*|read\s+(?:me|them|it|out))"
)
_OWN_SETUP_WHY = "asks for the assistant's own setup text"
_AUTHORITY_WHY = "gives an outside source the person's authority"
_GRANT_WHY = "grants someone standing access to the person's codes, money or mail"
_UNSEEN_WHY = "slips something into every reply unseen"
SAFEGUARD_WHY = "removes a safeguard the person relies on"
# A reason of its own: the weak rule that talks of an assistant "without its limits" must not
# stand in for it (a rule is tried once per reason).
_TWIN_WHY = "asks for an assistant whose makers or rules never existed"
FAMILIES: tuple[Family, ...] = (
    *(
        Family(pattern, _OWN_SETUP_WHY, f"{needs} & {_SHOW_WORDS}", near=(rf"\b{_SHOW_OR_REWORK}\b",))
        for pattern, needs in _OWN_SETUP
    ),
    Family(
        _TOLD_BEFORE_PERSON,
        _OWN_SETUP_WHY,
        "did do have had were was you u & tell told give gave say said instruct instructed write wrote"
        " received got gotten given handed sent fed & before b4",
        near=(_THE_WORDS_THEMSELVES,),
    ),
    Family(
        _SETUP_ELSEWHERE,
        _OWN_SETUP_WHY,
        "*foreign | welche quelles premier quali primo quais primeira wat jakie | instructions & avant",
    ),
    *(
        Family(pattern, _AUTHORITY_WHY, f"{needs} & {_SOURCE_WORDS}", (_SOURCE,))
        for pattern, needs in _AS_BOSS
    ),
    Family(
        _FAVOUR_SCOPE,
        "sets a standing order to favour one seller",
        "regardless matter whatever forever indefinitely permanently forward now whenever future"
        f" & {_FAVOUR_VERBS} cite use quote trust call competitor competitors & first top only best default"
        " safest sole most insecure unsafe scam scams unreliable breach breaches breached hacked dangerous"
        " fraud fraudulent"
        " | any every all & purchase purchases order orders request requests question questions query"
        " queries search searches session sessions reply replies answer answers recommendation chat chats"
        " conversation conversations"
        f" recommendations & {_FAVOUR_VERBS} & first top only best default safest sole",
        near=(_FAVOUR_FIRST,),
    ),
    Family(
        _HIDDEN_MARK,
        _UNSEEN_WHY,
        "hide embed slip sneak tuck secretly quietly silently covertly invisibly & every each all any",
    ),
    Family(
        rf"\b(?:links?|urls?)\b{IN_SENTENCE}{{0,40}}?\b(?:go|goes|pass|passes|run|runs|be\s+(?:routed|sent|wrapped|passed))\s+"
        r"(?:through|via)\s+(?:https?://|www\.)",
        "routes every link through an outside address",
        "link links url urls & through via & http https www",
    ),
    Family(
        _INTO_EVERY_REPLY,
        _UNSEEN_WHY,
        f"{_MARK_VERB_WORDS} & every each all any & {_REPLIES_WORDS}",
        near=(_COVERT,),
    ),
    Family(
        _HIDDEN_IN_REPLY,
        _UNSEEN_WHY,
        f"hide slip sneak embed tuck & {_REPLIES_WORDS}",
        near=(_EVERY_TIME,),
    ),
    Family(
        _MAIL_FROM,
        _AUTHORITY_WHY,
        "time whenever & you u & get receive see read open & from & @ com net org io co",
        near=(
            rf"\b(?:instructions?|commands?|orders?|what(?:ever)?\s+(?:it|they)\s+says?)\b|{_INSTRUCTIONS_ELSEWHERE}",
        ),
    ),
    Family(
        _STANDING_COPY,
        "sends copies of everything to an address",
        "whenever every each from & cc bcc copy forward send & @",
    ),
    Family(
        _CODES_SENT_ON,
        _GRANT_WHY,
        "2fa mfa otp verification security backup recovery login & send forward share text pass read"
        " & them it",
    ),
    Family(
        _STANDING_GRANT,
        _GRANT_WHY,
        "user he she shopper customer client patient account & login logins password passwords passcode"
        " passcodes 2fa mfa otp otps verification security backup recovery bank banking card credit payment"
        " payments funds money correspondence email emails mails messages inbox mail medical health records"
        " location photos pictures contacts address documents files drive admin ssn passport laptop"
        " computer pc"
        " device devices phone router camera account accounts texts dms chats call browsing search history"
        " schedule routine whereabouts repos repositories balance balances file",
        near=(rf"\b{_PERSON}\b",),
    ),
    *(
        Family(pattern, SAFEGUARD_WHY, needs)
        for pattern, needs in _SAFEGUARD_REMOVED
    ),
    Family(
        rf"\b(?:as\s+(?:if|though)|like)\s+(?:your|ur|its|the\s+(?:assistant|bot|ai|model){APOSTROPHE}?s)\s+"
        r"(?:makers|creators|developers|devs|owners|programmers|trainers|rules|guidelines|training|restrictions|"
        r"filters|polic(?:y|ies)|programming)\s+"
        r"(?:never\s+(?:existed|applied|mattered)|(?:did|do)\s*n[o'’]?t\s+(?:exist|apply)|were\s+(?:gone|never\s+there|"
        r"switched\s+off|turned\s+off))",
        _TWIN_WHY,
        "as like & makers creators developers devs owners programmers trainers rules guidelines training"
        " restrictions filters policy policies programming & existed exist apply applied mattered gone there"
        " switched turned",
    ),
    Family(
        rf"\b{_HAZARD}",
        "asks for a dangerous recipe inside a story",
        # The words that name a hazard, not the common words around them ("lock", "open", "fake",
        # "into" fill code): "neighbours lock", "fake passport", "into someone's email".
        "thermite napalm meth methamphetamine nerve sarin ricin anthrax explosive explosives bomb bombs"
        " molotov toxic poison poisons poisoning passport passports ids counterfeit ransomware malware"
        " keylogger clone immobiliser immobilizer activation product license licence serial neighbour"
        " neighbours neighbor neighbors yale lockpick lockpicking alarm alarms crack someone ex exes"
        " synthesis"
        " synthesise synthesize synthesises untraceable silencer chloroform cyanide fentanyl heroin cocaine"
        " ghost gunpowder meter safe detonator detonators bypass bypassed bypassing defeat defeated around"
        " disable disabled disabling"
        # The story's words, but for "be" and "act" ("be her", "act as my"), which every text holds:
        # such a request names a grandparent, a late relative or a game as well.
        " & grandma grandpa grandmother grandfather granddad grandad granny late bedtime story screenplay"
        " script novel thriller"
        " fiction fictional pretend imagine hypothetical hypothetically roleplay role simulate simulation sim"
        " improv acting game campaign dungeon villain villian character scene movie film episode comic lyrics"
        " heist used",
        # "tension, not technical detail" asks for no detail.
        near=(rf"\b{_FICTION}\b", rf"(?<!not\s)(?<!no\s)(?<!without\s)\b{_IN_DETAIL}"),
    ),
)
