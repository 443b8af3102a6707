"""Tool subsets, the dynamic toolset and what the agent sees (issue 22; issue 19 §4).

Driven by the official MCP SDK client: over stdio against a subprocess server in both modes
(list, search, describe, a listing that comes back partial, a refused mutation, an accepted one
with evidence), and in process to hold the two routes against each other: a call through
``call_tool`` must answer exactly what the direct tool answers, through the same evidence gate.
The API is a real uvicorn server on loopback (tests/support/tools_api.py).
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

import anyio
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters
from support.fault_server import Faults, serve
from support.gen import import_generated
from support.tool_rules import anthropic_problems, openai_strict_problems
from support.tools_api import ToolsApi, make_tools_app
from support.tools_gen import TOOLS_SPECS, generate_spec, load_tools_json
from xcompleteness import api
from xcompleteness.audit._draft import resource_name
from xcompleteness.runtime.toolsets import search, words

SECRET = b"k" * 32
TIMEOUT = 90
ITEMS = TOOLS_SPECS / "items.yaml"
ALL_TOOLS = {"list_items", "search_items", "archive_items", "get_item", "purge_item", "label_items"}


@pytest.fixture(scope="module")
def pkg(generated):
    out = generated["xct_items"].parent
    import_generated(out, "xct_items")
    return SimpleNamespace(
        out=out,
        folder=generated["xct_items"],
        server=importlib.import_module("xct_items.tools.mcp_server"),
        result=importlib.import_module("xct_items._runtime.envelope").ToolResult,
    )


# --------------------------------------------------------------------------- subsets


@pytest.mark.parametrize(
    ("selectors", "expected"),
    [
        (["archiveItems"], {"archive_items", "list_items"}),  # a mutation brings its listing
        (["list_items"], {"list_items", "archive_items"}),  # a listing brings its mutations
        (["purge_*"], {"purge_item", "get_item"}),  # a recheck mutation brings its read
        (["get*"], {"get_item"}),
        (["search"], {"search_items"}),  # an OpenAPI tag
        (["ADMIN"], {"archive_items", "purge_item", "list_items", "get_item"}),
        (["label_items,search_items"], {"label_items", "search_items"}),
    ],
)
def test_a_subset_is_closed_under_evidence_on_the_server(pkg, selectors, expected):
    host = pkg.server.build_host("http://127.0.0.1:9", {}, secret=SECRET, tools=selectors)
    assert set(host.tools) == expected
    for name, tool in host.tools.items():
        contract = host.contracts[tool.operation]
        if contract.evidence_from:  # never a destructive tool without its listing
            assert host.by_operation[str(contract.evidence_from)].name in host.tools, name


def test_a_selector_matching_nothing_is_refused_on_the_server_and_by_generate(pkg, capsys):
    with pytest.raises(pkg.server.SelectionError):
        pkg.server.build_host("http://127.0.0.1:9", {}, secret=SECRET, tools=["nope*"])
    rc = pkg.server.main(["--base-url", "http://127.0.0.1:9", "--tools", "nope"])
    assert rc == 2 and "no tool matches 'nope'" in capsys.readouterr().err
    result = api.generate(ITEMS, package="xct_sel_bad", tools=["nope"], cache=False)
    assert result.exit_code == 1 and [d.code for d in result.diagnostics] == ["XC609"]


def test_generate_tools_writes_the_closed_subset_in_every_target_file():
    result = api.generate(ITEMS, package="xct_sel", tools=["archive_items"], cache=False)
    assert result.exit_code == 0
    files = {str(k): v for k, v in result.files.items()}
    mcp = json.loads(files["xct_sel/tools/mcp.json"])
    anthropic = json.loads(files["xct_sel/tools/anthropic.json"])
    openai = json.loads(files["xct_sel/tools/openai.json"])
    subset = {"archive_items", "list_items"}
    assert {t["name"] for t in mcp["tools"]} == subset
    assert {t["name"] for t in anthropic["tools"]} == subset
    assert {t["name"] for t in openai["responses"]} == subset
    rules = files["xct_sel/tools/AGENT_RULES.md"]
    assert "### `archive_items`" in rules and "### `get_item`" not in rules
    assert "xct_sel/client.py" in files  # the client still covers every operation
    assert "def get_item" in files["xct_sel/client.py"] or "get_item" in files["xct_sel/client.py"]


# --------------------------------------------------------------------------- definitions


def test_the_three_dynamic_definitions_are_valid_for_every_target(pkg):
    mcp = load_tools_json(pkg.folder, "mcp.json")["dynamic"]
    anthropic = load_tools_json(pkg.folder, "anthropic.json")["dynamic"]
    openai = load_tools_json(pkg.folder, "openai.json")["dynamic"]
    names = ["search_tools", "describe_tools", "call_tool"]
    assert [t["name"] for t in mcp] == [t["name"] for t in anthropic] == names
    assert [t["name"] for t in openai["responses"]] == names
    for tool in mcp:
        Draft202012Validator.check_schema(tool["inputSchema"])
        Draft202012Validator.check_schema(tool["outputSchema"])
    for tool in openai["responses"]:
        assert openai_strict_problems(tool["name"], tool["parameters"]) == [], tool["name"]
    for tool in anthropic:
        assert anthropic_problems(tool) == [], tool["name"]
    call = {t["name"]: t for t in openai["responses"]}["call_tool"]
    assert call["parameters"]["properties"]["arguments"]["type"] == "string"  # strict: JSON text


def test_search_is_lexical_deterministic_and_ranks_names_over_summaries():
    tools = [
        _tool("list_repositories", "List repositories of a user", ["repos"], "repositories"),
        _tool("delete_repository", "Delete a repository", ["repos"], ""),
        _tool("list_issues", "List issues; repositories may be filtered", ["issues"], "issues"),
        _tool("get_user", "Get a user", ["users"], "users"),
    ]
    first = [t["name"] for _, t in search(tools, "repository", 10)]
    assert first == [t["name"] for _, t in search(list(reversed(tools)), "repository", 10)]
    assert first[:2] == ["delete_repository", "list_repositories"]  # tie on name: by name
    assert first[-1] == "list_issues"  # only its summary says it
    assert [t["name"] for _, t in search(tools, "repo", 10)][:2] == first[:2]  # a prefix
    assert [t["name"] for _, t in search(tools, "users", 1)] == ["get_user"]
    assert search(tools, "kubernetes", 10) == []
    assert words("listRepositoriesForUser") == ["list", "repository", "for", "user"]


def _tool(name: str, summary: str, tags: list[str], resource: str) -> dict[str, Any]:
    meta = {"summary": summary, "tags": tags, "resource": resource}
    return {"name": name, "_meta": {"x-completeness/search": meta}}


# --------------------------------------------------------------------------- both routes


class Agent:
    """One SDK client session; every answer is checked against the listed output schema."""

    def __init__(self, client: Client, result_model: Any) -> None:
        self.client = client
        self.result_model = result_model
        self.listed: dict[str, Any] = {}

    async def tools(self) -> list[Any]:
        listed = (await self.client.list_tools()).tools
        self.listed = {t.name: t for t in listed}
        return listed

    async def raw(self, name: str, args: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        if not self.listed:
            await self.tools()
        result = await self.client.call_tool(name, args)
        sc = result.structured_content
        Draft202012Validator(self.listed[name].output_schema).validate(sc)
        assert json.loads(result.content[0].text) == sc
        return sc, bool(result.is_error)

    async def direct(self, name: str, **args: Any) -> dict[str, Any]:
        sc, is_error = await self.raw(name, args)
        self.result_model.model_validate(sc)
        assert is_error is (sc["status"] == "error")
        return sc

    async def dynamic(self, name: str, **args: Any) -> dict[str, Any]:
        sc, is_error = await self.raw("call_tool", {"name": name, "arguments": args})
        self.result_model.model_validate(sc)
        assert is_error is (sc["status"] == "error")
        return sc


def _scrub(value: Any) -> Any:
    """An envelope with its random parts (evidence tokens, continuation cursors) named only."""
    if isinstance(value, dict):
        return {
            k: ("<token>" if k in ("evidence", "cursor") and v else _scrub(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    return value


SCENARIOS = {
    "partial_page_limit": (Faults(), [("list_items", {"max_pages": 1})]),
    "partial_shard_down": (Faults(shard_down_from=1), [("list_items", {})]),
    "partial_search": (Faults(incomplete_from=1), [("search_items", {})]),
    "refused_no_evidence": (Faults(), [("archive_items", {"ids": ["item-0000001"]})]),
    "refused_partial_evidence": (
        Faults(),
        [("list_items", {"max_pages": 1}), ("archive_items", {"ids": ["item-0000001"]})],
    ),
    "accepted_then_spent": (
        Faults(),
        [
            ("list_items", {}),
            ("archive_items", {"ids": ["item-0000001"]}),
            ("archive_items", {"ids": ["item-0000002"]}),
        ],
    ),
    "invalid_arguments": (Faults(), [("list_items", {"max_pages": "x"})]),
    "unknown_tool": (Faults(), [("drop_tables", {})]),
}


def _run(pkg, toolset: str, steps, faults: Faults) -> tuple[list[dict[str, Any]], ToolsApi]:
    """Run ``steps`` on a fresh API through one route; an archive step takes the evidence of
    the previous listing step."""
    api_ = ToolsApi(60, faults=faults)
    with serve(make_tools_app(api_)) as url:
        host = pkg.server.build_host(url, {}, secret=SECRET, toolset=toolset)
        server = pkg.server.build_server(host)

        async def main() -> list[dict[str, Any]]:
            out: list[dict[str, Any]] = []
            evidence = None
            with anyio.fail_after(TIMEOUT):
                async with Client(server) as client:
                    agent = Agent(client, pkg.result)
                    await agent.tools()
                    for name, args in steps:
                        if name == "archive_items":
                            args = {**args, "evidence": evidence}
                        if toolset == "dynamic":
                            sc = await agent.dynamic(name, **args)
                        elif name in agent.listed:
                            sc = await agent.direct(name, **args)
                        else:  # not listed: no schema to check it against
                            sc = (await client.call_tool(name, args)).structured_content
                        if name == "list_items":
                            evidence = sc["evidence"]
                        out.append(sc)
            return out

        return anyio.run(main), api_


@pytest.mark.parametrize("case", sorted(SCENARIOS))
def test_call_tool_answers_exactly_what_the_direct_tool_answers(pkg, case):
    faults, steps = SCENARIOS[case]
    direct, direct_api = _run(pkg, "static", steps, faults)
    dynamic, dynamic_api = _run(pkg, "dynamic", steps, faults)
    assert _scrub(dynamic) == _scrub(direct)
    assert dynamic_api.archive_calls == direct_api.archive_calls  # the API saw the same calls
    if case.startswith("refused"):
        assert direct_api.archive_calls == [] and direct[-1]["approval"] is not None
    if case == "accepted_then_spent":
        assert [e["status"] for e in dynamic] == ["complete", "complete", "error"]
        assert dynamic[-1]["error"]["reasons"] == ["EVIDENCE_ALREADY_USED"]
        assert len(dynamic_api.archive_calls) == 1
    if case.startswith("partial"):
        assert dynamic[0]["status"] == "partial" and dynamic[0]["completeness"]["reasons"]


# --------------------------------------------------------------------------- over stdio


def _env(pkg) -> dict[str, str]:
    path = os.pathsep.join([str(pkg.out), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "XCOMPLETENESS_MCP_SECRET": SECRET.hex()}


def _stdio(pkg, url: str, *extra: str) -> StdioServerParameters:
    args = ["-m", "xct_items.tools.mcp_server", "--base-url", url, *extra]
    return StdioServerParameters(command=sys.executable, args=args, env=_env(pkg), cwd=str(pkg.out))


def test_over_stdio_the_dynamic_toolset_lists_searches_describes_and_calls(pkg):
    api_ = ToolsApi(120)
    with serve(make_tools_app(api_)) as url:

        async def main() -> dict[str, Any]:
            with anyio.fail_after(TIMEOUT):
                async with Client(_stdio(pkg, url, "--toolset", "dynamic")) as client:
                    agent = Agent(client, pkg.result)
                    listed = await agent.tools()
                    found, _ = await agent.raw("search_tools", {"query": "archive items"})
                    described, _ = await agent.raw(
                        "describe_tools", {"names": ["archive_items", "list_items", "nope"]}
                    )
                    partial = await agent.dynamic("list_items", max_pages=1)
                    refused = await agent.dynamic("archive_items", ids=["item-0000001"])
                    complete = await agent.dynamic("list_items")
                    accepted = await agent.dynamic(
                        "archive_items", ids=["item-0000001"], evidence=complete["evidence"]
                    )
                    return {
                        "listed": listed,
                        "found": found,
                        "described": described,
                        "partial": partial,
                        "refused": refused,
                        "accepted": accepted,
                    }

        got = anyio.run(main)
    listed = got["listed"]
    assert [t.name for t in listed] == ["search_tools", "describe_tools", "call_tool"]
    size = len(json.dumps([t.model_dump(mode="json", exclude_none=True) for t in listed]))
    assert size < 8_000
    assert got["found"]["tools"][0]["name"] == "archive_items"
    assert got["found"]["tools"][0]["evidence_pairs"] == ["list_items"]
    described = got["described"]
    assert [t["name"] for t in described["tools"]] == ["archive_items", "list_items"]
    assert described["unknown"] == ["nope"]
    assert all("_meta" not in t and "outputSchema" in t for t in described["tools"])
    partial = got["partial"]
    assert partial["status"] == "partial" and partial["evidence"] is None
    assert [r["code"] for r in partial["completeness"]["reasons"]] == ["CLIENT_PAGE_LIMIT"]
    assert got["refused"]["error"]["reasons"] == ["EVIDENCE_MISSING"]
    assert got["accepted"]["status"] == "complete"
    assert len(api_.archive_calls) == 1  # the refused call never reached the API


def test_over_stdio_the_static_toolset_and_a_subset(pkg):
    api_ = ToolsApi(120)
    with serve(make_tools_app(api_)) as url:

        async def main() -> dict[str, Any]:
            with anyio.fail_after(TIMEOUT):
                async with Client(_stdio(pkg, url)) as client:
                    agent = Agent(client, pkg.result)
                    listed = await agent.tools()
                    partial = await agent.direct("list_items", max_pages=1)
                    refused = await agent.direct("archive_items", ids=["item-0000001"])
                    complete = await agent.direct("list_items")
                    accepted = await agent.direct(
                        "archive_items", ids=["item-0000001"], evidence=complete["evidence"]
                    )
                async with Client(_stdio(pkg, url, "--tools", "archive_items")) as client:
                    subset = [t.name for t in (await client.list_tools()).tools]
                    rules = client.instructions
                return {
                    "listed": listed,
                    "partial": partial,
                    "refused": refused,
                    "accepted": accepted,
                    "subset": subset,
                    "rules": rules,
                }

        got = anyio.run(main)
    assert {t.name for t in got["listed"]} == ALL_TOOLS
    assert all(t.meta is None for t in got["listed"])  # routing data stays on the server
    assert got["partial"]["status"] == "partial"
    assert got["refused"]["error"]["reasons"] == ["EVIDENCE_MISSING"]
    assert got["accepted"]["status"] == "complete" and len(api_.archive_calls) == 1
    assert sorted(got["subset"]) == ["archive_items", "list_items"]
    assert "### `archive_items`" in got["rules"] and "### `get_item`" not in got["rules"]


# --------------------------------------------------------------------------- issue 19 §4


def test_resource_names_never_carry_a_file_suffix():
    assert resource_name("/2010-04-01/Accounts/{AccountSid}/Messages.json") == "messages"
    assert resource_name("/2010-04-01/Accounts.json") == "accounts"
    assert resource_name("/v1/report.csv/{id}") == "report"


class Messages:
    """A Twilio-shaped listing: PascalCase parameters, ``next_page_uri`` with Page/PageToken."""

    def __init__(self, n: int, size: int = 10) -> None:
        self.n, self.size = n, size
        self.queries: list[dict[str, str]] = []

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.get("/2010-04-01/Accounts/{sid}/Messages.json")
        def messages(sid: str, request: Request) -> JSONResponse:
            q = dict(request.query_params)
            self.queries.append(q)
            page = int(q.get("Page", 0))
            start = page * self.size
            rows = [
                {"sid": f"SM{i:04d}", "to": q.get("To", "+1"), "account_sid": sid}
                for i in range(start, min(start + self.size, self.n))
            ]
            more = start + self.size < self.n
            path = f"/2010-04-01/Accounts/{sid}/Messages.json"
            following = f"{path}?Page={page + 1}&PageToken=PA{page + 1}"
            if "To" in q:
                following += "&" + urlencode({"To": q["To"]})  # a real API encodes its links
            body = {"messages": rows, "page": page, "page_size": self.size}
            body["next_page_uri"] = following if more else None
            return JSONResponse(body)

        return app


def test_tool_arguments_follow_the_client_names_and_never_offer_the_walks_parameters(tmp_path):
    out = generate_spec(TOOLS_SPECS / "twilio_like.yaml", tmp_path / "tw", "xct_twilio")
    folder = out / "xct_twilio"
    (tool,) = load_tools_json(folder, "mcp.json")["tools"]
    args = set(tool["inputSchema"]["properties"])
    assert args == {"account_sid", "to", "date_sent", "max_pages", "deadline_s", "continuation"}
    assert tool["name"] == "list_message"
    description = tool["inputSchema"]["properties"]["account_sid"]["description"]
    assert description == "The SID of the Account that created the resources to read."
    import_generated(out, "xct_twilio")
    server = importlib.import_module("xct_twilio.tools.mcp_server")
    client_mod = importlib.import_module("xct_twilio.client")
    fake = Messages(25)
    with serve(fake.app()) as url:
        host = server.build_host(url, {}, secret=SECRET)
        args = {"account_sid": "AC1", "to": "+15550001"}
        env, is_error = host.call("list_message", args)
        collected = client_mod.Client(url).list_message.collect(account_sid="AC1", to="+15550001")
    assert not is_error and env["status"] == "complete", env["completeness"]
    assert [m["sid"] for m in env["data"]["messages"]] == [f"SM{i:04d}" for i in range(25)]
    assert len(collected.items) == 25  # the client's keyword is the tool's argument
    assert "Page" not in fake.queries[0] and fake.queries[0]["To"] == "+15550001"
