"""Parameters on the wire follow OpenAPI style/explode: generated client -> real uvicorn server.

The server records the raw query string, raw path and headers of every request, so the tests
assert the exact bytes a real API (Stripe's ``created[gt]=5``, ``expand[]=a``) would receive.
"""

from __future__ import annotations

import json
import string
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from support.fault_server import serve
from support.gen import import_generated
from xcompleteness.runtime.parameters import (
    ParamSpec,
    cookie_header,
    header_value,
    path_value,
    query_fragments,
    query_string,
)

SPEC = Path(__file__).parent / "specs" / "wire_params.yaml"
PACKAGE = "client_area_wire_params"
CUSTOMERS = [{"id": f"cus_{i:03d}", "email": f"c{i}@example.com"} for i in range(5)]


def make_app(log: list[dict[str, Any]]) -> FastAPI:
    app = FastAPI()

    def record(request: Request) -> None:
        log.append(
            {
                "query": request.scope["query_string"].decode("ascii"),
                "path": request.scope["raw_path"].decode("ascii"),
                "cookie": request.headers.get("cookie"),
                "trace": request.headers.get("x-trace"),
            }
        )

    @app.get("/v1/customers")
    async def customers(request: Request) -> JSONResponse:
        record(request)
        after = request.query_params.get("starting_after")
        limit = int(request.query_params.get("limit") or 10)
        start = next((i + 1 for i, c in enumerate(CUSTOMERS) if c["id"] == after), 0)
        data = CUSTOMERS[start : start + limit]
        return JSONResponse({"data": data, "has_more": start + limit < len(CUSTOMERS)})

    @app.get("/v1/things/{rest:path}")
    async def thing(request: Request, rest: str) -> JSONResponse:
        record(request)
        return JSONResponse({"ok": True})

    return app


@pytest.fixture(scope="module")
def pkg(tmp_path_factory):
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    out = tmp_path_factory.mktemp("wire_gen")
    write_tree(out, generate(SPEC, [], PACKAGE).files)
    return import_generated(out, PACKAGE), out


@pytest.fixture(scope="module")
def server():
    log: list[dict[str, Any]] = []
    with serve(make_app(log)) as base:
        yield base, log


def test_stripe_like_listing_sends_every_style_as_openapi_spells_it(pkg, server):
    package, _ = pkg
    base, log = server
    log.clear()
    with package.Client(base) as client:
        result = client.list_customers.collect(
            created={"gt": 5, "lte": 9},
            expand=["data.default_source", "data.invoice_settings"],
            metadata={"plan": "pro", "team name": "a&b"},
            email="a+b@example.com",
            ids=["1", "2"],
            tags=["x", "y,z"],
            spaced=["a", "b"],
            piped=[1, 2],
            x_trace=["t1", "t2"],
            session="s 1;x",
            limit=2,
        )
    assert result.complete is True
    assert [c.id for c in result.items] == [c["id"] for c in CUSTOMERS]
    assert len(log) == 3
    first = log[0]["query"]
    assert first == (
        "created[gt]=5&created[lte]=9"
        "&expand[]=data.default_source&expand[]=data.invoice_settings"
        "&metadata[plan]=pro&metadata[team%20name]=a%26b"
        "&email=a%2Bb%40example.com"
        "&ids=1&ids=2"
        "&tags=x,y%2Cz"
        "&spaced=a%20b"
        "&piped=1|2"
        "&limit=2"
    )
    # the walk's cursor is appended to the same serialised query on the next pages
    assert log[1]["query"] == first + "&starting_after=cus_001"
    assert log[2]["query"] == first + "&starting_after=cus_003"
    # the cookie is a Cookie header on every page, never part of the URL
    assert {entry["cookie"] for entry in log} == {"session=s%201%3Bx"}
    assert all("session" not in entry["query"] for entry in log)
    assert {entry["trace"] for entry in log} == {"t1,t2"}


def test_a_scalar_in_a_deep_object_parameter_is_a_plain_pair(pkg, server):
    package, _ = pkg
    base, log = server
    log.clear()
    with package.Client(base) as client:
        page = client.list_customers.page(created=1700000000, limit=10)
    assert len(page.items) == 5
    assert log[0]["query"] == "created=1700000000&limit=10"


