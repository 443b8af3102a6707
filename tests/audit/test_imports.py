"""Pagination a spec already declares for another tool becomes the draft (specs/imports.yaml).

Each extension's draft is asserted whole; the drafts then round-trip through ``check`` with
nothing reported but the TODOs audit says it left. The same on real Azure specs carrying
``x-ms-pageable`` is in test_corpus_drafts.py (corpus marker).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from xcompleteness.audit import _draft as audit_overlay
from xcompleteness.audit._draft import draft_declaration, todo_pointers
from xcompleteness.check._pipeline import check_spec
from xcompleteness.cli import main
from xcompleteness.detect._listlike import scan
from xcompleteness.detect._pagination_imports import supported_styles

SPEC_PATH = Path(__file__).parent / "specs" / "imports.yaml"
SPEC = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
FOUND = {f.operation_id: f for f in scan(SPEC)}


def _draft(op_id: str) -> dict:
    decl = draft_declaration(FOUND[op_id])
    decl.pop("scope")
    decl["x-todo"] = [t.split(":")[0] for t in decl["x-todo"]]
    return decl


def _base(source: str, items: str, **rest: object) -> dict:
    return {
        "kind": "collection",
        "mode": "adapter",
        "x-drafted-from": source,
        "items": items,
        "id": "/id",
        **rest,
    }


EXPECTED = {
    "Operations_List": _base(
        "x-ms-pageable", "$response.body#/value", pagination={"style": "none"}
    ),
    "listCursorThings": _base(
        "x-speakeasy-pagination",
        "$response.body#/data",
        pagination={
            "style": "cursor",
            "request": {"cursor": "after", "size": "limit"},
            "response": {"next": "$response.body#/meta/next_cursor"},
        },
        reasons=[
            {
                "code": "MORE_PAGES_AVAILABLE",
                "when": {"present": "$response.body#/meta/next_cursor"},
            }
        ],
    ),
    "listPagedThings": _base(
        "x-speakeasy-pagination",
        "$response.body#/results",
        pagination={
            "style": "page",
            "request": {"page": "page", "size": "per_page"},
            "response": {"pages": "$response.body#/num_pages"},
        },
        reasons=[{"code": "MORE_PAGES_AVAILABLE"}],
    ),
    "listFernThings": _base(
        "x-fern-pagination",
        "$response.body#/data",
        pagination={
            "style": "cursor",
            "request": {"cursor": "starting_after"},
            "response": {"next": "$response.body#/page/next/starting_after"},
        },
        reasons=[
            {
                "code": "MORE_PAGES_AVAILABLE",
                "when": {"present": "$response.body#/page/next/starting_after"},
            }
        ],
    ),
    "listFernPages": _base(
        "x-fern-pagination",
        "$response.body#/items",
        pagination={"style": "page", "request": {"page": "page"}},
        reasons=[
            {"code": "MORE_PAGES_AVAILABLE", "when": {"equals": ["$response.body#/has_more", True]}}
        ],
    ),
    "listGeneric": _base(
        "x-pagination",
        "$response.body#/rows",
        pagination={
            "style": "offset",
            "request": {"offset": "skip", "size": "take"},
            "response": {"total": "$response.body#/total"},
        },
        reasons=[{"code": "MORE_PAGES_AVAILABLE"}],
    ),
}


@pytest.mark.parametrize("op_id", sorted(EXPECTED))
def test_extension_becomes_the_draft_with_no_pagination_todo(op_id: str) -> None:
    want = {**EXPECTED[op_id], "x-todo": ["visibility"]}
    assert _draft(op_id) == want


def test_an_offset_walk_that_stops_on_an_empty_page_stays_a_todo() -> None:
    decl = draft_declaration(FOUND["listOffsetThings"])
    assert "pagination" not in decl and decl["x-drafted-from"] == "x-speakeasy-pagination"
    assert any("x-speakeasy-pagination declares offset pagination" in t for t in decl["x-todo"])


def test_a_malformed_extension_is_ignored() -> None:
    f = FOUND["listBroken"]
    assert f.imported is None and f.style == "cursor"
    assert "x-drafted-from" not in draft_declaration(f)


def test_ms_pageable_next_link_drafts_next_url_where_the_vocabulary_has_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a ``next-url`` style the draft follows the next link; without, it says why not."""
    monkeypatch.setattr(
        audit_overlay, "supported_styles", lambda: supported_styles() | {"next-url"}
    )
    assert _draft("Vaults_List") == _base(
        "x-ms-pageable",
        "$response.body#/value",
        pagination={"style": "next-url", "response": {"next": "$response.body#/nextLink"}},
        reasons=[{"code": "MORE_PAGES_AVAILABLE", "when": {"present": "$response.body#/nextLink"}}],
        **{"x-todo": ["visibility"]},
    )
    keys = _draft("Keys_List")  # a POST, items under itemName, a dotted next link name
    assert keys["items"] == "$response.body#/keys"
    assert keys["pagination"]["response"] == {"next": "$response.body#/odata.nextLink"}
    monkeypatch.setattr(audit_overlay, "supported_styles", lambda: frozenset({"cursor", "none"}))
    todo = draft_declaration(FOUND["Vaults_List"])["x-todo"]
    assert any(t.startswith("pagination: x-ms-pageable says the next page") for t in todo)


def test_imported_drafts_round_trip_through_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = tmp_path / "draft.yaml"
    assert main(["audit", str(SPEC_PATH), "--emit-overlay", str(draft), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    sources = {e["operation_id"]: (e["imported"] or {}).get("source") for e in report["undeclared"]}
    assert sources["Vaults_List"] == "x-ms-pageable" and sources["listBroken"] is None
    assert "pagination imported from x-fern-pagination (2)" in report["summary"]
    overlay = yaml.safe_load(draft.read_text(encoding="utf-8"))
    described = [a["description"] for a in overlay["actions"]]
    assert any("(from x-speakeasy-pagination)" in d for d in described)
    result = check_spec(SPEC_PATH, [draft])
    assert [d for d in result.diagnostics if d.code != "XC900"] == []
    assert sorted(d.pointer for d in result.diagnostics) == sorted(todo_pointers(scan(SPEC)))


def test_an_extension_naming_fields_the_response_lacks_drafts_nothing_from_it() -> None:
    """Azure Intune puts ``x-ms-pageable: {nextLinkName: nextlink}`` on a single read whose body
    has neither ``value`` nor ``nextlink``; drafting from it gave a declaration check refused
    (XC103/XC105). The operation is judged by its shape alone; a fitting body still imports."""
    status = {"type": "object", "properties": {"state": {"type": "string"}}}
    page = {
        "type": "object",
        "properties": {
            "value": {"type": "array", "items": {"type": "object"}},
            "nextlink": {"type": "string"},
        },
    }

    def op(op_id: str, schema: dict) -> dict:
        return {
            "get": {
                "operationId": op_id,
                "x-ms-pageable": {"nextLinkName": "nextlink"},
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {"application/json": {"schema": schema}},
                    }
                },
            }
        }

    spec = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/statuses/default": op("Statuses_Get", status), "/things": op("List", page)},
    }
    found = {f.operation_id: f for f in scan(spec)}
    assert "Statuses_Get" not in found
    assert found["List"].imported is not None and found["List"].style == "next-url"
    assert found["List"].items == "$response.body#/value"
