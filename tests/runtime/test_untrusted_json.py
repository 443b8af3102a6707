"""JSON another party wrote (an API's page, a tool argument, a recorded or mocked body) is read
by one reader, ``runtime.expressions.read_json``: strict JSON or ``ValueError``, never a
``RecursionError`` and never a value JSON does not have. Found over stdio against a hostile API
(tests/tools/test_mcp_hostile_api.py): a page nested 200,000 deep failed the whole MCP call
(``CALL_FAILED``, the pages read lost), and ``NaN`` in a page was read as a number and answered
``complete``, with null where the API sent ``NaN``.

A Link header whose link-values cannot all be read may hide ``rel="next"``: asking it for the
next link raises ``UnreadableResponse`` (the walk ends ``CONTRACT_VIOLATION``) instead of
answering "no next page", which let a cut listing be called complete.
"""

from __future__ import annotations

import json

import pytest
from xcompleteness.runtime.expressions import (
    MAX_JSON_DEPTH,
    MISSING,
    ResponseView,
    UnreadableResponse,
    read_json,
)

NOT_JSON = {
    "NaN": b'{"rank": NaN}',
    "Infinity": b'{"rank": Infinity}',
    "-Infinity": b"[-Infinity]",
    "nested past the parser": b"[" * 200_000 + b"]" * 200_000,
    "nested past the cap": b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1),
    "ISO-8859-1": '{"id": "itém"}'.encode("latin-1"),
    "a number past the digit limit": b"[" + b"9" * 5000 + b"]",
    "cut": b'{"items": [',
}


@pytest.mark.parametrize("body", NOT_JSON.values(), ids=list(NOT_JSON))
def test_what_is_not_strict_json_is_a_value_error(body: bytes) -> None:
    with pytest.raises(ValueError):
        read_json(body)
    if body.isascii():  # as text too (a tool argument arrives as text)
        with pytest.raises(ValueError):
            read_json(body.decode("ascii"))


def test_json_is_read_as_json_up_to_the_depth_cap() -> None:
    deep = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert read_json(deep.encode()) == json.loads(deep)
    assert read_json('{"id": "itém", "n": 1.5e3, "x": [null, true]}'.encode()) == {
        "id": "itém",
        "n": 1500.0,
        "x": [None, True],
    }


def test_a_response_view_of_a_body_that_is_not_json_has_no_body() -> None:
    import httpx

    for body in NOT_JSON.values():
        response = httpx.Response(200, content=body)
        assert ResponseView.from_httpx(response).body is MISSING


def test_a_link_header_that_may_hide_the_relation_is_unreadable() -> None:
    base = "http://api.test/search"
    well = ResponseView(200, {"Link": f'<{base}?page=2>; rel="next", <x>; y'})
    assert well.link("next") == f"{base}?page=2"  # a bad value beside the one asked for: fine
    for header in (
        f'<{base}?page=2; rel="next"',  # the closing > missing
        f'<{base}?page=2>; rel="next" junk',  # junk after the parameters
        "junk, <<>>; rel=next; \x7f",
    ):
        view = ResponseView(200, {"Link": header})
        with pytest.raises(UnreadableResponse):
            view.link("next")
    assert ResponseView(200, {"Link": f'<{base}>; rel="prev"'}).link("next") is MISSING
    assert ResponseView(200, {}).link("next") is MISSING
