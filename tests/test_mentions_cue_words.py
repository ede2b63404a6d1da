"""A capitalised cue word (*Less than 2*, *Most skiers*) is not a name the query must bind,
unless the data holds it as a value (mentions.find_mentions, used by the offline writer and
the verdict)."""

from __future__ import annotations

from trustuqa_core import answer, load_graph
from trustuqa_core.mentions import find_mentions
from trustuqa_core.query import get_information, program
from trustuqa_core.writers.offline import unlinked_words

MEDALS = b"Name,Nation,Gold\nAnn,Italy,3\nBo,France,1\nCy,Italy,0\nDi,Spain,5\nEd,France,2\n"
# a table whose cells hold a cue word as a value
AWARDS = b"Player,Award\nAnn,Most\nBo,Best\nCy,Most\n"


def _texts(question: str) -> list[str]:
    return [m.text for m in find_mentions(question)]


def test_a_capitalised_comparison_cue_is_not_a_name() -> None:
    assert _texts("How many nations won Less than 2 golds?") == ["2"]
    assert _texts("Which Nation has the Most skiers?") == ["Nation"]
    assert _texts("Which skier won Fewer Gold than Ann?") == ["Gold", "Ann"]


def test_a_cue_word_leading_a_name_leaves_the_rest_of_it() -> None:
    assert _texts("Who won Most Valuable Player in 2001?") == ["Valuable Player", "2001"]


def test_a_cue_word_the_data_holds_stays_a_name() -> None:
    g = load_graph(tables=[AWARDS])
    held = lambda text: g.entity(text) is not None  # noqa: E731
    assert [m.text for m in find_mentions("Which player won Most?", held)] == ["Most"]
    assert [m.text for m in find_mentions("Which player won Less?", held)] == []


def test_a_noun_cue_stays_a_name() -> None:
    assert _texts("What is the Amount for Berlin?") == ["Amount", "Berlin"]


def test_a_sentence_first_word_is_not_a_name() -> None:
    assert _texts("Name the winner. Had Italy won?") == ["Italy"]
    assert _texts("Was it Italy? Yes") == ["Italy", "Yes"]


def test_the_writer_does_not_refuse_a_plan_for_a_cue_word() -> None:
    dump = program(None, [("", get_information(relation="Nation"))])
    g = load_graph(tables=[MEDALS])
    assert unlinked_words("Which Nation has the Most skiers?", dump, g) == []
    assert unlinked_words("Which Nation has the Most skiers from Peru?", dump, g) == ["Peru"]
    awards = load_graph(tables=[AWARDS])
    dump = program(None, [("", get_information(relation="Player"))])
    assert unlinked_words("Which Player won Most?", dump, awards) == ["Most"]


def test_the_verdict_no_longer_reads_a_cue_as_an_unbound_name() -> None:
    got = answer("How many skiers won Less than 2 Gold?", load_graph(tables=[MEDALS]),
                 writer="offline")
    assert got.answer == ["2"]
    assert got.verdict is not None
    assert "unbound_mention" not in {r.code for r in got.verdict.reasons}
