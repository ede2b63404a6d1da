"""Golden traces: the full JSON record of representative runs (regenerate: --update-golden)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trustuqa_core import build_graph, load_source, run_query
from trustuqa_core.mapping import Mapper

GOLDEN = Path(__file__).parent / "fixtures" / "traces"
MEDALS = b"Rank,Nation,Gold,Silver\n1,China,10,5\n2,Italy,4,6\n3,Japan,4,2\n"
KG = (
    b"Following|directed_by|Christopher Nolan\nMemento|directed_by|Christopher Nolan\n"
    b"Memento|in_language|English\nInsomnia|directed_by|Christopher Nolan\n"
    b"Insomnia|in_language|English\nFollowing|in_language|English\nPi|directed_by|Darren Aronofsky\n"
)
TKG = b"Ann Smith\tmember of sports team\tReds FC\t1990\t1994\nAnn Smith\tmember of sports team\tBlues FC\t1995\t1999\n"

CASES = {
    "table_sum": (
        "table",
        MEDALS,
        """## Target type: {Gold}
Step1: Find the nations with 4 golds
Query1: "get_information(relation='Gold', tail_entity='4')"
Step2: Get their silver medals
Query2: "get_information(relation='Silver', head_entity='output_of_query1')"
Query3: "sum(set='output_of_query2')\"""",
    ),
    "kg_multi_hop": (
        "kg",
        KG,
        """Query1: "get_information(relation='directed_by', head_entity='Following')"
Query2: "get_information(relation='directed_by', tail_entity='output_of_query1')"
Query3: "set_difference(set1='output_of_query2', set2='Following')"
Query4: "get_information(relation='in_language', head_entity='output_of_query3')\"""",
    ),
    "tkg_time": (
        "tkg",
        TKG,
        """Query1: "get_information(head_entity='Ann Smith', relation='member of sports team', key='time')"
Query2: "max(set='output_of_query1')"
Query3: "get_information(head_entity='Ann Smith', relation='member of sports team', key='time', value='output_of_query2')\"""",
    ),
    "table_difference": (
        "table",
        MEDALS,
        """## Target type: {number}
Step1: Find the row whose Nation is China
Query1: "get_information(relation='Nation', tail_entity='China')"
Step2: Get its Gold
Query2: "get_information(relation='Gold', head_entity='output_of_query1')"
Step3: Find the row whose Nation is Italy
Query3: "get_information(relation='Nation', tail_entity='Italy')"
Step4: Get its Gold
Query4: "get_information(relation='Gold', head_entity='output_of_query3')"
Step5: How many more
Query5: "calculate_difference(value1='output_of_query2', value2='output_of_query4')\"""",
    ),
    "table_empty": (
        "table",
        MEDALS,
        """## Target type: {Nation}
Query1: "get_information(relation='Gold', tail_entity>'20')\"""",
    ),
    "parse_error": (
        "table",
        MEDALS,
        """Query1: "get_information(relation='Gold' tail_entity>'20'"\n""",
    ),
}


def _normalise(d: dict) -> dict:
    d = json.loads(json.dumps(d))
    d.pop("timings", None)
    for s in d["steps"] + ([d["target_step"]] if d.get("target_step") else []):
        s.pop("seconds", None)
    return d


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_trace(name: str, update_golden: bool) -> None:
    kind, data, text = CASES[name]
    g = build_graph([load_source(data, kind, name=f"{name}.{'csv' if kind == 'table' else 'txt'}")])
    got = _normalise(run_query(text, g, Mapper(g)).to_dict())
    path = GOLDEN / f"{name}.json"
    if update_golden or not path.exists():
        path.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        if not update_golden:
            pytest.fail(f"golden file {path.name} was missing and has been written; review it")
    assert got == json.loads(path.read_text(encoding="utf-8"))
