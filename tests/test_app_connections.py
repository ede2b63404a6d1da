"""The Data page's "how the loaded sources connect" (issue 13, App): the nodes each pair of
sources shares, and the sources that share nothing (questions cannot chain from them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trustuqa_core.app_services.connections import source_connections
from trustuqa_core.app_services.data import Upload, load_all

FILMS = b"Film,Director,Year\nInception,Christopher Nolan,2010\nHeat,Michael Mann,1995\n" \
        b"Alien,Ridley Scott,1979\n"
MOVIES = b"Inception|directed_by|Christopher Nolan\nTenet|directed_by|Christopher Nolan\n" \
         b"Tenet|release_year|2020\n"
CAREERS = b"Angela Merkel\tposition held\tChancellor of Germany\t2005\t2021\n"


def _uploads() -> list[Upload]:
    return [Upload("films.csv", "table", FILMS), Upload("movies.txt", "kg", MOVIES),
            Upload("careers.tsv", "tkg", CAREERS)]


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_a_table_and_a_kg_share_two_values_and_the_tkg_none(
        engine: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUSTUQA_CACHE", str(tmp_path))
    report = load_all(_uploads(), engine=engine)
    assert report.graph.engine == engine
    c = source_connections(report.graph)
    assert c is not None
    assert [(p.first, p.second, p.shared, p.numbers) for p in c.pairs] == \
        [("films.csv", "movies.txt", 2, 0)]
    assert set(c.pairs[0].examples) == {"Inception", "Christopher Nolan"}
    assert c.pairs[0].examples[0] == "Christopher Nolan"  # in most facts read: first
    assert c.isolated == ("careers.tsv",)
    notes = " ".join(c.notes())
    assert "careers.tsv shares no node with the other sources" in notes
    assert "cannot chain" in notes
    text = c.pairs[0].text()
    assert text.startswith("films.csv ↔ movies.txt: 2 shared nodes — ")


def test_row_numbers_do_not_connect_tables_but_shared_cells_do() -> None:
    """Every table has rows 1, 2, ... (its own row nodes and ``row_number`` values): they
    must not count as shared. Two tables sharing only a number say it is a number."""
    report = load_all([Upload("a.csv", "table", b"Name,Score\nAnn,7\nBob,8\n"),
                       Upload("b.csv", "table", b"Team,Points\nReds,7\nBlues,9\n")])
    c = source_connections(report.graph)
    assert c is not None
    assert [(p.shared, p.numbers, p.examples) for p in c.pairs] == [(1, 1, ("7",))]
    assert "(all of them numbers)" in c.pairs[0].text()
    apart = load_all([Upload("a.csv", "table", b"Name\nAnn\nBob\n"),
                      Upload("b.csv", "table", b"Team\nReds\nBlues\n")])
    c = source_connections(apart.graph)
    assert c is not None and c.pairs == () and c.isolated == ("a.csv", "b.csv")
    assert c.notes()[0].startswith("No two sources share a node")
    assert c.notes()[0].endswith("(each source still answers questions about itself).")


def test_words_come_before_numbers_and_examples_are_capped() -> None:
    table = b"Film,Year\n" + b"".join(f"Film {i},{1990 + i}\n".encode() for i in range(9))
    kg = b"".join(f"Film {i}|year|{1990 + i}\n".encode() for i in range(9))
    c = source_connections(load_all([Upload("t.csv", "table", table),
                                     Upload("k.txt", "kg", kg)]).graph, examples=3)
    assert c is not None
    pair = c.pairs[0]
    assert (pair.shared, pair.numbers) == (18, 9)
    assert len(pair.examples) == 3 and all(e.startswith("Film ") for e in pair.examples)
    assert pair.text().endswith(", …")


def test_separate_groups_and_pairs_linked_only_through_another_source() -> None:
    ups = [Upload("t.csv", "table", b"Film\nHeat\n"), Upload("k.txt", "kg",
           b"Heat|directed_by|Michael Mann\n"),
           Upload("p.tsv", "tkg", b"Michael Mann\taward received\tOscar\t1999\t1999\n"),
           Upload("x.csv", "table", b"City\nRome\n"), Upload("y.txt", "kg",
           b"Rome|capital_of|Italy\n")]
    c = source_connections(load_all(ups).graph)
    assert c is not None and c.isolated == ()
    assert c.groups == (("t.csv", "k.txt", "p.tsv"), ("x.csv", "y.txt"))
    assert c.unlinked == (("t.csv", "p.tsv"),)
    notes = "\n".join(c.notes())
    assert "separate groups" in notes and "t.csv and p.tsv share no node themselves" in notes


def test_a_large_source_is_read_in_part_and_says_so() -> None:
    kg = b"".join(f"Film {i}|directed_by|Person {i}\n".encode() for i in range(50))
    table = b"Director\nPerson 49\nPerson 0\n"
    report = load_all([Upload("t.csv", "table", table), Upload("k.txt", "kg", kg)])
    whole = source_connections(report.graph)
    part = source_connections(report.graph, max_facts=10)
    assert whole is not None and part is not None
    assert whole.pairs[0].shared == 2 and whole.partial == ()
    assert part.pairs[0].shared == 1 and part.pairs[0].examples == ("Person 0",)
    assert part.partial == (("k.txt", 10, 50),)
    assert "only 10 of its 50 facts were read" in " ".join(part.notes())


def test_pairs_are_listed_most_shared_first_and_capped() -> None:
    ups = [Upload(f"t{i}.csv", "table", ("Name\n" + "".join(
        f"P{j}\n" for j in range(i + 1))).encode()) for i in range(4)]
    c = source_connections(load_all(ups).graph, max_pairs=2)
    assert c is not None
    assert [(p.first, p.second, p.shared) for p in c.pairs] == \
        [("t2.csv", "t3.csv", 3), ("t1.csv", "t2.csv", 2)]
    assert c.more_pairs == 4
    assert "4 more pairs of sources share nodes" in " ".join(c.notes())


def test_pairs_sharing_words_come_before_pairs_sharing_only_numbers() -> None:
    ups = [Upload("ranks.csv", "table", b"Rank\n1\n2\n3\n"),
           Upload("films.csv", "table", b"Film,Rank\nHeat,1\nAlien,2\nTenet,3\n"),
           Upload("kg.txt", "kg", b"Heat|directed_by|Michael Mann\n")]
    c = source_connections(load_all(ups).graph)
    assert c is not None
    assert [(p.first, p.second, p.shared, p.numbers) for p in c.pairs] == \
        [("films.csv", "kg.txt", 1, 0), ("ranks.csv", "films.csv", 3, 3)]


def test_one_source_has_no_connections() -> None:
    assert source_connections(load_all([Upload("t.csv", "table", FILMS)]).graph) is None


# ------------------------------------------------------------------ the Data page (AppTest)
APP = str(Path(__file__).resolve().parents[1] / "app.py")


def _data_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception
    return at


def _texts(at: AppTest) -> str:
    """The page's text, with Markdown's backslash escapes taken out (HTML escapes stay)."""
    return "\n".join(str(e.value) for kind in ("markdown", "caption", "warning")
                     for e in getattr(at, kind)).replace("\\", "")


def test_the_data_page_says_how_uploaded_sources_connect() -> None:
    at = _data_page()
    at.file_uploader(key="tq_upload").set_value(
        [("films.csv", FILMS, "text/csv"), ("movies.txt", MOVIES, "text/plain"),
         ("careers.tsv", CAREERS, "text/plain")]).run()
    at.button(key="tq_upload_go").click().run()
    assert not at.exception
    assert [u.name for u in at.session_state["tq_sources"]] == \
        ["films.csv", "movies.txt", "careers.tsv"]
    texts = _texts(at)
    assert "How the sources connect" in texts
    assert "films.csv ↔ movies.txt: 2 shared nodes — Christopher Nolan, Inception" in texts
    warnings = [w.value.replace("\\", "") for w in at.warning]
    assert any("careers.tsv shares no node with the other sources" in w
               and "cannot chain" in w for w in warnings), warnings


def test_the_data_page_escapes_source_names_and_stays_quiet_for_one_source() -> None:
    at = _data_page()
    hostile = "<img src=x onerror=alert(1)>.csv"
    at.file_uploader(key="tq_upload").set_value(
        [(hostile, FILMS, "text/csv"), ("movies.txt", MOVIES, "text/plain")]).run()
    at.button(key="tq_upload_go").click().run()
    assert not at.exception
    texts = _texts(at)
    assert "&lt;img src=x onerror=alert(1)&gt;.csv ↔ movies.txt" in texts
    assert "<img" not in texts
    at = _data_page()
    at.button(key="tq_sample_slalom").click().run()
    assert "How the sources connect" not in _texts(at)


def test_the_cross_sample_shows_its_chain_of_sources() -> None:
    at = _data_page()
    at.button(key="tq_sample_cross").click().run()
    texts = _texts(at)
    assert "comedy_ranking.csv ↔ movies_kg.txt: 6 shared nodes (3 of them numbers) — " \
        "The Producers" in texts
    assert "movies_kg.txt ↔ cron_tkg.tsv: 1 shared node — Mel Brooks" in texts
    assert "comedy_ranking.csv and cron_tkg.tsv share no node themselves" in texts
