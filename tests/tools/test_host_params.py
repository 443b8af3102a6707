"""Parameters no model may set beside the walk's own: response shapers and query credentials.

A Google-Tasks-shaped listing (tests/tools/specs/google_like.yaml) carries Google's standard query
parameters. ``fields=items(id)`` drops ``nextPageToken``: offered to a model, the walk ended after
page 1 and said complete. ``key``/``access_token`` are credentials: offered to a model, the model
chose the principal. The generated package is imported, the official MCP SDK client talks to the
generated server, and the API is a uvicorn loopback server that behaves as Google's does.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from mcp import Client, StdioServerParameters
from support.fault_server import serve
from support.gen import generate_and_import

SPEC = Path(__file__).resolve().parent / "specs" / "google_like.yaml"
SECRET = b"g" * 32
KEY = "K1-secret-key-value"
OTHER_KEY = "K2-another-key-value"
HIDDEN = {"fields", "key", "access_token", "oauth_token", "token", "alt", "callback", "props"}
LIST_ARGS = {"max_pages": None, "deadline_s": None, "continuation": None}
PAGES = 5


@pytest.fixture(scope="module")
def pkg(tmp_path_factory):
    out = tmp_path_factory.mktemp("xct_google")
    generate_and_import(SPEC, out, "xct_google")
    return SimpleNamespace(
        out=out / "xct_google",
        server=importlib.import_module("xct_google.tools.mcp_server"),
        client=importlib.import_module("xct_google.client"),
    )


class GoogleLike:
    """Five pages of two task lists; like Google, ``fields`` without ``nextPageToken`` drops it."""

    def __init__(self) -> None:
        self.requests: list[dict[str, str]] = []
        self.cleared: list[Any] = []

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.get("/lists")
        def lists(request: Request) -> JSONResponse:
            query = dict(request.query_params)
            self.requests.append(query)
            page = int(query.get("pageToken") or 0)
            body: dict[str, Any] = {
                "kind": "tasks#taskLists",
                "items": [{"id": f"l{page * 2 + i}", "title": "t"} for i in range(2)],
            }
            if page + 1 < PAGES:
                body["nextPageToken"] = str(page + 1)
            fields = query.get("fields")
            if fields is not None and "nextPageToken" not in fields:
                body.pop("nextPageToken", None)
            return JSONResponse(body)

        @app.post("/lists/clear")
        async def clear(request: Request) -> JSONResponse:
            self.cleared.append({"query": dict(request.query_params), **(await request.json())})
            return JSONResponse({})

        return app


def run(pkg, api, body, *, queries=({"key": KEY},), toolset="static"):
    """Serve ``api``; one MCP server per query set (same secret); run ``body(*clients)``."""
    with serve(api.app()) as url:
        servers = [
            pkg.server.build_server(
                pkg.server.build_host(url, {}, query=q, secret=SECRET, toolset=toolset)
            )
            for q in queries
        ]

        async def main():
            with anyio.fail_after(60):
                async with Client(servers[0]) as c0:
                    if len(servers) == 1:
                        return await body(c0)
                    async with Client(servers[1]) as c1:
                        return await body(c0, c1)

        return anyio.run(main)


def _tool_files(pkg) -> dict[str, dict[str, Any]]:
    """Tool name -> input schema properties, per target file."""
    tools = pkg.out / "tools"
    mcp = json.loads((tools / "mcp.json").read_text())["tools"]
    openai = json.loads((tools / "openai.json").read_text())
    anthropic = json.loads((tools / "anthropic.json").read_text())["tools"]
    return {
        "mcp": {t["name"]: t["inputSchema"]["properties"] for t in mcp},
        "openai_responses": {t["name"]: t["parameters"]["properties"] for t in openai["responses"]},
        "openai_chat": {
            t["function"]["name"]: t["function"]["parameters"]["properties"]
            for t in openai["chat_completions"]
        },
        "anthropic": {t["name"]: t["input_schema"]["properties"] for t in anthropic},
    }


def test_no_target_offers_a_response_shaper_or_a_query_credential(pkg):
    for target, tools in _tool_files(pkg).items():
        listing = set(tools["list_task_lists"])
        assert not listing & HIDDEN, target
        # an ordinary filter and Google's quotaUser stay the model's
        assert {"show_completed", "quota_user"} <= listing, target
        mutation = set(tools["clear_task_list"])
        assert "key" not in mutation, target  # a credential is hidden on every operation
        assert "fields" in mutation, target  # a shaper only on listings: a mutation has no walk
    meta = json.loads((pkg.out / "tools" / "mcp.json").read_text())["tools"][0]["_meta"]
    assert meta["x-completeness/params"] == ["quotaUser", "showCompleted"]


def test_a_model_passing_fields_is_refused_and_the_api_is_not_called(pkg):
    api = GoogleLike()

    async def body(client):
        listed = {t.name: t for t in (await client.list_tools()).tools}
        assert "fields" not in listed["list_task_lists"].input_schema["properties"]
        out = []
        for extra in ({"fields": "items(id)"}, {"key": "model-chosen"}, {"alt": "proto"}):
            result = await client.call_tool("list_task_lists", {**LIST_ARGS, **extra})
            out.append((next(iter(extra)), result.is_error, result.structured_content))
        return out

    for name, is_error, sc in run(pkg, api, body):
        assert is_error is True and sc["status"] == "error"
        assert sc["error"]["code"] == "INVALID_ARGUMENTS"
        assert sc["error"]["message"] == f"/{name}: not allowed"  # as any unknown argument
    assert api.requests == []  # refused before any request: no page was read under fields


def test_the_dynamic_toolsets_call_tool_refuses_fields_the_same_way(pkg):
    api = GoogleLike()

    async def body(client):
        described = await client.call_tool("describe_tools", {"names": ["list_task_lists"]})
        (tool,) = described.structured_content["tools"]
        refused = await client.call_tool(
            "call_tool",
            {"name": "list_task_lists", "arguments": {**LIST_ARGS, "fields": "items(id)"}},
        )
        return tool, refused

    tool, refused = run(pkg, api, body, toolset="dynamic")
    assert not set(tool["inputSchema"]["properties"]) & HIDDEN
    assert refused.is_error is True
    assert refused.structured_content["error"]["code"] == "INVALID_ARGUMENTS"
    assert api.requests == []


def test_the_walk_reads_every_page_and_the_host_key_reaches_every_request(pkg):
    api = GoogleLike()

    async def body(client):
        result = await client.call_tool("list_task_lists", dict(LIST_ARGS))
        return result.structured_content, result.content[0].text

    sc, text = run(pkg, api, body)
    assert sc["status"] == "complete" and sc["completeness"]["complete"] is True
    assert [i["id"] for i in sc["data"]["items"]] == [f"l{n}" for n in range(PAGES * 2)]
    assert len(api.requests) == PAGES
    assert all(r.get("key") == KEY and "fields" not in r for r in api.requests)
    assert KEY not in text and KEY not in json.dumps(sc)  # the value is never echoed


def test_evidence_minted_under_one_query_credential_is_refused_under_another(pkg):
    api = GoogleLike()

    async def body(alice, bob):
        listed = (await alice.call_tool("list_task_lists", dict(LIST_ARGS))).structured_content
        evidence = listed["evidence"]
        args = {"ids": ["l0"], "fields": None, "evidence": evidence}
        wrong = await bob.call_tool("clear_task_list", args)
        right = await alice.call_tool("clear_task_list", args)
        return evidence, wrong, right

    evidence, wrong, right = run(pkg, api, body, queries=({"key": KEY}, {"key": OTHER_KEY}))
    assert evidence and evidence.startswith("v1.")
    assert KEY not in evidence  # the token carries a digest of the principal, not the key
    assert wrong.is_error is True
    assert "EVIDENCE_WRONG_PRINCIPAL" in json.dumps(wrong.structured_content)
    assert right.is_error is False, right.structured_content
    assert api.cleared == [{"query": {"key": KEY}, "ids": ["l0"]}]  # only alice's call, her key


def test_a_too_long_answer_names_the_url_with_the_key_masked(pkg):
    api = GoogleLike()
    with serve(api.app()) as url:
        client = pkg.client.Client(url, params={"key": KEY}, max_response_bytes=20)
        result = client.list_task_lists.collect(max_pages=3)
    text = repr(result)  # every reason, warning and detail the walk kept
    assert result.complete is False
    assert "key=***" in text and KEY not in text
    assert api.requests == [{"key": KEY}]


def test_the_programmers_client_keeps_fields_and_its_own_key_wins(pkg):
    """The Python client is the programmer's: ``fields`` and ``key`` stay keywords (an explicit
    choice, documented as able to drop the walk's signals); a per-call value beats the client's
    default, as a per-call header beats the client's headers."""
    api = GoogleLike()
    with serve(api.app()) as url:
        client = pkg.client.Client(url, params={"key": KEY})
        result = client.list_task_lists.collect(fields="items(id)", key="per-call")
    assert api.requests == [{"fields": "items(id)", "key": "per-call"}]
    assert result.complete is True  # what Google does: the selector dropped nextPageToken


