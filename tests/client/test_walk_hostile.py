"""Whatever a server sends, the walk answers with a result: no traceback, no false 'complete'."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from support.fault_server import github_contract, native_contract
from support.walk_helpers import scripted
from xcompleteness.runtime.walk import ApiError, Limits, Walker

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
codes = st.sampled_from(["MORE_PAGES_AVAILABLE", "SOURCE_UNAVAILABLE", "NOPE", "CURSOR_EXPIRED"])
items = st.lists(st.fixed_dictionaries({"id": st.text(max_size=4)}), max_size=3)
reason_lists = st.lists(st.fixed_dictionaries({"code": codes}) | codes | json_values, max_size=3)
extras = {
    "next_cursor": st.none() | st.text(max_size=4) | json_values,
    "scope": st.fixed_dictionaries({"snapshot": st.none() | st.text(max_size=3)}) | json_values,
    "warnings": st.lists(json_values, max_size=2),
    "total_count": st.integers(0, 2000) | json_values,
    "incomplete_results": st.booleans() | json_values,
}
# Mostly well-formed envelopes with one thing wrong, plus shapeless JSON.
plausible = st.fixed_dictionaries(
    {"items": items, "complete": st.booleans()},
    optional={"incomplete_reasons": reason_lists, **extras},
)
hostile = st.fixed_dictionaries(
    {},
    optional={
        "items": items | json_values,
        "complete": st.booleans() | json_values,
        "incomplete_reasons": reason_lists | json_values,
        **extras,
    },
)
envelope_like = plausible | hostile
responses = st.tuples(
    st.sampled_from([200, 200, 200, 400, 410, 429, 500]),
    st.dictionaries(
        st.sampled_from(["Link", "Retry-After", "X-Visibility"]),
        st.text(max_size=30) | st.just('<http://fault.test/search?page=2>; rel="next"'),
        max_size=2,
    ),
    envelope_like | json_values,
)


def _valid_native(body) -> bool:
    return (
        isinstance(body, dict)
        and body.get("complete") is True
        and not body.get("incomplete_reasons")
        and isinstance(body.get("items"), list)
    )


@settings(max_examples=150, deadline=None)
@given(pages=st.lists(responses, min_size=1, max_size=4), adapter=st.booleans())
def test_any_response_sequence_gives_a_result_or_an_api_error(pages, adapter):
    contract = github_contract() if adapter else native_contract()
    walker = Walker(contract, scripted(pages + [(200, {}, {})] * 3), sleep=lambda s: None)
    try:
        result = walker.collect({}, Limits(max_pages=4, max_retry_wait=0.0))
    except ApiError as err:  # an error status the declaration does not map: loud, typed
        assert err.status in (400, 410, 500) or not adapter
        return
    assert result.complete == (not result.reasons)
    assert (result.continuation is None) == result.complete
    if result.complete and not adapter:
        # complete only after a page that really said so
        assert any(status == 200 and _valid_native(body) for status, _, body in pages)
