"""Syntax mapping: a mapped ``get_information`` call -> execution-plan operations (paper Table 1).

The rule table is keyed by the call's argument signature (``key`` counts as ``time_key`` when
it maps to a time key of a temporal graph). Each rule is a small named function; its docstring
shows the call and the plan. An unsupported signature raises :class:`RewriteError` listing
the supported ones. Other functions (set operations, aggregates, ``keep``, row navigation,
the reasoning functions) become a single operation named by the function's canonical name
(``calculate_difference`` -> ``difference``, see :mod:`.function_names`).

>>> from trustuqa_core.query.ast import Bound, Call, Arg, Text
>>> call = Call("get_information", (Arg("relation", Bound("Year", (0,), ("Year",), "relation")),
...                                 Arg("tail_entity", Text("1989"), ">")))
>>> [str(op) for op in rewrite(call)]
["select(relation='Year', value>'1989')"]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .errors import RewriteError
from .function_names import canonical_function, implied_argument
from .lexicon import word_set
from .query.ast import Arg, Bound, Call, Ref, Text

__all__ = ["Op", "GET_INFORMATION_RULES", "rewrite", "signature", "rule_table"]


@dataclass(frozen=True)
class Op:
    """One execution-plan operation; ``params`` values are Bound/Text/Ref or ``$k`` locals."""

    name: str
    params: tuple[tuple[str, object], ...]
    cmp: str = "="
    out: str = field(default="", compare=False)

    def param(self, key: str, default: object = None) -> object:
        return next((v for k, v in self.params if k == key), default)

    def __str__(self) -> str:
        parts = []
        for k, v in self.params:
            op = self.cmp if k in ("value", "time") else "="
            parts.append(f"{k}{op}{_show(v)}")
        text = f"{self.name}(" + ", ".join(parts) + ")"
        return f"{self.out} = {text}" if self.out else text


def _show(v: object) -> str:
    if isinstance(v, Bound):
        return repr(str(v)) if len(v.labels) == 1 else str(v)
    if isinstance(v, Ref):
        return str(v)
    if isinstance(v, Text):
        return repr(v.value)
    if isinstance(v, tuple):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    return str(v)


Rule = Callable[[dict[str, Arg]], list[Op]]


def _op(name: str, *params: tuple[str, object], cmp: str = "=", out: str = "") -> Op:
    return Op(name, tuple(params), cmp, out)


# argument names that already give a comparison its operator (an implied one is not added)
_OPERATOR_ARGS = frozenset({"op", "operator", "comparison", "comparator", "operation"})


def _gives(params: tuple[tuple[str, object], ...], name: str, cmp: str) -> bool:
    """True when a call already gives the argument its function's name implies."""
    if name == "operator":
        return cmp != "=" or any(n in _OPERATOR_ARGS for n, _ in params)
    return any(n == name for n, _ in params)

#: words that, compared against (``tail_entity>'largest'``), select the largest / smallest value
MAX_WORDS = word_set("superlative_max")
MIN_WORDS = word_set("superlative_min")


# "fewest" selects the smallest count, as "lowest" does (``tail_entity>='fewest'``)
_MIN_EXTRA = frozenset({"fewest"})
# "second most", "2nd highest", "third largest": the n-th distinct extreme
_ORDINALS = {"second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5,
             "5th": 5}
_MAX_EXTRA = frozenset({"most"})  # only after an ordinal ("second most"); alone it is frequency
# "best" / "worst": which end is best depends on the column (a place or a time: the smallest)
_QUALITY_WORDS = frozenset({"best", "worst"})


def _ranked_superlative(word: str) -> tuple[str, int] | None:
    """``('max', 2)`` for ``'second most'`` / ``'2nd highest'``; ``None`` for anything else."""
    parts = word.split(maxsplit=1)
    if len(parts) != 2 or parts[0] not in _ORDINALS:
        return None
    rest = parts[1].strip()
    if rest in MAX_WORDS | _MAX_EXTRA:
        return "max", _ORDINALS[parts[0]]
    if rest in MIN_WORDS | _MIN_EXTRA:
        return "min", _ORDINALS[parts[0]]
    return None


# "last" / "first", alone or before words naming the column (``tail_entity>='last season'``
# over Season): the last / first row in table order
_ROW_END = re.compile(r"^(?:the\s+)?(last|first|final)\b\s*(.*)$")


