"""Demonstrations: verified (question, query) pairs and dynamic retrieval (paper 3.3).

A :class:`Demo` is ``(question, query, answer, kind, origin)`` (:mod:`.model`). Pools
(:mod:`.pool`): the hand-written initial demos (``prompts/demos_initial.json``, each with the
small source it runs on), demos derived from benchmark data
(:mod:`trustuqa_core.evaluate.demo_pools`), and questions a user confirmed. A confirmed answer
becomes a demo only through :func:`confirm_demo` (:mod:`.verify`), which re-executes its query
on the data it came from and refuses it unless the query alone reproduces the answer.
Confirmed demos stay in the user's session (:func:`with_demos` adds them to a shared pool for
that session only); the operator may opt in to a store shared by all sessions
(:class:`UserDemoStore`, :mod:`.store`, a JSONL file), which only ever returns re-executed
demos.

>>> from trustuqa_core.mapping import HashingEncoder
>>> pool = DemoPool(initial_demos(), HashingEncoder(), cache_dir=None)
>>> len(pool.retrieve("How many gold medals did Italy win?", kinds=("table",), k=3).demos)
3
"""

from __future__ import annotations

from .model import KINDS_FOR, Demo, DemoSource, dedupe, normalize_question
from .pool import INITIAL_DEMO_FILES, DemoPool, Retrieval, Retrieved, initial_demos, with_demos
from .store import UserDemoStore
from .verify import DemoNotReproduced, ExecutionVerifier, Verifier, confirm_demo

__all__ = [
    "DemoSource",
    "Demo",
    "Retrieved",
    "Retrieval",
    "DemoPool",
    "Verifier",
    "ExecutionVerifier",
    "UserDemoStore",
    "DemoNotReproduced",
    "confirm_demo",
    "with_demos",
    "initial_demos",
    "normalize_question",
    "dedupe",
    "INITIAL_DEMO_FILES",
    "KINDS_FOR",
]
