"""contract.normalize: golden canonical contracts for the examples, and each shorthand expanded.

Refresh the goldens after an intended change with:
    XC_UPDATE_GOLDEN=1 .venv/bin/python -m pytest -q tests/vocab/test_contract.py
"""

from __future__ import annotations

import copy
import json
import os
from typing import Any

import pytest
from support.vocab import EXAMPLE_NAMES, EXAMPLES, GOLDEN, contracts_of
from support.vocab_snippets import ALL_DECLARATIONS, NATIVE_LIST, REGISTRY
from xcompleteness.declare._contract import (
    OperationRef,
    duration_seconds,
    normalize,
)
from xcompleteness.declare._vocabulary import load_registry
from xcompleteness.document import iter_operations

OP = OperationRef("listThings", "get", "/things", "/paths/~1things/get")
CANONICAL_KEYS = {
    "operation_id", "method", "path", "pointer", "kind", "mode", "scope", "items", "id",
    "pagination", "reasons", "warnings", "deadline", "evidence", "mutation", "omitted_fields",
    "destructive",
}  # fmt: skip


def _norm(decl: dict[str, Any]) -> dict[str, Any]:
    registry = load_registry({"x-completeness-registry": REGISTRY})
    return normalize(decl, op=OP, registry=registry).to_dict()


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_golden_contracts(name: str) -> None:
    got = contracts_of(EXAMPLES / name / "openapi.yaml")
    path = GOLDEN / f"{name}.contracts.json"
    text = json.dumps(got, indent=2, sort_keys=True) + "\n"
    if os.environ.get("XC_UPDATE_GOLDEN") == "1":
        path.write_text(text)
    assert text == path.read_text()


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_overlay_form_gives_the_same_contracts(name: str) -> None:
    from xcompleteness.load import load_spec
    from xcompleteness.load._overlay import apply_overlays

    doc = apply_overlays(
        load_spec(EXAMPLES / name / "base.yaml"), [EXAMPLES / name / "overlay.yaml"]
    )
    inline = contracts_of(EXAMPLES / name / "openapi.yaml")
    registry = load_registry(doc.data)
    for path, method, op, pointer in iter_operations(doc.data):
        if "x-completeness" in op:
            ref = OperationRef(op["operationId"], method, path, pointer)
            assert (
                normalize(op["x-completeness"], op=ref, registry=registry).to_dict()
                == inline[ref.operation_id]
            )


@pytest.mark.parametrize("name", sorted(ALL_DECLARATIONS))
def test_every_key_present_and_json_able(name: str) -> None:
    out = _norm(ALL_DECLARATIONS[name])
    assert set(out) == CANONICAL_KEYS
    assert json.loads(json.dumps(out)) == out
    assert out["pointer"] == "/paths/~1things/get/x-completeness"


def test_offset_continuation_contract_has_no_expiry_default() -> None:
    """issue 19: an offset/page cursor contract binds parameters; nothing on the server expires."""
    from support.vocab_snippets import EMPTY_PAGE_STYLE, JIRA_STYLE

    out = _norm(JIRA_STYLE)["pagination"]
    assert out["cursor"] == {
        "snapshot": "live",
        "ttl_seconds": None,
        "invalidated_by": ["filter", "ordering", "page-size"],
        "on_expiry": None,
    }
    assert out["response"]["last"] == "$response.body#/isLast"
    assert out["end"] is None
    assert _norm(EMPTY_PAGE_STYLE)["pagination"]["end"] == "empty-page"


