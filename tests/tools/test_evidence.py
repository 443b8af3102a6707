"""The MCP server's own evidence tokens: minted only from complete results, verified strictly.

These exercise :class:`EvidenceKeeper` directly (real HMAC, an injected clock); the same matrix is
driven end to end through the MCP server in test_mcp_server.py, where the API must not be called.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from xcompleteness.emit.emitters.tool_schemas import REFUSAL_CODES, output_schema
from xcompleteness.runtime.approval import refusal
from xcompleteness.runtime.evidence import EvidenceKeeper, Refused
from xcompleteness.runtime.tool_result import tool_result

SECRET = b"s" * 32


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def complete_env(ids, warnings=()):
    return {
        "status": "complete",
        "data": {"items": [{"id": i} for i in ids]},
        "completeness": {"complete": True, "reasons": [], "scope": None, "continuation": None},
        "warnings": [{"code": w, "message": None, "details": {}} for w in warnings],
        "evidence": None,
    }


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def keeper(clock):
    return EvidenceKeeper(SECRET, "alice", clock=clock)


def mint(keeper, ids=("a", "b"), warnings=(), op="listItems", ttl=600.0, api="api-token"):
    env = complete_env(ids, warnings)
    return keeper.mint(operation=op, query={}, envelope=env, ids=ids, ttl_s=ttl, api_token=api)


def codes(keeper, token, targets=("a",), op="listItems", void=()):
    with pytest.raises(Refused) as exc:
        keeper.verify(token, operation=op, targets=list(targets), void_on_warnings=void)
    return set(exc.value.codes)


def test_valid_evidence_grants_exactly_its_ids_and_the_api_token(keeper):
    grant = keeper.verify(mint(keeper), operation="listItems", targets=["a", "b"])
    assert grant.ids == {"a", "b"} and grant.api_token == "api-token"


def test_missing_evidence_is_refused(keeper):
    assert codes(keeper, None) == {"EVIDENCE_MISSING"}
    assert codes(keeper, "") == {"EVIDENCE_MISSING"}


@pytest.mark.parametrize("mangle", ["flip_payload", "other_secret", "garbage", "not_a_string"])
def test_forged_evidence_is_refused(keeper, clock, mangle):
    token = mint(keeper)
    if mangle == "flip_payload":
        version, body, sig = token.split(".")
        flipped = body[:-2] + ("A" if body[-2] != "A" else "B") + body[-1]
        forged = f"{version}.{flipped}.{sig}"
    elif mangle == "other_secret":
        forged = mint(EvidenceKeeper(b"x" * 32, "alice", clock=clock))
    elif mangle == "garbage":
        forged = "v1.eyJ2IjoxfQ.AAAA"
    else:
        forged = {"ids": ["a"]}
    assert codes(keeper, forged) == {"EVIDENCE_INVALID"}


def test_expired_evidence_is_refused(keeper, clock):
    token = mint(keeper, ttl=60)
    clock.now += 61
    assert codes(keeper, token) == {"EVIDENCE_EXPIRED"}


def test_evidence_from_another_operation_is_refused(keeper):
    assert codes(keeper, mint(keeper, op="searchItems")) == {"EVIDENCE_WRONG_OPERATION"}


def test_evidence_replayed_for_another_principal_is_refused(keeper, clock):
    bob = EvidenceKeeper(SECRET, "bob", clock=clock)  # same secret, different credential
    assert codes(bob, mint(keeper)) == {"EVIDENCE_WRONG_PRINCIPAL"}


def test_targets_outside_the_evidence_are_refused_and_named(keeper):
    with pytest.raises(Refused) as exc:
        keeper.verify(mint(keeper), operation="listItems", targets=["a", "zz"])
    assert exc.value.codes == ("TARGETS_OUTSIDE_EVIDENCE",) and exc.value.outside == ("zz",)
    assert codes(keeper, mint(keeper), targets=()) == {"TARGETS_MISSING"}


def test_a_declared_voiding_warning_refuses_other_warnings_do_not(keeper):
    token = mint(keeper, warnings=["STALE_INDEX"])
    assert codes(keeper, token, void=["STALE_INDEX"]) == {"EVIDENCE_VOIDED_BY_WARNING"}
    assert keeper.verify(token, operation="listItems", targets=["a"], void_on_warnings=["X"])


def test_used_evidence_cannot_be_replayed(keeper):
    token = mint(keeper)
    keeper.consume(keeper.verify(token, operation="listItems", targets=["a"]))
    assert codes(keeper, token) == {"EVIDENCE_ALREADY_USED"}


def test_a_token_for_someone_else_is_refused_as_such_even_when_also_expired(keeper, clock):
    token = mint(keeper, op="other", ttl=1)
    clock.now += 5
    assert codes(keeper, token) == {"EVIDENCE_WRONG_OPERATION"}


def test_every_problem_of_an_authentic_bound_token_is_reported_together(keeper):
    token = mint(keeper, warnings=["STALE_INDEX"])
    keeper.consume(keeper.verify(token, operation="listItems", targets=["a"]))
    assert codes(keeper, token, targets=["nope"], void=["STALE_INDEX"]) == {
        "EVIDENCE_ALREADY_USED",
        "EVIDENCE_VOIDED_BY_WARNING",
        "TARGETS_OUTSIDE_EVIDENCE",
    }


def test_two_tokens_over_the_same_listing_are_distinct_and_spent_separately(keeper):
    first, second = mint(keeper), mint(keeper)
    assert first != second
    keeper.consume(keeper.verify(first, operation="listItems", targets=["a"]))
    assert keeper.verify(second, operation="listItems", targets=["a"])


reason_codes = st.sampled_from(
    ["MORE_PAGES_AVAILABLE", "CLIENT_PAGE_LIMIT", "VISIBILITY_RESTRICTED"]
)


@given(
    status=st.sampled_from(["complete", "partial", "error"]),
    complete=st.booleans(),
    reasons=st.lists(reason_codes, max_size=2),
)
def test_evidence_cannot_be_minted_from_an_incomplete_listing(status, complete, reasons):
    env = complete_env(["a"])
    env["status"] = status
    env["completeness"]["complete"] = complete
    env["completeness"]["reasons"] = [
        {"code": c, "origin": "server", "details": {}} for c in reasons
    ]
    keeper = EvidenceKeeper(SECRET, "alice")
    if status == "complete" and complete and not reasons:
        assert keeper.mint(operation="o", query={}, envelope=env, ids=["a"], ttl_s=60)
    else:
        with pytest.raises(ValueError):
            keeper.mint(operation="o", query={}, envelope=env, ids=["a"], ttl_s=60)


def test_the_tool_result_of_a_lying_result_is_never_complete():
    class Lying:
        items = [{"id": "a"}]
        complete = True
        reasons = [{"code": "MORE_PAGES_AVAILABLE"}]
        continuation = {"kind": "next_cursor", "cursor": "c2"}
        warnings = []
        snapshot = None

    env = tool_result(Lying(), resource_key="items")
    assert env["status"] == "partial" and env["completeness"]["complete"] is False
    assert "CONTRACT_VIOLATION" in [r["code"] for r in env["completeness"]["reasons"]]
    with pytest.raises(ValueError):
        EvidenceKeeper(SECRET, "alice").mint(
            operation="o", query={}, envelope=env, ids=["a"], ttl_s=60
        )


def test_refusal_carries_codes_and_an_approval_prompt_valid_under_the_output_schema():
    env = refusal(
        tool="archive_items",
        destructive=True,
        codes=["EVIDENCE_EXPIRED", "TARGETS_OUTSIDE_EVIDENCE"],
        targets=["a", "zz"],
        outside=["zz"],
        listing_tool="list_items",
        listing_scope={"resource": "items"},
    )
    Draft202012Validator(output_schema(["MORE_PAGES_AVAILABLE"], [])).validate(env)
    assert env["status"] == "error" and env["evidence"] is None
    assert env["error"]["code"] == "EVIDENCE_REJECTED"
    assert env["error"]["reasons"] == ["EVIDENCE_EXPIRED", "TARGETS_OUTSIDE_EVIDENCE"]
    assert env["error"]["decision"] == "refuse_or_request_review"
    approval = env["approval"]
    assert "archive_items" in approval["action"] and "destructive" in approval["action"]
    assert approval["target_scope"]["outside_evidence"] == ["zz"]
    assert approval["target_scope"]["listing_tool"] == "list_items"
    assert len(approval["why"]) == 2
    assert [o["option"] for o in approval["options"]] == [
        "retry_with_longer_deadline",
        "act_only_on_returned_ids",
        "abandon",
    ]
    assert set(env["error"]["reasons"]) <= set(REFUSAL_CODES)
