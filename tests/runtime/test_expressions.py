"""The runtime-expression and condition language: parsing, evaluation semantics, Link headers."""

from __future__ import annotations

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xcompleteness.runtime.expressions import (
    MISSING,
    Expression,
    ExpressionError,
    RequestView,
    ResponseView,
    parse_condition,
    parse_expression,
    parse_link_header,
    parse_pointer,
)

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=20,
)

BODY = {
    "items": [{"id": "a"}, {"id": "b"}],
    "total_count": 1500,
    "incomplete_results": True,
    "a/b": {"m~n": 7},
    "next_cursor": None,
}
GITHUB_LINK = (
    '<https://api.github.com/search/repositories?q=x&page=2>; rel="next", '
    '<https://api.github.com/search/repositories?q=x&page=34>; rel="last"'
)


def view(**kw: object) -> ResponseView:
    kw.setdefault("status", 200)
    kw.setdefault("headers", {"Link": GITHUB_LINK, "X-Total": "1500"})
    kw.setdefault("body", BODY)
    return ResponseView(**kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------- expressions


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$statusCode", 200),
        ("$response.body#/total_count", 1500),
        ("$response.body#/items/1/id", "b"),
        ("$response.body#/a~1b/m~0n", 7),
        ("$response.body#/next_cursor", None),
        ("$response.body#/items/2", MISSING),
        ("$response.body#/items/01", MISSING),
        ("$response.body#/items/-", MISSING),
        ("$response.body#/nope", MISSING),
        ("$response.body#/total_count/x", MISSING),
        ("$response.header.x-total", "1500"),
        ("$response.header.X-TOTAL", "1500"),
        ("$response.header.Retry-After", MISSING),
        ("$response.link.next", "https://api.github.com/search/repositories?q=x&page=2"),
        ("$response.link.LAST", "https://api.github.com/search/repositories?q=x&page=34"),
        ("$response.link.prev", MISSING),
    ],
)
def test_response_expressions_evaluate(text: str, expected: object) -> None:
    value = parse_expression(text).evaluate(view())
    if expected is MISSING:
        assert value is MISSING
    else:
        assert value == expected


def test_whole_body_and_empty_fragment() -> None:
    assert parse_expression("$response.body").evaluate(view()) == BODY
    assert parse_expression("$response.body#").evaluate(view()) == BODY


def test_request_expressions() -> None:
    request = RequestView(
        query={"q": "x", "per_page": "50"}, path={"id": "svc-1"}, body={"ids": [1, 2]}
    )
    assert parse_expression("$request.body#/ids").evaluate(request=request) == [1, 2]
    assert parse_expression("$request.query.per_page").evaluate(request=request) == "50"
    assert parse_expression("$request.path.id").evaluate(request=request) == "svc-1"
    assert parse_expression("$request.query.missing").evaluate(request=request) is MISSING
    # no request / no response given: missing, never an error
    assert parse_expression("$request.path.id").evaluate(view()) is MISSING
    assert parse_expression("$statusCode").evaluate(request=request) is MISSING


@pytest.mark.parametrize(
    "text",
    [
        "",
        "statusCode",
        "$statuscode",
        "$url",
        "$method",
        "$response.bodyx",
        "$response.body/items",
        "$response.body#items",
        "$response.body#/a~2",
        "$response.body#/a~",
        "$response.header.",
        "$response.header.bad name",
        "$response.headers.x",
        "$response.link.",
        "$response.query.x",
        "$request.header.x",
        "$request.query.",
        "$request.path",
        "$" + "x" * 5000,
    ],
)
def test_bad_expressions_raise_expression_error(text: str) -> None:
    with pytest.raises(ExpressionError):
        parse_expression(text)


@pytest.mark.parametrize("value", [None, 3, ["$statusCode"], {"a": 1}])
def test_non_string_expression_is_an_error(value: object) -> None:
    with pytest.raises(ExpressionError, match="must be a string"):
        parse_expression(value)


def test_parse_is_cached() -> None:
    assert parse_expression("$response.body#/items") is parse_expression("$response.body#/items")