def test_design_native_list_matches_internals_example() -> None:
    out = _norm(NATIVE_LIST)
    assert out["pagination"] == {
        "style": "cursor",
        "request": {"cursor": "cursor", "size": "limit", "offset": None, "page": None},
        "response": {
            "next": "$response.body#/next_cursor",
            "next_last_item": None,
            "total": None,
            "pages": None,
            "last": None,
        },
        "max_page_size": 200,
        "ordering": "id ascending",
        "cursor": {
            "snapshot": "frozen",
            "ttl_seconds": 900,
            "invalidated_by": ["filter", "ordering", "authorization"],
            "on_expiry": "error",
        },
        "end": None,
    }
    assert out["reasons"][:2] == [
        {
            "code": "MORE_PAGES_AVAILABLE",
            "when": None,
            "details": {},
            "continuation": "next_cursor",
            "origin": "server",
        },
        {
            "code": "RESULT_LIMIT_REACHED",
            "when": None,
            "details": {"limit": 1000},
            "continuation": "narrow_query",
            "origin": "server",
        },
    ]
    assert out["deadline"] == {
        "param": "time_budget_ms",
        "unit": "ms",
        "default": 2000,
        "max": 30000,
    }
    assert out["evidence"] == {"mint": True, "ttl_seconds": 600}
    assert (out["mutation"], out["omitted_fields"], out["destructive"]) == (None, None, False)


def test_native_defaults_fill_items_and_next() -> None:
    decl = copy.deepcopy(NATIVE_LIST)
    del decl["items"], decl["pagination"]["response"], decl["mode"]
    out = _norm(decl)
    assert out["mode"] == "native"
    assert out["items"] == "$response.body#/items"
    assert out["pagination"]["response"]["next"] == "$response.body#/next_cursor"


def test_adapter_has_no_native_defaults() -> None:
    out = _norm(ALL_DECLARATIONS["stripe_style"])
    assert out["items"] == "$response.body#/data"
    assert out["pagination"]["response"]["next"] is None
    assert out["pagination"]["response"]["next_last_item"] == "/id"
    assert out["pagination"]["request"]["cursor"] == "starting_after"
    assert out["reasons"][1] == {
        "code": "CURSOR_EXPIRED",
        "when": {"equals": ["$statusCode", 410]},
        "details": {},
        "continuation": "restart",
        "origin": "server",
    }


def test_whole_body_has_one_spelling() -> None:
    decl = copy.deepcopy(ALL_DECLARATIONS["adapter_search"])
    decl["items"] = "$response.body"
    assert _norm(decl)["items"] == "$response.body#"


def test_link_header_default_next() -> None:
    decl = copy.deepcopy(ALL_DECLARATIONS["adapter_search"])
    del decl["pagination"]["response"]
    assert _norm(decl)["pagination"]["response"]["next"] == "$response.link.next"


def test_offset_and_page_locations() -> None:
    offset = _norm(ALL_DECLARATIONS["offset_style"])["pagination"]
    assert offset["request"]["offset"] == "offset"
    assert offset["response"]["total"] == "$response.body#/count"
    page = _norm(ALL_DECLARATIONS["page_style"])["pagination"]
    assert (page["request"]["page"], page["response"]["pages"]) == (
        "page",
        "$response.header.X-Total-Pages",
    )


def test_style_none_has_no_pagination() -> None:
    decl = copy.deepcopy(NATIVE_LIST)
    decl["pagination"] = {"style": "none"}
    assert _norm(decl)["pagination"] is None


def test_continuation_override_and_custom_code() -> None:
    decl = copy.deepcopy(NATIVE_LIST)
    decl["reasons"] = [
        {"code": "SOURCE_UNAVAILABLE", "continuation": "none", "source": "eu-1"},
        "SHARD_REBALANCING",
        "UNREGISTERED_CODE",
    ]
    reasons = _norm(decl)["reasons"]
    assert reasons[0]["continuation"] == "none"
    assert reasons[0]["details"] == {"source": "eu-1"}
    assert (reasons[1]["continuation"], reasons[1]["origin"]) == ("retry_after", "server")
    # unknown codes are the rules' business; normalize stays total
    assert (reasons[2]["continuation"], reasons[2]["origin"]) == ("none", "server")


def test_mutation_forms() -> None:
    evidence = _norm(ALL_DECLARATIONS["mutation"])
    assert evidence["evidence"] is None and evidence["destructive"] is True
    assert evidence["mutation"] == {
        "from": "listServiceAccounts",
        "ids": "$request.body#/ids",
        "token": "$request.body#/evidence",
        "void_on_warnings": ["STALE_INDEX"],
        "recheck_each_target": None,
    }
    recheck = _norm(ALL_DECLARATIONS["mutation_recheck"])["mutation"]
    assert recheck == {
        "from": None,
        "ids": None,
        "token": None,
        "void_on_warnings": [],
        "recheck_each_target": "getServiceAccount",
    }


