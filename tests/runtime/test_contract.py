"""runtime/contract.py: the canonical contract read back as frozen dataclasses."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.paths import EXAMPLES
from xcompleteness.declare._contract import normalize, operation_ref
from xcompleteness.declare._vocabulary import load_registry
from xcompleteness.document import views
from xcompleteness.resources import load_json
from xcompleteness.runtime.contract import (
    CLIENT_CODES,
    STANDARD_CONTINUATIONS,
    STANDARD_ORIGINS,
    Contract,
    ContractError,
    Registry,
    load_contracts,
)
from xcompleteness.runtime.expressions import ResponseView

CANONICAL: dict[str, Any] = {
    "operation_id": "listServiceAccounts",
    "method": "get",
    "path": "/service-accounts",
    "pointer": "/paths/~1service-accounts/get/x-completeness",
    "kind": "collection",
    "mode": "native",
    "scope": {"resource": "accounts", "visibility": "v", "snapshot": "token", "covers": "c"},
    "items": "$response.body#/items",
    "id": "/id",
    "pagination": {
        "style": "cursor",
        "request": {"cursor": "cursor", "size": "limit", "offset": None, "page": None},
        "response": {
            "next": "$response.body#/next_cursor",
            "next_last_item": None,
            "total": None,
            "pages": None,
        },
        "max_page_size": 200,
        "ordering": "id ascending",
        "cursor": {
            "snapshot": "frozen",
            "ttl_seconds": 900,
            "invalidated_by": ["filter"],
            "on_expiry": "error",
        },
    },
    "reasons": [
        {
            "code": "MORE_PAGES_AVAILABLE",
            "when": None,
            "details": {},
            "continuation": "next_cursor",
            "origin": "server",
        },
        {
            "code": "RESULT_LIMIT_REACHED",
            "when": {"gt": ["$response.body#/total_count", 1000]},
            "details": {"limit": 1000},
            "continuation": "narrow_query",
            "origin": "server",
        },
    ],
    "warnings": ["STALE_INDEX"],
    "deadline": {"param": "time_budget_ms", "unit": "ms", "default": 2000, "max": 30000},
    "evidence": {"mint": True, "ttl_seconds": 600},
    "mutation": None,
    "omitted_fields": None,
    "destructive": False,
}


def test_from_dict_reads_every_field() -> None:
    c = Contract.from_dict(CANONICAL)
    assert c.operation_id == "listServiceAccounts"
    assert c.is_listing and c.mints_evidence and not c.destructive
    assert c.declared_codes == {"MORE_PAGES_AVAILABLE", "RESULT_LIMIT_REACHED"}
    assert c.declared_warnings == {"STALE_INDEX"}
    assert c.scope is not None and c.scope.snapshot == "token"
    assert c.items == "$response.body#/items"
    assert c.items_expr is not None and str(c.items_expr) == c.items
    assert c.id_pointer == ("id",)
    pag = c.pagination
    assert pag is not None and pag.style == "cursor" and pag.max_page_size == 200
    assert pag.request.cursor == "cursor" and pag.request.size == "limit"
    assert pag.response.next_expr is not None
    assert pag.cursor is not None and pag.cursor.ttl_seconds == 900
    assert pag.cursor.invalidated_by == ("filter",)
    limit = c.reason("RESULT_LIMIT_REACHED")
    assert limit is not None and limit.details == {"limit": 1000}
    assert limit.when is not None
    assert limit.when.holds(ResponseView(200, {}, {"total_count": 1001}))
    assert not limit.when.holds(ResponseView(200, {}, {"total_count": 10}))
    assert c.reason("NOPE") is None
    assert c.deadline is not None and c.deadline.max == 30000
    assert c.evidence is not None and c.evidence.ttl_seconds == 600


def test_attribute_names_match_canonical_keys() -> None:
    """Code reading the canonical dict by key works unchanged on the dataclass."""
    c = Contract.from_dict(CANONICAL)
    for key, value in CANONICAL.items():
        attr = getattr(c, key)
        if isinstance(value, (str, bool)) or value is None:
            assert attr == value, key


def test_mutation_contract() -> None:
    data = copy.deepcopy(CANONICAL)
    data.update(
        operation_id="archive",
        kind="mutation",
        pagination=None,
        reasons=[],
        items=None,
        evidence=None,
        destructive=True,
        mutation={
            "from": "listServiceAccounts",
            "ids": "$request.body#/ids",
            "token": "$request.body#/evidence",
            "void_on_warnings": ["STALE_INDEX"],
            "recheck_each_target": None,
        },
    )
    c = Contract.from_dict(data)
    assert c.mutation is not None and c.mutation.from_ == "listServiceAccounts"
    assert c.mutation.ids_expr is not None and c.mutation.ids_expr.source == "request.body"
    assert c.mutation.void_on_warnings == ("STALE_INDEX",)
    assert c.destructive and not c.is_listing


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda d: d.pop("operation_id"), "/operation_id"),
        (lambda d: d.update(kind=3), "/kind"),
        (lambda d: d.update(items="items"), "/items"),
        (lambda d: d.update(reasons={}), "/reasons"),
        (lambda d: d["reasons"][1].update(when={"gt": ["$x", 1]}), "/reasons/1/when/gt/0"),
        (lambda d: d["reasons"][0].pop("code"), "/reasons/0/code"),
        (lambda d: d["pagination"].pop("style"), "/pagination/style"),
        (
            lambda d: d["pagination"]["cursor"].update(ttl_seconds=True),
            "/pagination/cursor/ttl_seconds",
        ),
        (lambda d: d["pagination"]["response"].update(next="$nope"), "/pagination/response/next"),
        (lambda d: d.update(warnings=[1]), "/warnings"),
        (lambda d: d.update(id="id"), "/id"),
    ],
)
def test_malformed_contract_raises_contract_error_with_path(mutate: Any, path: str) -> None:
    data = copy.deepcopy(CANONICAL)
    mutate(data)
    with pytest.raises(ContractError) as info:
        Contract.from_dict(data)
    assert info.value.path == path


def test_not_an_object() -> None:
    with pytest.raises(ContractError):
        Contract.from_dict([])  # type: ignore[arg-type]


def test_standard_tables_match_codes_json() -> None:
    codes = load_json("codes.json")
    reasons = codes["reasons"]
    assert dict(STANDARD_CONTINUATIONS) == {c: e["continuation"] for c, e in reasons.items()}
    assert dict(STANDARD_ORIGINS) == {c: e["origin"] for c, e in codes["reasons"].items()}
    assert {c for c, e in codes["reasons"].items() if e["origin"] == "client"} == CLIENT_CODES


def test_registry_from_generator_canonical_form() -> None:
    spec = yaml.safe_load((EXAMPLES / "service_accounts" / "openapi.yaml").read_text())
    canonical = load_registry(spec).to_dict()
    reg = Registry.from_dict(canonical)
    assert reg.continuation_for("RESULT_LIMIT_REACHED") == "narrow_query"
    assert reg.origin_for("CLIENT_PAGE_LIMIT") == "client"
    assert reg.client_codes >= CLIENT_CODES
    assert reg.reasons["RESULT_LIMIT_REACHED"].details["required"] == ["limit"]
    assert "NOT_REQUESTED" in reg.field_omissions
    for code, entry in reg.reasons.items():
        if not entry.standard:
            assert entry.continuation in reg.continuations, code
    assert Registry().continuation_for("UNKNOWN_CODE") == "none"


@pytest.mark.parametrize("example", ["service_accounts", "link_header_search"])
def test_every_example_contract_loads(example: str, tmp_path: Path) -> None:
    """Round trip through the generator's own normalize and a _contracts.json file."""
    spec = yaml.safe_load((EXAMPLES / example / "openapi.yaml").read_text())
    registry = load_registry(spec)
    contracts: dict[str, Any] = {}
    for op in views(spec).operations:
        decl = op.declaration
        if isinstance(decl, dict):
            ref = operation_ref(op)
            canonical = normalize(decl, op=ref, registry=registry).to_dict()
            contracts[canonical["operation_id"]] = canonical
    assert contracts, "the example declares operations"
    doc = {"contracts": contracts, "registry": registry.to_dict(), "version": "1"}
    file = tmp_path / "_contracts.json"
    file.write_text(json.dumps(doc))
    loaded, reg = load_contracts(file)
    assert set(loaded) == set(contracts)
    for op_id, c in loaded.items():
        assert c.declared_codes == {r["code"] for r in contracts[op_id]["reasons"] or []}
        for decl in c.reasons:
            assert (decl.when is None) == (decl.when_raw is None)
            if decl.when is not None:
                assert decl.when.to_obj() is not None
        assert reg.continuation_for(next(iter(c.declared_codes), "X")) in reg.continuations


def test_load_contracts_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "_contracts.json"
    bad.write_text("{not json")
    with pytest.raises(ContractError):
        load_contracts(bad)
    bad.write_text(json.dumps({"contracts": 3}))
    with pytest.raises(ContractError):
        load_contracts(bad)
    with pytest.raises(ContractError):
        load_contracts(tmp_path / "missing.json")