def _row_end(rel: Arg, word: str, cmp: str) -> str | None:
    """``'last'`` / ``'first'`` when ``word`` compared with ``cmp`` asks for the last / first
    row: the word alone or followed by words of the relation's name (``'last season'`` over
    ``Season``), never with ``=`` (``tail_entity='First'`` is a value).

    >>> arg = Arg("relation", Text("Season"))
    >>> _row_end(arg, "last season", ">="), _row_end(arg, "last", ">"), _row_end(arg, "first", "=")
    ('last', 'last', None)
    >>> _row_end(arg, "last place", ">=") is None
    True
    """
    m = _ROW_END.match(word)
    if cmp == "=" or m is None:
        return None
    rest = set(re.findall(r"[a-z0-9]+", m.group(2)))
    v = rel.value
    named = " ".join([v.text, *v.labels]) if isinstance(v, Bound) else str(getattr(v, "value", ""))
    if rest and not rest <= set(re.findall(r"[a-z0-9]+", named.lower())):
        return None
    return "last" if m.group(1) in ("last", "final") else "first"


def _select(rel: Arg, val: Arg, out: str = "") -> Op:
    word = val.value.value.strip().lower() if isinstance(val.value, Text) else ""
    if word in ("most", "least"):
        return _op("select_frequent", ("relation", rel.value), ("which", word), out=out)
    end = _row_end(rel, word, val.cmp)
    if end is not None:
        return _op("select_row_end", ("relation", rel.value), ("which", end),
                   ("value", val.value), cmp=val.cmp, out=out)
    if val.cmp != "=" and word in MAX_WORDS | MIN_WORDS | _MIN_EXTRA:
        which = "max" if word in MAX_WORDS else "min"
        return _op("select_extreme", ("relation", rel.value), ("which", which), out=out)
    if val.cmp != "=" and word in _QUALITY_WORDS:  # the column decides: places, times, ...
        return _op("select_extreme", ("relation", rel.value), ("which", word), out=out)
    ranked = _ranked_superlative(word) if val.cmp != "=" else None
    if ranked is not None:
        return _op("select_extreme", ("relation", rel.value), ("which", ranked[0]),
                   ("rank", ranked[1]), out=out)
    return _op("select", ("relation", rel.value), ("value", val.value), cmp=val.cmp, out=out)


def head_relation(a: dict[str, Arg]) -> list[Op]:
    """get_information(relation=r, head_entity=h) -> [project(relation=r, heads=h)]"""
    return [_op("project", ("relation", a["relation"].value), ("heads", a["head_entity"].value))]


def relation_tail(a: dict[str, Arg]) -> list[Op]:
    """get_information(relation=r, tail_entity<cmp>v) -> [select(relation=r, value<cmp>v)]

    With ``tail_entity='most'`` / ``'least'``: [select_frequent(relation=r, which='most')].
    With a comparison to a superlative (``tail_entity>='highest'``, ``'lowest'``...):
    [select_extreme(relation=r, which='max')].
    """
    return [_select(a["relation"], a["tail_entity"])]


def relation_value(a: dict[str, Arg]) -> list[Op]:
    """get_information(relation=r, value<cmp>v) -> [select(relation=r, value<cmp>v)]"""
    return [_select(a["relation"], a["value"])]


def key_value(a: dict[str, Arg]) -> list[Op]:
    """get_information(key=k, value<cmp>v) -> [select(relation=k, value<cmp>v)]"""
    return [_select(a["key"], a["value"])]


def key_tail(a: dict[str, Arg]) -> list[Op]:
    """get_information(key=k, tail_entity<cmp>v) -> [select(relation=k, value<cmp>v)]"""
    return [_select(a["key"], a["tail_entity"])]


def relation_only(a: dict[str, Arg]) -> list[Op]:
    """get_information(relation=r) -> [values(relation=r)]  (every value, one per fact)"""
    return [_op("values", ("relation", a["relation"].value))]


def key_only(a: dict[str, Arg]) -> list[Op]:
    """get_information(key=k) -> [values(relation=k)]"""
    return [_op("values", ("relation", a["key"].value))]


def head_key(a: dict[str, Arg]) -> list[Op]:
    """get_information(key=k, head_entity=h) -> [project(relation=k, heads=h)]"""
    return [_op("project", ("relation", a["key"].value), ("heads", a["head_entity"].value))]


