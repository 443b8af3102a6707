"""runtime/envelope.py: invariants 1-5 on construction and on parsing, typed codes, tool result."""

from __future__ import annotations

import json
from typing import Any, ClassVar

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field, ValidationError
from xcompleteness.runtime.contract import Registry
from xcompleteness.runtime.envelope import (
    ClientPageLimit,
    Continuation,
    Envelope,
    MorePagesAvailable,
    Reason,
    ResultLimitReached,
    StaleIndex,
    TimeBudgetExceeded,
    ToolResult,
    code_union,
    continuation_for,
    is_contract_violation,
    make_reason,
    make_warning,
)


class Account(BaseModel):
    id: str
    owner: str | None = None


class ListAccountsEnvelope(Envelope):
    """What the generator emits for one operation."""

    declared_reasons: ClassVar[frozenset[str] | None] = frozenset(
        {"MORE_PAGES_AVAILABLE", "RESULT_LIMIT_REACHED", "TIME_BUDGET_EXCEEDED"}
    )
    declared_warnings: ClassVar[frozenset[str] | None] = frozenset({"STALE_INDEX"})

    items: list[Account]
    incomplete_reasons: list[
        code_union([MorePagesAvailable, ResultLimitReached, TimeBudgetExceeded])
    ] = Field(default_factory=list)
    warnings: list[code_union([StaleIndex])] = Field(default_factory=list)


WIRE = {
    "items": [{"id": "svc-184", "owner": None}],
    "complete": False,
    "incomplete_reasons": [
        {
            "code": "RESULT_LIMIT_REACHED",
            "message": "stopped at the configured limit",
            "limit": 1000,
        }
    ],
    "next_cursor": None,
    "scope": {"resource": "service_accounts", "visibility": "readable", "snapshot": "s-7f9c"},
    "page": {"returned": 1, "requested_size": 100, "ordering": "id ascending"},
    "work": {"sources_planned": 4, "sources_completed": 3, "elapsed_ms": 2004},
    "warnings": [],
    "evidence": None,
}


def errors_of(exc: pytest.ExceptionInfo[ValidationError]) -> set[str]:
    return {e["type"] for e in exc.value.errors()}


# ------------------------------------------------------------------ parsing the wire


def test_design_wire_example_parses_into_typed_models() -> None:
    env = ListAccountsEnvelope.model_validate(WIRE)
    (reason,) = env.incomplete_reasons
    assert isinstance(reason, ResultLimitReached)
    assert reason.limit == 1000 and reason.origin == "server"
    assert reason.details == {"limit": 1000}
    assert isinstance(env.items[0], Account)
    assert env.scope is not None and env.scope.snapshot == "s-7f9c"
    again = ListAccountsEnvelope.model_validate_json(env.model_dump_json())
    assert again == env
    # details are siblings of code on the wire
    dumped = json.loads(env.model_dump_json())
    assert dumped["incomplete_reasons"][0]["limit"] == 1000


@pytest.mark.parametrize("complete", [None, "true", 1, "false", 0])
def test_complete_must_be_a_present_boolean(complete: Any) -> None:
    data = dict(WIRE, incomplete_reasons=[], page=None)
    data["complete"] = complete
    if complete is None:
        del data["complete"]
    with pytest.raises(ValidationError):
        ListAccountsEnvelope.model_validate(data)


def test_complete_with_reasons_is_rejected_when_parsing() -> None:
    with pytest.raises(ValidationError) as exc:
        ListAccountsEnvelope.model_validate(dict(WIRE, complete=True))
    assert errors_of(exc) == {"envelope_invariant"}


def test_incomplete_without_reason_is_rejected() -> None:
    with pytest.raises(ValidationError) as exc:
        ListAccountsEnvelope.model_validate(dict(WIRE, incomplete_reasons=[]))
    assert errors_of(exc) == {"envelope_invariant"}


def test_undeclared_code_is_a_contract_violation() -> None:
    bad = dict(WIRE, incomplete_reasons=[{"code": "SHARD_REBALANCING", "shard": "s1"}])
    with pytest.raises(ValidationError) as exc:
        ListAccountsEnvelope.model_validate(bad)
    assert is_contract_violation(exc.value)
    assert "SHARD_REBALANCING" in str(exc.value)
    bad_warning = dict(WIRE, warnings=[{"code": "DEFAULT_SCOPE_APPLIED", "scope": "active"}])
    with pytest.raises(ValidationError) as exc:
        ListAccountsEnvelope.model_validate(bad_warning)
    assert is_contract_violation(exc.value)
    # client codes are not for a server page
    client = dict(WIRE, incomplete_reasons=[{"code": "CLIENT_PAGE_LIMIT", "max_pages": 3}])
    with pytest.raises(ValidationError) as exc:
        ListAccountsEnvelope.model_validate(client)
    assert is_contract_violation(exc.value)


