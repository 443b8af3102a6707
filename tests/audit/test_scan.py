"""Audit's analysis on handwritten specs: every style and signal, and the operations it must skip.

Expected findings are data (specs/styles.expected.yaml), written from the spec and checked by hand:
the style and request parameters, the items and id locations, every native signal with the runtime
expression that reads it, which TODO topics the draft leaves and which reasons it declares.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from xcompleteness.audit._draft import draft_declaration
from xcompleteness.detect._listlike import Finding, scan

HERE = Path(__file__).parent / "specs"
SPEC = yaml.safe_load((HERE / "styles.yaml").read_text(encoding="utf-8"))
EXPECTED = yaml.safe_load((HERE / "styles.expected.yaml").read_text(encoding="utf-8"))
FOUND = {f"{f.method.upper()} {f.path}": f for f in scan(SPEC)}


def test_reports_exactly_the_list_like_operations() -> None:
    assert sorted(FOUND) == sorted(EXPECTED["findings"])


def test_skips_single_resources_mutations_and_flags_on_resources() -> None:
    doc = yaml.safe_load((HERE / "not_lists.yaml").read_text(encoding="utf-8"))
    assert len(doc["paths"]) == 6
    assert scan(doc) == []


@pytest.mark.parametrize("key", sorted(EXPECTED["findings"]))
def test_finding_matches_hand_checked_expectation(key: str) -> None:
    want = EXPECTED["findings"][key]
    f: Finding = FOUND[key]
    decl = draft_declaration(f)
    got = {
        "kind": f.kind,
        "style": f.style,
        "request": dict(f.request),
        "items": f.items,
        "id": f.id,
        "signals": {s.kind: s.expression for s in f.signals},
        "todos": [t.split(":")[0] for t in decl["x-todo"]],
        "reasons": [r["code"] for r in decl.get("reasons", [])],
    }
    assert got == want


def test_signal_pointers_name_the_node_that_shows_the_signal() -> None:
    """Pointers resolve ($refs followed) to the schema property or header carrying the signal."""
    es = FOUND["POST /es/_search"]
    ptrs = {s.kind: s.pointer for s in es.signals}
    assert ptrs["shards"] == "/components/schemas/EsResponse/properties/_shards/properties/failed"
    assert ptrs["total"] == (
        "/components/schemas/EsResponse/properties/hits/properties/total/properties/value"
    )
    link = FOUND["GET /repos"].signal("link_header")
    assert link is not None and link.pointer == "/paths/~1repos/get/responses/200/headers/Link"
    for f in FOUND.values():
        for s in f.signals:
            node = _resolve(SPEC, s.pointer)
            assert isinstance(node, dict), (f.path, s)


def _resolve(doc: object, pointer: str) -> object:
    node = doc
    for raw in pointer.split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]  # type: ignore[index]
    return node


def test_drafts_map_signals_to_conditions() -> None:
    stripe = draft_declaration(FOUND["GET /stripe/customers"])
    assert stripe["pagination"] == {
        "style": "cursor",
        "request": {"cursor": "starting_after", "size": "limit"},
        "response": {"next": {"last-item": "/id"}},
    }
    assert stripe["reasons"] == [
        {"code": "MORE_PAGES_AVAILABLE", "when": {"equals": ["$response.body#/has_more", True]}}
    ]
    search = draft_declaration(FOUND["GET /search/repositories"])
    # totals2: total_count beside the Link header is the total the walk compares with
    assert search["pagination"]["response"] == {
        "next": "$response.link.next",
        "total": "$response.body#/total_count",
    }
    assert {
        "code": "TIME_BUDGET_EXCEEDED",
        "when": {"equals": ["$response.body#/incomplete_results", True]},
    } in search["reasons"]
    es = draft_declaration(FOUND["POST /es/_search"])
    assert es["pagination"]["response"] == {"total": "$response.body#/hits/total/value"}
    assert {
        "code": "SOURCE_UNAVAILABLE",
        "source": "shards",
        "when": {"gt": ["$response.body#/_shards/failed", 0]},
    } in es["reasons"]
    widgets = draft_declaration(FOUND["GET /widgets"])
    assert widgets["pagination"]["response"] == {"pages": "$response.body#/meta/total_pages"}
    assert widgets["reasons"] == [{"code": "MORE_PAGES_AVAILABLE"}]  # walk reads the page count


def test_declared_operations_are_counted_not_reported() -> None:
    doc = yaml.safe_load((HERE / "styles.yaml").read_text(encoding="utf-8"))
    doc["paths"]["/tags"]["get"]["x-completeness"] = {
        "kind": "collection",
        "scope": {"resource": "t"},
    }
    tags = [f for f in scan(doc) if f.path == "/tags"]
    assert len(tags) == 1 and tags[0].declared


def test_undeclared_listings_maps_pointers_to_reasons() -> None:
    from xcompleteness.detect._listlike import undeclared_listings

    found = undeclared_listings(SPEC)
    assert len(found) == len(EXPECTED["findings"])
    assert found["/paths/~1repos/get"] == "array response; page parameter page; signal Link"


def test_ref_path_items_are_scanned_where_they_lead_and_broken_ones_skipped() -> None:
    """A listing behind a local ``$ref`` path item is found at its ``/paths`` pointer, read
    through the typed views (its ``$ref`` response's header and schema pointers name where the
    chain led); a dangling or cyclic path-item ``$ref`` is skipped, never raised."""
    page = {
        "type": "object",
        "properties": {
            "data": {"type": "array", "items": {"$ref": "#/components/schemas/Thing"}},
            "has_more": {"type": "boolean"},
        },
    }
    doc = {
        "openapi": "3.0.3",
        "paths": {
            "/things": {"$ref": "#/components/x-paths/Things"},
            "/gone": {"$ref": "#/components/x-paths/Gone"},
            "/loop": {"$ref": "#/components/x-paths/Loop"},
        },
        "components": {
            "x-paths": {
                "Things": {
                    "parameters": [{"name": "after", "in": "query", "schema": {"type": "string"}}],
                    "get": {
                        "operationId": "listThings",
                        "responses": {"200": {"$ref": "#/components/responses/Page"}},
                    },
                },
                "Loop": {"$ref": "#/components/x-paths/Loop"},
            },
            "responses": {
                "Page": {
                    "description": "ok",
                    "headers": {"Link": {"schema": {"type": "string"}}},
                    "content": {"application/json": {"schema": page}},
                }
            },
            "schemas": {"Thing": {"type": "object", "properties": {"id": {"type": "string"}}}},
        },
    }
    (found,) = scan(doc)
    assert (found.pointer, found.operation_id, found.items, found.id) == (
        "/paths/~1things/get",
        "listThings",
        "$response.body#/data",
        "/id",
    )
    assert found.style == "link-header" and "cursor parameter after" in found.why
    pointers = {s.kind: s.pointer for s in found.signals}
    assert pointers == {
        "has_more": "/components/responses/Page/content/application~1json/schema"
        "/properties/has_more",
        "link_header": "/components/responses/Page/headers/Link",
    }
