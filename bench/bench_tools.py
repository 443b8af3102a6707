"""``make bench``: the cost of the agent-tool layer over the generated client, same run.

Peer: ``client.list_items.collect()`` of the generated package. Measured: the MCP server's
``ToolHost.call("list_items")`` on the same client, which adds the tool envelope, input and output
validation (schema subset and the runtime ToolResult model) and evidence minting over the id set.
Both walk the same pages from an in-process ``httpx.MockTransport`` (no network, so the tool
layer's own work is what differs). Rounds are interleaved; medians are reported.

The API is tests/tools/specs/items.yaml, generated at run time into .cache/bench_tools/.
"""

from __future__ import annotations

import functools
import importlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "tests" / "tools" / "specs" / "items.yaml"
OUT = ROOT / ".cache" / "bench_tools"
PACKAGE = "bench_tools_items"
ROUNDS = 5
SIZES = (1_000, 10_000)
PAGE = 500


def _transport(total: int) -> Any:
    import httpx

    def handler(request: httpx.Request) -> httpx.Response:
        start = int(request.url.params.get("cursor") or 0)
        end = min(total, start + PAGE)
        more = end < total
        body = {
            "items": [{"id": f"item-{i:07d}", "rank": i} for i in range(start, end)],
            "complete": not more,
            "incomplete_reasons": [{"code": "MORE_PAGES_AVAILABLE"}] if more else [],
            "next_cursor": str(end) if more else None,
            "scope": {"resource": "items", "visibility": "all", "snapshot": "v1"},
            "warnings": [],
            "evidence": None if more else "api-evidence",
        }
        return httpx.Response(200, json=body)

    return httpx.MockTransport(handler)


def _package() -> Any:
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    write_tree(OUT, generate(SPEC, (), PACKAGE).files)
    sys.path.insert(0, str(OUT))
    return importlib.import_module(f"{PACKAGE}.tools.mcp_server")


def _median(fn: Any) -> float:
    times = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> str:
    server = _package()
    rows = []
    for total in SIZES:
        # No bound on one answer (every item in it, as the peer), then a byte bound that holds
        # them all: what measuring each item's JSON costs (docs/agents.md#one-answer-is-bounded).
        hosts = [
            server.build_host(
                "http://api.test",
                {},
                secret=b"b" * 32,
                transport=_transport(total),
                max_answer_bytes=bound,
            )
            for bound in (None, 10**9)
        ]
        args = {"max_pages": 1000, "deadline_s": 120}

        def peer(host: Any = hosts[0], total: int = total) -> None:
            result = host.client.list_items.collect(max_pages=1000, deadline=120)
            assert result.complete and len(result.items) == total

        def tool(host: Any, args: dict = args) -> None:
            envelope, is_error = host.call("list_items", args)
            assert not is_error and envelope["status"] == "complete" and envelope["evidence"]

        peer_s, tool_s, bound_s = [], [], []
        for _ in range(2):  # interleave so drift hits both alike
            peer_s.append(_median(peer))
            tool_s.append(_median(functools.partial(tool, hosts[0])))
            bound_s.append(_median(functools.partial(tool, hosts[1])))
        p, t, b = min(peer_s), min(tool_s), min(bound_s)
        rows.append(
            f"| {total:,} | {p * 1000:.1f} | {t * 1000:.1f} | {t / p:.2f}x "
            f"| {b * 1000:.1f} | {b / p:.2f}x |"
        )
    return "\n".join(
        [
            "### Agent tool layer vs the generated client (list_items, in-process transport)",
            "",
            "| items | client.collect ms | ToolHost.call ms | ratio | byte-bounded ms | ratio |",
            "|---:|---:|---:|---:|---:|---:|",
            *rows,
            "",
            "ToolHost.call = collect + envelope + input/output validation + ToolResult check + "
            "evidence over the id set; with a byte bound, each item's JSON is measured too "
            f"(median of {ROUNDS} rounds, best of 2 interleaved series).",
        ]
    )


if __name__ == "__main__":
    print(main())
