"""The schema and the one expression parser (runtime/expressions.py) agree on conditions.

The schema checks shape so `check` can point at a malformed `when` before any rule runs; the
parser is what the runtime evaluates with. The schema must never refuse a condition the runtime
supports, and everything the schema accepts must parse once its `$` strings are expressions.
"""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st
from xcompleteness.resources import load_json
from xcompleteness.runtime.expressions import ExpressionError, parse_condition, parse_expression

SCHEMA = load_json("x-completeness.schema.json")


def _validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{name}"})


CONDITION = _validator("condition")
EXPRESSION = _validator("conditionExpression")

NAMES = st.sampled_from(["next", "Link", "x-total", "X-RateLimit-Remaining", "per_page", "rel.v2",
                         "https://example.com/rel/next", "a b", "", "a;b", "é"])  # fmt: skip
POINTERS = st.sampled_from(["", "/items", "/a~1b", "/a~0", "/x~2", "items", "/0/id", "/ü"])
EXPRESSIONS = st.one_of(
    st.just("$statusCode"),
    st.builds(lambda n: f"$response.header.{n}", NAMES),
    st.builds(lambda n: f"$response.link.{n}", NAMES),
    st.builds(lambda p: f"$response.body#{p}", POINTERS),
    st.builds(lambda p: f"$request.body#{p}", POINTERS),
    st.builds(lambda n: f"$request.query.{n}", NAMES),
    st.builds(lambda n: f"$request.path.{n}", NAMES),
    st.sampled_from(
        [
            "$response.body",
            "$response.status",
            "$statusCode ",
            "statusCode",
            "$",
            "$request.header.x",
            "$response.cookie.a",
            "$url",
            "$method",
        ]
    ),  # fmt: skip
    st.text(max_size=12),
)
LITERALS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5).filter(lambda s: not s.startswith("$")),
    st.lists(st.integers(), max_size=2),
)
OPS = st.sampled_from(["equals", "not-equals", "gt", "gte", "lt", "lte"])


def _conditions() -> st.SearchStrategy[Any]:
    leaf = st.one_of(
        st.just("always"),
        st.sampled_from(["never", "ALWAYS", 1, None]),
        st.builds(
            lambda op, e: {op: e}, st.sampled_from(["present", "absent", "exists"]), EXPRESSIONS
        ),
        st.builds(
            lambda op, e, v: {op: [e, v]}, OPS, EXPRESSIONS, st.one_of(LITERALS, EXPRESSIONS)
        ),
        st.builds(lambda op, e: {op: [e]}, OPS, EXPRESSIONS),
    )
    combine = st.sampled_from(["all", "any"])

    def merged(a: Any, b: Any) -> Any:  # two operators in one object (or not, for non-dicts)
        return {**a, **b} if isinstance(a, dict) and isinstance(b, dict) else a

    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.builds(lambda op, xs: {op: xs}, combine, st.lists(inner, max_size=3)),
            st.builds(merged, inner, inner),
        ),
        max_leaves=6,
    )


def _parses(parse: Any, value: Any) -> bool:
    try:
        parse(value)
    except ExpressionError:
        return False
    return True


@settings(max_examples=150, deadline=None)
@given(EXPRESSIONS)
def test_expressions_agree(text: str) -> None:
    assert EXPRESSION.is_valid(text) == _parses(parse_expression, text), text


@settings(max_examples=150, deadline=None)
@given(_conditions())
def test_conditions_agree(condition: Any) -> None:
    assert CONDITION.is_valid(condition) == _parses(parse_condition, condition), condition
