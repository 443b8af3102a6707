"""``Contract.to_dict`` is the exact inverse of ``Contract.from_dict`` on canonical contracts.

Property: for every valid canonical dict ``d`` (every key present, in the documented order),
``Contract.from_dict(d).to_dict() == d`` and the JSON text is byte-identical; and for every
contract ``c`` built from one, ``from_dict(c.to_dict()) == c``. Checked with Hypothesis over
generated canonical contracts and on every operation of the examples and the goldens.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.paths import EXAMPLE_IDS, EXAMPLE_SPECS
from xcompleteness.check._pipeline import check_spec
from xcompleteness.runtime.codes import CONTINUATION_KINDS, REASON_CODES, WARNING_ORIGINS
from xcompleteness.runtime.contract import Contract, contracts_from_document

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DOCUMENTS = sorted((ROOT / "tests" / "golden").glob("*/*/_contracts.json"))
GOLDEN_CANONICAL = sorted((ROOT / "tests" / "vocab" / "golden").glob("*.contracts.json"))

TEXT = st.text(max_size=12)
NAME = st.from_regex(r"[a-z][a-z_]{0,10}", fullmatch=True)
OPT_TEXT = st.none() | TEXT
NUMBER = st.none() | st.integers(0, 10**6) | st.floats(0, 1e6, allow_nan=False)
POINTER = st.sampled_from(["", "/id", "/meta/id", "/a~1b", "/0"])
RESPONSE_EXPR = st.sampled_from(
    [
        "$response.body#/items",
        "$response.body#",
        "$response.body#/data/0/things",
        "$response.body#/next_cursor",
        "$response.header.X-Total-Count",
        "$response.link.next",
        "$response.body#/paging/next/link",
    ]
)
REQUEST_EXPR = st.sampled_from(
    ["$request.body#/ids", "$request.body#/evidence", "$request.query.id"]
)
CONDITIONS = st.sampled_from(
    [
        None,
        "always",
        {"gt": ["$response.body#/total_count", 1000]},
        {"equals": ["$statusCode", 429]},
        {"present": "$response.header.Retry-After"},
        {"all": [{"equals": ["$response.body#/incomplete_results", True]},
                 {"present": "$response.link.next"}]},
    ]
)  # fmt: skip
JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-100, 100) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAME, inner, max_size=3),
    max_leaves=8,
)
CODE = st.sampled_from([*REASON_CODES, "CUSTOM_CODE"])
WARNINGS = st.lists(st.sampled_from(sorted(WARNING_ORIGINS)), max_size=3)


def _ordered(*keys: str) -> Any:
    """fixed_dictionaries does not keep the key order: put it back in the canonical one."""
    return lambda d: {k: d[k] for k in keys}


@st.composite
def reasons(draw: Any) -> dict[str, Any]:
    return {
        "code": draw(CODE),
        "when": draw(CONDITIONS),
        "details": draw(st.dictionaries(NAME, JSON_VALUE, max_size=3)),
        "continuation": draw(st.sampled_from(CONTINUATION_KINDS)),
        "origin": draw(st.sampled_from(["server", "client"])),
    }


@st.composite
def paginations(draw: Any) -> dict[str, Any] | None:
    if draw(st.booleans()):
        return None
    last_item = draw(st.none() | POINTER)
    return {
        "style": draw(st.sampled_from(["cursor", "link-header", "next-url", "offset", "page"])),
        "request": {k: draw(st.none() | NAME) for k in ("cursor", "size", "offset", "page")},
        "response": {
            "next": None if last_item is not None else draw(st.none() | RESPONSE_EXPR),
            "next_last_item": last_item,
            "total": draw(st.none() | RESPONSE_EXPR),
            "pages": draw(st.none() | RESPONSE_EXPR),
            "last": draw(st.none() | RESPONSE_EXPR),
        },
        "max_page_size": draw(st.none() | st.integers(1, 1000)),
        "ordering": draw(OPT_TEXT),
        "cursor": draw(
            st.none()
            | st.fixed_dictionaries(
                {
                    "snapshot": st.sampled_from(["frozen", "live"]),
                    "ttl_seconds": NUMBER,
                    "invalidated_by": st.lists(
                        st.sampled_from(["filter", "ordering", "page-size", "authorization"]),
                        max_size=3,
                    ),
                    "on_expiry": st.sampled_from(["error", "restart-required"]),
                }
            ).map(_ordered("snapshot", "ttl_seconds", "invalidated_by", "on_expiry"))
        ),
        "end": draw(st.none() | st.sampled_from(["empty-page", "short-page"])),
    }


@st.composite
def canonical_contracts(draw: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(["collection", "search", "aggregate", "resource", "mutation"]))
    mutation = None
    evidence = None
    if kind == "mutation":
        mutation = {
            "from": draw(st.none() | NAME),
            "ids": draw(st.none() | REQUEST_EXPR),
            "token": draw(st.none() | REQUEST_EXPR),
            "void_on_warnings": draw(
                st.lists(st.sampled_from(sorted(WARNING_ORIGINS)), max_size=2)
            ),
            "recheck_each_target": draw(st.none() | NAME),
        }
    elif draw(st.booleans()):
        evidence = {"mint": draw(st.booleans()), "ttl_seconds": draw(NUMBER)}
    return {
        "operation_id": draw(NAME),
        "method": draw(st.sampled_from(["get", "post", "delete"])),
        "path": "/" + draw(NAME),
        "pointer": "/paths/~1" + draw(NAME) + "/get/x-completeness",
        "kind": kind,
        "mode": draw(st.sampled_from(["native", "adapter"])),
        "scope": {
            "resource": draw(OPT_TEXT),
            "visibility": draw(OPT_TEXT),
            "snapshot": draw(st.sampled_from(["none", "request", "token"])),
            "covers": draw(OPT_TEXT),
        },
        "items": draw(st.none() | RESPONSE_EXPR),
        "id": draw(st.none() | POINTER),
        "pagination": draw(paginations()),
        "reasons": draw(st.lists(reasons(), max_size=4)),
        "warnings": draw(WARNINGS),
        "deadline": draw(
            st.none()
            | st.fixed_dictionaries(
                {
                    "param": st.none() | NAME,
                    "unit": st.sampled_from(["ms", "s"]),
                    "default": NUMBER,
                    "max": NUMBER,
                }
            ).map(_ordered("param", "unit", "default", "max"))
        ),
        "evidence": evidence,
        "mutation": mutation,
        "omitted_fields": draw(st.none() | st.just("$response.body#/omitted_fields")),
        "destructive": draw(st.booleans()),
    }


def _text(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)


def _assert_round_trip(canonical: dict[str, Any], *, ordered: bool = True) -> Contract:
    contract = Contract.from_dict(canonical)
    again = contract.to_dict()
    assert again == canonical
    if ordered:  # the documented key order too (the goldens store sorted keys)
        assert _keys(again) == _keys(canonical)
    assert _text(again) == _text(canonical)
    assert Contract.from_dict(again) == contract
    return contract


def _keys(data: Any) -> Any:
    if isinstance(data, dict):
        return [(k, _keys(v)) for k, v in data.items()]
    if isinstance(data, list):
        return [_keys(v) for v in data]
    return None


@settings(max_examples=150, deadline=None)
@given(canonical_contracts())
def test_to_dict_inverts_from_dict(canonical: dict[str, Any]) -> None:
    contract = _assert_round_trip(canonical)
    # the parsed forms are there for every location that is set
    assert (contract.items is None) == (contract.items_expr is None)
    for decl in contract.reasons:
        assert (decl.when is None) == (decl.when_raw is None)


@pytest.mark.parametrize("path", GOLDEN_DOCUMENTS, ids=lambda p: p.parent.name)
def test_golden_packages_round_trip(path: Path) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    contracts, _registry = contracts_from_document(document)
    assert set(contracts) == set(document["contracts"])
    rebuilt = {op: contracts[op].to_dict() for op in document["contracts"]}
    assert _text({**document, "contracts": rebuilt}) == _text(document)


@pytest.mark.parametrize("path", GOLDEN_CANONICAL, ids=lambda p: p.name)
def test_golden_canonical_contracts_round_trip(path: Path) -> None:
    for canonical in json.loads(path.read_text(encoding="utf-8")).values():
        _assert_round_trip(canonical, ordered=False)


@pytest.mark.parametrize(("spec", "overlays"), EXAMPLE_SPECS, ids=EXAMPLE_IDS)
def test_every_example_operation_round_trips(spec: Path, overlays: tuple[Path, ...]) -> None:
    result = check_spec(spec, overlays)
    assert result.contracts
    for contract in result.contracts.values():
        assert isinstance(contract, Contract)
        # what check made is what the package's runtime reads back from _contracts.json
        assert _assert_round_trip(contract.to_dict()) == contract