pointer_tokens = st.lists(st.text(max_size=8), max_size=5).map(tuple)
names = st.text(
    alphabet=st.characters(blacklist_categories=("Zs", "Zl", "Zp", "Cc")), min_size=1, max_size=10
)
header_names = st.text(alphabet="abcXYZ-_019!#$.", min_size=1, max_size=10)


@given(tokens=pointer_tokens, source=st.sampled_from(["response.body", "request.body"]))
def test_body_pointer_round_trip(tokens: tuple[str, ...], source: str) -> None:
    expr = Expression(source, pointer=tokens)
    again = parse_expression(str(expr))
    assert again == expr
    assert str(again) == str(expr)


@given(name=names, source=st.sampled_from(["request.query", "request.path"]))
def test_named_round_trip(name: str, source: str) -> None:
    expr = Expression(source, name=name)
    assert parse_expression(str(expr)) == expr


@given(name=header_names)
def test_header_round_trip(name: str) -> None:
    expr = Expression("response.header", name=name)
    assert parse_expression(str(expr)) == expr


@given(body=json_values, tokens=pointer_tokens)
@settings(max_examples=150)
def test_evaluation_never_raises_on_arbitrary_json(body: object, tokens: tuple[str, ...]) -> None:
    expr = Expression("response.body", pointer=tokens)
    value = expr.evaluate(ResponseView(200, {}, body))
    assert (
        value is MISSING or value is None or isinstance(value, (bool, int, float, str, list, dict))
    )
    for op in ("equals", "not-equals", "gt", "gte", "lt", "lte"):
        for literal in (0, "x", True, None, [1], {"a": 1}):
            result = parse_condition({op: [str(expr), literal]}).holds(ResponseView(200, {}, body))
            assert isinstance(result, bool)
    assert isinstance(
        parse_condition({"present": str(expr)}).holds(ResponseView(200, {}, body)), bool
    )


@given(text=st.text(max_size=60))
def test_pointer_parse_accepts_or_raises_expression_error(text: str) -> None:
    try:
        tokens = parse_pointer(text)
    except ExpressionError:
        return
    assert "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens) == text


# ---------------------------------------------------------------- conditions


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ("always", True),
        ({"present": "$response.link.next"}, True),
        ({"absent": "$response.link.next"}, False),
        ({"present": "$response.link.prev"}, False),
        ({"absent": "$response.link.prev"}, True),
        ({"present": "$response.body#/next_cursor"}, False),  # null is absent
        ({"absent": "$response.body#/next_cursor"}, True),
        ({"equals": ["$response.body#/incomplete_results", True]}, True),
        ({"equals": ["$response.body#/incomplete_results", 1]}, False),  # true is not 1
        ({"equals": ["$response.body#/total_count", 1500.0]}, True),
        ({"gt": ["$response.body#/total_count", 1000]}, True),
        ({"lte": ["$response.body#/total_count", 1000]}, False),
        ({"gt": ["$response.body#/total_count", "1000"]}, False),  # number vs string: false
        ({"gt": ["$response.body#/missing", 1000]}, False),
        ({"lte": ["$response.body#/missing", 1000]}, False),
        ({"equals": ["$response.body#/missing", None]}, False),
        ({"not-equals": ["$response.body#/missing", 3]}, False),
        ({"not-equals": ["$statusCode", 410]}, True),
        ({"equals": ["$statusCode", 200]}, True),
        ({"gt": ["$response.header.X-Total", 1000]}, True),  # header text read as a number
        ({"equals": ["$response.header.X-Total", "1500"]}, True),
        ({"equals": ["$response.header.X-Total", 1500]}, True),
        ({"equals": ["$response.body#/total_count", "$response.header.x-total"]}, True),
        ({"equals": ["$response.body#/items", [{"id": "a"}, {"id": "b"}]]}, True),
        ({"gte": ["$response.body#/items/0/id", "a"]}, True),  # strings by code point
        ({"lt": ["$response.body#/items", 3]}, False),
        ({"all": ["always", {"gt": ["$statusCode", 199]}, {"lt": ["$statusCode", 300]}]}, True),
        ({"all": ["always", {"absent": "$response.link.next"}]}, False),
        ({"any": [{"absent": "$response.link.next"}, {"equals": ["$statusCode", 200]}]}, True),
        ({"any": [{"absent": "$response.link.next"}, {"equals": ["$statusCode", 410]}]}, False),
    ],
)
def test_condition_semantics(condition: object, expected: bool) -> None:
    assert parse_condition(condition).holds(view()) is expected


