"""The JSON Schemas accept the brief's snippets and the examples, and reject malformed declarations
with the expected stable code at the expected pointer."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest
from support.vocab import ROOT, codes_at, doc_with
from support.vocab_snippets import ALL_DECLARATIONS, NATIVE_LIST, REGISTRY
from xcompleteness.declare._vocabulary import CODES, load_registry, validate_declarations

SCHEMAS = ("x-completeness.schema.json", "x-completeness-registry.schema.json")


@pytest.mark.parametrize("name", SCHEMAS)
def test_schema_files_are_valid_2020_12(name: str) -> None:
    schema = json.loads((ROOT / "spec_ext" / name).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("name", sorted(ALL_DECLARATIONS))
def test_design_snippets_are_accepted(name: str) -> None:
    assert codes_at(ALL_DECLARATIONS[name], registry=REGISTRY) == set()


def test_x_keys_are_allowed_everywhere_closed() -> None:
    decl = copy.deepcopy(NATIVE_LIST)
    decl["x-team"] = "accounts"
    decl["scope"]["x-note"] = 1
    decl["pagination"]["x-impl"] = "keyset"
    decl["pagination"]["cursor"]["x-kms"] = "k1"
    decl["reasons"][1]["x-why"] = "hard cap in the index"
    assert codes_at(decl) == set()


def _with(path: tuple[Any, ...], value: Any, base: dict[str, Any] | None = None) -> dict[str, Any]:
    decl = copy.deepcopy(base if base is not None else NATIVE_LIST)
    node: Any = decl
    for part in path[:-1]:
        node = node[part]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return decl


_DELETE = object()
ADAPTER = ALL_DECLARATIONS["adapter_search"]
MUTATION = ALL_DECLARATIONS["mutation"]

# (declaration, expected (code, pointer relative to the declaration))
BAD: dict[str, tuple[Any, tuple[str, str]]] = {
    "not an object": ("collection", ("XC040", "")),
    "kind missing": (_with(("kind",), _DELETE), ("XC042", "")),
    "unknown kind": (_with(("kind",), "list"), ("XC043", "/kind")),
    "unknown top key": (_with(("complete",), True), ("XC041", "/complete")),
    "misspelt scope key": (_with(("scope", "visiblity"), "x"), ("XC041", "/scope/visiblity")),
    "scope missing on a listing": (_with(("scope",), _DELETE), ("XC042", "")),
    "scope without resource": (_with(("scope",), {"visibility": "x"}), ("XC042", "/scope")),
    "bad snapshot": (_with(("scope", "snapshot"), "always"), ("XC043", "/scope/snapshot")),
    "bad mode": (_with(("mode",), "wrapper"), ("XC043", "/mode")),
    "items not a body location": (
        _with(("items",), "$.items"),
        ("XC045", "/items"),
    ),
    "id not a pointer": (_with(("id",), "id"), ("XC045", "/id")),
    "bad style": (_with(("pagination", "style"), "keyset"), ("XC043", "/pagination/style")),
    "cursor style without cursor param": (
        _with(("pagination", "request"), {"size": "limit"}),
        ("XC042", "/pagination/request"),
    ),
    "offset param on cursor style": (
        _with(("pagination", "request", "offset"), "offset"),
        ("XC049", "/pagination/request/offset"),
    ),
    "page size zero": (
        _with(("pagination", "max-page-size"), 0),
        ("XC052", "/pagination/max-page-size"),
    ),
    "page size not an integer": (
        _with(("pagination", "max-page-size"), "200"),
        ("XC040", "/pagination/max-page-size"),
    ),
    "ttl with months": (
        _with(("pagination", "cursor", "ttl"), "P1M"),
        ("XC046", "/pagination/cursor/ttl"),
    ),
    "ttl empty time part": (
        _with(("pagination", "cursor", "ttl"), "PT"),
        ("XC046", "/pagination/cursor/ttl"),
    ),
    "bad on-expiry": (
        _with(("pagination", "cursor", "on-expiry"), "retry"),
        ("XC043", "/pagination/cursor/on-expiry"),
    ),
    "bad invalidated-by": (
        _with(("pagination", "cursor", "invalidated-by"), ["weather"]),
        ("XC040", "/pagination/cursor/invalidated-by/0"),
    ),
    "lowercase code": (_with(("reasons", 0), "more_pages"), ("XC044", "/reasons/0")),
    "reason object without code": (
        _with(("reasons", 1), {"limit": 1000}),
        ("XC042", "/reasons/1"),
    ),
    "unknown continuation": (
        _with(("reasons", 1, "continuation"), "page_again"),
        ("XC043", "/reasons/1/continuation"),
    ),
    "when in native mode": (
        _with(("reasons", 0), {"code": "MORE_PAGES_AVAILABLE", "when": "always"}),
        ("XC050", "/reasons/0/when"),
    ),
    "detail of wrong type": (
        _with(("reasons", 1, "limit"), "a thousand"),
        ("XC053", "/reasons/1/limit"),
    ),
    "unknown detail": (_with(("reasons", 1, "max"), 5), ("XC053", "/reasons/1/max")),
    "warnings not a list": (_with(("warnings",), "STALE_INDEX"), ("XC040", "/warnings")),
    "duplicate warning": (
        _with(("warnings",), ["STALE_INDEX", "STALE_INDEX"]),
        ("XC052", "/warnings"),
    ),
    "deadline default above max": (
        _with(("deadline", "default"), 60000),
        ("XC052", "/deadline/default"),
    ),
    "duplicate reason": (
        _with(("reasons",), ["MORE_PAGES_AVAILABLE", "MORE_PAGES_AVAILABLE"]),
        ("XC052", "/reasons"),
    ),
    "deadline without param": (_with(("deadline",), {"unit": "ms"}), ("XC042", "/deadline")),
    "deadline bad unit": (
        _with(("deadline", "unit"), "minutes"),
        ("XC043", "/deadline/unit"),
    ),
    "evidence without mint": (_with(("evidence",), {"ttl": "PT1M"}), ("XC042", "/evidence")),
    "mutation evidence on a listing": (
        _with(("evidence",), {"mint": True, "from": "x"}),
        ("XC041", "/evidence/from"),
    ),
    "recheck on a listing": (
        _with(("recheck",), {"each-target": "getThing"}),
        ("XC047", "/recheck"),
    ),
    "destructive listing": (_with(("destructive",), True), ("XC047", "/destructive")),
    "omitted-fields not an expression": (
        _with(("omitted-fields",), "omitted_fields"),
        ("XC045", "/omitted-fields"),
    ),
    # adapter mode
    "adapter without items": (_with(("items",), _DELETE, ADAPTER), ("XC042", "")),
    "condition with unknown operator": (
        _with(("reasons", 0, "when"), {"exists": "$response.link.next"}, ADAPTER),
        ("XC045", "/reasons/0/when/exists"),
    ),
    "condition with two operators": (
        _with(
            ("reasons", 0, "when"),
            {"present": "$response.link.next", "absent": "$response.link.prev"},
            ADAPTER,
        ),
        ("XC045", "/reasons/0/when"),
    ),
    "condition string other than always": (
        _with(("reasons", 2, "when"), "never", ADAPTER),
        ("XC045", "/reasons/2/when"),
    ),
    "comparison with one operand": (
        _with(("reasons", 2, "when"), {"gt": ["$response.body#/total_count"]}, ADAPTER),
        ("XC045", "/reasons/2/when/gt"),
    ),
    "comparison left side not an expression": (
        _with(("reasons", 2, "when"), {"gt": [1000, "$response.body#/total_count"]}, ADAPTER),
        ("XC045", "/reasons/2/when/gt/0"),
    ),
    "expression with eval-looking text": (
        _with(("reasons", 0, "when"), {"present": "__import__('os')"}, ADAPTER),
        ("XC045", "/reasons/0/when/present"),
    ),
    "nested condition error": (
        _with(("reasons", 0, "when"), {"all": [{"present": "$response.link.next"}, {}]}, ADAPTER),
        ("XC045", "/reasons/0/when/all/1"),
    ),
    "empty all": (
        _with(("reasons", 0, "when"), {"all": []}, ADAPTER),
        ("XC045", "/reasons/0/when/all"),
    ),
    "link-header next from the body": (
        _with(("pagination", "response", "next"), "$response.body#/next", ADAPTER),
        ("XC049", "/pagination/response/next"),
    ),
    "link-header with cursor param": (
        _with(("pagination", "request", "cursor"), "after", ADAPTER),
        ("XC049", "/pagination/request/cursor"),
    ),
    "adapter cursor without next": (
        _with(
            ("pagination",),
            {"style": "cursor", "request": {"cursor": "after"}},
            ADAPTER,
        ),
        ("XC042", "/pagination"),
    ),
    "last-item not a pointer": (
        _with(
            ("pagination", "response", "next"),
            {"last-item": "id"},
            ALL_DECLARATIONS["stripe_style"],
        ),
        ("XC045", "/pagination/response/next/last-item"),
    ),
    "offset without offset param": (
        _with(("pagination", "request"), {"size": "limit"}, ALL_DECLARATIONS["offset_style"]),
        ("XC042", "/pagination/request"),
    ),
    "offset style with next": (
        _with(
            ("pagination", "response", "next"),
            "$response.body#/next",
            ALL_DECLARATIONS["offset_style"],
        ),
        ("XC049", "/pagination/response/next"),
    ),
    "end on a native listing": (
        _with(("pagination", "end"), "empty-page"),
        ("XC058", "/pagination/end"),
    ),
    "last on a native listing": (
        _with(("pagination", "response", "last"), "$response.body#/isLast"),
        ("XC058", "/pagination/response/last"),
    ),
    "unknown end rule": (
        _with(("pagination", "end"), "no-more-items", ALL_DECLARATIONS["empty_page_style"]),
        ("XC043", "/pagination/end"),
    ),
    "offset continuation with a ttl": (
        _with(("pagination", "cursor", "ttl"), "PT5M", ALL_DECLARATIONS["jira_style"]),
        ("XC049", "/pagination/cursor/ttl"),
    ),
    "style none with an end": (
        _with(("pagination",), {"style": "none", "end": "empty-page"}, ADAPTER),
        ("XC049", "/pagination/end"),
    ),
    "style none with a size cap in native mode": (
        _with(("pagination",), {"style": "none", "request": {"size": "n"}}),
        ("XC058", "/pagination/request"),
    ),
    "style none with a cursor": (
        _with(("pagination",), {"style": "none", "request": {"cursor": "c"}}, ADAPTER),
        ("XC049", "/pagination/request/cursor"),
    ),
    # mutations and single reads
    "destructive mutation without evidence": (
        _with(("evidence",), _DELETE, MUTATION),
        ("XC048", ""),
    ),
    "mutation evidence without from": (
        _with(("evidence", "from"), _DELETE, MUTATION),
        ("XC042", "/evidence"),
    ),
    "mutation evidence empty": (_with(("evidence",), {}, MUTATION), ("XC042", "/evidence")),
    "mutation ids from the response": (
        _with(("evidence", "ids"), "$response.body#/ids", MUTATION),
        ("XC045", "/evidence/ids"),
    ),
    "mutation with evidence and recheck": (
        _with(("recheck",), {"each-target": "getThing"}, MUTATION),
        ("XC047", ""),
    ),
    "mutation with pagination": (
        _with(("pagination",), {"style": "none"}, MUTATION),
        ("XC047", "/pagination"),
    ),
    "recheck without each-target": (
        _with(("recheck",), {"every": "x"}, ALL_DECLARATIONS["mutation_recheck"]),
        ("XC042", "/recheck"),
    ),
    "resource with pagination": (
        _with(("pagination",), {"style": "none"}, ALL_DECLARATIONS["resource"]),
        ("XC047", "/pagination"),
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_malformed_declaration_is_reported(case: str) -> None:
    decl, expected = BAD[case]
    found = codes_at(decl, registry=REGISTRY)
    assert expected in found, f"{case}: expected {expected}, got {sorted(found)}"


@pytest.mark.parametrize("case", sorted(BAD))
def test_malformed_diagnostics_are_complete_records(case: str) -> None:
    decl, _ = BAD[case]
    for d in validate_declarations(doc_with(decl, registry=REGISTRY)):
        assert d.code in CODES
        assert d.pointer.startswith("/paths/~1things/get/x-completeness")
        assert d.message and d.hint
        assert d.file == "test.yaml"


def test_every_missing_key_is_reported() -> None:
    decl = _with(("evidence",), {}, MUTATION)
    messages = {d.message for d in validate_declarations(doc_with(decl)) if d.code == "XC042"}
    assert messages == {"missing required key 'from'", "missing required key 'ids'"}


def test_unknown_key_hint_suggests_the_spelling() -> None:
    [diag] = validate_declarations(doc_with(_with(("scope", "visiblity"), "x")))
    assert "visibility" in diag.hint


def test_line_of_nearest_known_ancestor() -> None:
    doc = doc_with(_with(("scope", "snapshot"), "always"))
    lines = {"/paths/~1things/get/x-completeness/scope": 12}
    doc = type(doc)(doc.data, lines, "svc.yaml")
    [diag] = validate_declarations(doc)
    assert (diag.pointer, diag.line) == ("/paths/~1things/get/x-completeness/scope/snapshot", 12)


# Registry (document level)

BAD_REGISTRY: dict[str, tuple[Any, tuple[str, str]]] = {
    "registry not an object": ([], ("XC040", "/x-completeness-registry")),
    "unknown registry section": ({"errors": {}}, ("XC041", "/x-completeness-registry/errors")),
    "code not upper snake": (
        {"reasons": {"shard-moving": {"description": "x"}}},
        ("XC044", "/x-completeness-registry/reasons/shard-moving"),
    ),
    "no description": (
        {"reasons": {"SHARD_MOVING": {"continuation": "retry_after"}}},
        ("XC042", "/x-completeness-registry/reasons/SHARD_MOVING"),
    ),
    "bad continuation": (
        {"reasons": {"SHARD_MOVING": {"description": "x", "continuation": "wait"}}},
        ("XC043", "/x-completeness-registry/reasons/SHARD_MOVING/continuation"),
    ),
    "review-by not a date": (
        {"reasons": {"SHARD_MOVING": {"description": "x", "review-by": "next summer"}}},
        ("XC056", "/x-completeness-registry/reasons/SHARD_MOVING/review-by"),
    ),
    "review-by impossible date": (
        {"warnings": {"LAGGING": {"description": "x", "review-by": "2027-02-30"}}},
        ("XC056", "/x-completeness-registry/warnings/LAGGING/review-by"),
    ),
    "redefines a standard code": (
        {"reasons": {"RATE_LIMITED": {"description": "mine"}}},
        ("XC054", "/x-completeness-registry/reasons/RATE_LIMITED"),
    ),
    "details not a JSON Schema": (
        {"reasons": {"SHARD_MOVING": {"description": "x", "details": {"type": "shard"}}}},
        ("XC055", "/x-completeness-registry/reasons/SHARD_MOVING/details"),
    ),
    "custom warning with continuation": (
        {"warnings": {"LAGGING": {"description": "x", "continuation": "none"}}},
        ("XC041", "/x-completeness-registry/warnings/LAGGING/continuation"),
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_REGISTRY))
def test_malformed_registry_is_reported(case: str) -> None:
    registry, expected = BAD_REGISTRY[case]
    found = codes_at({"kind": "resource"}, registry=registry)
    assert expected in found, f"{case}: expected {expected}, got {sorted(found)}"


def test_custom_code_details_are_checked_in_declarations() -> None:
    decl = _with(("reasons",), [{"code": "SHARD_REBALANCING", "shard": 7}])
    assert codes_at(decl, registry=REGISTRY) == {("XC053", "/reasons/0/shard")}


def _nested(depth: int) -> dict[str, Any]:
    condition: Any = {"present": "$response.link.next"}
    for _ in range(depth):
        condition = {"all": [condition]}
    return _with(("reasons", 0, "when"), condition, ADAPTER)


def test_deep_declarations_are_refused_without_recursion() -> None:
    assert codes_at(_nested(30)) == set()
    assert codes_at(_nested(2000)) == {("XC057", "")}
    deep: Any = {"type": "object"}
    for _ in range(2000):
        deep = {"type": "object", "properties": {"a": deep}}
    registry = {"reasons": {"DEEP_CODE": {"description": "x", "details": deep}}}
    assert codes_at({"kind": "resource"}, registry=registry) == {
        ("XC057", "/x-completeness-registry")
    }
    assert load_registry({"x-completeness-registry": registry}).reason("DEEP_CODE") is not None


def test_misplaced_declaration_is_a_warning() -> None:
    doc = doc_with({"kind": "resource"})
    doc.data["paths"]["/things"]["x-completeness"] = {"kind": "collection"}
    doc.data["x-completeness"] = {"kind": "collection"}
    found = {(d.code, d.pointer, d.severity.value) for d in validate_declarations(doc)}
    assert found == {
        ("XC051", "/paths/~1things/x-completeness", "warning"),
        ("XC051", "/x-completeness", "warning"),
    }


def test_every_code_is_emitted_by_some_case() -> None:
    emitted = {code for _, (code, _) in BAD.values()} | {c for _, (c, _) in BAD_REGISTRY.values()}
    assert emitted | {"XC051", "XC057"} == set(CODES)


def test_lines_come_from_the_loaded_file(tmp_path: Any) -> None:
    from xcompleteness.load import load_spec

    spec = tmp_path / "svc.yaml"
    spec.write_text(
        "openapi: 3.1.0\n"
        "info: {title: t, version: '1'}\n"
        "paths:\n"
        "  /things:\n"
        "    get:\n"
        "      operationId: listThings\n"
        "      x-completeness:\n"
        "        kind: collection\n"
        "        scope: {resource: things}\n"
        "        pagination:\n"
        "          style: cursor\n"
        "          request: {cursor: after}\n"
        "          cursor:\n"
        "            ttl: 15m\n"
        "        reasons: [MORE_PAGES_AVAILABLE, {code: RESULT_LIMIT_REACHED, limt: 10}]\n"
        "      responses: {'200': {description: ok}}\n"
    )
    found = {(d.code, d.pointer, d.line) for d in validate_declarations(load_spec(spec))}
    base = "/paths/~1things/get/x-completeness"
    assert found == {
        ("XC046", f"{base}/pagination/cursor/ttl", 14),
        ("XC053", f"{base}/reasons/1/limt", 15),
    }
