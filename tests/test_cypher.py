"""Cypher engine: plans compiled to openCypher and run on Ladybug agree with our executor on
small hand-made KG / TKG graphs (answers worked out by hand), parameters carry every literal,
unsupported operations are named, and the CLI's ``query --engine cypher``."""

from __future__ import annotations

import json

import pytest

from trustuqa_core import build_graph, load_source
from trustuqa_core.cli import main
from trustuqa_core.cypher import (
    CypherCompileError,
    CypherRunError,
    CypherStore,
    compile_program,
    run_cypher_query,
    validate_cypher,
)
from trustuqa_core.execute import run_query
from trustuqa_core.mapping import Mapper
from trustuqa_core.query.parse import parse

KG = b"""Kismet|directed_by|William Dieterle
Juarez|directed_by|William Dieterle
Dodge City|directed_by|Michael Curtiz
Juarez|release_year|1939
Kismet|release_year|1944
Dodge City|release_year|1939
Juarez|starred_actors|Bette Davis
Dodge City|starred_actors|Errol Flynn
Dodge City|starred_actors|Olivia de Havilland
Kismet|has_imdb_votes|120
Juarez|has_imdb_votes|900
Dodge City|has_imdb_votes|2000
O'Brien, Jr. "The Kid"|starred_actors|Bette Davis
"""

TKG = b"""Ann Smith\tmember of sports team\tReds FC\t1990\t1994
Ann Smith\tmember of sports team\tBlues FC\t1995\t1999
Bob Jones\tmember of sports team\tBlues FC\t1996\t2003
Cy Young\tposition held\tmayor\t1000\t2000
"""


def q(*lines: str) -> str:
    return "\n".join(f'Query{i}: "{line}"' for i, line in enumerate(lines, 1))


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    g = build_graph([load_source(KG, "kg", "movies.txt")])
    store = CypherStore.open(g, cache_dir=tmp_path_factory.mktemp("ladybug"))
    return g, Mapper(g), store


@pytest.fixture(scope="module")
def tkg(tmp_path_factory):
    g = build_graph([load_source(TKG, "tkg", "teams.tsv")])
    store = CypherStore.open(g, cache_dir=tmp_path_factory.mktemp("ladybug"))
    return g, Mapper(g), store


def both(env, text: str) -> tuple[list[str], list[str]]:
    """(our executor's answer, Ladybug's answer), both sorted."""
    g, m, store = env
    trace = run_query(text, g, m)
    assert trace.error is None, trace.error
    return sorted(trace.answer), run_cypher_query(text, g, m, store=store).answer


