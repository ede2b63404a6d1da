"""Offline writer chains (issue 13) on data made here: the *who among* shape of the across
benchmark and a key cell written as a formatted number (a box-office table, a film KG, an awards
TKG); a table column named by the KG role, and a key cell that is also a TKG value (a film
archive)."""

from __future__ import annotations

import pytest

from trustuqa_core import answer
from trustuqa_core.graph import build_graph
from trustuqa_core.store import GraphStore
from trustuqa_core.translate import load_source
from trustuqa_core.writers.chain import link_chain

BOX_OFFICE = b'Film,Gross\nAlpha Road,"$1,234,567"\nBeta Lake,"$2,000,000"\nGamma Hill,"$950"\n'
FILMS = (b"Alpha Road|starred_actors|Ann Ray\nAlpha Road|starred_actors|Bo Lin\n"
         b"Beta Lake|starred_actors|Bo Lin\nBeta Lake|starred_actors|Cy Dunn\n"
         b"Gamma Hill|directed_by|Cy Dunn\n")
AWARDS = (b"Ann Ray\taward received\tGolden Reel Award\t2001\t2001\n"
          b"Bo Lin\taward received\tSilver Reel Award\t1999\t1999\n"
          b"Cy Dunn\taward received\tGolden Reel Award\t2004\t2004\n")


@pytest.fixture(scope="module")
def cinema() -> GraphStore:
    return build_graph([load_source(BOX_OFFICE, "table", name="box_office.csv"),
                        load_source(FILMS, "kg", name="films.txt"),
                        load_source(AWARDS, "tkg", name="awards.tsv")])


CASES = [
    # who among: the key row's actors that have the named award (Bo Lin has another one)
    ("Who among the actors of the Film whose Gross is $1,234,567 received Golden Reel Award?",
     ["Ann Ray"]),
    ("Who among the actors of the Film whose Gross is $2,000,000 received Golden Reel Award?",
     ["Cy Dunn"]),
    # a formatted number as the key cell, in the when shape
    ("When did the actor of the Film whose Gross is $2,000,000 receive Silver Reel Award?",
     ["1999"]),
]


@pytest.mark.parametrize(("question", "expected"), CASES)
def test_who_among_and_formatted_key(cinema: GraphStore, question: str,
                                     expected: list[str]) -> None:
    chain = link_chain(question, cinema)
    assert chain and "table row Gross=" in chain[0][1], chain
    got = answer(question, cinema, writer="offline")
    assert sorted(got.answer) == expected, (got.answer, got.trace.query_text if got.trace
                                            else None)


def test_who_among_keeps_only_the_hop(cinema: GraphStore) -> None:
    # Cy Dunn has the award but is no actor of Alpha Road: not in the answer
    q = "Who among the actors of the Film whose Gross is $1,234,567 received Golden Reel Award?"
    program = link_chain(q, cinema)[0][0]
    assert "set_intersection" in str([s.call for s in program.queries][-1])


ARCHIVE = (b"English title,Director,Year,Country\nRiver Song,Dee Moss,1995,Italy\n"
           b"Stone Sky,Eli Park,1998,France\n")
ARCHIVE_KG = (b"River Song|directed_by|Dee Moss\nStone Sky|directed_by|Eli Park\n"
              b"Stone Sky|written_by|Fay Lum\n")
ARCHIVE_TKG = (b"Dee Moss\taward received\tCrystal Lens Award\t1996\t1996\n"
               b"Fay Lum\taward received\tQuill Prize\t1999\t1999\n"
               b"Eli Park\twork location\tFrance\t1990\t1995\n")


@pytest.fixture(scope="module")
def archive() -> GraphStore:
    return build_graph([load_source(ARCHIVE, "table", name="archive.csv"),
                        load_source(ARCHIVE_KG, "kg", name="films.txt"),
                        load_source(ARCHIVE_TKG, "tkg", name="careers.tsv")])


@pytest.mark.parametrize(("question", "expected", "via"), [
    # the table's Director column is named by 'director', but its cells are no KG heads:
    # the hop goes through the English title column and the KG
    ("Which awards did the director of the English title whose Year is 1995 receive?",
     ["Crystal Lens Award"], "→ English title → KG 'directed_by'"),
    # France is the key cell, not the TKG value asked about (it is a work location too)
    ("How many awards did the writer of the English title whose Country is France receive?",
     ["1"], "table row Country='France' → English title → KG 'written_by'"),
])
def test_role_column_and_key_that_is_a_tkg_value(archive: GraphStore, question: str,
                                                 expected: list[str], via: str) -> None:
    chain = link_chain(question, archive)
    assert chain and via in chain[0][1], chain
    assert sorted(answer(question, archive, writer="offline").answer) == expected
