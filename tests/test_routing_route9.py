"""Routing rules of route9 (issue 13, the mix-unknown gap): the words of a count phrase and a
table's layout words are no evidence of which table holds the data. Each test builds its
graphs here and fails on the router before route9."""

from __future__ import annotations

from trustuqa_core import load_graph
from trustuqa_core.routing import route

#: a medal table (a *Total* column and a summary row *Total*) and an election table
MEDALS = b"Rank,Nation,Gold,Total\n1,France,3,5\n2,Italy,1,2\nTotal,Total,4,7\n"
CANDIDATES = b"Candidate,Party,Votes\nAnn Lee,Green,120\nBo Chan,Blue,90\n"
#: a league table with a *Position in table* column, and a roster of schools
LEAGUE = b"Team,Position in table,Points\nChelsea,1st,80\nLeeds,2nd,75\n"
SCHOOLS = b"School,City,Founded\nHill High,Leeds,1901\nLake High,York,1950\n"


def test_a_count_phrase_names_no_total_column_nor_summary_row() -> None:
    """*the total number of candidates*: *total* named the medal table's summary row and
    column, *number* nothing of either; the counted noun names the election table's
    column."""
    g = load_graph(tables=[MEDALS, CANDIDATES])
    d = route("what is the total number of candidates?", g)
    assert d.sources == ("table2",), (d.how, d.evidence)
    assert not any("'total'" in line for line in d.evidence.get("table1", ()))


def test_total_outside_a_count_phrase_still_names_the_column() -> None:
    """*total* said on its own (*the total of France*) still points at the medal table."""
    g = load_graph(tables=[MEDALS, CANDIDATES])
    d = route("what is the total of France?", g)
    assert d.sources == ("table1",), (d.how, d.evidence)
    assert any("'total' is a word of a relation" in line for line in d.evidence["table1"])


def test_a_layout_word_is_no_relation_word() -> None:
    """*in the table* refers to the table asked about, whichever it is: *table* is not the
    word of the league's *Position in table* column (it still counts as layout, for every
    table alike)."""
    g = load_graph(tables=[LEAGUE, SCHOOLS])
    d = route("what's the number of schools represented in the table?", g)
    assert d.sources == ("table2",), (d.how, d.evidence)
    assert not any("'table' is a word of a relation" in line
                   for lines in d.evidence.values() for line in lines)
    assert all(any("refers to a table's layout" in line for line in d.evidence[t])
               for t in ("table1", "table2"))
