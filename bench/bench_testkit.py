"""The test kit: ``xcompleteness mock`` throughput and ``xcompleteness verify`` time.

Measured in one run, on the example spec (``examples/service_accounts/openapi.yaml``), against a
named peer serving the same listing: the example service itself (real uvicorn on 127.0.0.1, four
SQLite shards, the same number of accounts, the same page size).

- full listings of ``listServiceAccounts`` over plain httpx, page after page: pages/s of the mock
  vs pages/s of the service;
- one ``verify`` run (two walks of each listing, every page checked) against the mock vs against
  the service.

Figures are ratios against the service measured in the same run; absolute times depend on the
machine and its load. Run alone with ``python bench/run.py testkit``.
"""

from __future__ import annotations

import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "service_accounts"
SPEC = EXAMPLE / "openapi.yaml"
PACKAGE = "bench_testkit_api"
ACCOUNTS = 400
PAGE = 50
WALKS = 5
AUTH = {"Authorization": "Bearer auditor-token"}


def _serve(app) -> tuple[str, object, threading.Thread]:
    import uvicorn

    sock = socket.socket()
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no delayed-ACK stalls
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return f"http://127.0.0.1:{sock.getsockname()[1]}", server, thread


def _walk(url: str, headers: dict[str, str]) -> tuple[int, int]:
    pages = items = 0
    cursor = None
    with httpx.Client(base_url=url, headers=headers, timeout=30) as client:
        while True:
            params = {"limit": PAGE, **({"cursor": cursor} if cursor else {})}
            body = client.get("/service-accounts", params=params).json()
            pages += 1
            items += len(body["items"])
            cursor = body.get("next_cursor")
            if not cursor:
                return pages, items


def _throughput(url: str, headers: dict[str, str]) -> tuple[float, int]:
    _walk(url, headers)  # warm-up
    started = time.perf_counter()
    pages = items = 0
    for _ in range(WALKS):
        p, n = _walk(url, headers)
        pages += p
        items = n
    return pages / (time.perf_counter() - started), items


def _verify_time(url: str, headers: dict[str, str]) -> tuple[float, int]:
    from xcompleteness.check._pipeline import check_spec
    from xcompleteness.testkit._verify import Verifier

    result = check_spec(SPEC)
    started = time.perf_counter()
    verifier = Verifier(result, url, headers, {"q": "svc"}, max_pages=400, time_limit=300)
    findings = [d for d in verifier.run() if d.severity.value == "error"]
    return time.perf_counter() - started, len(findings)


def main() -> str:
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree
    from xcompleteness.testkit._mock import make_app, mock_from_check

    sys.path.insert(0, str(EXAMPLE))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "gen"
        write_tree(out, generate(SPEC, [], PACKAGE).files)
        sys.path.insert(0, str(out))
        from service.app import create_app
        from service.config import ServiceConfig, demo_tokens
        from service.seed import seed
        from service.store import Store
        from service.wire import Wire
        from xcompleteness.check._pipeline import check_spec

        config = ServiceConfig(data_dir=Path(tmp) / "data", tokens=demo_tokens())
        seed(Store(config).open(), ACCOUNTS)
        service_url, service, s_thread = _serve(
            create_app(config, Wire.from_package(PACKAGE, config.secret))
        )
        plan = Path(tmp) / "plan.yaml"
        plan.write_text(f"items: {ACCOUNTS}\npage-size: {PAGE}\n", encoding="utf-8")
        mock_url, mock, m_thread = _serve(make_app(mock_from_check(check_spec(SPEC), str(plan))))
        try:
            mock_pps, mock_items = _throughput(mock_url, {})
            svc_pps, svc_items = _throughput(service_url, AUTH)
            mock_verify, mock_findings = _verify_time(mock_url, {})
            svc_verify, svc_findings = _verify_time(service_url, AUTH)
        finally:
            for server, thread in ((service, s_thread), (mock, m_thread)):
                server.should_exit = True
                thread.join(timeout=10)
    return "\n".join(
        [
            "## test kit: mock throughput and verify time (peer: the example service)",
            "",
            f"listServiceAccounts, {ACCOUNTS} items, pages of {PAGE}, {WALKS} full walks each",
            "",
            "| | mock | example service | mock / service |",
            "|---|---|---|---|",
            f"| pages/s (plain httpx walk) | {mock_pps:.0f} | {svc_pps:.0f} | "
            f"{mock_pps / svc_pps:.2f}x |",
            f"| items per walk | {mock_items} | {svc_items} | |",
            f"| verify (2 listings x 2 walks), s | {mock_verify:.2f} | {svc_verify:.2f} | "
            f"{mock_verify / svc_verify:.2f}x |",
            f"| verify errors found | {mock_findings} | {svc_findings} | |",
        ]
    )


if __name__ == "__main__":
    print(main())
