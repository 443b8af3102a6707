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
        assert decl["pagination"]["response"] == {"next": expr}
        assert "cursor" not in decl["pagination"].get("request", {})
        assert decl["reasons"][0] == {"code": "MORE_PAGES_AVAILABLE", "when": {"present": expr}}
        assert not any(t.startswith("pagination") for t in decl["x-todo"])


def test_a_number_named_like_a_link_is_no_url() -> None:
    (finding,) = scan(_doc(["limit"], {"type": "integer"}, "nextLink"))
    assert finding.signal("next_link") is None
    assert finding.style != "next-url"