def head_only(a: dict[str, Arg]) -> list[Op]:
    """get_information(head_entity=h) -> [relations_of(heads=h)]"""
    return [_op("relations_of", ("heads", a["head_entity"].value))]


def relation_key_value(a: dict[str, Arg]) -> list[Op]:
    """get_information(relation=r, key=k, value=v) -> [$1 = select(relation=k, value=v), project(relation=r, heads=$1)]"""  # noqa: E501
    return [
        _select(a["key"], a["value"], out="$1"),
        _op("project", ("relation", a["relation"].value), ("heads", "$1")),
    ]


def relation_key_tail(a: dict[str, Arg]) -> list[Op]:
    """get_information(relation=r, tail_entity=t, key=k) -> [$1 = select(relation=r, value=t), project(relation=k, heads=$1)]"""  # noqa: E501
    return [
        _select(a["relation"], a["tail_entity"], out="$1"),
        _op("project", ("relation", a["key"].value), ("heads", "$1")),
    ]


def relation_tail_key_value(a: dict[str, Arg]) -> list[Op]:
    """get_information(relation=r, tail_entity=t, key=k, value=v) -> [$1 = select(k, v), $2 = select(r, t), intersect($1, $2)]"""  # noqa: E501
    return [
        _select(a["key"], a["value"], out="$1"),
        _select(a["relation"], a["tail_entity"], out="$2"),
        _op("intersect", ("sets", ("$1", "$2"))),
    ]


def head_relation_key(a: dict[str, Arg]) -> list[Op]:
    """get_information(head_entity=h, relation=r, key=k) -> [$1 = project(relation=r, heads=h), project(relation=k, heads=$1)]

    A two-hop path h -r-> x -k-> y (e.g. a Freebase CVT node), or two columns of a row.
    """  # noqa: E501
    return [
        _op(
            "project",
            ("relation", a["relation"].value),
            ("heads", a["head_entity"].value),
            out="$1",
        ),
        _op("project", ("relation", a["key"].value), ("heads", "$1")),
    ]


def head_relation_tail(a: dict[str, Arg]) -> list[Op]:
    """get_information(head_entity=h, relation=r, tail_entity=t) -> [filter_heads(heads=h, relation=r, value=t)]"""  # noqa: E501
    t = a["tail_entity"]
    return [
        _op(
            "filter_heads",
            ("heads", a["head_entity"].value),
            ("relation", a["relation"].value),
            ("value", t.value),
            cmp=t.cmp,
        )
    ]


def fact_time(a: dict[str, Arg]) -> list[Op]:
    """get_information([head_entity=h,] [relation=r,] [tail_entity=t,] key='time') -> [fact_times(head=h, relation=r, tail=t, key='time')]"""  # noqa: E501
    params = [
        (n, a[src].value)
        for n, src in (("head", "head_entity"), ("relation", "relation"), ("tail", "tail_entity"))
        if src in a
    ]
    return [_op("fact_times", *params, ("key", a["time_key"].value))]


def time_head_relation(a: dict[str, Arg]) -> list[Op]:
    """get_information(head_entity=h, relation=r, key='time', value=v) -> [select_at_time(head=h, relation=r, key='time', time=v)]  (tails)"""  # noqa: E501
    v = a["value"]
    return [
        _op(
            "select_at_time",
            ("head", a["head_entity"].value),
            ("relation", a["relation"].value),
            ("key", a["time_key"].value),
            ("time", v.value),
            cmp=v.cmp,
        )
    ]


def time_relation_tail(a: dict[str, Arg]) -> list[Op]:
    """get_information(relation=r, tail_entity=t, key='time', value=v) -> [select_at_time(relation=r, tail=t, key='time', time=v)]  (heads)"""  # noqa: E501
    v = a["value"]
    return [
        _op(
            "select_at_time",
            ("relation", a["relation"].value),
            ("tail", a["tail_entity"].value),
            ("key", a["time_key"].value),
            ("time", v.value),
            cmp=v.cmp,
        )
    ]


