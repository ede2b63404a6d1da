"""Binding the made-up operand names of a conditional to earlier results.

LLM replies often write the condition of a choice with names that were never defined:
``if(set1 > set2, output_of_query1, output_of_query3)`` or ``if(set1 > 'output_of_query4',
'Brown', 'Jones')``, after steps that looked up one value per candidate (Query2: Brown's
number, Query4: Jones's number). The reading here is fixed and stated in the step's notes:
a name ending in 1 stands for the value about the *then* candidate, a name ending in 2 for
the value about the *else* candidate, where "the value about" a candidate is the latest
earlier result that holds values (not rows) and whose query chain names that candidate.
When no such result exists, or the binding would compare a result with itself, the name
stays unread and the step goes to the LLM fallback as before.

A comparison has no branches to name its candidates, so there (``compare(set1='set1',
set2='output_of_query4')``, ``compare(set1='set', set2='10')``) a made-up name stands for
the latest earlier value result that is neither an operand already nor about the same
entities as the other operand (:func:`bind_compare_placeholders`).

>>> is_placeholder("set1"), is_placeholder("value_2"), is_placeholder("Italy")
(True, True, False)
"""

from __future__ import annotations

import re

from ..ops.base import Context
from ..query.ast import Ref, Text
from ..results import Scalar
from .operands import operand_name

__all__ = [
    "is_placeholder",
    "bound_branch",
    "bind_placeholders",
    "bind_compare_placeholders",
    "PLACEHOLDER",
]

PLACEHOLDER = re.compile(
    r"^(?:set|value|val|count|num|number|operand|amount|score|result)_?([12])$", re.IGNORECASE
)
#: an operand name of a comparison that names no data (``set``, ``set1``, ``set3``, ``value``)
LOOSE_PLACEHOLDER = re.compile(
    r"^(?:set|value|val|count|num|number|operand|amount|score|result)_?\d?$", re.IGNORECASE
)


def is_placeholder(text: str) -> bool:
    """True for an operand name like ``set1`` / ``value_2`` that names no data."""
    return PLACEHOLDER.match(text.strip()) is not None


def _value_step(ctx: Context, name: str, avoid: set[int]) -> int | None:
    """The latest earlier step holding values whose query chain names ``name``."""
    wanted = name.strip().casefold()
    for step in sorted(ctx.env, reverse=True):
        if step >= ctx.step or step in avoid:
            continue
        r = ctx.env[step]
        if not r or all(not isinstance(e, Scalar) and ctx.graph.is_row(e) for e in r.elems):
            continue
        if any(n.strip().casefold() == wanted for n in ctx.names.get(step, ())):
            return step
    return None


def bind_placeholders(
    ctx: Context, left: object, right: object, then: object, otherwise: object
) -> tuple[object, object]:
    """``left``/``right`` with placeholder names replaced by the value results of the
    then / else candidates (module doc); unchanged when they cannot be bound."""
    operands = [left, right]
    if not any(isinstance(o, Text) and is_placeholder(o.value) for o in operands):
        return left, right
    branches = {"1": then, "2": otherwise}
    used = {o.step for o in operands if isinstance(o, Ref)}
    used |= {b.step for b in (then, otherwise) if isinstance(b, Ref)}
    restated = _restated(ctx, operands, branches, used)
    if restated is not None:
        return restated
    bound: list[object] = []
    for o in operands:
        m = PLACEHOLDER.match(o.value.strip()) if isinstance(o, Text) else None
        if m is None or not isinstance(o, Text):
            bound.append(o)
            continue
        name = operand_name(ctx, branches[m.group(1)])
        step = _value_step(ctx, name, used) if name else None
        if step is None:
            return left, right
        used.add(step)
        _remember(ctx, o.value, step)
        ctx.notes.append(
            f"{o.value!r} names no result: read as the value about the "
            f"{'then' if m.group(1) == '1' else 'else'} candidate {name!r}, "
            f"output_of_query{step}"
        )
        bound.append(Ref(step))
    return bound[0], bound[1]