def test_the_server_cli_takes_query_credentials_from_flags_and_the_environment(pkg, monkeypatch):
    monkeypatch.setenv("XCT_GOOGLE_TOKEN", "from-env")
    args = pkg.server.parse_args(
        [
            "--base-url",
            "http://127.0.0.1:1",
            "--query",
            f"key={KEY}",
            "--query-env",
            "access_token=XCT_GOOGLE_TOKEN",
        ]
    )
    assert dict(args.query) == {"key": KEY, "access_token": "from-env"}


@pytest.mark.parametrize(
    ("flag", "value", "says"),
    [
        ("--query", "novalue", "expected NAME=VALUE"),
        ("--query-env", "key=XCT_GOOGLE_UNSET", "variable 'XCT_GOOGLE_UNSET' is not set"),
    ],
)
def test_a_bad_query_flag_exits_2_without_echoing_a_value(pkg, capsys, flag, value, says):
    with pytest.raises(SystemExit) as exc:
        pkg.server.parse_args(["--base-url", "http://127.0.0.1:1", flag, value])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert says in err


def test_a_query_credential_changes_the_evidence_principal(pkg):
    evidence = importlib.import_module("xct_google._runtime.evidence")
    base = evidence.principal_of("https://api.example", {})
    assert evidence.principal_of("https://api.example", {}, {}) == base
    one = evidence.principal_of("https://api.example", {}, {"key": KEY})
    two = evidence.principal_of("https://api.example", {}, {"key": OTHER_KEY})
    assert len({base, one, two}) == 3 and KEY not in one