KG_CASES = [
    # movies directed by William Dieterle
    (q("get_information(relation='directed_by', tail_entity='William Dieterle')"),
     ["Juarez", "Kismet"]),
    # 2-hop: other movies by Kismet's director
    (q("get_information(relation='directed_by', head_entity='Kismet')",
       "get_information(relation='directed_by', tail_entity='output_of_query1')",
       "set_difference(set1='output_of_query2', set2='Kismet')"), ["Juarez"]),
    # 3-hop: actors of the movies sharing Kismet's director
    (q("get_information(relation='directed_by', head_entity='Kismet')",
       "get_information(relation='directed_by', tail_entity='output_of_query1')",
       "get_information(relation='starred_actors', head_entity='output_of_query2')"),
     ["Bette Davis"]),
    (q("get_information(relation='release_year', tail_entity='1939')"), ["Dodge City", "Juarez"]),
    (q("get_information(relation='release_year', tail_entity='1939')",
       "count(set='output_of_query1')"), ["2"]),
    (q("get_information(relation='directed_by', tail_entity='William Dieterle')",
       "get_information(relation='release_year', tail_entity='1939')",
       "set_intersection(set1='output_of_query1', set2='output_of_query2')"), ["Juarez"]),
    (q("get_information(relation='directed_by', tail_entity='Michael Curtiz')",
       "get_information(relation='release_year', tail_entity='1944')",
       "set_union(set1='output_of_query1', set2='output_of_query2')"), ["Dodge City", "Kismet"]),
    (q("get_information(head_entity='Juarez')"),
     ["directed_by", "has_imdb_votes", "release_year", "starred_actors"]),
    (q("get_information(relation='has_imdb_votes', tail_entity>'500')"), ["Dodge City", "Juarez"]),
    (q("get_information(relation='has_imdb_votes', tail_entity<='900')"), ["Juarez", "Kismet"]),
    (q("get_information(relation='has_imdb_votes', tail_entity>='highest')"), ["Dodge City"]),
    (q("get_information(relation='has_imdb_votes', tail_entity<='lowest')"), ["Kismet"]),
    # the n-th extreme counts distinct values (ties share a place), as our executor does
    (q("get_information(relation='has_imdb_votes', tail_entity>='second highest')"), ["Juarez"]),
    (q("get_information(relation='has_imdb_votes', tail_entity>='third highest')"), ["Kismet"]),
    (q("get_information(relation='has_imdb_votes', tail_entity<='2nd lowest')"), ["Juarez"]),
    (q("get_information(relation='release_year', tail_entity>='second highest')"),
     ["Dodge City", "Juarez"]),
    (q("get_information(relation='directed_by', tail_entity='William Dieterle')",
       "get_information(head_entity='output_of_query1', relation='release_year', "
       "tail_entity='1939')"), ["Juarez"]),
    (q("get_information(relation='release_year')"), ["1939", "1944"]),
    # equality with an earlier result of numbers (compared by numeric reading, own statement)
    (q("get_information(relation='directed_by', tail_entity='William Dieterle')",
       "get_information(relation='release_year', head_entity='output_of_query1')",
       "get_information(relation='release_year', tail_entity='output_of_query2')"),
     ["Dodge City", "Juarez", "Kismet"]),
    # a title with quotes and a comma travels as a parameter, never as query text
    (q("get_information(relation='starred_actors', tail_entity='Bette Davis')"),
     ["Juarez", "O'Brien, Jr. \"The Kid\""]),
    # an empty step gives an empty answer, not an error
    (q("get_information(relation='directed_by', tail_entity='William Dieterle')",
       "get_information(relation='release_year', tail_entity='1944')",
       "get_information(relation='release_year', tail_entity='1939')",
       "set_intersection(set1='output_of_query2', set2='output_of_query3')",
       "count(set='output_of_query4')"), ["0"]),
]


@pytest.mark.parametrize(("text", "expected"), KG_CASES)
def test_kg_programs_agree_with_the_executor(kg, text: str, expected: list[str]) -> None:
    ours, cypher = both(kg, text)
    assert ours == expected
    assert cypher == expected


TKG_CASES = [
    (q("get_information(head_entity='Ann Smith', relation='member of sports team', "
       "tail_entity='Blues FC', key='time')"), ["1995–1999"]),
    (q("get_information(relation='member of sports team', tail_entity='Blues FC', key='time', "
       "value='1996')"), ["Ann Smith", "Bob Jones"]),
    (q("get_information(head_entity='Ann Smith', relation='member of sports team', key='time', "
       "value='1992')"), ["Reds FC"]),
    # Reds FC ended in 1994: a year after the end does not match
    (q("get_information(head_entity='Ann Smith', relation='member of sports team', key='time', "
       "value='1997')"), ["Blues FC"]),
    (q("get_information(head_entity='Ann Smith', relation='member of sports team', "
       "tail_entity='Blues FC', key='start_time')"), ["1995"]),
    (q("get_information(relation='member of sports team', tail_entity='Blues FC', "
       "key='end_time', value>'2000')"), ["Bob Jones"]),
    (q("get_information(head_entity='Ann Smith', relation='member of sports team', "
       "key='start_time', value<'1995')"), ["Reds FC"]),
    (q("get_information(head_entity='Cy Young', relation='position held', key='time')"),
     ["1000–2000"]),
]


@pytest.mark.parametrize(("text", "expected"), TKG_CASES)
def test_tkg_programs_agree_with_the_executor(tkg, text: str, expected: list[str]) -> None:
    ours, cypher = both(tkg, text)
    assert ours == expected
    assert cypher == expected


