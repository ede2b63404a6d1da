"""RDF graphs (N-Triples ``.nt``, Turtle ``.ttl``) -> KG facts, through ``rdflib``.

Each RDF statement ``(s, p, o)`` becomes one KG fact. IRIs are shown by their ``rdfs:label``
when the graph gives one (an untagged or English label first), else by their local name (the
part after the last ``#``, ``/`` or ``:``); literals by their lexical form (``"1944"^^xsd:gYear``
-> ``1944``; rdflib normalises some, e.g. a Turtle ``1.5e6`` becomes ``1500000.0``); blank
nodes as ``_:b1``, ``_:b2``, ... in reading order. The ``rdfs:label`` statements that named
an IRI are not repeated as facts. Two IRIs shown by the same name become one node, which a
warning reports.

N-Triples is read line by line, so a fact's line is the file line it came from, the ``facts``
limit stops the reading as soon as it is passed, and a malformed line is named. Turtle is
parsed whole by rdflib (its size is bounded by the ``upload_bytes`` limit), facts are numbered
in statement order, and a syntax error names the line rdflib reports.

>>> facts = read_rdf(b'<http://ex.org/Kismet> <http://ex.org/directed_by> "William Dieterle" .\\n',
...                  "films.nt")
>>> list(zip(facts.heads, facts.relations, facts.tails, facts.lines))
[('Kismet', 'directed_by', 'William Dieterle', 1)]
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from ..errors import SourceError
from ..limits import current_limits
from ..sources import SourceFacts
from .text import check_count, read_text

__all__ = ["read_rdf", "RDF_FORMATS", "local_name"]

RDF_FORMATS = {".nt": "nt", ".ntriples": "nt", ".ttl": "turtle", ".turtle": "turtle"}
_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"


def local_name(iri: str) -> str:
    """The readable end of an IRI: after the last ``#``, ``/`` or ``:``, percent-decoded.

    >>> local_name("http://ex.org/film#Kismet"), local_name("http://ex.org/a/Z%C3%BCrich")
    ('Kismet', 'Zürich')
    >>> local_name("urn:isbn:0451450523"), local_name("http://ex.org/")
    ('0451450523', 'ex.org')
    """
    body = iri.rstrip("#/:")
    for sep in ("#", "/", ":"):
        cut = body.rfind(sep)
        if cut >= 0 and body[cut + 1 :].strip():
            return unquote(body[cut + 1 :])
    return iri


def read_rdf(
    source: str | Path | bytes, name: str | None = None, max_bytes: int | None = None
) -> SourceFacts:
    """Read an N-Triples or Turtle file (chosen by the suffix of ``name``) into KG facts."""
    name = name or (Path(source).name if not isinstance(source, bytes) else "graph.nt")
    fmt = RDF_FORMATS.get(Path(name.removesuffix(".gz")).suffix.lower())
    if fmt is None:
        raise SourceError(name, f"not an RDF file name; expected one of {', '.join(RDF_FORMATS)}")
    text = read_text(source, name, max_bytes)
    triples, lines = _ntriples(text, name) if fmt == "nt" else _turtle(text, name)
    facts = _facts(triples, lines, name)
    facts.path = None if isinstance(source, bytes) else str(source)
    return facts


class _Sink:
    """Collects what rdflib's N-Triples parser reads (its ``sink`` protocol)."""

    def __init__(self) -> None:
        self.triples: list[tuple[Any, Any, Any]] = []

    def triple(self, s: Any, p: Any, o: Any) -> None:
        self.triples.append((s, p, o))


def _ntriples(text: str, name: str) -> tuple[list[tuple[Any, Any, Any]], list[int]]:
    from rdflib.exceptions import ParserError
    from rdflib.plugins.parsers.ntriples import W3CNTriplesParser

    sink = _Sink()
    parser = W3CNTriplesParser(sink)  # type: ignore[arg-type]
    lines: list[int] = []
    cap = current_limits().facts
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        before = len(sink.triples)
        try:
            parser.parse(io.StringIO(line + "\n"))
        except (ParserError, ValueError) as exc:
            problem = f"malformed N-Triples statement ({_short(exc)})"
            raise SourceError(name, problem, number) from None
        lines += [number] * (len(sink.triples) - before)
        if len(lines) > cap:
            check_count(name, len(lines), "facts", "facts")
    if not sink.triples:
        raise SourceError(name, "no RDF statements found")
    return sink.triples, lines


