"""The example service: listing throughput, and what the contract costs per page.

Measured in one run against one service (real uvicorn on 127.0.0.1, four SQLite shards, 1,600
accounts, no injected faults):

- full listings through the generated client (pages/s, p50/p99 latency of a page);
- the same listing over plain httpx, envelope endpoint vs a bare-list endpoint doing the same
  scan (``/_bare/service-accounts``: items plus the last id, no envelope, no signed cursor);
- in process, the per-page cost of building the envelope with the generated page model and
  minting/verifying the cursor, against building the bare list from the same rows.

Figures are ratios against the bare peer measured in the same run; absolute times depend on the
machine and its load.
"""

from __future__ import annotations

import importlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "service_accounts"
PACKAGE = "bench_service_api"
WALKS = 3
PAGE = 50
ACCOUNTS = 1600
AUTH = {"Authorization": "Bearer auditor-token"}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def _generate(out: Path) -> None:
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    gen = generate(EXAMPLE / "openapi.yaml", [], PACKAGE)
    write_tree(out, gen.files)
    sys.path.insert(0, str(out))


def _walk_client(client) -> tuple[list[float], int]:
    """One full listing, page by page through the generated client; page latencies."""
    times, cursor, pages = [], None, 0
    for _ in range(1000):
        started = time.perf_counter()
        page = client.list_service_accounts.page(limit=PAGE, cursor=cursor)
        times.append(time.perf_counter() - started)
        pages += 1
        cursor = page.next_cursor
        if cursor is None:
            assert page.complete
            return times, pages
    raise RuntimeError("listing did not end")


def _walk_http(http, path: str, cursor_param: str, next_key: str) -> list[float]:
    times, position = [], None
    for _ in range(1000):
        params = {"limit": PAGE}
        if position:
            params[cursor_param] = position
        started = time.perf_counter()
        body = http.get(path, params=params).json()
        times.append(time.perf_counter() - started)
        position = body[next_key]
        if position is None:
            return times
    raise RuntimeError("listing did not end")


def _in_process(listings, wire, config) -> tuple[float, float]:
    """Seconds per page: envelope + cursor vs bare list, over the same rows, no HTTP."""
    from service.listing import Page, snapshot_name
    from service.store import Query

    principal = config.tokens["auditor-token"]
    scan = listings.scanner.page(
        Query(), snapshot=1, teams=principal.teams, after=None, limit=PAGE, budget_ms=5000
    )
    tokens = listings._helpers["listServiceAccounts"]
    grants = {"authorization": principal.grants_digest()}  # declared cursor invalidator
    rounds = 300

    started = time.perf_counter()
    for _ in range(rounds):
        cursor = tokens.mint_cursor(
            {"after": list(scan.items[-1].key()), "returned": PAGE, "taint": False},
            query={},
            principal=principal.name,
            snapshot=snapshot_name(1),
            invalidators=grants,
        )
        tokens.read_cursor(cursor, query={}, principal=principal.name, invalidators=grants)
        page = Page(
            scan.items,
            [{"code": "MORE_PAGES_AVAILABLE"}],
            [],
            1,
            cursor,
            None,
            PAGE,
            4,
            4,
            1,
        )
        wire.page("listServiceAccounts", page)
    contract = (time.perf_counter() - started) / rounds

    started = time.perf_counter()
    for _ in range(rounds):
        {"items": [a.public() for a in scan.items], "next": scan.items[-1].id}
    bare = (time.perf_counter() - started) / rounds
    return contract, bare


def main() -> str:
    import httpx

    sys.path.insert(0, str(EXAMPLE))
    from service.app import create_app
    from service.config import ServiceConfig, demo_tokens
    from service.runner import start_in_thread
    from service.seed import seed
    from service.store import Store
    from service.wire import Wire

    with tempfile.TemporaryDirectory(prefix="xc-bench-service-") as tmp:
        _generate(Path(tmp) / "gen")
        client_mod = importlib.import_module(f"{PACKAGE}.client")
        config = ServiceConfig(
            data_dir=Path(tmp) / "data", tokens=demo_tokens(), bare_routes=True, result_limit=10**6
        )
        seed(Store(config).open(), ACCOUNTS)
        wire = Wire.from_package(PACKAGE, config.secret)
        app = create_app(config, wire)
        service = start_in_thread(app)
        try:
            client_times: list[float] = []
            pages = 0
            with client_mod.Client(service.base_url, headers=AUTH) as client:
                _walk_client(client)  # warm-up
                started = time.perf_counter()
                for _ in range(WALKS):
                    times, n = _walk_client(client)
                    client_times += times
                    pages += n
                client_wall = time.perf_counter() - started
            env_times: list[float] = []
            bare_times: list[float] = []
            with httpx.Client(base_url=service.base_url, headers=AUTH, timeout=30) as http:
                _walk_http(http, "/_bare/service-accounts", "after", "next")  # warm-up
                for _ in range(WALKS):  # interleaved so load drifts hit both alike
                    env_times += _walk_http(http, "/service-accounts", "cursor", "next_cursor")
                    bare_times += _walk_http(http, "/_bare/service-accounts", "after", "next")
            contract_s, bare_s = _in_process(app.state.listings, wire, config)
        finally:
            service.stop()

    env_p50, bare_p50 = statistics.median(env_times), statistics.median(bare_times)
    lines = [
        f"## Example service listing ({ACCOUNTS} accounts, 4 SQLite shards, page size {PAGE})",
        "",
        "| path | pages | pages/s | p50 ms | p99 ms |",
        "|---|---|---|---|---|",
        f"| generated client, envelope endpoint | {pages} | {pages / client_wall:.0f} | "
        f"{_ms(statistics.median(client_times))} | {_ms(_percentile(client_times, 0.99))} |",
        f"| httpx, envelope endpoint | {len(env_times)} | {len(env_times) / sum(env_times):.0f} |"
        f" {_ms(env_p50)} | {_ms(_percentile(env_times, 0.99))} |",
        f"| httpx, bare-list peer (same scan) | {len(bare_times)} | "
        f"{len(bare_times) / sum(bare_times):.0f} | {_ms(bare_p50)} | "
        f"{_ms(_percentile(bare_times, 0.99))} |",
        "",
        f"- envelope endpoint vs bare peer, p50 page latency: **{env_p50 / bare_p50:.2f}x** "
        "(the last page of each listing also re-reads the whole listing to mint evidence)",
        f"- in process, per page: envelope (generated page model) + cursor mint + verify "
        f"**{contract_s * 1e6:.0f} us** vs bare list {bare_s * 1e6:.0f} us "
        f"(**{contract_s / bare_s:.1f}x**; absolute difference "
        f"{(contract_s - bare_s) * 1e6:.0f} us per page of {PAGE})",
        f"- the contract's share of a p50 page over HTTP: "
        f"{100 * (contract_s - bare_s) / env_p50:.0f}%",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(main())