def _param(name: str, description: str = "", location: str = "query") -> SimpleNamespace:
    return SimpleNamespace(name=name, location=location, description=description, schema={})


@pytest.mark.parametrize(
    ("name", "description", "hidden"),
    [
        ("fields", "", True),  # Google partial response
        ("$select", "", True),  # OData
        ("select", "", True),  # PostgREST
        ("_fields", "", True),  # WordPress
        ("fields[articles]", "", True),  # JSON:API sparse fieldsets
        ("readMask", "", True),  # Google field mask
        ("excludedAttributes", "", True),  # SCIM
        ("$format", "", True),
        ("alt", "", True),
        ("callback", "", True),
        ("$apply", "", True),  # OData aggregation: the answer is no longer the items
        ("props", "Comma-separated list of properties to return.", True),
        ("view", "Which fields to include in a partial response.", True),
        ("out", "Data format for response.", True),
        ("selectedIds", "Only the items whose id is listed.", False),  # a filter, not a selector
        ("select_by", "", False),
        ("showCompleted", "Flag indicating whether completed tasks are returned.", False),
        ("quotaUser", "", False),
        ("apply", "", False),  # no $: not OData's
    ],
)
def test_which_listing_parameters_shape_the_answer(name, description, hidden):
    from xcompleteness.emit.emitters.tool_schemas import host_params

    listing = SimpleNamespace(is_listing=True, parameters=(_param(name, description),))
    single = SimpleNamespace(is_listing=False, parameters=(_param(name, description),))
    assert (name in host_params(listing, {})) is hidden
    assert host_params(single, {}) == set()  # a single read or mutation has no walk to fool


@pytest.mark.parametrize(
    "name", ["key", "api_key", "apiKey", "access_token", "oauth_token", "auth_token", "X-Api-Key"]
)
def test_query_credentials_are_hidden_on_every_operation(name):
    from xcompleteness.emit.emitters.tool_schemas import host_params

    for is_listing in (True, False):
        op = SimpleNamespace(is_listing=is_listing, parameters=(_param(name),))
        assert host_params(op, {}) == {name}
    path = SimpleNamespace(is_listing=True, parameters=(_param(name, location="path"),))
    assert host_params(path, {}) == set()  # only the query: a path value is an address


def test_an_api_key_scheme_in_the_query_names_a_credential_in_oas3_and_swagger2():
    from xcompleteness.emit.emitters.tool_schemas import host_params

    op = SimpleNamespace(is_listing=False, parameters=(_param("sig"), _param("q")))
    scheme = {"s": {"type": "apiKey", "in": "query", "name": "sig"}}
    oas3 = {"components": {"securitySchemes": scheme}}
    swagger2 = {"securityDefinitions": scheme}
    in_header = {"components": {"securitySchemes": {"s": {**scheme["s"], "in": "header"}}}}
    assert host_params(op, oas3) == host_params(op, swagger2) == {"sig"}
    assert host_params(op, in_header) == set() and host_params(op, {}) == set()


def test_the_generated_readme_names_the_query_credentials_the_host_supplies(pkg):
    readme = (pkg.out.parent / "README.md").read_text(encoding="utf-8")
    assert "credential in the query (access_token, key, oauth_token, token)" in readme
    assert "--query-env access_token=API_KEY" in readme


def test_over_stdio_query_env_sends_the_key_on_every_page_and_never_shows_it(pkg):
    """The real CLI (``python -m ... --query-env key=ENVVAR``), a subprocess, the SDK client."""
    api = GoogleLike()
    with serve(api.app()) as url:
        path = os.pathsep.join([str(pkg.out.parent), os.environ.get("PYTHONPATH", "")])
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "xct_google.tools.mcp_server", "--base-url", url]
            + ["--query-env", "key=XCT_GOOGLE_KEY"],
            env={**os.environ, "PYTHONPATH": path, "XCT_GOOGLE_KEY": KEY},
            cwd=str(pkg.out.parent),
        )

        async def main():
            with anyio.fail_after(60):
                async with Client(params) as client:
                    tools = (await client.list_tools()).tools
                    result = await client.call_tool("list_task_lists", dict(LIST_ARGS))
                    return tools, result

        tools, result = anyio.run(main)
    assert KEY not in params.args  # the secret is not on the command line
    listing = {t.name: t for t in tools}["list_task_lists"]
    assert not set(listing.input_schema["properties"]) & HIDDEN
    assert result.structured_content["status"] == "complete"
    assert len(result.structured_content["data"]["items"]) == PAGES * 2
    assert [r.get("key") for r in api.requests] == [KEY] * PAGES
    assert KEY not in result.content[0].text
