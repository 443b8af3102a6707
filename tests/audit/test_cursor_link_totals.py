"""A total beside a next cursor or a ``Link`` header is drafted as ``response.total``.

``style: cursor`` and ``style: link-header`` carry a total the way next-url does: the walk
compares the items it read with it when the API ends the walk. The draft takes the one total-like
field (a count described as one page's, as an estimate or as what remains is none); a bare
``count`` may count one page, so it is drafted under a TODO; several candidates are named in one.
"""

from __future__ import annotations

from typing import Any

from xcompleteness.audit._draft import draft_declaration
from xcompleteness.detect._listlike import scan


def _doc(
    params: list[str], fields: dict[str, Any], headers: dict[str, Any] | None = None
) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": "ok",
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "items": {
                            "type": "array",
                            "items": {"type": "object", "properties": {"id": {"type": "string"}}},
                        },
                        **fields,
                    },
                }
            }
        },
    }
    if headers:
        response["headers"] = headers
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/things": {
                "get": {
                    "operationId": "listThings",
                    "parameters": [
                        {"name": p, "in": "query", "schema": {"type": "string"}} for p in params
                    ],
                    "responses": {"200": response},
                }
            }
        },
    }


NEXT_CURSOR = {"next_cursor": {"type": "string", "description": "the cursor of the next page"}}
LINK = {
    "Link": {
        "description": 'links to the next page (rel="next") and the previous one',
        "schema": {"type": "string"},
    }
}


def _draft(doc: dict[str, Any]) -> dict[str, Any]:
    (finding,) = scan(doc)
    return draft_declaration(finding)


def _pagination_todos(decl: dict[str, Any]) -> list[str]:
    return [t for t in decl["x-todo"] if t.startswith("pagination")]


def test_a_total_count_beside_a_next_cursor_is_drafted() -> None:
    doc = _doc(["cursor", "limit"], {**NEXT_CURSOR, "total_count": {"type": "integer"}})
    decl = _draft(doc)
    assert decl["pagination"]["style"] == "cursor"
    assert decl["pagination"]["response"] == {
        "next": "$response.body#/next_cursor",
        "total": "$response.body#/total_count",
    }
    assert not _pagination_todos(decl)


def test_a_bare_count_beside_a_next_cursor_is_drafted_under_a_todo() -> None:
    decl = _draft(_doc(["cursor"], {**NEXT_CURSOR, "count": {"type": "integer"}}))
    assert decl["pagination"]["response"]["total"] == "$response.body#/count"
    [todo] = _pagination_todos(decl)
    assert "may count the whole listing or only this page" in todo


def test_what_remains_or_an_estimate_is_no_total_beside_a_cursor() -> None:
    """Kubernetes' ``remainingItemCount`` counts what is left and says it may be an estimate;
    a walk comparing it with the items read would call every multi-page list partial."""
    remaining = {
        "remainingItemCount": {
            "type": "integer",
            "description": "the number of subsequent items in the list which are not included "
            "in this list response; the number may be an estimate",
        }
    }
    decl = _draft(_doc(["continue", "limit"], {**NEXT_CURSOR, **remaining}))
    assert "total" not in decl["pagination"].get("response", {})


def test_a_total_count_beside_a_link_header_is_drafted() -> None:
    """GitHub: ``total_count`` beside the ``Link`` header (search, workflow runs ...)."""
    doc = _doc(["per_page"], {"total_count": {"type": "integer"}}, LINK)
    decl = _draft(doc)
    assert decl["pagination"]["style"] == "link-header"
    assert decl["pagination"]["response"] == {
        "next": "$response.link.next",
        "total": "$response.body#/total_count",
    }
    assert not _pagination_todos(decl)


def test_two_totals_beside_a_link_header_are_asked() -> None:
    fields = {"count": {"type": "integer"}, "total": {"type": "integer"}}
    decl = _draft(_doc(["per_page"], fields, LINK))
    assert "total" in decl["pagination"]["response"]
    [todo] = _pagination_todos(decl)
    assert "count ($response.body#/count)" in todo and "total ($response.body#/total)" in todo
    assert "which the walk compares with the items it read" in todo


def test_a_total_exact_only_up_to_a_bound_is_asked() -> None:
    """Stripe search's ``total_count``: "only accurate up to 10,000". Above the bound the
    count is no exact total, and a walk comparing with it would call a longer listing partial:
    drafted under a TODO quoting the sentence, never silently."""
    count = {
        "type": "integer",
        "description": "The total number of objects that match the query, only accurate up to "
        "10,000.",
    }
    decl = _draft(_doc(["page", "limit"], {**NEXT_CURSOR, "total_count": count}))
    assert decl["pagination"]["response"]["total"] == "$response.body#/total_count"
    [todo] = _pagination_todos(decl)
    assert '"The total number of objects that match the query, only accurate up to 10,000."' in todo
    assert "no exact count" in todo
