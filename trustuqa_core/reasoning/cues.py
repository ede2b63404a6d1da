"""What form of answer a comparison question asks for, read from the question's words.

A comparison of two values answers different questions: "is Koli larger than Lemmenjoki?"
(yes/no), "which is taller, Mount Humphreys or Mount Kaweah?" (a name), "was 2008's score
above or below 2013?" (one of the question's own words). :func:`question_form` tells them
apart with word lists (data, below); the comparison functions state the reading in the step.

>>> question_form("was 2008's score above or below 2013?")
QuestionForm(kind='pair', pair=(('above', '>'), ('below', '<')), direction='>')
>>> question_form("which is taller, mount humphreys or mount kaweah.").kind
'choice'
>>> f = question_form("did the drink/drive sandown 500 happen before the tooheys 1000?")
>>> f.kind, f.direction
('yesno', '<')
>>> question_form("were more magazines founded before or after 2000?").kind
'pair_choice'
>>> question_form(None).kind
'unknown'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "QuestionForm",
    "question_form",
    "rank_direction",
    "asks_for_amount",
    "asks_total",
    "superlative",
    "AGE_WORDS",
    "SPEED_WORDS",
    "TIME_RELATION",
    "TIME_ASKED",
    "mentions_years",
    "DIRECTION_WORDS",
    "PAIR_WORDS",
    "RANK_WORDS",
    "RANK_RELATION",
    "CHART_POSITION",
    "SUCCESS_WORDS",
    "ORDER_WORDS",
    "order_word",
]

# comparative words -> the direction they ask for ('>' larger / later, '<' smaller / earlier)
DIRECTION_WORDS: dict[str, str] = {
    **dict.fromkeys(
        ["more", "most", "higher", "highest", "larger", "largest", "bigger", "biggest",
         "greater", "greatest", "taller", "tallest", "longer", "longest", "later", "latest",
         "last", "after", "above", "over", "heavier", "heaviest", "exceed", "exceeded",
         "wider", "deeper", "farther", "further", "older", "slower", "slowest"],
        ">",
    ),
    **dict.fromkeys(
        ["less", "least", "fewer", "fewest", "lower", "lowest", "smaller", "smallest",
         "shorter", "shortest", "earlier", "earliest", "first", "before", "below", "under",
         "lighter", "lightest", "sooner", "quicker", "faster", "fastest", "younger"],
        "<",
    ),
    **dict.fromkeys(["same", "equal", "tied", "as many"], "="),
    **dict.fromkeys(["different"], "!="),
}
# words that can form an "X or Y" answer pair ("more or less", "above/below")
PAIR_WORDS = frozenset(
    {"more", "less", "fewer", "above", "below", "before", "after", "higher", "lower",
     "over", "under", "greater", "smaller", "larger", "earlier", "later", "longer",
     "shorter", "bigger", "taller", "older", "younger"}
)
# older/younger over birth dates or years: the older one has the earlier date
AGE_WORDS: dict[str, str] = {"older": "<", "oldest": "<", "younger": ">", "youngest": ">"}
# over times (durations, a Time column) the faster / better one has the smaller value
SPEED_WORDS: dict[str, str] = {
    **dict.fromkeys(["faster", "fastest", "quicker", "quickest", "best", "better"], "<"),
    **dict.fromkeys(["slower", "slowest", "worst", "worse"], ">"),
}
TIME_RELATION = re.compile(r"\btimes?\b", re.IGNORECASE)
# a question asking for a time or a duration ("how long did it take ...", "what was her time")
TIME_ASKED = re.compile(r"\bhow long\b|\btime\b", re.IGNORECASE)
# for ranks and positions (1st is "higher", "above", "better" than 2nd) the smaller number wins
RANK_WORDS: dict[str, str] = {
    **dict.fromkeys(
        ["above", "higher", "highest", "better", "best", "ahead", "top", "first", "before",
         "earlier", "up"],
        "<",
    ),
    **dict.fromkeys(
        ["below", "lower", "lowest", "worse", "worst", "behind", "bottom", "last", "after",
         "later", "down"],
        ">",
    ),
}
RANK_RELATION = re.compile(
    r"^(row_number|rank|ranking|pos\.?|position|place|placing|finish|finished|standing|seed|"
    r"final position|final place)$",
    re.IGNORECASE,
)
# a chart's position column ('Peak chart positions', 'UK Singles Chart Position', 'Peak'):
# the 1st is the "higher" / "better" one, as with ranks (read only by comparisons)
CHART_POSITION = re.compile(
    r"^(?:peak(?: position)?|(?:[\w&.()'/-]+ )*chart (?:positions?|peaks?)|"
    r"peak chart positions?)$",
    re.IGNORECASE,
)
# how a question asks for the better of two places ("which year was more successful?")
SUCCESS_WORDS: dict[str, str] = {"more successful": "<", "most successful": "<",
                                 "less successful": ">", "least successful": ">"}
# words asking which of two rows comes first in the table ("which film came first?")
ORDER_WORDS = frozenset(
    {"first", "before", "earlier", "earliest", "sooner", "after", "later", "latest", "last",
     "listed", "precede", "preceded", "precedes", "follow", "followed", "follows",
     # stop 13: "did austria or russia rank higher?" over two rows of a ranked table
     "rank", "ranked", "ranking", "placed", "finished"}
)
_AUX = re.compile(
    r"^\s*(is|was|were|are|did|does|do|has|have|had|can|could|will|would|should|am)\b",
    re.IGNORECASE,
)
_PAIR = re.compile(r"\b([a-z]+)\s*(?:\bor\b|/)\s*([a-z]+)\b")
_WORD = re.compile(r"[a-z]+")
# a yes/no question after a short opening phrase: "in the chart is x listed before y?"
_LATE_AUX = re.compile(r"^\s*(?:in|on|at|for|during|according to|of)\b[^?]{0,40}?\b"
                       r"(is|was|were|are|did|does|do|has|have|had)\b", re.IGNORECASE)
_WH = re.compile(r"\b(which|who|whom|whose|what|where|when|how|why)\b")
_THAN_OR = re.compile(r"\b([a-z]+) than or ([a-z]+) than\b")


@dataclass(frozen=True)
class QuestionForm:
    """``kind``: ``pair`` (answer one of two words: "more or less than 15?"), ``pair_choice``
    (the two words name the operands: "were more founded before or after 2000?"), ``choice``
    (answer a name), ``yesno``, or ``unknown`` (no question); ``direction``: the comparison
    the question's words ask for."""

    kind: Literal["pair", "pair_choice", "choice", "yesno", "unknown"]
    pair: tuple[tuple[str, str], tuple[str, str]] | None = None
    direction: str | None = None