def test_literals_are_parameters_and_the_text_passes_the_validator(kg) -> None:
    g, m, _ = kg
    text = q("get_information(relation='starred_actors', tail_entity='Bette Davis')",
             "get_information(relation='directed_by', head_entity='output_of_query1')")
    compiled = compile_program(m.map_program(parse(text)), g)
    assert "Bette" not in compiled.text and "starred_actors" not in compiled.text
    assert "starred_actors" in compiled.parameters.values()
    assert compiled.statements[0].inputs == ()
    assert "s1" in {v for st in compiled.statements if st.step == 2 for v in st.inputs}
    assert compiled.output == "s2" and compiled.kind == "nodes"
    for st in compiled.statements:
        assert validate_cypher(st.text) == st.text


def test_unsupported_operation_is_named(kg) -> None:
    g, m, _ = kg
    text = q("get_information(relation='has_imdb_votes', head_entity='Juarez')",
             "sum(set='output_of_query1')")
    with pytest.raises(CypherCompileError, match=r"Query2 \(sum\).*'sum' has no Cypher"):
        compile_program(m.map_program(parse(text)), g)


def test_comparison_with_an_earlier_result_is_named_as_not_compiled(kg) -> None:
    g, m, _ = kg
    text = q("get_information(relation='has_imdb_votes', head_entity='Juarez')",
             "get_information(relation='has_imdb_votes', tail_entity>'output_of_query1')")
    assert sorted(run_query(text, g, m).answer) == ["Dodge City"]  # our executor can
    with pytest.raises(CypherCompileError, match=r"Query2 \(select\).*only literal numbers"):
        compile_program(m.map_program(parse(text)), g)


def test_tables_are_refused_with_a_clear_error() -> None:
    g = build_graph([load_source(b"Name,Age\nAnn,30\n", "table", "people.csv")])
    mapped = Mapper(g).map_program(parse(q("get_information(relation='Age', tail_entity='30')")))
    with pytest.raises(CypherCompileError, match="table sources"):
        compile_program(mapped, g)


def test_store_is_built_once_per_content(tmp_path) -> None:
    g = build_graph([load_source(KG, "kg", "movies.txt")])
    first = CypherStore.open(g, cache_dir=tmp_path)
    first.close()
    again = CypherStore.open(g, cache_dir=tmp_path)
    assert first.load_seconds > 0 and again.load_seconds == 0.0
    assert again.execute("MATCH ()-[f:Fact]->() RETURN count(f)") == [[g.n_facts]]
    with pytest.raises(CypherRunError, match="read.only|Read.only|READ"):  # refused by the DB
        again.execute("CREATE (n:Node {id: 999, label: 'x'})")
    assert again.execute("MATCH (n:Node) RETURN count(n)") == [[g.n_nodes]]
    other = build_graph([load_source(KG + b"Kismet|in_language|English\n", "kg", "movies.txt")])
    assert CypherStore.open(other, cache_dir=tmp_path).path != again.path


@pytest.fixture
def kg_file(tmp_path):
    path = tmp_path / "movies.txt"
    path.write_bytes(KG)
    return path


def test_cli_query_engine_cypher_json(kg_file, capsys) -> None:
    query = q("get_information(relation='directed_by', head_entity='Kismet')",
              "get_information(relation='directed_by', tail_entity='output_of_query1')")
    assert main(["query", "--kg", str(kg_file), "--query", query, "--engine", "cypher",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine"] == "cypher"
    assert out["answer"] == ["Juarez", "Kismet"]
    assert "OPTIONAL MATCH" in out["cypher"] and "Kismet" not in out["cypher"]
    assert "// Query1, part 1 of 4" in out["cypher"] and "// Query2\n" in out["cypher"]
    assert {st["step"] for st in out["statements"]} == {1, 2}
    assert out["statements"][-1]["inputs"] == ["s1"]


def test_cli_query_engine_cypher_text_and_unsupported(kg_file, capsys) -> None:
    query = q("get_information(relation='release_year', tail_entity='1939')")
    assert main(["query", "--kg", str(kg_file), "--query", query, "--engine", "cypher"]) == 0
    out = capsys.readouterr().out
    assert "// Query1" in out and "answer: Dodge City | Juarez" in out
    bad = q("get_information(relation='has_imdb_votes', head_entity='Juarez')",
            "mean(set='output_of_query1')")
    assert main(["query", "--kg", str(kg_file), "--query", bad, "--engine", "cypher"]) == 1
    assert "'mean' has no Cypher translation" in capsys.readouterr().err