def _restated(
    ctx: Context, operands: list[object], branches: dict[str, object], used: set[int]
) -> tuple[object, object] | None:
    """``if(set1 > 'output_of_query3', A, B)`` where output_of_query3 is itself the value
    about A (the *then* candidate named by the 1): the reply wrote the candidate's own value
    beside its made-up name, so the condition compares the two candidates' values, then's
    against else's: the placeholder's slot takes its own candidate's value and the written
    operand's slot the other candidate's (noted). ``None`` when the shape differs or a value
    cannot be found."""
    named = [(i, o) for i, o in enumerate(operands)
             if isinstance(o, Text) and PLACEHOLDER.match(o.value.strip())]
    written = [o for o in operands if isinstance(o, Ref)]
    if len(named) != 1 or len(written) != 1:
        return None
    (slot, placeholder), (ref,) = named[0], written
    digit = PLACEHOLDER.match(placeholder.value.strip())
    assert digit is not None and isinstance(placeholder, Text)
    mine, theirs = digit.group(1), "2" if digit.group(1) == "1" else "1"
    own_name = operand_name(ctx, branches[mine])
    other_name = operand_name(ctx, branches[theirs])
    if not own_name or not other_name or own_name.casefold() == other_name.casefold():
        return None
    if _value_step(ctx, own_name, used - {ref.step}) != ref.step:
        return None
    other = _value_step(ctx, other_name, used)
    if other is None:
        return None
    ctx.notes.append(
        f"{placeholder.value!r} names no result and output_of_query{ref.step} is already the "
        f"value about its candidate {own_name!r}: read as comparing it with the value about "
        f"{other_name!r}, output_of_query{other}"
    )
    out: list[object] = [Ref(other), Ref(other)]
    out[slot] = ref
    return out[0], out[1]


def _remember(ctx: Context, name: str, step: int) -> None:
    ctx.placeholders.setdefault(ctx.step, {})[name.strip().casefold()] = step


def bound_branch(ctx: Context, branch: object, condition: object) -> object:
    """A branch written as a made-up name the condition bound (``if set1 >
    'output_of_query4' then set1 else output_of_query4``): the step that name was read as;
    any other branch unchanged."""
    if not isinstance(branch, Text) or LOOSE_PLACEHOLDER.match(branch.value.strip()) is None:
        return branch
    steps = [ctx.step] + ([condition.step] if isinstance(condition, Ref) else [])
    for s in steps:
        step = ctx.placeholders.get(s, {}).get(branch.value.strip().casefold())
        if step is not None:
            ctx.notes.append(f"the branch {branch.value!r} is the name the condition read as "
                             f"output_of_query{step}")
            return Ref(step)
    return branch


def _is_values(ctx: Context, step: int) -> bool:
    r = ctx.env.get(step)
    if r is None or not r:
        return False
    return not all(not isinstance(e, Scalar) and ctx.graph.is_row(e) for e in r.elems)


def _about(ctx: Context, step: int) -> frozenset[str]:
    return frozenset(n.strip().casefold() for n in ctx.names.get(step, ()))


def bind_compare_placeholders(ctx: Context, left: object, right: object) -> tuple[object, object]:
    """``left``/``right`` of a comparison with made-up names (``'set1'``, ``'set'``) replaced
    by earlier value results: each takes the latest value result that is not an operand yet
    and is not about the same entities as a bound operand. Unchanged when a name cannot be
    bound (the step then goes to the fallback as before)."""
    operands = [left, right]
    loose = [isinstance(o, Text) and LOOSE_PLACEHOLDER.match(o.value.strip()) is not None
             for o in operands]
    if not any(loose):
        return left, right
    used = {o.step for o in operands if isinstance(o, Ref)}
    about = [_about(ctx, s) for s in used]
    free = [s for s in sorted(ctx.env, reverse=True)
            if s < ctx.step and s not in used and _is_values(ctx, s)]
    picked: list[int] = []
    for step in free:
        if len(picked) == sum(loose):
            break
        mine = _about(ctx, step)
        if mine and any(mine == other for other in about):
            continue
        picked.append(step)
        about.append(mine)
    if len(picked) < sum(loose):
        return left, right
    picked.sort()
    bound: list[object] = []
    for o, is_loose in zip(operands, loose, strict=True):
        if not is_loose:
            bound.append(o)
            continue
        step = picked.pop(0)
        name = o.value if isinstance(o, Text) else str(o)
        _remember(ctx, name, step)
        ctx.notes.append(f"{name!r} names no result: read as the latest other value result, "
                         f"output_of_query{step}")
        bound.append(Ref(step))
    return bound[0], bound[1]