def test_the_async_client_serialises_the_same_way(pkg, server):
    import asyncio

    package, _ = pkg
    base, log = server
    log.clear()

    async def run():
        async with package.AsyncClient(base) as client:
            return await client.list_customers.collect(
                created={"gte": 1}, expand=["a"], tags=["x", "y"], session="s", limit=5
            )

    result = asyncio.run(run())
    assert result.complete is True and len(result.items) == 5
    assert log[0]["query"] == "created[gte]=1&expand[]=a&tags=x,y&limit=5"
    assert log[0]["cookie"] == "session=s"


def test_a_content_parameter_is_sent_as_json_text(pkg, server):
    package, out = pkg
    base, log = server
    log.clear()
    with package.Client(base) as client:
        client.list_customers.page(where={"plan": "pro plus"}, limit=10)
    assert log[0]["query"] == "limit=10&where=%7B%22plan%22%3A%22pro%20plus%22%7D"
    text = (out / PACKAGE / "_ops" / "list_customers.py").read_text()
    assert '("where", "where", "query", "application/json", False)' in text


def test_cookie_parameters_join_the_clients_own_cookie_header(pkg, server):
    package, _ = pkg
    base, log = server
    log.clear()
    with package.Client(base, headers={"cookie": "auth=tok"}) as client:
        client.list_customers.page(session="abc", limit=10)
    assert log[0]["cookie"] == "auth=tok; session=abc"
    assert log[0]["query"] == "limit=10"


def test_path_parameters_use_simple_label_and_matrix(pkg, server):
    package, _ = pkg
    base, log = server
    log.clear()
    with package.Client(base) as client:
        body = client.get_thing(
            ids=[1, 2], label=["a", "b/c"], matrix={"x": "1", "y": "2"}, mode=["p", "q"]
        )
    assert body.model_dump(exclude_none=True) == {"ok": True}
    assert log[0]["path"] == "/v1/things/1,2/.a.b%2Fc/;matrix=x,1,y,2"
    assert log[0]["cookie"] == "mode=p,q"
    assert log[0]["query"] == ""


def test_generated_parameter_tuples_carry_style_only_where_it_is_not_the_default(pkg):
    _, out = pkg
    text = (out / PACKAGE / "_ops" / "list_customers.py").read_text()
    assert '("created", "created", "query", "deepObject", True)' in text
    assert '("tags", "tags", "query", "form", False)' in text
    assert '("piped", "piped", "query", "pipeDelimited", False)' in text
    assert '("email", "email", "query")' in text  # form/explode: the defaults, left out
    assert '("session", "session", "cookie")' in text


def test_tool_schema_lets_a_model_pass_objects_and_arrays_and_the_host_sends_them(pkg, server):
    package, out = pkg
    base, log = server
    mcp = json.loads((out / PACKAGE / "tools" / "mcp.json").read_text())
    tool = next(t for t in mcp["tools"] if t["name"] == "list_customers")
    props = tool["inputSchema"]["properties"]
    created = props["created"]["anyOf"]
    assert {"type": "integer"} in [{k: v for k, v in o.items() if k == "type"} for o in created]
    obj = next(o for o in created if o.get("type") == "object")
    assert sorted(obj["properties"]) == ["gt", "gte", "lt", "lte"]
    assert {"type": "array", "items": {"type": "string"}} in props["expand"]["anyOf"]
    # a free-form object has no strict form: a JSON-encoded string the server decodes
    assert "metadata" in tool["_meta"]["x-completeness/json_args"]
    assert "session" not in props and "X-Trace" not in props  # credentials stay server-side

    import importlib

    mcp_server = importlib.import_module(f"{PACKAGE}.tools.mcp_server")
    log.clear()
    host = mcp_server.build_host(base, secret=b"k" * 32)
    try:
        env, is_error = host.call(
            "list_customers",
            {
                # strict mode makes the model send every key; nulls are not sent
                "created": {"gt": 5, "gte": None, "lt": None, "lte": None},
                "expand": ["data.customer"],
                "metadata": json.dumps({"plan": "pro"}),
            },
        )
    finally:
        host.client.close()
    assert not is_error, env["error"]
    assert env["status"] == "complete"
    assert log[0]["query"] == "created[gt]=5&expand[]=data.customer&metadata[plan]=pro"


# --------------------------------------------------------------------------- properties

_text = st.text(alphabet=string.printable + "äß€[]", max_size=8)
_key = st.text(alphabet=string.printable + "äß€[]", min_size=1, max_size=6)


