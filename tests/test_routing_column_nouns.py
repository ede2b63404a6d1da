"""A function word that is a table's whole column name ("film") is routing evidence."""

from trustuqa_core import load_graph
from trustuqa_core.routing import column_heads, route

RANKING = b"Rank,Film,Year\n1,Some Like It Hot,1959\n2,Tootsie,1982\n4,Annie Hall,1977\n"
RACE = b"Rank,Name,Nation,Total\n1,Tina Maze,Slovenia,2:20.54\n4,Denise Karbon,Italy,2:21.28\n"


def test_column_heads_keeps_only_one_word_function_word_columns() -> None:
    assert column_heads(["Rank", "Film", "Year", "Best film", "Team"]) == {"film", "team"}


def test_a_film_question_goes_to_the_table_with_a_film_column() -> None:
    graph = load_graph(tables=[RACE, RANKING])
    decision = route("which film is ranked 4th?", graph)
    assert decision.sources == ("table2",)
    assert any("'film' is the name of a column" in e for e in decision.evidence["table2"])


def test_without_such_a_column_the_word_adds_nothing() -> None:
    graph = load_graph(tables=[RACE, RANKING.replace(b"Film", b"Title")])
    decision = route("which film is ranked 4th?", graph)
    assert decision.unsure and set(decision.sources) == {"table1", "table2"}
