"""spec_ext/codes.json is the standard registry of DESIGN.md section 3.4; load_registry adds the
document's custom codes without ever replacing a standard one."""

from __future__ import annotations

import datetime as dt
import json

import jsonschema
import pytest
from support.vocab import ROOT
from support.vocab_snippets import REGISTRY
from xcompleteness.declare._vocabulary import load_registry, standard_registry
from xcompleteness.runtime.contract import Registry

CODES = json.loads((ROOT / "spec_ext" / "codes.json").read_text())

DESIGN_REASONS = {
    "MORE_PAGES_AVAILABLE": ("next_cursor", "server", []),
    "RESULT_LIMIT_REACHED": ("narrow_query", "server", ["limit"]),
    "TIME_BUDGET_EXCEEDED": ("retry_with_deadline", "server", ["budget_ms", "elapsed_ms"]),
    "SOURCE_UNAVAILABLE": ("retry_after", "server", ["source"]),
    "VISIBILITY_RESTRICTED": ("none", "server", ["excluded"]),
    "RATE_LIMITED": ("retry_after", "server", ["retry_after_s"]),
    "CURSOR_EXPIRED": ("restart", "server", []),
    "SNAPSHOT_CHANGED": ("restart", "server", []),
    "CLIENT_PAGE_LIMIT": ("next_cursor", "client", ["max_pages"]),
    "CLIENT_ITEM_LIMIT": ("next_cursor", "client", ["max_items"]),
    # one tool answer bounded by the MCP host (items or bytes), resumed at the next item
    "CLIENT_ANSWER_LIMIT": ("next_cursor", "client", ["max_bytes", "max_items"]),
    "CLIENT_DEADLINE_EXCEEDED": ("retry_with_deadline", "client", ["deadline_s"]),
    "CONTRACT_VIOLATION": ("none", "client", ["what"]),
    # issue 19: an unmapped HTTP error after pages were read; duplicates under a frozen snapshot
    "HTTP_ERROR": ("next_cursor", "client", ["status", "error"]),
    "DUPLICATE_ITEMS": ("restart", "client", ["ids", "count"]),
    # a frozen listing walked past the bound on remembered ids cannot confirm its snapshot held
    "DUPLICATES_UNCHECKED": ("narrow_query", "client", ["limit", "after"]),
}


def test_reasons_match_the_design_table() -> None:
    got = {
        code: (e["continuation"], e["origin"], sorted(e["details"]["properties"]))
        for code, e in CODES["reasons"].items()
    }
    assert got == {c: (k, o, sorted(d)) for c, (k, o, d) in DESIGN_REASONS.items()}


def test_optional_details_are_optional() -> None:
    required = {c: e["details"].get("required", []) for c, e in CODES["reasons"].items()}
    assert required["TIME_BUDGET_EXCEEDED"] == ["budget_ms"]
    assert required["VISIBILITY_RESTRICTED"] == []


def test_sets_match_the_design() -> None:
    assert set(CODES["continuations"]) == {
        "next_cursor", "retry_after", "narrow_query", "retry_with_deadline", "restart", "none"
    }  # fmt: skip
    server_warnings = {c for c, e in CODES["warnings"].items() if e["origin"] == "server"}
    assert server_warnings == {"STALE_INDEX", "PARTIAL_FIELD_SET", "DEFAULT_SCOPE_APPLIED"}
    # issue 10 item 2: the client's own warning (an item kept although it broke its schema)
    client_warnings = {c for c, e in CODES["warnings"].items() if e["origin"] == "client"}
    # issue 19: an end inferred from an empty/short page; the same id twice in a live listing
    assert client_warnings == {
        "ITEM_SCHEMA_MISMATCH",
        "END_INFERRED",
        "ITEMS_SEEN_TWICE",
        "EVIDENCE_WITHHELD",  # issue 19: evidence kept from an inferred or doubted end
        "DUPLICATE_CHECK_STOPPED",  # issue 19: the bounded set of seen ids was full
    }
    assert list(CODES["field_omissions"]) == [
        "NOT_REQUESTED", "FORBIDDEN", "SOURCE_FAILED", "NOT_PRESENT"
    ]  # fmt: skip
    assert set(CODES["decisions"]) == {"continue_search", "proceed", "refuse_or_request_review"}
    assert {"CURSOR_EXPIRED", "CURSOR_INVALID", "EVIDENCE_REJECTED"} == set(CODES["errors"])


def test_the_runtime_knows_the_client_warnings() -> None:
    from xcompleteness.runtime.contract import CLIENT_WARNING_CODES
    from xcompleteness.runtime.envelope import STANDARD_WARNING_MODELS

    client = {c for c, e in CODES["warnings"].items() if e["origin"] == "client"}
    assert CLIENT_WARNING_CODES == client
    assert set(STANDARD_WARNING_MODELS) == set(CODES["warnings"])


def _schemas():
    for section in ("reasons", "warnings", "errors"):
        for code, entry in CODES[section].items():
            yield f"{section}/{code}", entry["details"]
    for kind, entry in CODES["continuations"].items():
        yield f"continuations/{kind}", entry["fields"]


@pytest.mark.parametrize(("where", "schema"), list(_schemas()), ids=lambda v: str(v)[:40])
def test_every_details_schema_is_valid_and_closed(where: str, schema: dict) -> None:
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object" and schema["additionalProperties"] is False, where


