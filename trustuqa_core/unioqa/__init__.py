"""UniOQA, the second system: a Cypher translator with entity and relation replacement (ERR),
a GRAG searcher over verbalised one-hop triples, and a label-free merge (docs/UNIOQA.md).

``err.py`` (rebind names in generated Cypher, choose by execution), ``translator.py`` (the LLM
Cypher writer; offline, our writer's program in chain form), ``grag.py`` (retrieval and the
LLM-read answer), ``merge.py`` (the decision), ``system.py`` (:func:`unioqa_answer`).
"""

from .err import Binding, ERRResult, Variant, replace_and_run
from .grag import Retrieval, SearcherAnswer, Triple, retrieve, search
from .merge import Decision, bna, merge
from .system import TranslatorRun, UniOQAAnswer, unioqa_answer
from .translator import CypherWriter, extract_cypher, program_cypher

__all__ = [
    "Binding", "ERRResult", "Variant", "replace_and_run",
    "Retrieval", "SearcherAnswer", "Triple", "retrieve", "search",
    "Decision", "bna", "merge",
    "TranslatorRun", "UniOQAAnswer", "unioqa_answer",
    "CypherWriter", "extract_cypher", "program_cypher",
]
