"""Property tests: any JSON as a declaration yields diagnostics (never an exception), and
normalize is total and JSON-shaped on whatever the schema accepts."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from support.vocab import DECL, doc_with, loads_back_equal
from support.vocab_snippets import ALL_DECLARATIONS
from xcompleteness.declare._contract import OperationRef, duration_seconds, normalize
from xcompleteness.declare._vocabulary import CODES, standard_registry, validate_declarations

KEYS = st.sampled_from(
    ["kind", "mode", "scope", "items", "id", "pagination", "reasons", "warnings", "when",
     "style", "request", "response", "next", "code", "evidence", "mint", "ttl", "all", "gt",
     "present", "last-item", "x-ext", "destructive", "recheck"]
)  # fmt: skip
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5000),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["collection", "adapter", "cursor", "always", "$response.link.next", "PT1M"]),
    st.text(max_size=8),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(KEYS, st.text(max_size=6)), inner, max_size=5),
    ),
    max_leaves=25,
)
OP = OperationRef("listThings", "get", "/things", "/paths/~1things/get")


@settings(max_examples=100, deadline=None)
@given(JSON)
def test_any_json_gives_diagnostics_not_exceptions(decl: Any) -> None:
    for d in validate_declarations(doc_with(decl)):
        assert d.code in CODES
        assert d.pointer.startswith(DECL)
        assert d.hint


@settings(max_examples=100, deadline=None)
@given(JSON)
def test_normalize_is_total(decl: Any) -> None:
    if isinstance(decl, dict):
        contract = normalize(decl, op=OP, registry=standard_registry())
        out = contract.to_dict()
        assert json.loads(json.dumps(out)) == out
        assert loads_back_equal(contract)


def _mutate(base: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    decl = copy.deepcopy(base)
    decl[key] = value
    return decl


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(sorted(ALL_DECLARATIONS)), KEYS, JSON)
def test_valid_or_reported_then_normalize_keeps_shape(name: str, key: str, value: Any) -> None:
    decl = _mutate(ALL_DECLARATIONS[name], key, value)
    diags = validate_declarations(doc_with(decl))
    out = normalize(decl, op=OP, registry=standard_registry()).to_dict()
    if not diags:
        # accepted declarations normalise to the documented shapes
        assert out["kind"] in {"collection", "search", "aggregate", "resource", "mutation"}
        assert all(isinstance(r["continuation"], str) for r in out["reasons"])
        assert (out["mutation"] is None) == (out["kind"] != "mutation")


@given(st.integers(0, 30), st.integers(0, 23), st.integers(0, 59), st.integers(0, 59))
def test_duration_roundtrip(days: int, hours: int, minutes: int, seconds: int) -> None:
    text = "P" + (f"{days}D" if days else "")
    time = "".join(f"{v}{u}" for v, u in ((hours, "H"), (minutes, "M"), (seconds, "S")) if v)
    text += f"T{time}" if time else ""
    if text == "P":
        assert duration_seconds(text) is None
        return
    assert duration_seconds(text) == days * 86400 + hours * 3600 + minutes * 60 + seconds
