"""MCP tool calls as an agent makes them: the generated server over the official SDK client.

``call_tool(server_mod, app, name, args, secret=...)`` serves ``app`` (a FastAPI API) on
127.0.0.1 with uvicorn, builds the generated server against it, calls one tool, and checks the
answer against the tool's ``outputSchema`` and its text block before returning the structured
content. ``session(server_mod, app, script, ...)`` does the same for a whole session
(``await script(call)``, where ``await call(name, args)`` returns the checked result), with the
host's credentials (``headers``, ``query``, ``body``) as ``build_host`` takes them.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import anyio
from jsonschema import Draft202012Validator
from mcp import Client

from support.fault_server import serve

TIMEOUT = 60

Call = Callable[[str, dict[str, Any]], Awaitable[Any]]


def session(
    server_mod: Any,
    app: Any,
    script: Callable[[Call], Awaitable[Any]],
    *,
    secret: bytes,
    headers: Mapping[str, str] | None = None,
    query: Mapping[str, str] | None = None,
    body: Mapping[str, str] | None = None,
    toolset: str = "static",
) -> Any:
    """Run ``script(call)`` against the generated server over ``app`` on loopback; every answer
    is checked against its tool's ``outputSchema``, its text block and its ``isError``."""
    with serve(app) as url:
        host = server_mod.build_host(
            url,
            dict(headers or {}),
            query=dict(query or {}),
            secret=secret,
            toolset=toolset,
            body=dict(body or {}),
        )
        server = server_mod.build_server(host)

        async def main() -> Any:
            with anyio.fail_after(TIMEOUT):
                async with Client(server) as client:
                    tools = {t.name: t for t in (await client.list_tools()).tools}

                    async def call(name: str, args: dict[str, Any]) -> Any:
                        result = await client.call_tool(name, args)
                        sc = result.structured_content
                        Draft202012Validator(tools[name].output_schema).validate(sc)
                        assert json.loads(result.content[0].text) == sc
                        assert result.is_error is (sc["status"] == "error")
                        return result

                    return await script(call)

        return anyio.run(main)


def call_tool(
    server_mod: Any, app: Any, name: str, args: dict[str, Any], *, secret: bytes
) -> dict[str, Any]:
    async def one(call: Call) -> dict[str, Any]:
        return (await call(name, args)).structured_content

    return session(server_mod, app, one, secret=secret)
