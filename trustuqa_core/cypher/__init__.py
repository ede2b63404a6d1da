"""Cypher for the execution plan: compile to openCypher, store a graph in Ladybug, run, validate.

See docs/UNIOQA.md. ``compile.py`` (mapped program -> Cypher with parameters), ``store.py``
(bulk load into an embedded Ladybug database), ``run.py`` (execute, read answer labels),
``validate.py`` (read-only check of Cypher text written by anyone). The differential check
against our executor on benchmark programs is :mod:`trustuqa_core.evaluate.cypher_differential`.
"""

from .compile import SUPPORTED_OPS, CompiledCypher, CypherCompileError, compile_program
from .run import CypherRun, run_compiled, run_cypher_query, run_mapped, store_for
from .store import CypherRunError, CypherStore
from .validate import CypherValidationError, validate_cypher

__all__ = [
    "SUPPORTED_OPS",
    "CompiledCypher",
    "CypherCompileError",
    "compile_program",
    "CypherRun",
    "run_compiled",
    "run_cypher_query",
    "run_mapped",
    "store_for",
    "CypherStore",
    "CypherRunError",
    "CypherValidationError",
    "validate_cypher",
]