def test_conditions_without_a_response_never_raise() -> None:
    assert parse_condition({"present": "$statusCode"}).holds(None) is False
    assert parse_condition({"absent": "$statusCode"}).holds(None) is True


def test_status_code_condition_maps_errors() -> None:
    cond = parse_condition({"equals": ["$statusCode", 410]})
    assert cond.holds(ResponseView(410, {}, {"error": {"code": "CURSOR_EXPIRED"}}))
    assert not cond.holds(ResponseView(200, {}, {}))


@pytest.mark.parametrize(
    ("condition", "path"),
    [
        ("sometimes", ()),
        (None, ()),
        ({}, ()),
        ({"present": "$x", "absent": "$y"}, ()),
        ({"present": "response.link.next"}, ("present",)),
        ({"present": 3}, ("present",)),
        ({"equals": ["$statusCode"]}, ("equals",)),
        ({"equals": "$statusCode"}, ("equals",)),
        ({"equals": [200, "$statusCode"]}, ("equals", 0)),
        ({"gt": ["$statusCode", "$nope"]}, ("gt", 1)),
        ({"gt": ["$statusCode", float("inf")]}, ("gt", 1)),
        ({"all": []}, ("all",)),
        ({"any": "always"}, ("any",)),
        (
            {"all": ["always", {"any": ["always", {"lt": ["$response.body#/a~9", 1]}]}]},
            ("all", 1, "any", 1, "lt", 0),
        ),
        ({"matches": ["$statusCode", "2.."]}, ()),
        ({"all": [{"not": "always"}]}, ("all", 0)),
    ],
)
def test_bad_conditions_report_a_path(condition: object, path: tuple[object, ...]) -> None:
    with pytest.raises(ExpressionError) as info:
        parse_condition(condition)
    assert info.value.path == path


def test_error_pointer_is_rfc6901() -> None:
    with pytest.raises(ExpressionError) as info:
        parse_condition({"all": [{"equals": ["$statusCode", "$bad/x"]}]})
    assert info.value.pointer == "/all/0/equals/1"


def test_deep_nesting_is_an_error_not_a_recursion_crash() -> None:
    cond: object = "always"
    for _ in range(2000):
        cond = {"all": [cond]}
    with pytest.raises(ExpressionError, match="nested deeper"):
        parse_condition(cond)


def test_expressions_are_listed_with_paths() -> None:
    cond = parse_condition(
        {
            "any": [
                {"present": "$response.link.next"},
                {"gt": ["$response.body#/n", "$response.header.x"]},
            ]
        }
    )
    found = {path: str(expr) for path, expr in cond.expressions()}
    assert found == {
        ("any", 0, "present"): "$response.link.next",
        ("any", 1, "gt", 0): "$response.body#/n",
        ("any", 1, "gt", 1): "$response.header.x",
    }


conditions = st.recursive(
    st.just("always")
    | st.builds(lambda e: {"present": e}, st.sampled_from(["$statusCode", "$response.link.next"]))
    | st.builds(lambda e: {"absent": e}, st.sampled_from(["$response.body#/a", "$request.query.q"]))
    | st.builds(
        lambda op, e, v: {op: [e, v]},
        st.sampled_from(["equals", "not-equals", "gt", "gte", "lt", "lte"]),
        st.sampled_from(["$statusCode", "$response.body#/n", "$response.header.x-n"]),
        json_scalars.filter(lambda v: not (isinstance(v, str) and v.startswith("$")))
        | st.just("$response.body#/m"),
    ),
    lambda children: st.builds(
        lambda op, parts: {op: parts},
        st.sampled_from(["all", "any"]),
        st.lists(children, min_size=1, max_size=3),
    ),
    max_leaves=8,
)


@given(cond=conditions, body=json_values, status=st.integers(100, 599))
@settings(max_examples=120)
def test_condition_round_trip_and_total(cond: object, body: object, status: int) -> None:
    parsed = parse_condition(cond)
    assert parse_condition(parsed.to_obj()) == parsed
    response = ResponseView(status, {"x-n": "12", "link": "<u>; rel=next"}, body)
    assert isinstance(parsed.holds(response), bool)


