"""The generated MCP server, a subprocess, over stdio and over streamable HTTP (its own
``--http`` mode; the official SDK's stdio and HTTP clients) against a hostile API on loopback
(uvicorn): slow and trickling bodies, a gzip bomb, malformed JSON, JSON that is not JSON (NaN,
nesting past any parser, ISO-8859-1), the wrong content type, redirects and next links to other
origins, cursor loops and cycles, pages that contradict the declaration.

One session walks every mode in turn (tests/support/hostile_api.py). Every answer must be a
valid envelope of the tool's listed outputSchema; every mode but ``ok`` must end ``partial``
with the reason code the mode calls for and the items read before it kept, never ``complete``
and never a failed call; and the session must still answer a clean listing afterwards.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import anyio
import pytest
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters
from support.fault_server import serve
from support.hostile_api import BENIGN, NATIVE_MODES, SEARCH_MODES, HostileApi, make_hostile_app

SECRET = b"h" * 32
DEADLINE_S = 3
"""The walk's deadline in the modes about time: the API is slower than any deadline (a 30 s
sleep, a body trickled a byte per 0.2 s), so CLIENT_DEADLINE_EXCEEDED is their answer however
busy the machine is."""
TIME_MODES = frozenset({"slow", "trickle"})
OTHER_DEADLINE_S = 45
"""The deadline of every other mode: each must end for its own reason, never the clock. With
3 s there too, the answer depended on the machine's load: 200,000 items (``many-items``) or an
80 MiB gzip bomb take seconds of CPU, and at a load of 20 on two cores the deadline stopped the
walk before the contradiction showed. A mode that now stops at this deadline fails the test (its
reason is not CLIENT_DEADLINE_EXCEEDED); the call's own bound below fails a hang; how fast a
large page is read is the benchmark's to say (bench/), never a timed assertion here."""
VIOLATION = "CONTRACT_VIOLATION"
EXPECTED = {
    # mode -> the first reason code of the partial answer (every other mode: CONTRACT_VIOLATION)
    "slow": "CLIENT_DEADLINE_EXCEEDED",
    "trickle": "CLIENT_DEADLINE_EXCEEDED",
    "status-500": "HTTP_ERROR",
    "redirect-away": "HTTP_ERROR",
    "duplicate-ids": "DUPLICATE_ITEMS",
    "over-cap": "RESULT_LIMIT_REACHED",
    "incomplete-results": "TIME_BUDGET_EXCEEDED",
}
KEPT = {
    # mode -> items the partial answer keeps (the first page's three, unless the mode's page 2
    # was read too before the contradiction showed: loops re-read, duplicates kept once read)
    "cursor-loop": 6,
    "cursor-cycle": 6,
    "duplicate-ids": 6,
    "link-loop": 9,
    "over-cap": 6,
    "incomplete-results": 6,
    "complete-with-next": 0,
    "bad-link": 0,
}


@pytest.fixture(scope="module")
def out(generated):
    return generated["xct_items"].parent


def _env(out) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(out), os.environ.get("PYTHONPATH", "")]),
        "XCOMPLETENESS_MCP_SECRET": SECRET.hex(),
    }


def _server_args(url: str) -> list[str]:
    return ["-m", "xct_items.tools.mcp_server", "--base-url", url]


@contextlib.contextmanager
def _stdio(out, url: str) -> Iterator[StdioServerParameters]:
    yield StdioServerParameters(
        command=sys.executable, args=_server_args(url), env=_env(out), cwd=str(out)
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def _http(out, url: str) -> Iterator[str]:
    """The server's own ``--http`` mode (uvicorn on loopback) as a subprocess; yields /mcp."""
    port = _free_port()
    args = [sys.executable, *_server_args(url), "--http", f"127.0.0.1:{port}"]
    proc = subprocess.Popen(
        args, env=_env(out), cwd=str(out), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise AssertionError(proc.stderr.read().decode()[-2000:] if proc.stderr else "")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
                break
            assert time.monotonic() < deadline, "the MCP server did not listen within 60 s"
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()


TRANSPORTS = {"stdio": _stdio, "http": _http}


@pytest.mark.parametrize("transport", sorted(TRANSPORTS))
def test_a_hostile_api_never_gets_a_complete_answer_or_breaks_the_session(out, transport):
    api = HostileApi()
    answers: dict[tuple[str, str], tuple[dict, float]] = {}

    async def call(client, schemas, tool: str, args: dict) -> dict:
        with anyio.fail_after(OTHER_DEADLINE_S + 45):  # a hang fails the test, not the suite
            result = await client.call_tool(tool, args)
        sc = result.structured_content
        Draft202012Validator(schemas[tool]).validate(sc)
        assert json.loads(result.content[0].text) == sc
        return sc

    with serve(make_hostile_app(api)) as url, TRANSPORTS[transport](out, url) as target:

        async def main() -> tuple[dict, dict]:
            async with Client(target) as client:
                schemas = {t.name: t.output_schema for t in (await client.list_tools()).tools}
                for tool, modes in (("list_items", NATIVE_MODES), ("search_items", SEARCH_MODES)):
                    for mode in modes:
                        api.mode = mode
                        started = time.monotonic()
                        deadline = DEADLINE_S if mode in TIME_MODES else OTHER_DEADLINE_S
                        sc = await call(client, schemas, tool, {"deadline_s": deadline})
                        answers[tool, mode] = sc, time.monotonic() - started
                # hostile arguments from the model: refused as envelopes, the session goes on
                forged = await call(
                    client, schemas, "list_items", {"continuation": "xc1." + "A" * 99}
                )
                api.mode = "ok"
                after = await call(client, schemas, "list_items", {})
                return forged, after

        forged, after = anyio.run(main)

    assert forged["status"] == "error"
    assert after["status"] == "complete" and len(after["data"]["items"]) == 6
    assert len(answers) == len(NATIVE_MODES) + len(SEARCH_MODES)
    for (tool, mode), (sc, seconds) in answers.items():
        where = f"{transport} {tool} {mode}"
        if mode in BENIGN:
            assert sc["status"] == "complete", where
            continue
        reasons = [r["code"] for r in sc["completeness"]["reasons"]]
        assert sc["status"] == "partial", (where, sc.get("error"))
        assert reasons[:1] == [EXPECTED.get(mode, VIOLATION)], (where, reasons)
        assert len(sc["data"]["items"]) == KEPT.get(mode, 3), where
        if mode in TIME_MODES:  # the deadline bounds a slow or endless body
            assert seconds < DEADLINE_S + 15, where


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "1"},
    },
}


def test_over_http_a_foreign_host_or_origin_is_refused_before_any_session(out):
    """A web page the user opens may reach a loopback port (DNS rebinding, a cross-site POST):
    the server's HTTP mode, on a loopback host only, refuses a request whose Host or Origin is
    not loopback (the SDK's transport security, which ``--http`` turns on), so no page can drive
    the tools with the host's credentials."""
    import httpx

    api = HostileApi()
    accept = {"Accept": "application/json, text/event-stream"}
    with serve(make_hostile_app(api)) as url, _http(out, url) as mcp_url:
        probes = {
            "host": {"Host": "evil.example", **accept},
            "origin": {"Origin": "http://evil.example", **accept},
            "loopback": {"Origin": "http://127.0.0.1:1", **accept},
        }
        status = {
            name: httpx.post(mcp_url, json=INITIALIZE, headers=headers, timeout=30).status_code
            for name, headers in probes.items()
        }
    assert status == {"host": 421, "origin": 403, "loopback": 200}
    assert api.hits == []
