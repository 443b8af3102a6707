"""Property: whatever a collect result says, the tool envelope keeps the invariants of §4/§5.

status is ``complete`` exactly when completeness.complete; a complete envelope carries no reasons
and no continuation; a partial one names at least one reason; the envelope validates under the
published outputSchema and the runtime ToolResult model.
"""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from xcompleteness.emit.emitters.tool_schemas import output_schema
from xcompleteness.runtime.envelope import ToolResult
from xcompleteness.runtime.tool_result import single_result, tool_result

DECLARED = ["MORE_PAGES_AVAILABLE", "RESULT_LIMIT_REACHED", "VISIBILITY_RESTRICTED"]
SCHEMA = Draft202012Validator(output_schema(DECLARED, ["STALE_INDEX"]))

reasons = st.lists(
    st.one_of(
        st.sampled_from(DECLARED),
        st.fixed_dictionaries(
            {"code": st.sampled_from(DECLARED + ["CLIENT_PAGE_LIMIT"])},
            optional={"limit": st.integers(0, 10**6), "message": st.text(max_size=20)},
        ),
    ),
    max_size=3,
)
continuations = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {"kind": st.just("next_cursor"), "cursor": st.text(min_size=1, max_size=8)}
    ),
    st.fixed_dictionaries({"kind": st.sampled_from(["narrow_query", "none", "restart"])}),
)


@given(
    items=st.lists(st.fixed_dictionaries({"id": st.text(min_size=1, max_size=6)}), max_size=5),
    complete=st.booleans(),
    reasons=reasons,
    continuation=continuations,
    warnings=st.lists(st.sampled_from(["STALE_INDEX"]), max_size=1),
)
def test_the_tool_envelope_keeps_the_invariants_whatever_the_result_claims(
    items, complete, reasons, continuation, warnings
):
    result = SimpleNamespace(
        items=items,
        complete=complete,
        reasons=reasons,
        continuation=continuation,
        warnings=warnings,
        snapshot="s-1",
    )
    env = tool_result(result, resource_key="items")
    comp = env["completeness"]
    assert (env["status"] == "complete") is comp["complete"]
    if comp["complete"]:
        assert comp["reasons"] == [] and comp["continuation"] is None
        assert complete and not reasons
    else:
        assert env["status"] == "partial" and comp["reasons"]
    if complete and reasons or not complete and not reasons:
        assert "CONTRACT_VIOLATION" in [r["code"] for r in comp["reasons"]]
    assert env["data"]["items"] == items and comp["scope"] == {"snapshot": "s-1"}
    SCHEMA.validate(env)
    ToolResult.model_validate(env)


MAP = "$response.body#/omitted_fields"


def test_a_single_read_with_an_unreadable_omission_map_fails_closed_as_partial():
    """A map that is not an object says nothing about which fields are missing: never complete."""
    for body in ({"id": "a", "omitted_fields": ["owner"]}, {"id": "a", "omitted_fields": "x"}):
        env = single_result("item", body, omitted_fields=MAP)
        assert env["status"] == "partial" and env["completeness"]["complete"] is False
        assert [r["code"] for r in env["completeness"]["reasons"]] == ["CONTRACT_VIOLATION"]
        assert env["completeness"]["continuation"] == {"kind": "none"}
        ToolResult.model_validate(env)
    bad_expr = single_result("item", {"id": "a"}, omitted_fields="$response.header.x-omitted")
    assert bad_expr["status"] == "partial"  # a map outside the body cannot be read: fail closed


def test_a_single_read_without_a_declared_map_or_without_gaps_is_complete():
    assert single_result("item", {"id": "a"})["status"] == "complete"
    unasked = {"id": "a", "omitted_fields": {"owner": "NOT_REQUESTED", "tag": "NOT_PRESENT"}}
    assert single_result("item", unasked, omitted_fields=MAP)["status"] == "complete"
    assert single_result("item", {"id": "a", "omitted_fields": None}, omitted_fields=MAP)[
        "completeness"
    ]["complete"]