GET_INFORMATION_RULES: dict[frozenset[str], Rule] = {
    frozenset({"relation", "head_entity"}): head_relation,
    frozenset({"relation", "tail_entity"}): relation_tail,
    frozenset({"relation", "value"}): relation_value,
    frozenset({"relation"}): relation_only,
    frozenset({"key", "value"}): key_value,
    frozenset({"key", "tail_entity"}): key_tail,
    frozenset({"key"}): key_only,
    frozenset({"key", "head_entity"}): head_key,
    frozenset({"head_entity"}): head_only,
    frozenset({"relation", "key", "value"}): relation_key_value,
    frozenset({"relation", "key", "tail_entity"}): relation_key_tail,
    frozenset({"relation", "tail_entity", "key", "value"}): relation_tail_key_value,
    frozenset({"relation", "key", "head_entity"}): head_relation_key,
    frozenset({"relation", "head_entity", "tail_entity"}): head_relation_tail,
    frozenset({"time_key", "head_entity"}): fact_time,
    frozenset({"time_key", "relation"}): fact_time,
    frozenset({"time_key", "head_entity", "relation"}): fact_time,
    frozenset({"time_key", "relation", "tail_entity"}): fact_time,
    frozenset({"time_key", "head_entity", "relation", "tail_entity"}): fact_time,
    frozenset({"time_key", "head_entity", "relation", "value"}): time_head_relation,
    frozenset({"time_key", "relation", "tail_entity", "value"}): time_relation_tail,
}


def signature(call: Call) -> tuple[str, ...]:
    """Sorted argument names of a get_information call, ``key`` -> ``time_key`` for time keys."""
    return tuple(sorted(_sig_name(a) for a in call.args))


def _sig_name(a: Arg) -> str:
    if a.name == "key" and isinstance(a.value, Bound) and a.value.role == "time_key":
        return "time_key"
    return a.name or "(positional)"


def rewrite(call: Call) -> list[Op]:
    """The execution plan of one mapped call (see the module docstring)."""
    if call.func != "get_information":
        params = tuple((a.name or f"arg{i + 1}", a.value) for i, a in enumerate(call.args))
        cmp = next((a.cmp for a in call.args if a.cmp != "="), "=")
        implied = implied_argument(call.func)
        if implied is not None and not _gives(params, implied[0], cmp):
            params = (*params, (implied[0], Text(implied[1])))
        return [Op(canonical_function(call.func) or call.func, params, cmp)]
    call = _unnumbered(call)
    compared = _compared_heads(call)
    if compared is not call:  # the same plan, then the reading said in the step's notes
        *ops, last = rewrite(compared)
        return [*ops, Op(last.name, last.params, last.cmp, "$c"),
                _op("intersect", ("sets", ("$c",)), ("reading", Text(_HEADS_READING)))]
    names = [_sig_name(a) for a in call.args]
    if names.count("head_entity") > 1:
        return _several_heads(call)
    if len(set(names)) < len(names):
        return _conjunction(call, names)
    rule = GET_INFORMATION_RULES.get(frozenset(names))
    if rule is None:
        raise RewriteError(
            f"no rule for get_information({', '.join(sorted(names))}); supported: "
            + "; ".join("(" + ", ".join(sorted(k)) + ")" for k in GET_INFORMATION_RULES)
        )
    return rule({n: a for n, a in zip(names, call.args, strict=True)})


# ``head_entity1``, ``head_entity_2``, ``tail_entity2``: a standard argument name numbered
_NUMBERED = re.compile(r"^(head_entity|tail_entity|relation|key|value)_?\d$")


def _unnumbered(call: Call) -> Call:
    """The call with numbered standard argument names read as the name itself
    (``get_information(relation='Team', head_entity1=A, head_entity2=B)`` has two
    ``head_entity`` arguments); other calls unchanged.

    >>> c = Call("get_information", (Arg("head_entity1", Text("a")), Arg("relation", Text("r"))))
    >>> [a.name for a in _unnumbered(c).args]
    ['head_entity', 'relation']
    """
    if not any(a.name and _NUMBERED.match(a.name) for a in call.args):
        return call
    args = tuple(Arg(m.group(1), a.value, a.cmp) if a.name and (m := _NUMBERED.match(a.name))
                 else a for a in call.args)
    return Call(call.func, args)