def test_resource_read() -> None:
    out = _norm(ALL_DECLARATIONS["resource"])
    assert out["omitted_fields"] == "$response.body#/omitted_fields"
    assert (out["items"], out["pagination"], out["evidence"]) == (None, None, None)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("PT15M", 900),
        ("PT10M", 600),
        ("PT1H30M", 5400),
        ("P1D", 86400),
        ("P1DT1S", 86401),
        ("P2W", 1209600),
        ("PT0.5S", 0.5),
        ("PT", None),
        ("P", None),
        ("P1DT", None),
        ("P1M", None),
        ("15m", None),
        (900, None),
    ],
)
def test_duration_seconds(text: Any, seconds: Any) -> None:
    assert duration_seconds(text) == seconds


def test_iter_operations_order_and_pointers() -> None:
    doc = {
        "paths": {
            "/a/{id}": {"get": {}, "delete": {}, "parameters": [], "x-note": {}},
            "/b": {"post": {"operationId": "b"}},
            "/c": "not a path item",
        }
    }
    rows = [(p, m, ptr) for p, m, _, ptr in iter_operations(doc)]
    assert rows == [
        ("/a/{id}", "get", "/paths/~1a~1{id}/get"),
        ("/a/{id}", "delete", "/paths/~1a~1{id}/delete"),
        ("/b", "post", "/paths/~1b/post"),
    ]
    assert list(iter_operations({"paths": []})) == []
    assert list(iter_operations([])) == []


def test_one_http_methods_table_and_one_operation_iterator() -> None:
    """check (document.iter_operations), the typed views and the audit (detect) visit the same
    operations in the same order; a local $ref path item is followed by all of them, a broken
    one (dangling, cyclic, external) is skipped by all of them, without a traceback."""
    import ast
    from pathlib import Path

    from xcompleteness.detect import operation_ids, scan_all
    from xcompleteness.document import _operations as operations
    from xcompleteness.document import views

    doc = {
        "paths": {
            "/a/{id}": {"get": {}, "delete": {}, "parameters": [{"name": "id", "in": "path"}]},
            "/b": {"trace": {}, "post": {"operationId": "b"}},
            "/r": {"$ref": "#/components/pathItems/R"},
            "/gone": {"$ref": "#/components/pathItems/Gone"},
            "/loop": {"$ref": "#/components/pathItems/Loop"},
            "/far": {"$ref": "other.yaml#/R"},
            "/s": {"$ref": "#/components/pathItems/S"},
        },
        "components": {
            "pathItems": {
                "R": {"head": {}},
                "Loop": {"$ref": "#/components/pathItems/Loop"},
                "S": {"$ref": "#/components/pathItems/R"},
            }
        },
    }
    check_rows = [(p, m, ptr) for p, m, _, ptr in iter_operations(doc)]
    view_rows = [(o.path, o.method, o.pointer) for o in views(doc).operations]
    assert check_rows == [
        ("/a/{id}", "get", "/paths/~1a~1{id}/get"),
        ("/a/{id}", "delete", "/paths/~1a~1{id}/delete"),
        ("/b", "post", "/paths/~1b/post"),
        ("/b", "trace", "/paths/~1b/trace"),
        ("/r", "head", "/paths/~1r/head"),
        ("/s", "head", "/paths/~1s/head"),
    ]
    assert view_rows == check_rows
    assert operation_ids(doc) == ["", "", "b", "", "", ""]
    found, excluded = scan_all(doc)
    assert (found, excluded) == ([], [])

    # No other generator module spells the methods tuple again.
    methods = set(operations.HTTP_METHODS)
    root = Path(operations.__file__).parent.parent
    spelled = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and len(node.elts) >= 4:
                values = {e.value for e in node.elts if isinstance(e, ast.Constant)}
                if values >= {"get", "put", "post", "delete"} and values <= methods:
                    spelled.append(path.name)
    assert spelled == ["_operations.py"]
