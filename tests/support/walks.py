"""Walk a generated package's listing the three ways an agent-facing test needs: the sync
client, the async client, and the MCP tool through the generated server and the official SDK
client (no transport mock: the server object is the one ``tools/mcp_server.py`` builds)."""

from __future__ import annotations

import asyncio
import importlib
from typing import Any

import anyio
from mcp import Client as McpClient

__all__ = ["WALKS", "call_tools", "collect_async", "collect_sync", "listed_tool"]


def collect_sync(
    pkg: Any, base: str, attr: str, *, headers: dict[str, str] | None = None, **kw: Any
) -> Any:
    """``Client(base, headers=headers).<attr>.collect(**kw)``."""
    with pkg.Client(base, headers=headers) as client:
        return getattr(client, attr).collect(**kw)


def collect_async(
    pkg: Any, base: str, attr: str, *, headers: dict[str, str] | None = None, **kw: Any
) -> Any:
    """``AsyncClient(base, headers=headers).<attr>.collect(**kw)`` in a fresh event loop."""

    async def main() -> Any:
        async with pkg.AsyncClient(base, headers=headers) as client:
            return await getattr(client, attr).collect(**kw)

    return asyncio.run(main())


WALKS = {"sync": collect_sync, "async": collect_async}
"""Parametrise a test over both clients: ``@pytest.mark.parametrize("walk", sorted(WALKS))``."""


def call_tools(
    package: str,
    base: str,
    calls: list[tuple[str, dict[str, Any]]],
    *,
    secret: bytes = b"s" * 32,
    headers: dict[str, str] | None = None,
    **host_options: Any,
) -> list[dict[str, Any]]:
    """``tools/call`` each (name, arguments) in order through ``package``'s generated MCP server
    against ``base`` (sending ``headers``; ``host_options`` go to ``build_host``, e.g.
    ``max_answer_bytes``), by the official SDK client; the structured results, in order. Every
    name called must be among the listed tools."""
    server_mod = importlib.import_module(f"{package}.tools.mcp_server")
    host = server_mod.build_host(base, headers or {}, secret=secret, **host_options)
    server = server_mod.build_server(host)
    out: list[dict[str, Any]] = []

    async def main() -> None:
        with anyio.fail_after(60):
            async with McpClient(server) as client:
                listed = {t.name for t in (await client.list_tools()).tools}
                for name, args in calls:
                    assert name in listed, (name, sorted(listed))
                    result = await client.call_tool(name, args)
                    out.append(result.structured_content)

    anyio.run(main)
    return out


def listed_tool(package: str, base: str, name: str, *, secret: bytes = b"s" * 32) -> Any:
    """The tool ``name`` as ``package``'s generated MCP server lists it to the official SDK
    client (its input schema and description, as a model reads them)."""
    server_mod = importlib.import_module(f"{package}.tools.mcp_server")
    server = server_mod.build_server(server_mod.build_host(base, {}, secret=secret))

    async def main() -> Any:
        with anyio.fail_after(60):
            async with McpClient(server) as client:
                return {t.name: t for t in (await client.list_tools()).tools}[name]

    return anyio.run(main)