def test_every_entry_has_a_one_line_description() -> None:
    for section in (
        "reasons",
        "warnings",
        "continuations",
        "field_omissions",
        "decisions",
        "errors",
    ):
        for name, entry in CODES[section].items():
            text = entry["description"]
            assert text and "\n" not in text and len(text) < 200, (section, name)


def test_continuation_fields_name_their_kind() -> None:
    for kind, entry in CODES["continuations"].items():
        assert entry["fields"]["properties"]["kind"] == {"const": kind}
    for entry in CODES["reasons"].values():
        assert entry["continuation"] in CODES["continuations"]


def test_wire_details_validate() -> None:
    v = jsonschema.Draft202012Validator(CODES["reasons"]["TIME_BUDGET_EXCEEDED"]["details"])
    assert v.is_valid({"budget_ms": 2000, "elapsed_ms": 2004})
    assert not v.is_valid({"elapsed_ms": 2004})
    assert not v.is_valid({"budget_ms": 2000, "hidden_names": ["x"]})


def test_standard_registry() -> None:
    std = standard_registry()
    assert std.client_codes == {
        "CLIENT_ANSWER_LIMIT", "CLIENT_DEADLINE_EXCEEDED", "CLIENT_ITEM_LIMIT", "CLIENT_PAGE_LIMIT",
        "CONTRACT_VIOLATION", "DUPLICATE_ITEMS", "DUPLICATES_UNCHECKED", "HTTP_ERROR",
    }  # fmt: skip
    assert all(i.standard for i in std.reasons.values())
    assert std.custom_codes == ()


def test_load_registry_adds_custom_codes() -> None:
    reg = load_registry({"x-completeness-registry": REGISTRY})
    info = reg.reason("SHARD_REBALANCING")
    assert info is not None
    assert (info.continuation, info.origin, info.standard) == ("retry_after", "server", False)
    assert info.owner == "search-platform"
    assert info.review_by == dt.date(2027, 6, 30)
    assert info.details["required"] == ["shard"]
    assert [c.code for c in reg.custom_codes] == ["SHARD_REBALANCING"]


def test_load_registry_accepts_yaml_dates_and_defaults() -> None:
    raw = {
        "reasons": {"QUOTA_SPLIT": {"description": "x", "review-by": dt.date(2026, 1, 1)}},
        "warnings": {"LAGGING_REPLICA": {"description": "replica lag"}},
    }
    reg = load_registry({"x-completeness-registry": raw})
    quota = reg.reason("QUOTA_SPLIT")
    assert quota is not None and quota.review_by == dt.date(2026, 1, 1)
    assert (quota.continuation, quota.origin) == ("none", "server")
    assert quota.details == {"type": "object"}
    lag = reg.warning("LAGGING_REPLICA")
    assert lag is not None and lag.continuation is None


def test_custom_code_never_replaces_standard_and_junk_is_skipped() -> None:
    raw = {
        "reasons": {
            "RATE_LIMITED": {"description": "mine", "continuation": "none"},
            "NO_DESCRIPTION": {"continuation": "none"},
            "BAD_DETAILS": {"description": "x", "details": {"type": "shard"}},
            "NOT_A_MAP": 3,
        },
        "warnings": [],
    }
    reg = load_registry({"x-completeness-registry": raw})
    assert reg.reasons["RATE_LIMITED"] == standard_registry().reasons["RATE_LIMITED"]
    assert "NO_DESCRIPTION" not in reg.reasons and "NOT_A_MAP" not in reg.reasons
    assert reg.reasons["BAD_DETAILS"].details == {"type": "object"}
    assert load_registry({"x-completeness-registry": "junk"}) == standard_registry()
    assert load_registry([]) == standard_registry()


def test_canonical_registry_keeps_used_and_client_codes() -> None:
    reg = load_registry({"x-completeness-registry": REGISTRY})
    out = reg.to_dict(["MORE_PAGES_AVAILABLE", "SHARD_REBALANCING", "STALE_INDEX"])
    assert set(out["reasons"]) == {"MORE_PAGES_AVAILABLE", "SHARD_REBALANCING", *reg.client_codes}
    client_warnings = {
        "ITEM_SCHEMA_MISMATCH",
        "END_INFERRED",
        "ITEMS_SEEN_TWICE",
        "EVIDENCE_WITHHELD",
        "DUPLICATE_CHECK_STOPPED",
    }
    assert set(out["warnings"]) == {"STALE_INDEX", *client_warnings}  # + client warnings
    assert out["reasons"]["SHARD_REBALANCING"] == {
        "description": "a shard is moving; its rows are skipped until the move ends",
        "details": REGISTRY["reasons"]["SHARD_REBALANCING"]["details"],
        "continuation": "retry_after",
        "origin": "server",
        "standard": False,
    }
    assert out["field_omissions"] == ["NOT_REQUESTED", "FORBIDDEN", "SOURCE_FAILED", "NOT_PRESENT"]
    assert "restart" in out["continuations"]
    assert json.loads(json.dumps(out)) == out
    assert set(reg.to_dict()["reasons"]) == set(reg.reasons)
    # the one registry class: what the generator writes, the runtime reads back as equal
    assert Registry.from_dict(json.loads(json.dumps(reg.to_dict()))) == reg
