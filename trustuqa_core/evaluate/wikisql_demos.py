"""WikiSQL SQL -> query program text, to turn WikiSQL questions into demonstrations.

Used only for WikiSQL demos (:func:`~.demo_pools.wikisql_demos`); the gold programs of the
ceilings are built as syntax trees by :func:`~.wikisql_gold.sql_to_program`. Conditions become
``get_information(relation=<column>, tail_entity<op>'<value>')`` steps joined by
``set_intersection``; the selected column is read from the rows; the aggregate becomes
``count`` / ``max`` / ``min`` / ``sum`` / ``mean``.

>>> print(sql_to_demo_text({"sel": 1, "agg": 0, "conds": [[0, 0, "Duke"]]}, ["School", "Player"]))
## Target type: {Player}
Step1: Find the rows whose School is Duke
Query1: "get_information(relation='School', tail_entity='Duke')"
Step2: Get the Player of output_of_query1
Query2: "get_information(relation='Player', head_entity='output_of_query1')"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..query.ast import Call, Cmp
from ..query.build import call, get_information, program, ref
from ..query.render import render_program

__all__ = ["sql_to_demo_text", "AGGREGATES", "COND_OPS"]

AGGREGATES = ("", "max", "min", "count", "sum", "mean")
COND_OPS: tuple[Cmp, ...] = ("=", ">", "<")
_VERB = {"max": "largest", "min": "smallest", "sum": "total", "mean": "average"}
_CMP_WORDS = {"=": "is", ">": "is greater than", "<": "is less than"}


def _quote(text: object) -> str:
    """A value written as WikiSQL stores it (integral floats without ``.0``)."""
    if isinstance(text, float) and text.is_integer():
        text = int(text)
    return str(text).replace("\n", " ").strip()


def sql_to_demo_text(sql: Mapping[str, Any], header: Sequence[str]) -> str:
    """The program text for one WikiSQL query (``sel``, ``agg``, ``conds`` with column
    indices), built with :mod:`trustuqa_core.query.build` so every label is quoted.

    >>> from trustuqa_core.query import parse
    >>> text = sql_to_demo_text({"sel": 0, "agg": 3, "conds": [[1, 0, "O'Neal"]]},
    ...                         ["Player", "Name"])
    >>> parse(text).queries[0].call.args[1].value.value
    "O'Neal"
    """
    sel, agg = header[int(sql["sel"])], AGGREGATES[int(sql["agg"])]
    steps: list[tuple[str, Call]] = []
    for col, op, value in sql.get("conds", ()):
        name, cmp, val = header[int(col)], COND_OPS[int(op)], _quote(value)
        steps.append((f"Find the rows whose {name} {_CMP_WORDS[cmp]} {val}",
                      get_information(cmp, relation=name, tail_entity=val)))
    if len(steps) > 1:
        sets = {f"set{i}": ref(i) for i in range(1, len(steps) + 1)}
        steps.append(("Keep the rows found by every condition", call("set_intersection", **sets)))
    rows = len(steps)
    if agg == "count":
        if rows == 0:
            steps.append((f"Get every {sel}", get_information(relation=sel)))
        steps.append((f"Count output_of_query{len(steps)}", call("count", set=ref(len(steps)))))
        return render_program(program(f"number of {sel}", steps))
    if rows:
        steps.append((f"Get the {sel} of output_of_query{rows}",
                      get_information(relation=sel, head_entity=ref(rows))))
    else:
        steps.append((f"Get every {sel}", get_information(relation=sel)))
    if agg:
        last = len(steps)
        steps.append((f"Find the {_VERB[agg]} of output_of_query{last}",
                      call(agg, set=ref(last))))
    return render_program(program(sel, steps))
