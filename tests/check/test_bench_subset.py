"""bench/subset.py, the cut ``make bench`` (growth) measures: every k-th path item of one
description, components pruned to exactly what the kept part reaches, a valid description."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support.paths import ROOT
from xcompleteness.check._pipeline import check_spec

sys.path.insert(0, str(ROOT / "bench"))
import bench_growth  # noqa: E402
from subset import component_closure, operations, subset, written  # noqa: E402


def _ref(kind: str, name: str) -> dict[str, str]:
    return {"$ref": f"#/components/{kind}/{name}"}


def _listing(schema: dict) -> dict:
    return {
        "operationId": None,
        "responses": {
            "200": {"description": "ok", "content": {"application/json": {"schema": schema}}}
        },
    }


def _op(op_id: str, schema: dict, **more: object) -> dict:
    op = _listing(schema)
    op["operationId"] = op_id
    op.update(more)
    return op


SPEC = {
    "openapi": "3.0.3",
    "info": {"title": "cut", "version": "1"},
    "security": [{"key": []}],
    "paths": {
        # sorted: /a, /b, /c, /d, /e -> k=2 keeps /a, /c, /e
        "/c": {"get": _op("getC", _ref("schemas", "Pet~1Kind"))},
        "/a": {
            "parameters": [_ref("parameters", "Limit")],
            "get": _op("getA", {"type": "array", "items": _ref("schemas", "Owner")}),
            "post": _op(
                "postA", _ref("schemas", "Owner"), requestBody=_ref("requestBodies", "New")
            ),
        },
        "/b": {"get": _op("getB", _ref("schemas", "OnlyB"))},
        "/d": {"get": _op("getD", _ref("schemas", "OnlyD"))},
        "/e": {"delete": {"operationId": "delE", "responses": {"204": _ref("responses", "Gone")}}},
    },
    "components": {
        "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}},
        "schemas": {
            # Owner <-> Pet: a cycle; Pet's discriminator maps to Cat (named by mapping only)
            "Owner": {"type": "object", "properties": {"pet": _ref("schemas", "Pet")}},
            "Pet": {
                "type": "object",
                "required": ["kind"],
                "properties": {"kind": {"type": "string"}, "owner": _ref("schemas", "Owner")},
                "discriminator": {
                    "propertyName": "kind",
                    "mapping": {"cat": "#/components/schemas/Cat"},
                },
            },
            "Cat": {"allOf": [_ref("schemas", "Pet")]},
            "Pet/Kind": {"type": "string", "enum": ["cat"]},  # reached as Pet~1Kind
            "OnlyB": {"type": "object", "properties": {"x": _ref("schemas", "Unused")}},
            "OnlyD": {"type": "string"},
            "Unused": {"type": "integer"},
            "Problem": {"type": "object", "properties": {"code": {"type": "integer"}}},
            "Never": {"type": "boolean"},
        },
        "parameters": {
            "Limit": {"name": "limit", "in": "query", "schema": {"type": "integer"}},
            "Other": {"name": "other", "in": "query", "schema": {"type": "string"}},
        },
        "requestBodies": {
            "New": {"content": {"application/json": {"schema": _ref("schemas", "Owner")}}}
        },
        "responses": {
            "Gone": {
                "description": "gone",
                "content": {"application/json": {"schema": _ref("schemas", "Problem")}},
            },
            "NotFound": {"description": "missing"},
        },
        "examples": {"Spare": {"value": 1}},
    },
}


def test_pruned_components_are_exactly_the_reference_closure() -> None:
    part = subset(SPEC, 2)
    assert list(part["paths"]) == ["/a", "/c", "/e"]
    assert part["paths"]["/a"] is SPEC["paths"]["/a"]  # kept as written
    assert {kind: set(members) for kind, members in part["components"].items()} == {
        "securitySchemes": {"key"},  # named by `security`, never by $ref: all kept
        "schemas": {"Owner", "Pet", "Cat", "Pet/Kind", "Problem"},
        "parameters": {"Limit"},
        "requestBodies": {"New"},
        "responses": {"Gone"},
    }
    assert part["security"] == SPEC["security"] and part["info"] == SPEC["info"]
    assert operations(part) == 4 and operations(SPEC) == 6
    # every kept component's own references lead to kept components (the closure is closed)
    kept = [v for kind in part["components"].values() for v in kind.values()]
    reached = component_closure(part, [part["paths"], *kept])
    assert all(reached[kind] <= set(part["components"][kind]) for kind in reached)


def test_every_path_item_kept_at_k_1_and_webhooks_thinned_alike() -> None:
    whole = subset(SPEC, 1)
    assert whole["paths"] == SPEC["paths"]
    assert "Never" not in whole["components"]["schemas"]  # unreached even at k=1
    hooks = {**SPEC, "x-webhooks": {"z": {"post": _op("z", {})}, "y": {"post": _op("y", {})}}}
    assert list(subset(hooks, 2)["x-webhooks"]) == ["y"]


def test_a_reference_outside_components_is_refused() -> None:
    bad = json.loads(json.dumps(SPEC))
    bad["paths"]["/a"]["get"]["responses"]["200"] = {"$ref": "#/paths/~1b/get/responses/200"}
    with pytest.raises(ValueError, match="outside components"):
        subset(bad, 1)


@pytest.mark.parametrize("indent", [None, 2])
def test_written_like_the_source(indent: int | None) -> None:
    seps = (",", ":") if indent is None else None
    text = json.dumps(SPEC, indent=indent, separators=seps, ensure_ascii=False)
    assert written(json.loads(text), like=text) == text


@pytest.mark.parametrize("k", [1, 2, 3])
def test_the_subset_checks_clean_and_reports_only_what_the_whole_reports(
    k: int, tmp_path: Path
) -> None:
    whole, part = tmp_path / "whole.json", tmp_path / f"part{k}.json"
    whole.write_text(json.dumps(SPEC), encoding="utf-8")
    part.write_text(written(subset(SPEC, k), like=whole.read_text()), encoding="utf-8")
    found = check_spec(part).diagnostics
    assert not [d for d in found if d.severity.name == "ERROR"]
    key = {(d.code, d.pointer, d.message) for d in check_spec(whole).diagnostics}
    assert {(d.code, d.pointer, d.message) for d in found} <= key
    assert {d.code for d in found} == {"XC100"}  # the listings at /a and /c (and /b, /d)


def test_the_growth_fit_reads_a_power_law() -> None:
    ns = [10, 20, 40, 80]
    assert bench_growth.exponent(ns, [3 * n**1.5 for n in ns]) == pytest.approx(1.5)
    assert bench_growth.exponent(ns, [7.0] * 4) == pytest.approx(0.0)
