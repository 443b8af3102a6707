"""The IR: every declared operation is generated or reported; names are decided once."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from support.paths import EXAMPLES
from xcompleteness.check._pipeline import check_spec
from xcompleteness.emit._generate import GenerationRefused, generate_from_check
from xcompleteness.ir._build import build_ir


def _listing(op_id: str, path: str) -> dict:
    return {
        "get": {
            "operationId": op_id,
            "parameters": [{"name": "cursor", "in": "query", "schema": {"type": "string"}}],
            "x-completeness": {
                "kind": "collection",
                "scope": {"resource": "things", "snapshot": "none"},
                "pagination": {"style": "cursor", "request": {"cursor": "cursor"}},
                "reasons": ["MORE_PAGES_AVAILABLE"],
            },
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
                                            "properties": {
                                                "id": {"type": "string", "pattern": "(?=x)x"}
                                            },
                                        },
                                    }
                                },
                            }
                        }
                    },
                }
            },
        }
    }


@pytest.fixture
def clashing(tmp_path: Path) -> Path:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Clash", "version": "1"},
        "paths": {"/a": _listing("listThings", "/a"), "/b": _listing("list_things", "/b")},
    }
    path = tmp_path / "clash.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return path


def test_collisions_are_resolved_in_path_order_and_reported(clashing: Path) -> None:
    ir = build_ir(check_spec(clashing), "clash")
    assert [(o.operation_id, o.py_name, o.class_name) for o in ir.operations] == [
        ("listThings", "list_things", "ListThings"),
        ("list_things", "list_things_2", "ListThings2"),
    ]
    assert [o.item_model for o in ir.operations] == ["ListThingsItem", "ListThings2Item"]
    codes = [d.code for d in ir.diagnostics]
    assert codes.count("XC602") >= 2  # the operation names and the class names
    assert "XC603" in codes  # the look-ahead pattern pydantic cannot compile is reported


def test_unsupported_pattern_is_dropped_not_fatal(clashing: Path) -> None:
    gen = generate_from_check(check_spec(clashing), "clash", only=("package", "models"))
    modules = {p: t for p, t in gen.files.items() if p.parent.name == "_items"}
    assert modules
    for path, text in modules.items():
        assert "(?=x)x" not in text
        compile(text, str(path), "exec")


def test_a_declared_operation_that_cannot_be_found_is_an_error() -> None:
    result = check_spec(EXAMPLES / "service_accounts" / "openapi.yaml")
    contracts = dict(result.contracts)
    contracts["ghost"] = replace(
        contracts["listServiceAccounts"], operation_id="ghost", path="/nope"
    )
    with pytest.raises(GenerationRefused) as exc:
        generate_from_check(replace(result, contracts=contracts), "svc")
    assert [d.code for d in exc.value.diagnostics] == ["XC605"]
    assert exc.value.diagnostics[0].pointer == "/paths/~1nope/get"


def test_example_ir_shape() -> None:
    ir = build_ir(check_spec(EXAMPLES / "service_accounts" / "openapi.yaml"), "svc")
    by_id = {o.operation_id: o for o in ir.operations}
    listing = by_id["listServiceAccounts"]
    assert listing.envelope_model == "ListServiceAccountsPage"
    assert listing.item_model == "ServiceAccount"
    assert [p.name for p in listing.parameters][:2] == ["cursor", "limit"]
    assert {c.code for c in listing.reasons} >= {"MORE_PAGES_AVAILABLE", "CURSOR_EXPIRED"}
    archive = by_id["archiveServiceAccounts"]
    assert archive.body_model == "ArchiveServiceAccountsRequest"
    assert [f.name for f in archive.body_fields] == ["ids", "evidence"]
    custom = next(c for c in ir.reason_codes if c.code == "SHARD_REBALANCING")
    assert (custom.standard, custom.class_name) == (False, "ShardRebalancingReason")
    assert [f.name for f in custom.detail_fields] == ["shard"]


def test_a_schema_the_model_library_refuses_is_a_diagnostic_not_a_traceback() -> None:
    """A remote ``$ref`` reaching datamodel-code-generator is refused (never fetched) as XC603."""
    from xcompleteness.emit.emitters import EmitError
    from xcompleteness.emit.emitters.items import items_source

    ir = build_ir(check_spec(EXAMPLES / "service_accounts" / "openapi.yaml"), "svc")
    remote = {"$ref": "http://127.0.0.1:9/never-fetched.json"}
    broken = replace(ir, model_schemas={**ir.model_schemas, "Broken": remote}, item_models=None)
    with pytest.raises(EmitError) as exc:
        items_source(broken)
    assert [d.code for d in exc.value.diagnostics] == ["XC603"]