def question_form(question: str | None) -> QuestionForm:
    """The answer form and direction a comparison question asks for (see the module doc)."""
    if not question or not question.strip():
        return QuestionForm("unknown")
    q = _THAN_OR.sub(r"\1 or \2 than", question.lower())  # "greater than or less than"
    pair, start = None, 0
    for m in _PAIR.finditer(q):
        a, b = m.groups()
        if a in PAIR_WORDS and b in PAIR_WORDS:
            da, db = DIRECTION_WORDS.get(a), DIRECTION_WORDS.get(b)
            if da and db and da != db:
                pair, start = ((a, da), (b, db)), m.start()
                break
    direction = next((DIRECTION_WORDS[w] for w in _WORD.findall(q) if w in DIRECTION_WORDS), None)
    if pair is not None:
        before = [DIRECTION_WORDS[w] for w in _WORD.findall(q[:start]) if w in DIRECTION_WORDS]
        if before and before[-1] in (">", "<"):
            return QuestionForm("pair_choice", pair, before[-1])
        return QuestionForm("pair", pair, pair[0][1])
    if " or " in q or "," in q.split("?")[0] and not _AUX.match(q):
        return QuestionForm("choice", None, direction)
    if _AUX.match(q) or _LATE_AUX.match(q) and not _WH.search(q):
        return QuestionForm("yesno", None, direction)
    return QuestionForm("choice", None, direction)


def rank_direction(question: str | None) -> tuple[str, str] | None:
    """The first rank word of the question and the direction it asks for over ranks.

    >>> rank_direction("did alex polita finish above or below lorenzo lanzi?")
    ('above', '<')
    >>> rank_direction("how many goals?") is None
    True
    """
    if not question:
        return None
    for w in _WORD.findall(question.lower()):
        if w in RANK_WORDS:
            return w, RANK_WORDS[w]
    return None


