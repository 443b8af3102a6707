"""When audit drafts ``style: next-url``: a next URL in the body, and only then."""

from __future__ import annotations

from typing import Any

import pytest
from xcompleteness.audit._draft import draft_declaration
from xcompleteness.detect._listlike import scan


def _doc(params: list[str], next_schema: dict[str, Any], name: str = "next") -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/tracks": {
                "get": {
                    "operationId": "listTracks",
                    "parameters": [
                        {"name": p, "in": "query", "schema": {"type": "string"}} for p in params
                    ],
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "type": "object",
                                        "properties": {
                                            "items": {
                                                "type": "array",
                                                "items": {
                                                    "type": "object",
                                                    "properties": {"id": {"type": "string"}},
                                                },
                                            },
                                            "total": {"type": "integer"},
                                            name: next_schema,
                                        },
                                    }
                                }
                            },
                        }
                    },
                }
            }
        },
    }


URL_DESCRIBED = {"type": "string", "description": "URL to the next page of items (null if none)"}


@pytest.mark.parametrize(
    ("params", "schema", "name", "style"),
    [
        # Spotify: a bare `next` that its description calls a URL, beside limit/offset
        (["limit", "offset"], URL_DESCRIBED, "next", "next-url"),
        (["limit"], {"type": "string", "format": "uri"}, "next", "next-url"),
        (
            ["limit"],
            {"type": "string", "example": "https://api.example.com/t?p=2"},
            "next",
            "next-url",
        ),
        # a URL by its name wins over OData's $skiptoken: the URL already carries it
        (["$top", "$skiptoken"], {"type": "string"}, "@odata.nextLink", "next-url"),
        # a bare `next` token with a cursor parameter to send it back stays a cursor walk
        (["limit", "cursor"], {"type": "string"}, "next", "cursor"),
    ],
)
def test_style(params: list[str], schema: dict[str, Any], name: str, style: str) -> None:
    (finding,) = scan(_doc(params, schema, name))
    assert finding.style == style
    decl = draft_declaration(finding)
    if style == "next-url":
        expr = f"$response.body#/{name}"
        # the document's ``total`` beside the next URL is drafted: the walk compares with it
        assert decl["pagination"]["response"] == {"next": expr, "total": "$response.body#/total"}
        assert "cursor" not in decl["pagination"].get("request", {})
        assert decl["reasons"][0] == {"code": "MORE_PAGES_AVAILABLE", "when": {"present": expr}}
        assert not any(t.startswith("pagination") for t in decl["x-todo"])


def test_a_number_named_like_a_link_is_no_url() -> None:
    (finding,) = scan(_doc(["limit"], {"type": "integer"}, "nextLink"))
    assert finding.signal("next_link") is None
    assert finding.style != "next-url"


def _with_counts(counts: dict[str, Any]) -> dict[str, Any]:
    doc = _doc(["limit"], {"type": "string", "format": "uri"}, "next")
    props = doc["paths"]["/tracks"]["get"]["responses"]["200"]["content"]["application/json"]
    props = props["schema"]["properties"]
    del props["total"]
    props.update(counts)
    return doc


def test_a_total_beside_a_next_url_is_drafted_where_the_api_nests_it() -> None:
    """App Store Connect: ``meta.paging.total`` beside ``links.next``."""
    doc = _with_counts(
        {
            "meta": {
                "type": "object",
                "properties": {
                    "paging": {"type": "object", "properties": {"total": {"type": "integer"}}}
                },
            }
        }
    )
    (finding,) = scan(doc)
    decl = draft_declaration(finding)
    assert decl["pagination"]["response"]["total"] == "$response.body#/meta/paging/total"
    assert not any(t.startswith("pagination") for t in decl["x-todo"])


def test_two_total_like_fields_beside_a_next_url_leave_a_todo() -> None:
    (finding,) = scan(_with_counts({"count": {"type": "integer"}, "total": {"type": "integer"}}))
    decl = draft_declaration(finding)
    assert "total" in decl["pagination"]["response"]
    todo = next(t for t in decl["x-todo"] if t.startswith("pagination"))
    assert "count ($response.body#/count)" in todo and "total ($response.body#/total)" in todo
    assert "remove response.total" in todo


@pytest.mark.parametrize(
    "description",
    ["The number of items in this page.", "An approximate count of the matching items."],
)
def test_a_count_of_one_page_or_an_estimate_is_not_drafted_as_the_total(description: str) -> None:
    (finding,) = scan(_with_counts({"total": {"type": "integer", "description": description}}))
    decl = draft_declaration(finding)
    assert "total" not in decl["pagination"]["response"]


def test_a_bare_count_beside_a_next_url_is_drafted_under_a_todo() -> None:
    """``{data, next, count}``: count may be the listing's or this page's; a wrong total would
    make every multi-page walk partial, so the draft asks."""
    (finding,) = scan(_with_counts({"count": {"type": "integer"}}))
    decl = draft_declaration(finding)
    assert decl["pagination"]["response"]["total"] == "$response.body#/count"
    [todo] = [t for t in decl["x-todo"] if t.startswith("pagination")]
    assert "may count the whole listing or only this page" in todo


def test_a_django_rest_framework_count_is_the_total_unasked() -> None:
    """``{count, next, previous, results}``: DRF documents count as the listing's total."""
    doc = _with_counts({"count": {"type": "integer"}, "previous": {"type": "string"}})
    props = doc["paths"]["/tracks"]["get"]["responses"]["200"]["content"]["application/json"]
    props = props["schema"]["properties"]
    props["results"] = props.pop("items")
    (finding,) = scan(doc)
    decl = draft_declaration(finding)
    assert decl["items"] == "$response.body#/results"
    assert decl["pagination"]["response"]["total"] == "$response.body#/count"
    assert not [t for t in decl["x-todo"] if t.startswith("pagination")]