def _turtle(text: str, name: str) -> tuple[list[tuple[Any, Any, Any]], list[int]]:
    import rdflib
    from rdflib.plugins.parsers.notation3 import BadSyntax

    graph = rdflib.Graph()
    try:
        graph.parse(data=text, format="turtle")
    except BadSyntax as exc:
        why = getattr(exc, "_why", "bad syntax")
        raise SourceError(name, f"malformed Turtle ({why})", exc.lines + 1) from None
    except (ValueError, rdflib.exceptions.Error) as exc:
        raise SourceError(name, f"malformed Turtle ({_short(exc)})") from None
    check_count(name, len(graph), "facts", "facts")
    if len(graph) == 0:
        raise SourceError(name, "no RDF statements found")
    from rdflib import BNode

    # the graph is a set: sort it (blank-node ids are random per parse, so they sort as one)
    triples = sorted(graph, key=lambda t: tuple("" if isinstance(x, BNode) else str(x) for x in t))
    return triples, list(range(1, len(triples) + 1))


def _facts(triples: list[tuple[Any, Any, Any]], lines: list[int], name: str) -> SourceFacts:
    from rdflib import BNode, Literal, URIRef

    labels = _labels(triples)
    shown: dict[str, set[str]] = {}
    blanks: dict[str, str] = {}  # rdflib's random ids -> _:b1, _:b2, ... in reading order

    def text(term: Any) -> str:
        if isinstance(term, URIRef):
            iri = str(term)
            label = labels.get(iri) or local_name(iri)
            shown.setdefault(label, set()).add(iri)
            return label
        if isinstance(term, BNode):
            return blanks.setdefault(str(term), f"_:b{len(blanks) + 1}")
        if isinstance(term, Literal):
            return str(term).replace("\x00", "")
        return str(term)

    heads: list[str] = []
    rels: list[str] = []
    tails: list[str] = []
    kept: list[int] = []
    for (s, p, o), line in zip(triples, lines, strict=True):
        if str(p) == _LABEL and isinstance(s, URIRef) and str(s) in labels:
            continue  # the label names its subject already
        h, r, t = text(s), text(p), text(o)
        if not (h.strip() and r.strip() and t.strip()):
            continue
        heads.append(h)
        rels.append(r)
        tails.append(t)
        kept.append(line)
    check_count(name, len(heads), "facts", "facts")
    clashes = sorted(label for label, iris in shown.items() if len(iris) > 1)
    warnings = []
    if clashes:
        first = ", ".join(sorted(shown[clashes[0]])[:3])
        warnings.append(
            f"{name}: {len(clashes)} name(s) stand for more than one IRI and are one node here "
            f"(e.g. {clashes[0]!r}: {first}); distinct rdfs:label values keep them apart"
        )
    return SourceFacts(
        name=name,
        kind="kg",
        heads=heads,
        relations=rels,
        tails=tails,
        lines=kept,
        warnings=warnings,
    )


def _labels(triples: Iterable[tuple[Any, Any, Any]]) -> dict[str, str]:
    """One label per labelled IRI: untagged first, then English, then the smallest other."""
    from rdflib import Literal, URIRef

    found: dict[str, list[tuple[int, str]]] = {}
    for s, p, o in triples:
        if str(p) == _LABEL and isinstance(s, URIRef) and isinstance(o, Literal) and str(o).strip():
            lang = (o.language or "").lower()
            rank = 0 if not lang else 1 if lang.startswith("en") else 2
            found.setdefault(str(s), []).append((rank, str(o)))
    return {iri: min(options)[1] for iri, options in found.items()}


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 200 else text[:200] + "..."
