"""What a question names, and whether a query binds it (label-free evidence for the verdict).

A *mention* is a span of the question that names something specific: a bracketed or quoted
entity (``[Mel Brooks]``, ``"Duke"``), a capitalised name inside the sentence (``USA``,
``A.C. Milan``), a number or a year. :func:`unbound_mentions` lists those that no literal of
a query (as written or as mapped) covers: a query that ignores what the question names
cannot be the checked answer to it. :func:`expected_type` reads the answer type a question
asks for (``who`` -> entity, ``when`` -> time, ``how many`` -> number).

>>> [(m.text, m.kind) for m in find_mentions("Which skiers are from USA in 2014?")]
[('USA', 'entity'), ('2014', 'date')]
>>> unbound_mentions(find_mentions("Which skiers are from USA?"), ["Nation", "Austria"])
[Mention(text='USA', kind='entity')]
>>> expected_type("How many points did Cid score?"), expected_type("who wrote Dune?")
('number', 'entity')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .lexicon import country_of, word_map, word_set, words
from .numbers import parse_number
from .text import normalize

__all__ = ["Mention", "find_mentions", "unbound_mentions", "is_bound", "expected_type",
           "answer_type", "type_consistent", "MentionKind", "AnswerType", "content_words",
           "unexplained_words", "is_filler", "CUES", "names_any", "bounds", "selection_cues",
           "asks_for_one", "focus_word", "is_placeholder", "same_question_form"]

MentionKind = Literal["entity", "number", "date"]
AnswerType = Literal["number", "quantity", "time", "entity", "any"]

_BRACKET = re.compile(r"\[([^\]]+)\]")
_QUOTED = re.compile(r"[\"“]([^\"”]{1,80})[\"”]|(?<![\w])'([^']{2,80})'(?![\w])")
_TOKEN = re.compile(r"[\w][\w.&'’\-]*[\w.]|[\w]", re.UNICODE)
# a number standing alone: not part of a code such as 40.2E or 33.3S
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?(?![\w]|\.\w)")
_POSSESSIVE = re.compile(r"['’]s$")
# capitalised words that are not names when they appear inside a question
_NOT_NAMES = word_set("not_names")
_JOINERS = word_set("name_joiners")
#: the lists whose words the offline writer reads as cues (comparisons, aggregates, rankings,
#: order, neighbours): capitalised, such a word starts no name (*Less than 2 golds*, *Most
#: wins*) unless the data holds it as a value
_CUE_LISTS = ("aggregate_cues", "greater_cues", "less_cues", "at_least_cues", "at_most_cues",
              "more_words", "less_words", "frequency_words", "next_words", "previous_words",
              "order_words", "selection_cues", "superlative_max", "superlative_min",
              "cues_count", "cues_sum", "cues_mean", "cues_max", "cues_min", "cues_argmax",
              "cues_argmin", "cues_most_frequent", "cues_first", "cues_last", "cues_next_row",
              "cues_previous_row", "cues_top_k", "cues_bottom_k", "cues_compare")
_CUE_WORDS = frozenset(entry.partition(" -> ")[0].split()[0] for name in _CUE_LISTS
                       for entry in words(name)) - _JOINERS - word_set("cue_nouns")
# a sentence ends before this token: the next word is capitalised as the sentence's first
_SENTENCE_END = re.compile(r"[.!?;:]")
_FUNCTION_WORDS = word_set("function_words")
_WH_NUMBER = re.compile(r"\b(how (many|much)|what (is|was) the (number|total|count|sum|"
                        r"average)|number of|count of|total (number|amount))\b")
_WH_QUANTITY = re.compile(r"^\s*(how (long|old|tall|far|high|big|large|heavy|wide)\b|(what|which|"
                          r"in what|in which|on what|on which) (week|round|pick|rank|lap|grid)\b)")
_WH_TIME = re.compile(r"^\s*(when\b|what (year|date|day|month|time)|in (what|which) year|"
                      r"which (year|date)|what (is|was) the (year|date|day|month)\b)")
_WH_ENTITY = re.compile(r"^\s*(who|whom|whose)\b")
_WH_HEAD = re.compile(r"^\s*(?:which|what)\s+([a-z]+)")
# "when <condition>, what/who/which ...": a condition, and the later question word asks
_CONDITIONAL_WHEN = re.compile(r"^\s*when\b(?!\s+(?:did|was|were|is|are|does|do|will|has|have|"
                               r"had|can|could)\b).*?\b(what|who|whom|whose|which|how)\b")
# "which race number ...": the head names a number
_NUMBER_AFTER_HEAD = re.compile(r"^\s*(?:which|what)\s+[a-z]+\s+(?:number|no|#|numbers)\b")
# heads of "which/what <noun>" questions whose answer may well be a bare number
_NUMERIC_HEADS = word_set("numeric_heads")

# a comparison cue followed (within two words: "before the year 2000") by a number
_BOUND_CUES = [c for name in ("at_least_cues", "at_most_cues", "greater_cues", "less_cues")
               for c in words(name) if " " in c or c in ("over", "under", "above", "below",
                                                         "before", "after", "since", "exceeds",
                                                         "exceeding")]
_BOUND = re.compile(r"\b(" + "|".join(re.escape(c) for c in
                                      sorted(set(_BOUND_CUES), key=len, reverse=True))
                    + r")\s+(?:[a-z]+\s+){0,2}?[$£€]?\d", re.IGNORECASE)


@dataclass(frozen=True)
class Mention:
    """A span of the question naming a specific entity, value, number or date."""

    text: str
    kind: MentionKind


def _names(question: str, is_value: Callable[[str], bool] | None = None) -> list[str]:
    """Capitalised word runs after the first word (``USA``, ``A.C. Milan``, ``Mel Brooks``).

    A run's leading cue words (``_CUE_WORDS``: *Less*, *Most*, *Total*) and a function word
    starting a sentence are no part of a name, unless ``is_value`` says the data holds that
    word (or the whole run) as a value.

    >>> _names("How many nations won Less Than 2 golds?"), _names("Who won Most Valuable Player?")
    ([], ['Valuable Player'])
    >>> _names("Who won Most Valuable Player?", lambda v: v == "Most Valuable Player")
    ['Most Valuable Player']
    >>> _names("Name the nation. Which had Most golds?"), _names("Was it Italy? Yes")
    ([], ['Italy', 'Yes'])
    >>> _names("Name the winner. Had Italy won?")
    ['Italy']
    """
    tokens = [(m.group(0), m.start()) for m in _TOKEN.finditer(question)]
    found: list[str] = []
    run: list[str] = []
    held = is_value or (lambda _: False)

    def close() -> None:
        while run and run[-1].lower() in _JOINERS:
            run.pop()
        if run and not held(" ".join(run)):
            while run and run[0].lower() in _CUE_WORDS and not held(run[0]):
                run.pop(0)  # "Less Than 2": a cue, not a name
            while run and run[0].lower() in _JOINERS:
                run.pop(0)
        if run:
            found.append(" ".join(run))
        run.clear()

    end, after_dot = 0, False
    for i, (tok, start) in enumerate(tokens):
        word = tok.rstrip(".")
        capital = word[:1].isupper() and word.lower() not in _NOT_NAMES
        ends = i > 0 and _SENTENCE_END.search(question[end:start]) is not None
        if ends:
            close()  # "Was it Italy? Yes": a new sentence starts a new name
        if (ends or after_dot) and word.lower() in _FUNCTION_WORDS | _CUE_WORDS \
                and not held(word):
            capital = False  # "... the winner. Had Italy won?": a sentence's first word
        end, after_dot = start + len(tok), tok.endswith(".") and tok.count(".") == 1
        if i > 0 and capital and parse_number(word) is None:
            run.append(tok if tok.count(".") > 1 else word)
        elif run and tok.lower() in _JOINERS:
            run.append(tok)
        else:
            close()
    close()
    return found


def find_mentions(question: str, is_value: Callable[[str], bool] | None = None
                  ) -> list[Mention]:
    """Bracketed, quoted and capitalised names, numbers and years named in ``question``.
    A capitalised cue word (*Less than 2*, *Most wins*) is no name unless ``is_value`` (the
    data's values, when known) holds it (:func:`_names`).

    >>> [m.text for m in find_mentions("what films did [Mel Brooks] direct")]
    ['Mel Brooks']
    >>> [m.text for m in find_mentions('total Amount of orders in Berlin')]
    ['Amount', 'Berlin']
    >>> [m.text for m in find_mentions("What was Cici Kelley's season at 40.2E, 16.")]
    ["Cici Kelley's", '16']
    >>> [m.text for m in find_mentions("Which nation won Less than 2 golds?")]
    ['2']
    """
    out: list[Mention] = []
    seen: set[str] = set()

    def add(text: str, kind: MentionKind) -> None:
        key = normalize(text)
        if key and key not in seen:
            seen.add(key)
            out.append(Mention(text.strip(), kind))

    rest = question
    for rx in (_BRACKET, _QUOTED):
        for m in rx.finditer(rest):
            add(next(g for g in m.groups() if g), "entity")
        rest = rx.sub(" ", rest)
    for name in _names(rest, is_value):
        add(name, "entity")
    for m in _NUMBER.finditer(rest):
        x = parse_number(m.group(0))
        if x is None:
            continue
        whole = x == int(x)
        add(m.group(0), "date" if whole and 1000 <= x <= 2100 and "," not in m.group(0)
            else "number")
    return out


def is_bound(mention: Mention, literals: Iterable[str]) -> bool:
    """True when some literal covers the mention (same text or number, one containing the
    other as whole words, or most of the mention's words).

    >>> is_bound(Mention("A.C. Milan", "entity"), ["AC Milan"])
    True
    >>> is_bound(Mention("12", "number"), ["12.0"]), is_bound(Mention("Cid", "entity"), ["Rank"])
    (True, False)
    >>> is_bound(Mention("German", "entity"), ["Germany"])  # a demonym is bound by its country
    True
    >>> is_bound(Mention("18,227", "number"), ["Philips Arena 18,227"])
    True
    >>> is_bound(Mention("Cici Kelley's", "entity"), ["Cici Kelley"])
    True
    """
    want = normalize(mention.text)
    if not want:
        return True
    literals = list(literals)  # read twice when the mention is a demonym
    bare = _POSSESSIVE.sub("", mention.text)  # Cici Kelley's season: Cici Kelley
    if bare != mention.text and is_bound(Mention(bare, mention.kind), literals):
        return True
    country = country_of(mention.text)
    if country is not None and is_bound(Mention(country, mention.kind), literals):
        return True
    value = parse_number(mention.text)
    if value is not None:  # as written inside a cell: 'Philips Arena 18,227', '59.1%'
        raw = re.compile(r"(?<![\w.])" + re.escape(mention.text.lower()) + r"(?![\w]|[.,]\d)")
        if any(raw.search(str(lit).lower()) for lit in literals):
            return True
    words = set(want.split())
    squashed = want.replace(" ", "")
    for lit in literals:
        have = normalize(str(lit))
        if not have:
            continue
        if have == want or have.replace(" ", "") == squashed:
            return True
        if value is not None and any(parse_number(w) == value for w in have.split()):
            return True
        if value is None and (f" {want} " in f" {have} " or f" {have} " in f" {want} "):
            return True
        if value is None and len(words) > 1:
            shared = words & set(have.split())
            if len(shared) * 2 > len(words):
                return True
    return False


def unbound_mentions(mentions: Sequence[Mention], literals: Iterable[str]) -> list[Mention]:
    """The mentions no literal covers (see :func:`is_bound`)."""
    lits = [str(x) for x in literals]
    return [m for m in mentions if not is_bound(m, lits)]


def expected_type(question: str) -> AnswerType:
    """The answer type the question asks for: ``number``, ``time``, ``entity`` or ``any``.

    >>> expected_type("When 1 is the number in series who is the director?")
    'entity'
    >>> expected_type("When was it built?"), expected_type("Which race number had Ann?")
    ('time', 'any')
    >>> expected_type("doron mazar, which artist had the most points?")
    'entity'

    """
    q = question.lower()
    later = _CONDITIONAL_WHEN.match(q)
    if later:  # "when 15 is the number overall, what is the air date?": the later clause asks
        q = q[later.start(1):]
    if _WH_ENTITY.search(q):
        return "entity"
    if _WH_NUMBER.search(q):
        return "number"
    if _WH_QUANTITY.search(q):
        return "quantity"
    if _WH_TIME.search(q):
        return "time"
    head = _WH_HEAD.match(q)
    if head and head.group(1) not in _NUMERIC_HEADS and head.group(1) not in _STOP \
            and not _NUMBER_AFTER_HEAD.match(q):
        return "entity"
    clause = _LATER_CLAUSE.search(q)
    if clause and not _WH_START.match(q):  # "doron mazar, which artist had the most points?"
        return expected_type(q[clause.start(1):])
    return "any"


_LATER_CLAUSE = re.compile(r",\s*((?:who|whom|whose|which|what|when|how)\b)")
_WH_START = re.compile(r"^\s*(?:who|whom|whose|which|what|when|where|why|how|in (?:what|which))\b")


def answer_type(answers: Sequence[str]) -> AnswerType:
    """``number`` when every answer reads as a number (a year is also a time), else
    ``entity``; ``any`` for no answer.

    >>> answer_type(["16"]), answer_type(["Tina Maze", "3"]), answer_type([])
    ('number', 'entity', 'any')
    """
    if not answers:
        return "any"
    return "number" if all(parse_number(a) is not None for a in answers) else "entity"


_TIME_TEXT = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|"
                        r"oct|nov|dec)[a-z]*\b|\d{1,2}[/.-]\d{1,2}|^\d{1,2}(?:st|nd|rd|th)$",
                        re.IGNORECASE)


# a calendar date written out: 14 February 1451, February 14, 1451, 1451-02-14
_FULL_DATE = re.compile(r"^\s*(\d{1,2}\s+[a-z]{3,9}\.?,?\s+\d{3,4}|[a-z]{3,9}\.?\s+\d{1,2},?\s+"
                        r"\d{3,4}|\d{4}-\d{2}-\d{2})\s*$", re.IGNORECASE)


def type_consistent(question: str, answers: Sequence[str]) -> bool:
    """False when the answer cannot be what the question asks for: ``how many`` answered by
    names, ``when`` answered by something with no date in it, ``who`` answered by bare
    numbers.

    >>> type_consistent("how many points did Ann score?", ["Ann"])
    False
    >>> type_consistent("when did it open?", ["1999"]), type_consistent("who won?", ["16"])
    (True, False)
    >>> type_consistent("who is the husband?", ["14 February 1451"])
    False
    >>> type_consistent("who had the top score?", ["−11 (72-68-67=207)"])
    False
    >>> type_consistent("when did the rate first become negative?", ["2.4"])
    False
    """
    want, have = expected_type(question), answer_type(answers)
    if want == "any" or have == "any":
        return True
    if want == "number":
        return have == "number"
    if want == "quantity":
        return all(any(ch.isdigit() for ch in a) for a in answers)
    if want == "time":
        return all(_whole(parse_number(a)) if parse_number(a) is not None
                   else _TIME_TEXT.search(a) is not None for a in answers)
    if want == "entity" and _WH_ENTITY.search(question.lower()) and not any(
            _LETTERS.search(a) for a in answers):  # who -> "−11 (72-68-67-70=277)"
        return False
    return have != "number" and not (want == "entity" and _WH_ENTITY.search(question.lower())
                                     and all(_FULL_DATE.search(a) for a in answers))


_LETTERS = re.compile(r"[^\W\d_]{2}")


def _whole(x: float | None) -> bool:
    """True for a whole number (a year, a day); a fraction (``2.4``) is never a time."""
    return x is not None and float(x).is_integer()


# Function words: never evidence of what a query must use.
_STOP = word_set("function_words")
#: verbs and nouns a question uses for a relation whose name uses other words
_ALIASES = word_map("relation_aliases")
_NUMBER_WORDS = {w: str(i) for list_name in ("number_words", "ordinal_words")
                 for i, w in enumerate(words(list_name)) if i or list_name == "number_words"}
#: cue words explained by the functions a query uses
CUES: dict[str, frozenset[str]] = {
    func: word_set(f"cues_{func}")
    for func in ("count", "sum", "mean", "max", "min", "argmax", "argmin", "next_row",
                 "previous_row", "set_difference", "set_union", "set_intersection", "top_k",
                 "bottom_k", "compare", "most_frequent", "first", "last")}
#: a per-group function explains the cue words of the aggregate it applies to each group
CUES.update({"count_each": CUES["count"], "groups_of_size": CUES["count"],
             "sum_each": CUES["sum"]})
_WORD = re.compile(r"\b[a-z][a-z0-9']*\b", re.IGNORECASE)


def content_words(question: str) -> list[str]:
    """Lower-cased words of ``question`` that carry meaning (function words dropped).

    >>> content_words("which actors starred in films directed by [Mel Brooks]?")
    ['actors', 'starred', 'directed', 'mel', 'brooks']
    """
    words = (normalize(t) for t in _WORD.findall(question.replace("’", "'")))
    return [w for w in words if w and w not in _STOP and len(w) > 1 and " " not in w]


_WH_WORDS = word_set("wh_words")


_ORDINAL_NUMBER = re.compile(r"^(\d+)(?:st|nd|rd|th)$")


def _stem(word: str) -> str:
    """A number word reads as its number, ``1st`` as ``1``; any other word as its first
    four letters."""
    ordinal = _ORDINAL_NUMBER.match(word)
    if ordinal:
        return ordinal.group(1)
    return _NUMBER_WORDS.get(word, word[:4])


def names_any(question: str, label: str) -> bool:
    """True when a content word of ``question`` shares its first letters (at least three,
    at most four) with a word of ``label``.

    >>> names_any("what movies did [X] act in?", "starred_actors")
    True
    >>> names_any("How much did Jeff Burton win?", "Position")
    False
    """
    tokens = re.findall(r"[a-z0-9]+", normalize(label))
    words = [w.lower() for w in _WORD.findall(question)]
    return any(_prefix_match(w, t) for w in words if w not in _WH_WORDS for t in tokens)


#: words that name nothing a query must read: "only" restricts ("the only player listed for
#: 2011"). Chosen on the tune halves: the 8 WTQ answers that "only" and at most one other word
#: kept from verified were all right (no WikiSQL answer moved). Tried and not adopted:
#: "number" (the WikiSQL answers it would free: 29 of 32 right), "won" and "percentage"
#: explained by a '%' column (with "only": 15 of 18 right there)
_FILLERS = frozenset({"only"})


def is_filler(word: str) -> bool:
    """True for a word that names nothing a query must read (see ``_FILLERS``). Only the
    ``unexplained_words`` reason leaves it out; the count reasons still read it.

    >>> is_filler("only"), is_filler("medal")
    (True, False)
    """
    return word in _FILLERS


def unexplained_words(question: str, literals: Iterable[str],
                      funcs: Iterable[str] = ()) -> list[str]:
    """Content words of ``question`` that neither a literal of the query (word by word: the
    first three or four letters agree; number words read as numbers) nor a cue of a function
    it uses accounts for.

    >>> unexplained_words("which secretary of state came after jack pickersgill?",
    ...                   ["Secretary of State"])
    ['came', 'after', 'jack', 'pickersgill']
    >>> unexplained_words("which actors starred in the top ten films by [Mel Brooks]?",
    ...                   ["starred_actors", "Mel Brooks", "10"])
    ['top']
    >>> unexplained_words("which actors starred in the top ten films by [Mel Brooks]?",
    ...                   ["starred_actors", "Mel Brooks", "10"], ["compare"])
    []
    """
    tokens = {t for lit in literals for t in re.findall(r"[a-z0-9]+", normalize(str(lit)))}
    stems = {_stem(t) for t in tokens}
    cues = frozenset().union(*(CUES.get(f, frozenset()) for f in funcs))
    return [w for w in content_words(question) if w not in cues and _stem(w) not in stems
            and not any(_prefix_match(v, t) for v in [w, *_ALIASES.get(w, "").split()]
                        for t in tokens)]


def _prefix_match(word: str, token: str) -> bool:
    """The first three or four letters agree (``act`` / ``actors``, ``writ`` / ``written``)."""
    n = min(4, len(word), len(token))
    return n >= 3 and word[:n] == token[:n]


def bounds(question: str) -> list[str]:
    """The comparison cues of a question that bound a number (``more than 5``, ``before the
    year 2000``, ``at least 3``): a query answering it should compare, not test equality.

    >>> bounds("What were the results before the year 2000?")
    ['before']
    >>> bounds("How many more medals did Italy win than France?")
    []
    """
    return [m.group(1).lower() for m in _BOUND.finditer(question)]


_SELECTION = word_set("selection_cues")
_ORDER_NOUNS = word_set("order_nouns")
_ONE = re.compile(r"\bthe\s+(?:very\s+)?([a-z]+)\s+([a-z0-9]+)", re.IGNORECASE)


def selection_cues(question: str) -> list[str]:
    """The ordinal and superlative words of ``question`` (``first``, ``earliest``,
    ``highest``): each asks the query to pick or rank (``first name`` is a name, not an order).

    >>> selection_cues("who was the first winner of the Copley Medal?")
    ['first']
    >>> selection_cues("what is the first name of the highest scorer?")
    ['highest']
    """
    tokens = [normalize(t) for t in _WORD.findall(question)]
    return [w for i, w in enumerate(tokens) if w in _SELECTION
            and not (i + 1 < len(tokens) and tokens[i + 1] in _ORDER_NOUNS)]


def asks_for_one(question: str) -> str | None:
    """The cue when ``question`` asks for one thing picked by an ordinal or superlative
    (``the first winner``, ``the highest score``), else None. A number after the cue (``the
    first 5``) or a plural noun (``the most points``) asks for several.

    >>> asks_for_one("who was the first winner of the Copley Medal?")
    'first'
    >>> asks_for_one("what were the first 3 films?"), asks_for_one("who scored the most goals?")
    (None, None)
    >>> asks_for_one("who directed the [The Last Run]?") is None  # inside a name
    True
    """
    for m in _ONE.finditer(_QUOTED.sub(" ", _BRACKET.sub(" ", question))):
        cue, noun = normalize(m.group(1)), normalize(m.group(2))
        if cue not in _SELECTION or noun in _ORDER_NOUNS or noun in _NUMBER_WORDS \
                or parse_number(noun) is not None:
            continue
        if noun.endswith("s") and not noun.endswith(("ss", "us", "is")):
            continue
        return cue
    return None


_FOCUS = [re.compile(r"^\s*how (?:many|much) ([a-z][a-z0-9'-]*)"),
          re.compile(r"^\s*(?:what|which)(?:'s|\s+is|\s+was|\s+are|\s+were)?\s+(?:the\s+)?"
                     r"([a-z][a-z0-9'-]*)"),
          re.compile(r"^\s*name the ([a-z][a-z0-9'-]*)")]


def focus_word(question: str) -> str | None:
    """The word a question asks for, right after its question words (``how many caps``,
    ``what was the score``, ``name the successor``); None when that word is a function word
    or the question has another form.

    >>> focus_word("Paddy Wallace has how many Caps?"), focus_word("How many Caps has he?")
    (None, 'caps')
    >>> focus_word("What was the team's score on April 1?"), focus_word("what is the name of X")
    ('score', None)
    """
    q = question.lower().replace("’", "'")
    for rx in _FOCUS:
        m = rx.match(q)
        if m:
            tokens = re.findall(r"[a-z][a-z0-9'-]*", q[m.start(1):])
            if tokens[0].endswith("'s") and len(tokens) > 1:  # the team's score: score
                tokens = tokens[1:]
            word = normalize(tokens[0])
            return word if word in content_words(word) else None
    return None


def same_question_form(first: str, second: str) -> bool:
    """Whether two questions ask for the same kind of answer: the same expected type
    (:func:`expected_type`) and both or neither asking *who*. A demonstration of another form
    answers another question, even when the rest of its words are alike.

    >>> same_question_form("what films did Ann star in?", "which films did Bo direct?")
    True
    >>> same_question_form("what films did Ann star in?", "how many films did Bo star in?")
    False
    >>> same_question_form("what films did Ann star in?", "who wrote the films Bo starred in?")
    False
    """
    return (expected_type(first) == expected_type(second)
            and bool(_WH_ENTITY.search(first.lower())) == bool(_WH_ENTITY.search(second.lower())))


_PLACEHOLDERS = word_set("placeholder_values")


def is_placeholder(value: str) -> bool:
    """True when a cell value only says that a value is missing.

    >>> is_placeholder("N/A"), is_placeholder(" — "), is_placeholder("None of them")
    (True, True, False)
    """
    return value.strip().lower() in _PLACEHOLDERS
