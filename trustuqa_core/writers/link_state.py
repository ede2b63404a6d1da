"""What the table-linking rules share: the state they read and update, and the rule record.

:mod:`.tables` runs its ordered rules (:data:`.tables.LINK_RULES`) over one :class:`LinkState`
per question and table; each rule lives in the module of its kind of reading (conditions,
the column asked for, aggregates, superlatives, row order, comparisons) and is a plain
function ``rule_<name>(state) -> bool`` made into a :class:`LinkRule` by :func:`link_rule`.

>>> from trustuqa_core.writers.linking import Table
>>> t = Table("t", ["Player", "School"], {}, {}, 1, {})
>>> s = LinkState.start("What school did Ann play for?", t)
>>> s.q[:2], sorted(s.mentions), s.free_columns()
(['what', 'school'], ['School'], ['Player', 'School'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .computed import Computed
from .linking import HAS, SAME, Cond, Mentions, Table, header_mentions, mention_positions, tokens

__all__ = ["LinkState", "LinkRule", "link_rule"]


@dataclass
class LinkState:
    """What the rules have read of one question over one table so far.

    ``q`` are the question's tokens, ``mentions`` the column names it names; ``covered`` the
    token positions a condition or a full column-name mention uses (not cue words), ``fired``
    the names of the rules that changed something. The other fields become the plan.
    """

    question: str
    q: list[str]
    table: Table
    mentions: Mentions
    conds: list[Cond] = field(default_factory=list)
    covered: set[int] = field(default_factory=set)
    select: str | None = None
    agg: str = ""
    ranking: tuple[str, str] | None = None
    neighbour: str = ""
    exclude: tuple[str, str] | None = None
    computed: Computed | None = None
    fired: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, question: str, table: Table) -> LinkState:
        q = tokens(question)
        return cls(question, q, table, header_mentions(q, table.columns))

    def named(self, at_least: float = 0.0) -> set[int]:
        """Token positions of the column-name mentions scoring ``at_least`` (1.0: named in
        full, 0.5: named enough to rank or compare by)."""
        return mention_positions(self.mentions, at_least)

    def _conditioned(self) -> set[str]:
        """Columns a condition uses (a negated one may still be asked for: *what other
        partner did he have besides X?*)."""
        return {c.column for c in self.conds if not c.negated}

    def free_mentions(self) -> Mentions:
        """Column-name mentions of columns no condition uses (but a negated one)."""
        used = self._conditioned()
        return {c: m for c, m in self.mentions.items() if c not in used}

    def free_columns(self) -> list[str]:
        """Columns no condition uses (but a negated one), in table order."""
        used = self._conditioned()
        return [c for c in self.table.columns if c not in used]

    def take_computed(self, found: Computed | None) -> bool:
        """A computed reading (``found``, unless None) replaces the plain read: no aggregate,
        ranking, summary row or neighbour row is left. Not with a blank-cell or same-as
        condition (:data:`.linking.HAS`, :data:`.linking.SAME`), which only the plain plan
        writes."""
        if found is None or any(c.cmp in (HAS, SAME) for c in (*found.rows, *found.filters)):
            return False  # blank-cell / same-as conditions: only the plain plan writes them
        self.computed, self.agg, self.ranking, self.exclude, self.neighbour = (
            found, "", None, None, "")
        return True


@dataclass(frozen=True)
class LinkRule:
    """One step of table linking: ``apply`` reads and updates the state, and says whether it
    changed anything (shown in :func:`.tables.link_rules`, checked by
    ``tests/fixtures/linking.txt``)."""

    name: str
    doc: str
    apply: Callable[[LinkState], bool]


def link_rule(apply: Callable[[LinkState], bool]) -> LinkRule:
    """The rule of a function ``rule_<name>``, documented by its docstring.

    >>> link_rule(lambda s: False).name
    '<lambda>'
    """
    name = apply.__name__.removeprefix("rule_")
    return LinkRule(name, " ".join((apply.__doc__ or "").split()), apply)
