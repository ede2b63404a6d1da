"""Uploads a user brings (walk-through ux8): a header with a blank or a repeated name is read
and the renaming said; a quote never closed, or a cell too long for the reader, is an error
naming the problem and its line, and nothing of that file is loaded."""

from __future__ import annotations

from trustuqa_core.app_services.data import Upload, load_all, loaded_uploads


def _load(name: str, data: bytes) -> tuple[list[str], list[tuple[int | None, str]], list[str]]:
    """(warnings, errors as (line, problem), names loaded) of one uploaded table."""
    uploads = [Upload(name, "table", data)]
    rep = load_all(uploads)
    return (list(rep.warnings), [(e.line, e.problem) for e in rep.errors],
            [u.name for u in loaded_uploads(uploads, rep)])


def test_a_repeated_or_blank_header_name_is_read_and_said() -> None:
    warnings, errors, loaded = _load("scores.csv", b"Name,,Goals,Goals\nAnn,x,12,1\nBob,y,7,2\n")
    assert not errors and loaded == ["scores.csv"]
    assert ("scores.csv: column 2 has no name in the header: it is called 'column 2'"
            in warnings)
    assert "scores.csv: the header repeats 'Goals': column 4 is called 'Goals (2)'" in warnings


def test_a_quote_never_closed_is_an_error_and_nothing_is_loaded() -> None:
    warnings, errors, loaded = _load("bad.csv", b'Name,Goals\nAnn,12\n"Cid,3\nDee,4\n')
    assert loaded == [] and len(errors) == 1
    line, problem = errors[0]
    assert line == 3 and "double quote opened here is never closed" in problem


def test_a_quoted_cell_over_two_lines_is_still_fine() -> None:
    warnings, errors, loaded = _load("notes.csv", b'Name,Note\nAnn,"two\nlines"\n')
    assert not errors and loaded == ["notes.csv"] and not warnings


def test_a_cell_too_long_names_the_limit_and_the_line() -> None:
    data = b"Name,Bio\nAnn," + b"x" * 200_000 + b"\nBob,short\n"
    warnings, errors, loaded = _load("bios.csv", data)
    assert loaded == [] and len(errors) == 1
    line, problem = errors[0]
    assert line == 2 and "a cell is longer than 131,072 characters" in problem
    assert "field limit" not in problem  # the reader's own words are not the user's