def test_client_codes_allowed_on_client_side_results() -> None:
    class ClientSide(ListAccountsEnvelope):
        client_codes_allowed: ClassVar[bool] = True
        incomplete_reasons: list[
            code_union([MorePagesAvailable, ResultLimitReached, ClientPageLimit])
        ] = Field(default_factory=list)

    env = ClientSide.partial_page(
        [], reasons=[{"code": "CLIENT_PAGE_LIMIT", "max_pages": 3}], next_cursor="c9"
    )
    assert env.reason_codes == ("MORE_PAGES_AVAILABLE", "CLIENT_PAGE_LIMIT")
    assert env.incomplete_reasons[1].origin == "client"


def test_typed_details_are_checked() -> None:
    bad = dict(WIRE, incomplete_reasons=[{"code": "RESULT_LIMIT_REACHED", "limit": "many"}])
    with pytest.raises(ValidationError):
        ListAccountsEnvelope.model_validate(bad)
    extra = dict(WIRE, incomplete_reasons=[{"code": "RESULT_LIMIT_REACHED", "limit": 1, "x": 2}])
    with pytest.raises(ValidationError):
        ListAccountsEnvelope.model_validate(extra)


def test_envelopes_are_frozen() -> None:
    env = ListAccountsEnvelope.complete_page([Account(id="a")])
    with pytest.raises(ValidationError):
        env.complete = False  # type: ignore[misc]


# ------------------------------------------------------------------ builders


def test_builders() -> None:
    done = ListAccountsEnvelope.complete_page(
        [{"id": "a"}, Account(id="b")],
        scope={"resource": "service_accounts", "snapshot": "s1"},
        warnings=[{"code": "STALE_INDEX", "source": "idx"}],
        evidence="v1.token",
    )
    assert done.complete and done.incomplete_reasons == [] and done.next_cursor is None
    assert done.page is not None and done.page.returned == 2
    assert isinstance(done.warnings[0], StaleIndex)
    assert done.continuation() is None

    part = ListAccountsEnvelope.partial_page(
        [], reasons=[ResultLimitReached(limit=1000)], next_cursor="c2", page={"requested_size": 50}
    )
    assert not part.complete
    assert part.reason_codes == ("MORE_PAGES_AVAILABLE", "RESULT_LIMIT_REACHED")
    assert part.page is not None and part.page.returned == 0 and part.page.requested_size == 50
    assert part.continuation() == Continuation(kind="next_cursor", cursor="c2")

    timed = ListAccountsEnvelope.partial_page(
        [{"id": "a"}], reasons=[{"code": "TIME_BUDGET_EXCEEDED", "budget_ms": 2000}]
    )
    assert timed.continuation() == Continuation(kind="retry_with_deadline", minimum_seconds=4.0)


def test_builders_refuse_invalid_envelopes() -> None:
    with pytest.raises(ValidationError):  # a partial page must say why
        ListAccountsEnvelope.partial_page([{"id": "a"}])
    with pytest.raises(ValidationError):  # MORE_PAGES_AVAILABLE without a cursor
        ListAccountsEnvelope.partial_page([], reasons=["MORE_PAGES_AVAILABLE"])
    with pytest.raises(ValidationError) as exc:  # undeclared code
        ListAccountsEnvelope.partial_page(
            [], reasons=[{"code": "SOURCE_UNAVAILABLE", "source": "s"}]
        )
    assert is_contract_violation(exc.value)
    with pytest.raises(ValidationError):  # evidence on a partial result
        ListAccountsEnvelope.model_validate(dict(WIRE, evidence="v1.x"))
    with pytest.raises(ValidationError):  # page.returned must match
        ListAccountsEnvelope.model_validate(dict(WIRE, page={"returned": 5}))


def test_base_envelope_accepts_any_code_with_details_as_extras() -> None:
    env = Envelope.partial_page(
        [1], reasons=[{"code": "SHARD_REBALANCING", "shard": "s3", "message": "moving"}]
    )
    (reason,) = env.incomplete_reasons
    assert type(reason) is Reason
    assert reason.details == {"shard": "s3"} and reason.message == "moving"
    assert env.continuation() == Continuation(kind="none")
    registry = Registry.from_dict(
        {"reasons": {"SHARD_REBALANCING": {"continuation": "retry_after", "origin": "server"}}}
    )
    assert env.continuation(registry) == Continuation(kind="retry_after")


# ------------------------------------------------------------------ invariants, property-based

CODES = [
    "MORE_PAGES_AVAILABLE",
    "RESULT_LIMIT_REACHED",
    "TIME_BUDGET_EXCEEDED",
    "SOURCE_UNAVAILABLE",
]
DETAILS = {
    "MORE_PAGES_AVAILABLE": {},
    "RESULT_LIMIT_REACHED": {"limit": 10},
    "TIME_BUDGET_EXCEEDED": {"budget_ms": 100},
    "SOURCE_UNAVAILABLE": {"source": "s"},
}


