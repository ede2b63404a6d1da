"""``python -m trustuqa_core ask``: answer a natural-language question over files.

The question goes to :func:`trustuqa_core.answer.answer` (LLM writer when one is configured,
else the offline writer); the answer, the steps of the winning query and the trust verdict
are printed (one JSON object with ``--json``).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..answer import answer, resolve_writer
from ..answer import over_sources as answer_over_sources
from ..errors import TrustUQAError, UsageError
from ..mapping import Mapper, default_encoder
from ..mapping.dense import Encoder, HashingEncoder
from ..store import GraphStore
from ..unioqa import UniOQAAnswer, unioqa_answer
from ..verdict import judge, render_verdict
from .common import graph_from_args

__all__ = ["cmd_ask", "ask_cli", "check_question", "question_of", "over_sources", "print_unioqa"]


def cmd_ask(args: argparse.Namespace) -> int:
    """``ask``: the question checked, the graph read, then :func:`ask_cli`."""
    args.question = check_question(question_of(args))
    graph = graph_from_args(args, getattr(args, "engine", "memory"))
    return ask_cli(args, over_sources(graph, getattr(args, "over", None) or []))


def over_sources(graph: GraphStore, names: list[str]) -> GraphStore:
    """``graph`` restricted to the sources ``names`` (``--over``); all of it when none is
    named. A name that is not loaded is a :class:`UsageError` listing the loaded ones.

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"A\\n1\\n", b"B\\n2\\n"])
    >>> [s.name for s in over_sources(g, ["table2"]).sources]
    ['table2']
    >>> over_sources(g, ["gone.csv"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    trustuqa_core.errors.UsageError: --over: no loaded source named 'gone.csv'; loaded: ...
    """
    if not names:
        return graph
    try:
        return answer_over_sources(graph, None, names)[0]
    except UsageError as err:
        raise UsageError(f"--over: {err}") from err


def question_of(args: argparse.Namespace) -> str:
    """The question of ``ask``: the ``QUESTION`` argument or ``--question`` (one of them; both
    only when they agree), else a :class:`UsageError` saying how to give it.

    >>> question_of(argparse.Namespace(question_text="who won?", question=None))
    'who won?'
    >>> question_of(argparse.Namespace(question_text=None, question=None))
    Traceback (most recent call last):
    ...
    trustuqa_core.errors.UsageError: no question: give it as the last argument, e.g. ask \
--table results.csv "who won?", or with --question
    """
    given = [q for q in (getattr(args, "question_text", None), args.question) if q is not None]
    if not given:
        raise UsageError('no question: give it as the last argument, e.g. ask --table '
                         'results.csv "who won?", or with --question')
    if len(given) == 2 and given[0].strip() != given[1].strip():
        raise UsageError("two different questions: give the QUESTION argument or --question, "
                         "not both")
    return given[0]


def check_question(text: str) -> str:
    """The question without surrounding blanks; an empty one is a :class:`UsageError` (an empty
    question would otherwise match any demonstration and "answer" with a whole column).

    >>> check_question("  who won? ")
    'who won?'
    >>> check_question(" \t")
    Traceback (most recent call last):
    ...
    trustuqa_core.errors.UsageError: empty question: --question needs some text
    """
    text = text.strip()
    if not text:
        raise UsageError("empty question: --question needs some text")
    return text


def ask_cli(args: argparse.Namespace, graph: GraphStore) -> int:
    """``python -m trustuqa_core ask``: print the answer (or one JSON object with ``--json``).

    Exit status 0 when answered, 1 otherwise; an empty question raises :class:`UsageError`.
    """
    args.question = check_question(args.question)
    mapper = Mapper(graph, default_encoder())
    privacy = not getattr(args, "allow_data", False)
    encoder: Encoder = HashingEncoder()
    try:  # demos are retrieved with the sentence encoder when its model loads
        if mapper.encoder is not None:
            mapper.encoder.encode(["?"])
            encoder = mapper.encoder
    except TrustUQAError as err:
        sys.stderr.write(f"note: demonstrations retrieved with character trigrams ({err})\n")
    if getattr(args, "system", "trustuqa") == "unioqa":
        writer, client = resolve_writer(args.writer)
        uni = unioqa_answer(args.question, graph, "offline" if client is None else "openai",
                            client=client, mapper=mapper, privacy=privacy, encoder=encoder)
        print_unioqa(uni, args.json)
        return 0 if uni.ok else 1
    result = answer(args.question, graph, writer=args.writer, mapper=mapper, privacy=privacy,
                    encoder=encoder)
    out = sys.stdout
    if args.json:
        out.write(json.dumps(result.to_dict(), ensure_ascii=False, indent=2, default=str) + "\n")
        return 0 if result.ok else 1
    out.write(f"writer: {result.writer}\n")
    for warning in result.warnings:
        out.write(f"note: {warning}\n")
    if result.trace is not None:
        for step in result.trace.steps:
            out.write(f"Query{step.number}: {step.mapped_call} [{step.status}]\n")
    verdict = result.verdict or judge(result.trace, result.question, error=result.error)
    out.write(render_verdict(verdict, getattr(args, "over", None)))
    if result.ok:
        share = (f"confidence {result.confidence:.2f}, {result.votes_cast} votes"
                 if result.votes_cast > 1 else "one query ran: no vote, no confidence")
        out.write(f"answer: {' | '.join(result.answer)}  ({share})\n")
    else:
        out.write(f"no answer: {result.error}\n")
    return 0 if result.ok else 1


def print_unioqa(result: UniOQAAnswer, as_json: bool) -> None:
    """Print a UniOQA answer: the Cypher as written and after ERR, the searcher's triples and
    answer (unverified), the merge decision with its reason (one JSON object with ``--json``)."""
    out = sys.stdout
    if as_json:
        out.write(json.dumps(result.to_dict(), ensure_ascii=False, indent=2, default=str) + "\n")
        return
    tr = result.translator
    out.write(f"translator ({tr.writer}), Cypher as written:\n{tr.cypher or tr.compiled}\n")
    if tr.err is not None and tr.err.chosen is not None:
        swaps = ", ".join(f"{b.original!r} -> {b.chosen!r} ({b.score:.2f})"
                          for b in tr.err.chosen.bindings)
        out.write(f"ERR: {len(tr.err.variants)} rebuilt queries run; kept: {swaps}\n"
                  f"{tr.err.rebuilt_cypher}\n")
    if tr.error:
        out.write(f"translator note: {tr.error}\n")
    out.write(f"executed answer: {' | '.join(tr.answer) or '(none)'}\n")
    if result.searcher is None:
        out.write("searcher: not run (it needs an LLM)\n")
    else:
        s = result.searcher
        out.write(f"searcher: {len(s.retrieval.triples)} triples of "
                  f"{', '.join(s.retrieval.entities) or 'no linked entity'}; answer (LLM-read, "
                  f"not executed): {' | '.join(s.answer) or '(none)'}\n")
    d = result.decision
    out.write(f"decision: {d.source} ({d.reason}: {d.message})\n")
    label = " [unverified: LLM-read, not executed]" if d.unverified else ""
    out.write(f"answer: {' | '.join(result.answer)}{label}\n" if result.ok
              else f"no answer: {result.error}\n")