def _parse_deep(query: str) -> dict[str, Any]:
    """A Rack/qs-style reader of ``a[b][c]=v`` (what Stripe's servers do)."""
    out: dict[str, Any] = {}
    for fragment in query.split("&"):
        raw_key, _, raw_value = fragment.partition("=")
        head, _, tail = raw_key.partition("[")
        segments = (
            [unquote(head)] + [unquote(s) for s in tail[:-1].split("][")]
            if tail
            else [unquote(head)]
        )
        node = out
        for seg in segments[:-1]:
            node = node.setdefault(seg, {})
        node[segments[-1]] = unquote(raw_value)
    return out


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(_key, st.one_of(_text, st.dictionaries(_key, _text, max_size=3)), min_size=1)
)
def test_deep_object_round_trips_through_a_bracket_reader(value):
    value = {k: v for k, v in value.items() if v != {}}
    if not value:
        return
    query = query_string([(ParamSpec("f", "filter", "query", "deepObject", True), value)])
    assert _parse_deep(query) == {"filter": value}


@settings(max_examples=150, deadline=None)
@given(
    st.lists(_text, min_size=1, max_size=5),
    st.sampled_from([("form", ","), ("pipeDelimited", "|"), ("spaceDelimited", "%20")]),
)
def test_delimited_arrays_round_trip_values_that_contain_the_delimiter(values, style):
    name, delimiter = style
    # spaceDelimited cannot tell a space in a value from the delimiter (both are %20 on the
    # wire, as OpenAPI's style table spells it); the other delimiters are escaped inside values
    assume(name != "spaceDelimited" or not any(" " in v for v in values))
    (fragment,) = query_fragments(ParamSpec("a", "a", "query", name, False), values)
    key, _, raw = fragment.partition("=")
    assert key == "a"
    assert [unquote(v) for v in raw.split(delimiter)] == values


@settings(max_examples=100, deadline=None)
@given(st.lists(_text, min_size=1, max_size=5))
def test_exploded_form_arrays_repeat_the_name(values):
    fragments = query_fragments(ParamSpec("a", "a b", "query", "form", True), values)
    assert [f.partition("=")[0] for f in fragments] == ["a%20b"] * len(values)
    assert [unquote(f.partition("=")[2]) for f in fragments] == values


@pytest.mark.parametrize(
    ("style", "explode", "value", "expected"),
    [
        ("simple", False, 5, "5"),
        ("simple", False, ["a", "b"], "a,b"),
        ("simple", True, {"x": 1, "y": 2}, "x=1,y=2"),
        ("simple", False, {"x": 1, "y": 2}, "x,1,y,2"),
        ("label", False, ["a", "b"], ".a,b"),
        ("label", True, ["a", "b"], ".a.b"),
        ("label", True, {"x": 1}, ".x=1"),
        ("matrix", False, "v", ";id=v"),
        ("matrix", False, ["a", "b"], ";id=a,b"),
        ("matrix", True, ["a", "b"], ";id=a;id=b"),
        ("matrix", True, {"x": 1, "y": 2}, ";x=1;y=2"),
        ("simple", False, "a/b c", "a%2Fb%20c"),
    ],
)
def test_path_styles_match_the_openapi_style_table(style, explode, value, expected):
    assert path_value(ParamSpec("id", "id", "path", style, explode), value) == expected


def test_headers_cookies_and_defaults():
    assert header_value(ParamSpec("h", "X-H", "header", "simple", False), [1, True]) == "1,true"
    assert header_value(ParamSpec("h", "X-H", "header", "simple", True), {"a": 1}) == "a=1"
    spec = ParamSpec("c", "c", "cookie", "form", True)
    assert cookie_header([(spec, ["a", "b"])], "x=1") == "x=1; c=a; c=b"
    assert cookie_header([(ParamSpec("c", "c", "cookie", "form", False), {"k": "v"})]) == "c=k,v"
    # a three-element tuple (older packages) gets the location's OpenAPI defaults
    assert ParamSpec.of(("a", "a", "query")) == ParamSpec("a", "a", "query", "form", True)
    assert ParamSpec.of(("p", "p", "path")) == ParamSpec("p", "p", "path", "simple", False)
    # a style the location does not allow falls back to its default, explode kept
    assert ParamSpec.of(("p", "p", "path", "deepObject", True)).style == "simple"
    assert query_fragments(ParamSpec("b", "b", "query", "form", True), False) == ["b=false"]
    assert query_fragments(ParamSpec("b", "b", "query", "form", True), None) == []
    json_spec = ParamSpec.of(("h", "X-Filter", "header", "application/json", False))
    assert header_value(json_spec, {"a": [1, True]}) == '{"a":[1,true]}'
    assert path_value(ParamSpec("p", "p", "path", "application/json", False), [1]) == "%5B1%5D"