@given(
    complete=st.booleans(),
    codes=st.lists(st.sampled_from(CODES), max_size=4),
    cursor=st.sampled_from([None, "c1"]),
    warnings=st.lists(st.sampled_from(["STALE_INDEX", "PARTIAL_FIELD_SET"]), max_size=2),
    evidence=st.sampled_from([None, "v1.e"]),
    n_items=st.integers(0, 3),
)
@settings(max_examples=250)
def test_construction_succeeds_iff_invariants_hold(
    complete: bool,
    codes: list[str],
    cursor: str | None,
    warnings: list[str],
    evidence: str | None,
    n_items: int,
) -> None:
    data = {
        "items": [{"id": str(i)} for i in range(n_items)],
        "complete": complete,
        "incomplete_reasons": [{"code": c, **DETAILS[c]} for c in codes],
        "next_cursor": cursor,
        "warnings": [
            {"code": w, "source": "x"} if w == "STALE_INDEX" else {"code": w, "fields": ["a"]}
            for w in warnings
        ],
        "evidence": evidence,
    }
    declared = {"MORE_PAGES_AVAILABLE", "RESULT_LIMIT_REACHED", "TIME_BUDGET_EXCEEDED"}
    more = codes.count("MORE_PAGES_AVAILABLE")
    valid = (
        set(codes) <= declared
        and set(warnings) <= {"STALE_INDEX"}
        and complete == (not codes)  # invariant 2 (warnings play no part: invariant 5)
        and more <= 1
        and (more == 1) == (cursor is not None)  # invariant 3
        and (evidence is None or complete)
    )
    try:
        env = ListAccountsEnvelope.model_validate(data)
    except ValidationError as exc:
        assert not valid, exc
        undeclared = not (set(codes) <= declared and set(warnings) <= {"STALE_INDEX"})
        assert is_contract_violation(exc) == undeclared
        return
    assert valid
    assert env.complete is complete
    # parsing what we serialised gives the same envelope back
    assert ListAccountsEnvelope.model_validate_json(env.model_dump_json()) == env


# ------------------------------------------------------------------ continuations


@pytest.mark.parametrize(
    ("reasons", "cursor", "expected"),
    [
        (["MORE_PAGES_AVAILABLE"], "c", {"kind": "next_cursor", "cursor": "c"}),
        (["MORE_PAGES_AVAILABLE", "CURSOR_EXPIRED"], "c", {"kind": "restart"}),
        (["SNAPSHOT_CHANGED"], None, {"kind": "restart"}),
        ([{"code": "RESULT_LIMIT_REACHED", "limit": 5}], None, {"kind": "narrow_query"}),
        (
            [{"code": "RESULT_LIMIT_REACHED", "limit": 5}, "MORE_PAGES_AVAILABLE"],
            "c",
            {"kind": "next_cursor", "cursor": "c"},
        ),
        (
            [
                {"code": "RATE_LIMITED", "retry_after_s": 3},
                {"code": "RATE_LIMITED", "retry_after_s": 7},
            ],
            None,
            {"kind": "retry_after", "seconds": 7.0},
        ),
        (
            [{"code": "SOURCE_UNAVAILABLE", "source": "s"}],
            None,
            {"kind": "retry_after", "seconds": None},
        ),
        (
            [{"code": "CLIENT_DEADLINE_EXCEEDED", "deadline_s": 15}],
            None,
            {"kind": "retry_with_deadline", "minimum_seconds": 30.0},
        ),
        (
            [{"code": "CLIENT_PAGE_LIMIT", "max_pages": 2}],
            "c",
            {"kind": "next_cursor", "cursor": "c"},
        ),
        ([{"code": "CLIENT_PAGE_LIMIT", "max_pages": 2}], None, {"kind": "none"}),
        (["VISIBILITY_RESTRICTED"], None, {"kind": "none"}),
        ([], None, {"kind": "none"}),
    ],
)
def test_continuation_for(reasons: list[Any], cursor: str | None, expected: dict[str, Any]) -> None:
    assert continuation_for(reasons, next_cursor=cursor).model_dump() == expected


def test_continuation_fields_fit_kind() -> None:
    with pytest.raises(ValidationError):
        Continuation(kind="next_cursor")
    with pytest.raises(ValidationError):
        Continuation(kind="narrow_query", cursor="c")
    with pytest.raises(ValidationError):
        Continuation(kind="sideways")  # type: ignore[arg-type]
    assert Continuation(kind="restart").model_dump() == {"kind": "restart"}


