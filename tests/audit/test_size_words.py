"""A page size that no conventional name shows is read from its words (detect/_size_words.py):
its name (``maxHits``, ``PageLength``, ``numberOfEntries``), its description ("The maximum
number of messages to return", "Limits the number of results") and its schema type, and a
bracketed name by its parts (JSON:API's ``page[number]``/``page[size]``, ``filter[limit]``).
Main drafted each of these listings ``style: none`` with no size, so a full answer read
complete once someone confirmed "no pagination seen". What only looks like a size (a bound on
a value, a number of days, a boolean switch, a position) is not taken; a name that reads as a
size but is described as a position is asked, not drafted (specs/size_words.yaml).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.unseen import emitted_drafts
from xcompleteness import api

SPEC = Path(__file__).parent / "specs" / "size_words.yaml"


@pytest.fixture(scope="module")
def drafts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    return emitted_drafts(SPEC, tmp_path_factory.mktemp("size_words"))


def _pagination_todos(decl: dict) -> list[str]:
    return [t for t in decl.get("x-todo", []) if t.startswith("pagination:")]


@pytest.mark.parametrize(
    ("path", "name", "cap"),
    [
        ("/rows", "maxHits", 500),  # name: how many + what is counted
        ("/messages", "MaxNumberOfMessages", 10),  # description: messages to return
        ("/lines", "PageLength", 100),
        ("/numbers", "filter[limit]", 1000),  # a bracket under a filter family: its last part
        ("/stations", "results", 100),  # a lone word: "maximum number of returned results"
        ("/entries", "numberOfEntries", 100),
    ],
)
def test_a_size_named_by_its_words_caps_the_one_answer(drafts, path, name, cap):
    decl = drafts[path]
    assert decl["pagination"] == {"style": "none", "request": {"size": name}, "max-page-size": cap}
    assert {"code": "RESULT_LIMIT_REACHED"} in decl["reasons"]
    assert _pagination_todos(decl) == []  # the schema maximum is the cap: nothing asked


def test_json_api_page_brackets_page_by_number_and_size(drafts):
    pagination = drafts["/faxes"]["pagination"]
    assert pagination["style"] == "page"
    assert pagination["request"] == {"page": "page[number]", "size": "page[size]"}
    assert pagination["response"] == {"pages": "$response.body#/meta/total_pages"}


def test_a_bound_a_measure_or_a_cap_per_group_is_not_a_size(drafts):
    # maxAge, "Number of days", bedroomCount ("Only homes with this many"), maxLength (a bound
    # on a length), photoLimit ("... per home": a cap per item, not on the answer)
    decl = drafts["/homes"]
    assert decl["pagination"] == {"style": "none"}
    assert "RESULT_LIMIT_REACHED" not in str(decl.get("reasons"))


def test_a_size_name_described_as_a_position_is_asked_not_drafted(drafts):
    decl = drafts["/skipped"]
    assert decl["pagination"] == {"style": "none"}
    [todo] = _pagination_todos(decl)
    assert "rowCount" in todo and "may describe a position" in todo


def test_the_drafts_check_clean_but_for_their_todos(drafts, tmp_path_factory):
    out = tmp_path_factory.mktemp("size_words_check")
    emitted_drafts(SPEC, out)
    result = api.check(SPEC, [out / "draft.yaml"])
    assert {d.code for d in result.diagnostics} == {"XC900"}, result.diagnostics
    assert result.exit_code == 0
