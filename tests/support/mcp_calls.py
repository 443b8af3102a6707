"""One MCP tool call as an agent makes it: the generated server over the official SDK client.

``call_tool(server_mod, app, name, args, secret=...)`` serves ``app`` (a FastAPI API) on
127.0.0.1 with uvicorn, builds the generated server against it, calls one tool, and checks the
answer against the tool's ``outputSchema`` and its text block before returning the structured
content.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from jsonschema import Draft202012Validator
from mcp import Client

from support.fault_server import serve

TIMEOUT = 60


def call_tool(
    server_mod: Any, app: Any, name: str, args: dict[str, Any], *, secret: bytes
) -> dict[str, Any]:
    with serve(app) as url:
        server = server_mod.build_server(server_mod.build_host(url, {}, secret=secret))

        async def main() -> dict[str, Any]:
            with anyio.fail_after(TIMEOUT):
                async with Client(server) as client:
                    tools = {t.name: t for t in (await client.list_tools()).tools}
                    result = await client.call_tool(name, args)
                    sc = result.structured_content
                    Draft202012Validator(tools[name].output_schema).validate(sc)
                    assert json.loads(result.content[0].text) == sc
                    assert result.is_error is (sc["status"] == "error")
                    return sc

        return anyio.run(main)