def test_make_reason_falls_back_to_open_model() -> None:
    typed = make_reason({"code": "TIME_BUDGET_EXCEEDED", "budget_ms": 5})
    assert isinstance(typed, TimeBudgetExceeded)
    loose = make_reason("TIME_BUDGET_EXCEEDED")  # adapter mode: GitHub does not say the budget
    assert type(loose) is Reason and loose.code == "TIME_BUDGET_EXCEEDED"
    client = make_reason({"code": "CLIENT_PAGE_LIMIT", "max_pages": 4})
    assert client.origin == "client" and client.details == {"max_pages": 4}
    assert isinstance(make_warning({"code": "STALE_INDEX", "source": "i"}), StaleIndex)
    assert make_warning("CUSTOM").code == "CUSTOM"


# ------------------------------------------------------------------ FastAPI response_model


def test_usable_as_fastapi_response_model() -> None:
    app = FastAPI()

    @app.get("/accounts", response_model=ListAccountsEnvelope)
    def list_accounts(cursor: str | None = None) -> ListAccountsEnvelope:
        if cursor is None:
            return ListAccountsEnvelope.partial_page(
                [Account(id="a")], reasons=[], next_cursor="p2", scope={"snapshot": "s1"}
            )
        return ListAccountsEnvelope.complete_page([Account(id="b")], scope={"snapshot": "s1"})

    client = TestClient(app)
    first = client.get("/accounts").json()
    assert first["complete"] is False and first["next_cursor"] == "p2"
    assert first["incomplete_reasons"] == [
        {"code": "MORE_PAGES_AVAILABLE", "origin": "server", "message": None}
    ]
    second = client.get("/accounts", params={"cursor": "p2"}).json()
    assert second["complete"] is True and second["incomplete_reasons"] == []
    # the client side parses the same JSON back with all invariants
    assert ListAccountsEnvelope.model_validate(second).items == [Account(id="b")]
    schema = app.openapi()["components"]["schemas"]
    env_schema = schema["ListAccountsEnvelope"]
    assert "complete" in env_schema["required"]
    assert "ResultLimitReached" in schema


# ------------------------------------------------------------------ tool result


def test_tool_result_from_envelope() -> None:
    env = ListAccountsEnvelope.partial_page(
        [Account(id="svc-184")],
        reasons=[{"code": "TIME_BUDGET_EXCEEDED", "budget_ms": 15000}],
        scope={"resource": "service_accounts", "snapshot": "s1"},
        warnings=[{"code": "STALE_INDEX", "source": "repo-index", "message": "index may lag"}],
    )
    result = ToolResult.from_envelope(env, data_key="service_accounts", evidence="v1.ignored")
    out = result.model_dump(mode="json")
    assert out["status"] == "partial"
    assert out["data"] == {"service_accounts": [{"id": "svc-184", "owner": None}]}
    assert out["completeness"]["reasons"] == [
        {
            "code": "TIME_BUDGET_EXCEEDED",
            "origin": "server",
            "details": {"budget_ms": 15000},
            "message": None,
        }
    ]
    assert out["completeness"]["continuation"] == {
        "kind": "retry_with_deadline",
        "minimum_seconds": 30.0,
    }
    assert out["warnings"] == [
        {"code": "STALE_INDEX", "message": "index may lag", "details": {"source": "repo-index"}}
    ]
    assert out["evidence"] is None  # never on a partial result
    done = ToolResult.from_envelope(
        ListAccountsEnvelope.complete_page([]), data_key="service_accounts", evidence="v1.e"
    )
    assert done.status == "complete" and done.evidence == "v1.e"


@pytest.mark.parametrize(
    "data",
    [
        {"status": "success", "completeness": {"complete": True}},
        {"status": "complete", "completeness": {"complete": False, "reasons": []}},
        {"status": "partial", "completeness": {"complete": True}},
        {"status": "partial", "completeness": {"complete": False, "reasons": []}},
        {"status": "error", "completeness": {"complete": False}},
        {
            "status": "partial",
            "completeness": {"complete": False, "reasons": [{"code": "X", "origin": "server"}]},
            "evidence": "v1.e",
        },
        {
            "status": "complete",
            "completeness": {"complete": True, "continuation": {"kind": "restart"}},
        },
    ],
)
def test_tool_result_rejects_inconsistent_status(data: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        ToolResult.model_validate(data)


def test_tool_result_error_shape() -> None:
    result = ToolResult.model_validate(
        {
            "status": "error",
            "data": None,
            "completeness": {"complete": False, "reasons": [], "scope": None, "continuation": None},
            "warnings": [],
            "evidence": None,
            "error": {"code": "EVIDENCE_REJECTED", "reasons": ["expired"], "message": "expired"},
        }
    )
    assert result.error is not None and result.error.code == "EVIDENCE_REJECTED"