# ---------------------------------------------------------------- Link header


def test_link_header_rfc8288_edge_cases() -> None:
    header = (
        '<https://x.test/a?x=1,2>; rel="next prev"; title="a, \\"b\\"; c", '
        "<https://x.test/b>; REL=last; rel=ignored, "
        "garbage without brackets, "
        '<https://x.test/c>; rel="unterminated, '
    )
    links = parse_link_header(header)
    assert links[0].target == "https://x.test/a?x=1,2"
    assert links[0].rels == ("next", "prev")
    assert dict(links[0].params)["title"] == 'a, "b"; c'
    assert links[1].target == "https://x.test/b"
    assert links[1].rels == ("last",)  # a second rel parameter is ignored
    assert len(links) == 2


def test_repeated_link_header_lines_and_httpx_headers() -> None:
    headers = httpx.Headers([("Link", '<p2>; rel="next"'), ("link", '<p9>; rel="last"')])
    response = ResponseView(200, headers, {})
    assert parse_expression("$response.link.next").evaluate(response) == "p2"
    assert parse_expression("$response.link.last").evaluate(response) == "p9"
    plain = ResponseView(200, {"LINK": ['<p2>; rel="next"', '<p9>; rel="last"']}, {})
    assert parse_expression("$response.link.last").evaluate(plain) == "p9"


def test_from_httpx_response() -> None:
    response = httpx.Response(200, headers={"Link": '<n>; rel="next"'}, json={"total_count": 3})
    view_ = ResponseView.from_httpx(response)
    assert parse_condition({"present": "$response.link.next"}).holds(view_)
    assert parse_expression("$response.body#/total_count").evaluate(view_) == 3
    text = ResponseView.from_httpx(httpx.Response(502, text="<html>bad gateway"))
    assert parse_expression("$response.body#/total_count").evaluate(text) is MISSING
    assert parse_condition({"equals": ["$statusCode", 502]}).holds(text)


@given(st.text(max_size=200))
@settings(max_examples=300)
def test_link_parser_never_raises(text: str) -> None:
    for link in parse_link_header(text):
        assert isinstance(link.target, str)
        assert all(rel == rel.lower() for rel in link.rels)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("<a>;rel=next", [("a", ("next",))]),
        ('<a> ; rel = "next" ', [("a", ("next",))]),
        ("<a>; crossorigin; rel=next", [("a", ("next",))]),
        ("<a>", [("a", ())]),
        ('<a>; rel="next", junk, <b>; rel=last', [("a", ("next",)), ("b", ("last",))]),
        ("<a>; rel=next junk, <b>; rel=last", [("b", ("last",))]),
        ('<a>; rel="http://x.test/rel NEXT"', [("a", ("http://x.test/rel", "next"))]),
        ("", []),
        (",,, ,", []),
        ("<unterminated", []),
    ],
)
def test_link_header_table(header: str, expected: list[tuple[str, tuple[str, ...]]]) -> None:
    assert [(link.target, link.rels) for link in parse_link_header(header)] == expected


class _Sneaky:
    """An object whose attributes must never be reached through a pointer."""

    secret = "leaked"

    def __getitem__(self, key: str) -> str:
        raise AssertionError("pointer resolution must not index arbitrary objects")


@pytest.mark.parametrize(
    "text",
    [
        "$response.body#/__class__",
        "$response.body#/secret",
        "$response.body#/0",
    ],
)
def test_pointers_never_reach_attributes(text: str) -> None:
    assert parse_expression(text).evaluate(ResponseView(200, {}, _Sneaky())) is MISSING


@pytest.mark.parametrize(
    "text",
    [
        "$response.header.x'); import os #",
        "$statusCode; import os",
        "$response.body#/a'); __import__('os').system('touch /tmp/canary') #",
        "${__import__('os')}",
    ],
)
def test_hostile_text_is_parsed_or_refused_never_run(text: str) -> None:
    try:
        expr = parse_expression(text)
    except ExpressionError:
        return
    # accepted only as inert data: a body pointer whose tokens are plain strings
    assert expr.source == "response.body"
    assert expr.evaluate(ResponseView(200, {}, {"a": 1})) is MISSING
