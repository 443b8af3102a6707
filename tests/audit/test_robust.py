"""Audit never raises and never hangs on odd documents: cycles, dangling refs, wrong types."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xcompleteness.audit._draft import draft_declaration, draft_overlay, dump_overlay
from xcompleteness.detect._listlike import scan

ARRAY = {"type": "array", "items": {"$ref": "#/components/schemas/A"}}


def _doc(schema: Any, **extra: Any) -> dict[str, Any]:
    op = {
        "responses": {
            "200": {"description": "x", "content": {"application/json": {"schema": schema}}}
        }
    }
    op.update(extra)
    return {"openapi": "3.0.3", "paths": {"/things": {"get": op}}, "components": {"schemas": {}}}


def test_ref_cycles_and_self_allof_terminate() -> None:
    doc = _doc({"$ref": "#/components/schemas/A"})
    doc["components"]["schemas"] = {
        "A": {"$ref": "#/components/schemas/B"},
        "B": {"$ref": "#/components/schemas/A"},
    }
    assert scan(doc) == []
    doc = _doc({"$ref": "#/components/schemas/A"})
    doc["components"]["schemas"] = {
        "A": {"allOf": [{"$ref": "#/components/schemas/A"}, {"properties": {"data": ARRAY}}]}
    }
    [finding] = scan(doc)
    assert finding.items == "$response.body#/data"


def test_dangling_external_and_malformed_refs_are_ignored() -> None:
    for ref in ("#/components/schemas/Nope", "other.yaml#/X", "#not-a-pointer", "#/paths/~9"):
        assert scan(_doc({"$ref": ref})) == []
    doc = _doc({"type": "array", "items": {"$ref": "#/components/schemas/Nope"}})
    [finding] = scan(doc)
    assert finding.items == "$response.body#" and finding.id is None


def test_wrong_types_everywhere() -> None:
    odd: list[Any] = [
        {"openapi": "3.1.0", "paths": []},
        {"openapi": "3.1.0", "paths": {"/a": None, "/b": [], 3: {}}},
        {"openapi": "3.1.0", "paths": {"/a": {"get": "nope", "post": []}}},
        {"openapi": "3.1.0", "paths": {"/a": {"get": {"responses": []}}}},
        {"openapi": "3.1.0", "paths": {"/a": {"get": {"responses": {200: True}}}}},
        {"openapi": "3.1.0", "paths": {"/a": {"get": {"parameters": [1, None, {"in": "query"}]}}}},
        _doc(True),
        _doc({"type": ["array", "null"], "items": False}),
        _doc({"properties": {"data": {"type": "array", "items": True}}}, parameters="x"),
        _doc(
            {"properties": {"hits": {"properties": {"hits": ARRAY, "total": {"type": "object"}}}}}
        ),
        [],
        "text",
    ]
    for doc in odd:
        findings = scan(doc)
        dump_overlay(draft_overlay(findings, "odd"))


def test_deep_nesting_is_bounded() -> None:
    schema: dict[str, Any] = {"type": "array", "items": {}}
    for _ in range(200):
        schema = {"allOf": [schema]}
    [finding] = scan(_doc({"properties": {"items": schema, "next_cursor": {"type": "string"}}}))
    assert finding.signal("next_token") is not None


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda kids: (
        st.lists(kids, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "items",
                    "properties",
                    "$ref",
                    "allOf",
                    "oneOf",
                    "data",
                    "has_more",
                    "get",
                    "responses",
                    "200",
                    "content",
                    "application/json",
                    "schema",
                    "parameters",
                    "name",
                    "in",
                    "headers",
                    "Link",
                    "next",
                    "total_count",
                    "paths",
                    "/x",
                ]
            )
            | st.text(max_size=5),
            kids,
            max_size=5,
        )
    ),
    max_leaves=40,
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON)
def test_random_documents_never_raise(doc: Any) -> None:
    wrapped = {
        "paths": {
            "/x": {
                "get": {
                    "responses": {"200": {"content": {"application/json": {"schema": doc}}}},
                    "parameters": doc,
                }
            }
        },
        "components": doc,
    }
    for candidate in (doc, wrapped):
        findings = scan(candidate)
        text = dump_overlay(draft_overlay(findings, "t"))
        assert yaml.safe_load(text)["overlay"] == "1.0.0"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON, JSON)
def test_random_extensions_defaults_and_declarations_never_raise(value: Any, other: Any) -> None:
    """Pagination extensions, x-completeness-defaults and kind: none of any shape are input too."""
    op = {
        "operationId": "listThings",
        "x-ms-pageable": value,
        "x-speakeasy-pagination": {"type": "cursor", "inputs": value, "outputs": other},
        "x-fern-pagination": {"cursor": value, "next_cursor": other, "offset": other},
        "x-pagination": {"style": "offset", "offset": value, "items": other},
        "x-kubernetes-action": value,
        "parameters": [{"name": "cursor", "in": "query"}, {"name": "page", "in": "query"}],
        "responses": {
            "200": {"content": {"application/json": {"schema": {"properties": {"data": ARRAY}}}}}
        },
    }
    declared = dict(op, **{"x-completeness": {"kind": "none", "why": other}})
    doc = {"paths": {"/things": {"get": op, "post": declared}}, "x-completeness-defaults": value}
    findings = scan(doc)
    defaults = {"drafts": {"id-fields": value, "search-limit": other, "unpaginated": value}}
    text = dump_overlay(draft_overlay(findings, "t", defaults=defaults))
    assert yaml.safe_load(text)["overlay"] == "1.0.0"
    for f in findings:
        draft_declaration(f, {"scope": value, "drafts": other, "mode": value})


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xcompleteness", "audit", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_on_odd_files_never_prints_a_traceback(tmp_path: Path) -> None:
    cyclic = _doc({"$ref": "#/components/schemas/A"})
    cyclic["components"]["schemas"] = {"A": {"allOf": [{"$ref": "#/components/schemas/A"}]}}
    cases = {
        "cyclic.json": json.dumps(cyclic),
        "broken.yaml": "openapi: 3.0.3\npaths: {/a: [\n",
        "swagger.yaml": "swagger: '2.0'\npaths: {}\n",
        "empty.yaml": "",
        "list.json": "[1, 2]",
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        for fmt in ("text", "json") if name == "cyclic.json" else ("text",):
            proc = _cli(str(path), "--format", fmt)
            assert proc.returncode in (0, 1, 2), (name, proc.stderr)
            assert "Traceback" not in proc.stderr + proc.stdout, name
            assert "XC000" not in proc.stderr + proc.stdout, name  # no internal error either
    proc = _cli(str(tmp_path / "missing.yaml"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_a_parameter_whose_location_is_not_text_is_no_crash():
    """Found by check's mangled-spec fuzzing once XC100 started sharing audit's heuristic."""
    from xcompleteness.detect._listlike import undeclared_listings

    doc = {
        "openapi": "3.1.0",
        "paths": {
            "/things": {
                "get": {
                    "parameters": [{"name": "page", "in": ["query"]}],
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }
    assert isinstance(undeclared_listings(doc), dict)