_AMOUNT = re.compile(
    r"\b(difference|differ|how (many|much)\b.*\b(more|less|fewer|higher|lower|longer|shorter|"
    r"larger|smaller|bigger|greater|older|younger|faster|slower|further|farther|later|earlier)|"
    r"between|apart|gap|margin|by how)\b|\bhow (many|much)\b.*\b(decrease|decreased|increase|"
    r"increased|drop|dropped|gain|gained|rise|rose|fall|fell|lose|lost|behind|ahead)\b"
)


def asks_for_amount(question: str | None) -> bool:
    """True when the question asks for the size of a difference ("how many more", "the
    difference between"), whose answer is not negative.

    >>> asks_for_amount("how many more medals did italy win than the soviet union?")
    True
    >>> asks_for_amount("how many places did the engine decrease from start to finish?")
    True
    >>> asks_for_amount("what was the net change in population?")
    False
    """
    return question is not None and bool(_AMOUNT.search(question.lower()))


# words asking for a total of several values ("the total votes", "combined", "in all")
_TOTAL = re.compile(r"\b(total|totals|totaled|totalled|combined|altogether|overall|in all|"
                    r"all together|sum|cumulative|aggregate)\b")
# "more tds", "most touchdowns", "fewer medals", "more in attendance": an amount of
# something, which several values make up together; not "more than", "more or less",
# "most of", "more often" / "more times" (how often: a count, not a sum)
_AMOUNT_OF = re.compile(
    r"\b(more|most|fewer|fewest|less|least)\s+(?!(?:than|or|and|of|often|times|likely|"
    r"frequently|recently|recent|so)\b)([a-z][a-z'’]*)"
)


def asks_total(question: str | None) -> str | None:
    """The words of a question that ask for a total of several values ("the total votes",
    "more tds with the rams", "combined"), or ``None``: a comparison or an arithmetic step
    reads an operand holding several numbers as their sum only then.

    >>> asks_total("did he score more tds with the los angeles rams or with the colts?")
    'more tds'
    >>> asks_total("how many total medals did they win?")
    'total'
    >>> asks_total("is the sample size of siena more or less than quinnipiac?") is None
    True
    >>> asks_total("who scored higher, argo ader or lauri pedaja?") is None
    True
    """
    if not question:
        return None
    q = question.lower()
    if m := _TOTAL.search(q):
        return m.group(1)
    if m := _AMOUNT_OF.search(q):
        return f"{m.group(1)} {m.group(2)}"
    return None


def superlative(question: str | None, times: bool = False) -> tuple[str, str] | None:
    """The first superlative adjective of a question and the extreme it asks for, ``'>'``
    the largest or ``'<'`` the smallest (``times``: over times "best" / "fastest" are the
    smallest); ``None`` without one. "most" / "least" are amounts, not read here.

    >>> superlative("did jeff gordon or jeremy mayfield record the highest average speed?")
    ('highest', '>')
    >>> superlative("is the best time for the 100 m more or less than ...?", times=True)
    ('best', '<')
    >>> superlative("who scored more?") is None
    True
    """
    if not question:
        return None
    for w in _WORD.findall(question.lower()):
        if times and w in SPEED_WORDS and w not in ("better", "worse", "faster", "slower",
                                                    "quicker"):
            return w, SPEED_WORDS[w]
        if w in ("best", "worst"):
            return w, ">" if w == "best" else "<"
        if w.endswith("est") and w in DIRECTION_WORDS and DIRECTION_WORDS[w] in (">", "<"):
            return w, DIRECTION_WORDS[w]
    return None


def mentions_years(question: str | None) -> bool:
    """True when the question itself counts in years ("how many years", "in years").

    >>> mentions_years("how many years did sun hao reign?"), mentions_years("how long?")
    (True, False)
    """
    return question is not None and re.search(r"\byears?\b", question.lower()) is not None


def order_word(question: str | None) -> str | None:
    """The first word of the question asking about the order of rows, or ``None``.

    >>> order_word("which film came first, halaal ki kamai or dariya dil?")
    'first'
    >>> order_word("who won more medals, china or italy?") is None
    True
    """
    if not question:
        return None
    return next((w for w in _WORD.findall(question.lower()) if w in ORDER_WORDS), None)