def _several_heads(call: Call) -> list[Op]:
    """Several ``head_entity`` arguments: the heads in all of them (an intersection, noted
    in the plan), then the rule of the call with that one ``head_entity``.

    ``get_information(relation='1st match', head_entity1=output_of_query1,
    head_entity2=output_of_query2)`` -> ``[$h = intersect(sets=[output_of_query1,
    output_of_query2]), project(relation='1st match', heads=$h)]``.
    """
    heads = [a for a in call.args if a.name == "head_entity"]
    rest = tuple(a for a in call.args if a.name != "head_entity")
    ops = [_op("intersect", ("sets", tuple(a.value for a in heads)),
               ("reading", Text(f"{len(heads)} head_entity arguments: the heads in all of "
                                "them")), out="$h")]
    inner = rewrite(Call(call.func, (*rest, heads[0])))
    first = heads[0].value
    return ops + [Op(o.name, tuple((k, "$h" if v is first else v) for k, v in o.params), o.cmp,
                     o.out) for o in inner]


def _compared_heads(call: Call) -> Call:
    """A ``head_entity`` compared with ``<``, ``>``, ``<=`` or ``>=`` is a condition on the
    relation's values, as a ``tail_entity`` is: the heads (rows, subjects) are not ordered.
    ``get_information(relation='row_number', tail_entity>='output_of_query2',
    head_entity<='output_of_query4')`` is the rows from one row number to another, and
    ``get_information(relation='Page', head_entity>='42')`` the rows whose page is 42 or more.
    Other calls unchanged.

    >>> c = Call("get_information", (Arg("relation", Text("Page")),
    ...                              Arg("head_entity", Text("42"), ">=")))
    >>> [(a.name, a.cmp) for a in _compared_heads(c).args]
    [('relation', '='), ('tail_entity', '>=')]
    """
    if not any(a.name == "head_entity" and a.cmp in _ORDER_CMPS for a in call.args):
        return call
    return Call(call.func, tuple(
        Arg("tail_entity", a.value, a.cmp) if a.name == "head_entity" and a.cmp in _ORDER_CMPS
        else a for a in call.args))


_ORDER_CMPS = frozenset({"<", ">", "<=", ">="})
_HEADS_READING = ("a head_entity compared with '<', '>', '<=' or '>=' is read as a condition "
                  "on the relation's values (as tail_entity): rows and subjects have no order")


def _conjunction(call: Call, names: list[str]) -> list[Op]:
    """Repeated names: pair the k-th relation with the k-th tail/value and intersect the parts
    (with unequal numbers, each condition reads the relation the mapper looked it up in).

    ``get_information(relation='Year', tail_entity>'1990', tail_entity<'2000')`` becomes two
    selects on ``Year`` and their intersection.
    """
    rels = [a for a, n in zip(call.args, names, strict=True) if n in ("relation", "key")]
    conds = [a for a, n in zip(call.args, names, strict=True) if n in ("tail_entity", "value")]
    if not rels or not conds or len(rels) + len(conds) != len(names):
        raise RewriteError(
            f"repeated arguments in get_information({', '.join(names)}) can only "
            "pair relations with tail entities/values"
        )
    if len(rels) == 1 or len(rels) == len(conds):
        pairs = [(rels[k] if len(rels) > 1 else rels[0], c) for k, c in enumerate(conds)]
    else:
        seen: dict[str | None, int] = {}
        pairs = []
        for c in conds:
            seen[c.name] = seen.get(c.name, 0) + 1
            pairs.append((_scope_of(call.args, c.name, seen[c.name]), c))
    ops: list[Op] = []
    for k, (rel, cond) in enumerate(pairs):
        ops.append(_select(rel, cond, out=f"${k + 1}"))
    ops.append(_op("intersect", ("sets", tuple(f"${k + 1}" for k in range(len(conds))))))
    return ops


def _scope_of(args: tuple[Arg, ...], name: str | None, occurrence: int) -> Arg:
    """The relation a condition reads, as the mapper scopes it: ``tail_entity`` pairs with
    ``relation`` (else ``key``), ``value`` with ``key`` (else ``relation``); the k-th
    ``value`` with the k-th ``key`` when there are several, else the first."""
    first, second = ("relation", "key") if name == "tail_entity" else ("key", "relation")
    for wanted in (first, second):
        found = [a for a in args if a.name == wanted]
        if found:
            return found[occurrence - 1] if occurrence <= len(found) else found[0]
    raise RewriteError(f"no relation for {name}")  # pragma: no cover - checked by the caller


def rule_table() -> list[tuple[str, str, str]]:
    """(signature, rule name, docstring) rows, for documentation and the app's Rules view."""
    return [
        (", ".join(sorted(k)), f.__name__, (f.__doc__ or "").strip().splitlines()[0])
        for k, f in GET_INFORMATION_RULES.items()
    ]
