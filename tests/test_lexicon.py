"""The lexicon: named English word lists read from trustuqa_core/lexicon.txt."""

from __future__ import annotations

import pytest

from trustuqa_core.lexicon import pairs, parse_lexicon, word_lists, word_map, word_set, words


def test_every_list_has_a_doc_and_distinct_entries() -> None:
    lists = word_lists()
    assert len(lists) >= 40
    for wl in lists:
        assert wl.doc, wl.name
        assert wl.entries, wl.name
        assert len(set(wl.entries)) == len(wl.entries), wl.name


def test_cue_lists_keep_their_order_longer_cues_first() -> None:
    cues = words("greater_cues")
    assert cues.index("more than") < cues.index("more")
    assert words("less_cues").index("less than") < words("less_cues").index("less")


def test_pairs_and_maps() -> None:
    assert ("average", "mean") in pairs("aggregate_cues")
    assert word_map("relation_aliases")["wrote"] == "written writer"
    assert "highest" in word_set("cues_max") and "highest" not in word_set("cues_min")
    with pytest.raises(ValueError, match="not 'key -> value'"):
        pairs("order_words")


def test_an_unknown_list_is_named_in_the_error() -> None:
    with pytest.raises(KeyError, match="no word list 'nope'"):
        words("nope")


@pytest.mark.parametrize(("text", "message"), [
    ("word\n", "comes before any"),
    ("[a] x\n1\n[a] y\n2\n", "empty or repeated"),
    ("[a x\n", "no ']'"),
])
def test_a_broken_lexicon_is_refused_with_the_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_lexicon(text)
