"""The generated MCP server, driven by the official MCP SDK client against a loopback API.

In process (``mcp.Client(server)``) for the matrix, and over stdio against a subprocess (plus
streamable HTTP on loopback) for the transports. The API is a real uvicorn server on 127.0.0.1
(tests/support/tools_api.py) with injected faults; every structuredContent is validated against
the tool's listed outputSchema, and its text block must carry the same JSON.
"""

from __future__ import annotations

import importlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import anyio
import pytest
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters
from support.fault_server import Faults, serve
from support.gen import import_generated
from support.tools_api import ToolsApi, make_tools_app

SECRET = b"k" * 32
ALICE = {"Authorization": "Bearer alice"}
LIST_ARGS = {"max_pages": None, "deadline_s": None, "continuation": None}
TIMEOUT = 60


@pytest.fixture(scope="module")
def pkg(generated):
    out = generated["xct_items"].parent
    import_generated(out, "xct_items")
    return SimpleNamespace(
        out=out,
        server=importlib.import_module("xct_items.tools.mcp_server"),
        evidence=importlib.import_module("xct_items._runtime.evidence"),
        decide=importlib.import_module("xct_items._runtime.decide"),
    )


class Agent:
    """One MCP client session; ``call`` checks the envelope against the listed outputSchema."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.tool_result = importlib.import_module("xct_items._runtime.envelope").ToolResult
        self.schemas: dict[str, dict] = {}

    async def tools(self):
        listed = (await self.client.list_tools()).tools
        self.schemas = {t.name: t.output_schema for t in listed}
        return listed

    async def call(self, name: str, **args):
        if not self.schemas:
            await self.tools()
        result = await self.client.call_tool(name, args)
        sc = result.structured_content
        Draft202012Validator(self.schemas[name]).validate(sc)
        self.tool_result.model_validate(sc)  # the runtime's own ToolResult invariants agree
        assert json.loads(result.content[0].text) == sc
        assert result.is_error is (sc["status"] == "error")
        return sc


def session(pkg, api, body, *, hosts=(ALICE,), setup=None):
    """Serve ``api``, build one MCP server per header set, run ``body(*agents)``."""
    with serve(make_tools_app(api)) as url:
        servers = []
        for headers in hosts:
            host = pkg.server.build_host(url, headers, secret=SECRET)
            if setup is not None:
                setup(host)
            servers.append(pkg.server.build_server(host))

        async def main():
            with anyio.fail_after(TIMEOUT):
                async with Client(servers[0]) as c0:
                    if len(servers) == 1:
                        return await body(Agent(c0))
                    async with Client(servers[1]) as c1:
                        return await body(Agent(c0), Agent(c1))

        return anyio.run(main)


def test_the_sdk_client_lists_every_tool_with_a_valid_envelope_output_schema(pkg):
    async def body(agent):
        return await agent.tools()

    tools = session(pkg, ToolsApi(3), body)
    assert {t.name for t in tools} == {
        "list_items",
        "search_items",
        "archive_items",
        "get_item",
        "purge_item",
        "label_items",
    }
    for tool in tools:
        Draft202012Validator.check_schema(tool.output_schema)
        assert tool.output_schema["type"] == "object"
        assert "complete" in tool.output_schema["properties"]["completeness"]["required"]
    hints = {t.name: t.annotations for t in tools}
    assert hints["list_items"].read_only_hint is True
    assert hints["archive_items"].destructive_hint is True


def test_a_complete_listing_says_complete_and_carries_mcp_evidence(pkg):
    async def body(agent):
        return await agent.call("list_items", **LIST_ARGS)

    sc = session(pkg, ToolsApi(120), body)
    assert sc["status"] == "complete" and sc["completeness"]["complete"] is True
    assert len(sc["data"]["items"]) == 120 and sc["completeness"]["continuation"] is None
    assert sc["evidence"].startswith("v1.")
    assert sc["completeness"]["scope"]["resource"] == "items"


def test_a_page_limit_gives_partial_with_a_client_reason_and_a_resumable_cursor(pkg):
    async def body(agent):
        first = await agent.call("list_items", max_pages=1, deadline_s=None, continuation=None)
        cursor = first["completeness"]["continuation"]["cursor"]
        rest = await agent.call("list_items", max_pages=None, deadline_s=None, continuation=cursor)
        return first, rest

    first, rest = session(pkg, ToolsApi(120), body)
    assert first["status"] == "partial" and first["completeness"]["complete"] is False
    (reason,) = first["completeness"]["reasons"]
    assert reason["code"] == "CLIENT_PAGE_LIMIT" and reason["origin"] == "client"
    assert reason["details"] == {"max_pages": 1}
    assert first["completeness"]["continuation"]["kind"] == "next_cursor"
    assert first["evidence"] is None
    ids = [i["id"] for i in first["data"]["items"] + rest["data"]["items"]]
    assert len(ids) == len(set(ids)) == 120
    assert rest["evidence"] is None  # a resumed walk covers only the tail: never evidence


FAULTS = {
    "shard_down": (Faults(shard_down_from=1), "SOURCE_UNAVAILABLE"),
    "permission_revoked": (Faults(revoke_from=2), "VISIBILITY_RESTRICTED"),
    "cursor_expired": (Faults(expire_from=2), "CURSOR_EXPIRED"),
}


@pytest.mark.parametrize("case", sorted(FAULTS))
def test_injected_faults_surface_as_partial_with_their_reason_and_no_evidence(pkg, case):
    faults, code = FAULTS[case]

    async def body(agent):
        return await agent.call("list_items", **LIST_ARGS)

    sc = session(pkg, ToolsApi(120, faults=faults), body)
    assert sc["status"] == "partial" and sc["completeness"]["complete"] is False
    assert code in [r["code"] for r in sc["completeness"]["reasons"]]
    assert sc["completeness"]["continuation"] is not None
    assert sc["evidence"] is None


def test_adapter_search_reports_the_native_incomplete_flag_as_a_reason(pkg):
    async def body(agent):
        return await agent.call("search_items", max_pages=None, deadline_s=None, continuation=None)

    sc = session(pkg, ToolsApi(50, faults=Faults(incomplete_from=1)), body)
    assert sc["status"] == "partial"
    assert "TIME_BUDGET_EXCEEDED" in [r["code"] for r in sc["completeness"]["reasons"]]


def test_essay_empty_first_page_with_more_pages_means_continue_search_and_cleanup_is_refused(pkg):
    """The essay's fixture: an empty first page with more pages must give continue_search, and a
    mutation requested after it must give refuse_or_request_review -- never the cleanup."""
    api = ToolsApi(120, faults=Faults(empty_first_page=True))

    async def body(agent):
        listing = await agent.call("list_items", max_pages=1, deadline_s=None, continuation=None)
        cleanup = await agent.call(
            "archive_items", ids=["item-0000001"], reason=None, evidence=listing["evidence"]
        )
        return listing, cleanup

    listing, cleanup = session(pkg, api, body)
    assert listing["status"] == "partial" and listing["data"]["items"] == []
    decide, Intent, Action = pkg.decide.decide, pkg.decide.Intent, pkg.decide.Action
    assert decide(listing, Intent.ABSENCE_CLAIM).action is Action.CONTINUE_SEARCH
    complement = decide(listing, Intent.DESTRUCTIVE_ON_UNLISTED_COMPLEMENT)
    assert complement.action is Action.REFUSE_OR_REQUEST_REVIEW
    assert cleanup["status"] == "error"
    assert cleanup["error"]["decision"] == "refuse_or_request_review"
    assert cleanup["error"]["reasons"] == ["EVIDENCE_MISSING"]
    assert api.archive_calls == []


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def _archive(ids, evidence):
    return {"ids": ids, "reason": None, "evidence": evidence}


def _refusal_case(pkg, case):
    """(api, body, hosts, setup) for one refusal case; body returns the archive envelope."""
    api = ToolsApi(20)
    clock = Clock()
    hosts = (ALICE,)
    setup = None

    async def listed(agent, **over):
        return await agent.call("list_items", **{**LIST_ARGS, **over})

    if case == "no_evidence":

        async def body(agent):
            return await agent.call("archive_items", **_archive(["item-0000001"], None))

    elif case == "forged":

        async def body(agent):
            token = (await listed(agent))["evidence"]
            forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
            return await agent.call("archive_items", **_archive(["item-0000001"], forged))

    elif case == "expired":

        def setup(host):
            host.keeper = pkg.evidence.EvidenceKeeper(SECRET, host.keeper.principal, clock=clock)

        async def body(agent):
            token = (await listed(agent))["evidence"]
            clock.now += 601  # the listing declares evidence ttl PT10M
            return await agent.call("archive_items", **_archive(["item-0000001"], token))

    elif case == "other_operation":
        keeper_box = {}

        def setup(host):
            keeper_box["keeper"] = host.keeper

        async def body(agent):
            envelope = await listed(agent)
            token = keeper_box["keeper"].mint(
                operation="searchItems", query={}, envelope=envelope, ids=["item-0000001"], ttl_s=60
            )
            return await agent.call("archive_items", **_archive(["item-0000001"], token))

    elif case == "other_principal":
        hosts = (ALICE, {"Authorization": "Bearer bob"})

        async def body(alice, bob):
            token = (await listed(alice))["evidence"]
            return await bob.call("archive_items", **_archive(["item-0000001"], token))

    elif case == "server_restarted":
        hosts = (ALICE, ALICE)  # same secret and principal, but the API token lived in the first

        async def body(first, second):
            token = (await listed(first))["evidence"]
            return await second.call("archive_items", **_archive(["item-0000001"], token))

    elif case == "incomplete_listing":

        async def body(agent):
            partial = await listed(agent, max_pages=1)
            assert partial["status"] == "partial" and partial["evidence"] is None
            ids = [i["id"] for i in partial["data"]["items"]]
            return await agent.call("archive_items", **_archive(ids, partial["evidence"]))

        api = ToolsApi(120)

    elif case == "ids_outside":

        async def body(agent):
            token = (await listed(agent))["evidence"]
            return await agent.call("archive_items", **_archive(["item-0000001", "zz-9"], token))

    elif case == "voided_by_warning":
        api.stale = True

        async def body(agent):
            envelope = await listed(agent)
            assert (
                envelope["status"] == "complete"
                and envelope["warnings"][0]["code"] == "STALE_INDEX"
            )
            return await agent.call(
                "archive_items", **_archive(["item-0000001"], envelope["evidence"])
            )

    return api, body, hosts, setup


REFUSALS = {
    "no_evidence": ["EVIDENCE_MISSING"],
    "forged": ["EVIDENCE_INVALID"],
    "expired": ["EVIDENCE_EXPIRED"],
    "other_operation": ["EVIDENCE_WRONG_OPERATION"],
    "other_principal": ["EVIDENCE_WRONG_PRINCIPAL"],
    "incomplete_listing": ["EVIDENCE_MISSING"],
    "server_restarted": ["EVIDENCE_UNKNOWN"],
    "ids_outside": ["TARGETS_OUTSIDE_EVIDENCE"],
    "voided_by_warning": ["EVIDENCE_VOIDED_BY_WARNING"],
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_mutation_is_refused_before_the_api_is_called(pkg, case):
    api, body, hosts, setup = _refusal_case(pkg, case)
    sc = session(pkg, api, body, hosts=hosts, setup=setup)
    assert api.archive_calls == [], "the API must not be called"
    assert sc["status"] == "error" and sc["evidence"] is None
    assert sc["error"]["code"] == "EVIDENCE_REJECTED"
    assert sc["error"]["reasons"] == REFUSALS[case]
    assert sc["error"]["decision"] == "refuse_or_request_review"
    approval = sc["approval"]
    assert "archive_items" in approval["action"]
    assert approval["target_scope"]["listing_tool"] == "list_items"
    assert approval["why"] and [o["option"] for o in approval["options"]] == [
        "retry_with_longer_deadline",
        "act_only_on_returned_ids",
        "abandon",
    ]
    if case == "ids_outside":
        assert approval["target_scope"]["outside_evidence"] == ["zz-9"]


def test_valid_evidence_proceeds_once_with_the_api_token_filled_in_by_the_server(pkg):
    api = ToolsApi(20)

    async def body(agent):
        token = (await agent.call("list_items", **LIST_ARGS))["evidence"]
        done = await agent.call(
            "archive_items", **_archive(["item-0000001", "item-0000002"], token)
        )
        again = await agent.call("archive_items", **_archive(["item-0000003"], token))
        return done, again

    done, again = session(pkg, api, body)
    assert done["status"] == "complete"
    assert done["data"]["response"] == {"archived": ["item-0000001", "item-0000002"]}
    assert len(api.archive_calls) == 1
    assert api.archive_calls[0]["evidence"] == "evidence-1"  # the API's token, never the model's
    assert again["error"]["reasons"] == ["EVIDENCE_ALREADY_USED"]
    assert len(api.archive_calls) == 1


def test_a_resource_tool_returns_the_item_or_the_api_error_code(pkg):
    async def body(agent):
        found = await agent.call("get_item", id="item-0000004")
        missing = await agent.call("get_item", id="nope")
        return found, missing

    found, missing = session(pkg, ToolsApi(10), body)
    assert found["status"] == "complete"
    assert {"id": "item-0000004", "rank": 4}.items() <= found["data"]["item"].items()
    assert missing["status"] == "error" and missing["error"]["code"] == "NOT_FOUND"


def _env(pkg):
    path = os.pathsep.join([str(pkg.out), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "XCOMPLETENESS_MCP_SECRET": SECRET.hex()}


def test_over_stdio_a_subprocess_server_answers_the_sdk_client(pkg):
    api = ToolsApi(120)
    with serve(make_tools_app(api)) as url:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "xct_items.tools.mcp_server", "--base-url", url, "--header", "X-T: 1"],
            env=_env(pkg),
            cwd=str(pkg.out),
        )

        async def main():
            with anyio.fail_after(TIMEOUT):
                async with Client(params) as client:
                    agent = Agent(client)
                    tools = await agent.tools()
                    partial = await agent.call("list_items", max_pages=1)  # omitted: null
                    complete = await agent.call("list_items", max_pages=5)
                    return tools, partial, complete

        tools, partial, complete = anyio.run(main)
    assert len(tools) == 6
    assert partial["status"] == "partial"
    assert partial["completeness"]["continuation"]["kind"] == "next_cursor"
    assert [r["code"] for r in partial["completeness"]["reasons"]] == ["CLIENT_PAGE_LIMIT"]
    assert complete["status"] == "complete" and complete["evidence"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_over_streamable_http_on_loopback(pkg):
    api = ToolsApi(10)
    port = _free_port()
    with serve(make_tools_app(api)) as url:
        cmd = [sys.executable, "-m", "xct_items.tools.mcp_server", "--base-url", url]
        proc = subprocess.Popen(
            [*cmd, "--http", f"127.0.0.1:{port}"],
            env=_env(pkg),
            cwd=str(pkg.out),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + TIMEOUT
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    assert proc.poll() is None, proc.stderr.read().decode()
                    assert time.monotonic() < deadline, "MCP HTTP server did not start"
                    time.sleep(0.1)

            async def main():
                with anyio.fail_after(TIMEOUT):
                    async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                        return await Agent(client).call("list_items")

            sc = anyio.run(main)
        finally:
            proc.terminate()
            proc.wait(10)
    assert sc["status"] == "complete" and len(sc["data"]["items"]) == 10


@pytest.mark.parametrize(
    "argv",
    [
        ["--base-url", "http://x", "--http", "0.0.0.0:8000"],
        ["--base-url", "http://x", "--http", "example.com:80"],
        ["--base-url", "http://x", "--header", "no colon"],
        ["--http", "127.0.0.1:1"],
    ],
)
def test_bad_server_arguments_exit_2_with_a_message_not_a_traceback(pkg, argv, capsys):
    with pytest.raises(SystemExit) as exc:
        pkg.server.parse_args(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err


def test_a_continuation_leaving_the_api_origin_is_not_followed(pkg):
    async def body(agent):
        return await agent.call(
            "search_items",
            max_pages=None,
            deadline_s=None,
            continuation="http://evil.example/search?page=2",
        )

    sc = session(pkg, ToolsApi(10), body)
    assert sc["status"] != "complete" and sc["evidence"] is None
    if sc["status"] == "error":
        assert sc["error"]["code"] in ("CALL_FAILED", "INVALID_ARGUMENTS")


def test_the_tools_package_loads_its_definitions_and_rules(pkg):
    tools = importlib.import_module("xct_items.tools")
    assert {t["name"] for t in tools.load("anthropic")["tools"]} == {
        "list_items",
        "search_items",
        "archive_items",
        "get_item",
        "purge_item",
        "label_items",
    }
    assert set(tools.load("openai")) == {"responses", "chat_completions", "dynamic"}
    assert [t["name"] for t in tools.load("anthropic")["dynamic"]] == [
        "search_tools",
        "describe_tools",
        "call_tool",
    ]
    assert "completeness.complete" in tools.agent_rules()
    with pytest.raises(ValueError):
        tools.load("../../etc/passwd")


def test_a_rechecked_purge_runs_only_on_an_existing_item_and_a_harmless_one_runs(pkg):
    api = ToolsApi(5)

    async def body(agent):
        gone = await agent.call("purge_item", id="item-9999999")
        purge = await agent.call("purge_item", id="item-0000001")
        label = await agent.call("label_items", ids=["item-0000001"], label="x")
        return gone, purge, label

    gone, purge, label = session(pkg, api, body)
    assert gone["error"]["reasons"] == ["TARGET_NOT_FOUND"]
    assert gone["approval"]["target_scope"]["recheck_tool"] == "get_item"
    assert purge["status"] == "complete" and api.purge_calls == ["item-0000001"]
    assert label["status"] == "complete" and label["data"]["response"] == {"labelled": 1}
    assert api.label_calls == [{"ids": ["item-0000001"], "label": "x"}]


SEARCH = {"deadline_s": None}  # the API pages by 30; ``page`` is the walk's, never an argument


def _ids(sc):
    return [i["id"] for i in sc["data"]["items"]]


def test_a_link_header_listing_resumes_from_its_continuation_to_the_end(pkg):
    """A link-header listing has no cursor parameter: its continuation cursor is the next URL.
    The server hands it to ``collect(continuation=...)``; writing it into a parameter would
    silently restart from the first page."""

    async def body(agent):
        first = await agent.call("search_items", max_pages=1, continuation=None, **SEARCH)
        cursor = first["completeness"]["continuation"]["cursor"]
        second = await agent.call("search_items", max_pages=2, continuation=cursor, **SEARCH)
        cursor = second["completeness"]["continuation"]["cursor"]
        rest = await agent.call("search_items", max_pages=None, continuation=cursor, **SEARCH)
        return first, second, rest

    first, second, rest = session(pkg, ToolsApi(100), body)
    assert first["status"] == "partial"
    assert first["completeness"]["continuation"]["kind"] == "next_cursor"
    assert [r["code"] for r in first["completeness"]["reasons"]] == ["CLIENT_PAGE_LIMIT"]
    assert second["status"] == "partial"
    assert rest["status"] == "complete" and rest["completeness"]["continuation"] is None
    assert (len(_ids(first)), len(_ids(second)), len(_ids(rest))) == (30, 60, 10)
    seen = _ids(first) + _ids(second) + _ids(rest)
    assert seen == [f"item-{i:07d}" for i in range(100)]  # continues in order, none repeated


class SlowPages(ToolsApi):
    """Answers slowly (``delay`` seconds, until ``release()``): every page after the first, or all.

    A released page answers at once, so a test can make the slow page far slower than anything
    it bounds (the bound then says "cut off by the deadline", not "the machine was quick") without
    waiting out the delay at teardown."""

    def __init__(self, n: int, delay: float, *, first_too: bool = False) -> None:
        super().__init__(n)
        self.delay = delay
        self.first_too = first_too
        self._released = threading.Event()

    def release(self) -> None:
        self._released.set()

    def native(self, params):
        if self.first_too or params.get("cursor"):
            self._released.wait(self.delay)
        return super().native(params)


def test_a_page_answering_past_the_deadline_gives_partial_with_client_deadline_exceeded(pkg):
    """``deadline_s`` bounds the whole walk: the HTTP timeout gives the walk a grace to report,
    so a slow page ends the walk with CLIENT_DEADLINE_EXCEEDED -- never an API_UNAVAILABLE
    error that throws away the pages already read -- and the continuation resumes it."""
    api = SlowPages(120, delay=60.0)

    async def body(agent):
        started = time.monotonic()
        first = await agent.call("list_items", max_pages=None, deadline_s=1.0, continuation=None)
        took = time.monotonic() - started
        api.release()
        cursor = first["completeness"]["continuation"]["cursor"]
        rest = await agent.call("list_items", max_pages=None, deadline_s=None, continuation=cursor)
        return first, took, rest

    first, took, rest = session(pkg, api, body)
    assert first["status"] == "partial" and first["evidence"] is None
    assert _ids(first) == [f"item-{i:07d}" for i in range(50)]  # the first page is kept
    [reason] = first["completeness"]["reasons"]
    assert (reason["code"], reason["origin"]) == ("CLIENT_DEADLINE_EXCEEDED", "client")
    assert reason["details"] == {"deadline_s": 1.0}
    assert first["completeness"]["continuation"]["kind"] == "next_cursor"
    assert took < 20  # cut off by the deadline (+ grace), not left waiting for the slow page
    assert rest["status"] == "complete"
    assert _ids(rest) == [f"item-{i:07d}" for i in range(50, 120)]


def test_a_first_page_past_the_deadline_is_partial_with_a_retry_with_deadline(pkg):
    """Nothing read and no cursor to resume from: the continuation says retry with more time."""

    async def body(agent):
        return await agent.call("list_items", max_pages=None, deadline_s=0.5, continuation=None)

    sc = session(pkg, SlowPages(10, delay=2.0, first_too=True), body)
    assert sc["status"] == "partial" and sc["data"]["items"] == []
    assert [r["code"] for r in sc["completeness"]["reasons"]] == ["CLIENT_DEADLINE_EXCEEDED"]
    assert sc["completeness"]["continuation"] == {"kind": "retry_with_deadline"}


def test_a_client_timeout_shorter_than_the_deadline_stays_an_api_failure(pkg):
    """Only the walk's own deadline becomes CLIENT_DEADLINE_EXCEEDED; an HTTP timeout hit while
    the deadline still has time left is the API failing to answer (API_UNAVAILABLE)."""
    with serve(make_tools_app(SlowPages(120, delay=2.0))) as url:
        host = pkg.server.build_host(url, ALICE, secret=SECRET, timeout=0.3)
        env, is_error = host.call(
            "list_items", {"max_pages": None, "deadline_s": 30.0, "continuation": None}
        )
    assert is_error and env["status"] == "error"
    assert env["error"]["code"] == "API_UNAVAILABLE" and "Timeout" in env["error"]["message"]


def test_items_that_break_their_schema_reach_the_model_as_data_with_a_warning(pkg):
    """Issue 10 item 2 through the MCP tool layer: the listing stays complete, every item is in
    ``data`` as received, and the ITEM_SCHEMA_MISMATCH warning (valid under the listed
    outputSchema) says which item did not match and why."""

    async def body(agent):
        return await agent.call("list_items", **LIST_ARGS)

    sc = session(pkg, ToolsApi(30, faults=Faults(bad_rank_every=10)), body)
    assert sc["status"] == "complete" and sc["completeness"]["complete"] is True
    items = sc["data"]["items"]
    assert len(items) == 30 and items[10] == {"id": "item-0000010", "rank": "#10"}
    mismatches = [w for w in sc["warnings"] if w["code"] == "ITEM_SCHEMA_MISMATCH"]
    assert [w["details"]["index"] for w in mismatches] == [0, 10, 20]
    assert mismatches[1]["details"]["errors"][0]["loc"] == "/rank"
    assert mismatches[1]["message"].startswith("item 10 does not match its declared schema")


def test_a_strict_items_host_reports_the_contract_violation(pkg):
    async def body(agent):
        return await agent.call("list_items", **LIST_ARGS)

    sc = session(
        pkg,
        ToolsApi(30, faults=Faults(bad_rank_every=10)),
        body,
        setup=lambda host: setattr(host.client, "strict_items", True),
    )
    assert sc["status"] == "partial" and sc["evidence"] is None
    (reason,) = sc["completeness"]["reasons"]
    assert reason["code"] == "CONTRACT_VIOLATION"
    assert "item 0 does not match" in reason["details"]["what"]


def test_the_agent_rules_and_output_schema_explain_the_item_warning(pkg):
    rules = (pkg.out / "xct_items" / "tools" / "AGENT_RULES.md").read_text()
    assert "`ITEM_SCHEMA_MISMATCH`" in rules and "details.index" in rules
    tools = json.loads((pkg.out / "xct_items" / "tools" / "mcp.json").read_text())["tools"]
    for tool in tools:  # every tool's outputSchema admits the client's own warning
        code = tool["outputSchema"]["properties"]["warnings"]["items"]["properties"]["code"]
        assert "ITEM_SCHEMA_MISMATCH" in code["enum"]


def test_every_command_line_option_says_what_it_does(pkg):
    """A newcomer reads ``--help`` before wiring the server into an MCP host: ``--http`` had no
    text, ``--header`` only "'Name: value'", ``--store`` no URL forms."""
    parser_help = subprocess.run(
        [sys.executable, "-m", "xct_items.tools.mcp_server", "--help"],
        cwd=pkg.out,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert parser_help.returncode == 0, parser_help.stderr
    text = " ".join(parser_help.stdout.split())
    for words in (
        "--header 'NAME: VALUE' a header sent with every API call, such as the credential",
        "--http HOST:PORT serve streamable HTTP (path /mcp) on this loopback address instead of",
        "--store URL where spent evidence tokens are recorded: sqlite:///PATH, redis://",
        "--toolset {static,dynamic} static: every tool",
    ):
        assert words in text, (words, text)
