"""Scores and records: one value holding two numbers (``21–7``, ``W 52–10``, ``22–18``).

Arithmetic on one such value uses both numbers (``difference`` of ``W 45–28`` is 17, see
:mod:`.arith`). A comparison needs one number per value, and which one depends on the
question's words, read here by fixed rules and stated in the step's notes:

* "total", "combined", "altogether": the sum of the two numbers;
* "winning" / "losing": the larger / the smaller number (a game's winning score);
* "against", "allowed", "conceded", "opponent", "away", "visiting", "lose", "lost", "losses":
  the second number (points against, the away side, or losses of a win–loss record);
* otherwise the first number (a team's own score as tables list it, or the wins of a record).

>>> read_score("W 52–10", "which game was higher scoring by nebraska?")
(52.0, 'its first number')
>>> read_score("67–62", "were more points scored against butler or purdue?")
(62.0, "its second number ('against')")
>>> read_score("2-1", "was the total goals scored more than 6?")
(3.0, "the sum of its two numbers ('total')")
>>> read_score("1–4", "in how many matches was the winning score above 4?")
(4.0, "the larger of its two numbers ('winning')")
>>> read_score("7:00", "when?") is None
True
"""

from __future__ import annotations

import re

__all__ = ["SCORE", "read_score"]

# a score or record holding two numbers: '21–7', 'W 52–10', 'L\xa016–3 (OT)', '1937–1978'
SCORE = re.compile(
    r"^\s*(?:(?:w|l|t|d|won|lost|win|loss|tie|draw)\b\.?[\s,]*)?"
    r"(\d+(?:\.\d+)?)\s*[–—\-−]\s*(\d+(?:\.\d+)?)\s*(?:\([^()]*\))?\s*$",
    re.IGNORECASE,
)
_SUM_WORDS = ("total", "combined", "altogether")
_SECOND_WORDS = ("against", "allowed", "conceded", "opponent", "opponents", "away", "visiting",
                 "visitors", "lose", "lost", "losses", "loss")
_WIN_WORDS = {"winning": max, "winner": max, "winners": max, "losing": min, "loser": min}
_WORD = re.compile(r"[a-z]+")


def read_score(text: str, question: str | None) -> tuple[float, str] | None:
    """One number for a score ``text`` as the question asks for it, and how it was read;
    ``None`` when ``text`` is not a score."""
    m = SCORE.match(text)
    if m is None:
        return None
    first, second = float(m.group(1)), float(m.group(2))
    words = _WORD.findall((question or "").lower())
    if (w := next((w for w in words if w in _SUM_WORDS), None)) is not None:
        return first + second, f"the sum of its two numbers ({w!r})"
    if (w := next((w for w in words if w in _WIN_WORDS), None)) is not None:
        which = "larger" if _WIN_WORDS[w] is max else "smaller"
        return _WIN_WORDS[w](first, second), f"the {which} of its two numbers ({w!r})"
    if (w := next((w for w in words if w in _SECOND_WORDS), None)) is not None:
        return second, f"its second number ({w!r})"
    return first, "its first number"
