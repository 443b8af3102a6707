"""A FastAPI service built on the generated models and server helpers, served by real uvicorn on
127.0.0.1 and checked by schemathesis against the generated ``openapi.augmented.json``.

The service is what an API owner would write: envelopes as ``response_model``, cursors and
evidence from ``server.Service``, typed errors mapped by one exception handler.
"""

import contextlib
import importlib
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Query, Request
from fastapi.responses import JSONResponse

SECRET = b"functional-test-secret-0123456789"
ACCOUNTS = [
    {"id": f"svc-{i:03d}", "name": f"account {i}", "status": ("active", "disabled")[i % 2]}
    for i in range(7)
]


def build_app(pkg: str, *, drifted: bool = False) -> Any:
    """The service; ``drifted`` makes the listing bypass the models (a negative control)."""
    models = importlib.import_module(f"{pkg}.models")
    server = importlib.import_module(f"{pkg}.server")
    svc = server.Service(SECRET)
    app = FastAPI()

    @app.exception_handler(server.ServiceError)
    def _service_error(request: Request, exc: server.ServiceError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    def principal(request: Request) -> str:
        return request.headers.get("authorization", "anonymous")

    @app.get(
        "/service-accounts",
        response_model=models.ListServiceAccountsPage,
        response_model_exclude_none=True,
    )
    def list_accounts(
        request: Request,
        cursor: str | None = None,
        limit: int = Query(default=3, ge=1, le=200),
        status: str | None = None,
        owner: str | None = None,
        time_budget_ms: int | None = None,
    ) -> Any:
        if drifted:
            return JSONResponse({"items": [{"id": 7}], "complete": "yes"})
        tokens = svc.list_service_accounts
        query = {"status": status, "owner": owner}
        # the declared invalidated-by names authorization: this toy service's grants are the
        # bearer token itself (a real one passes a fingerprint of the caller's grants)
        grants = {"authorization": principal(request)}
        start = 0
        if cursor is not None:
            start = tokens.read_cursor(
                cursor, query=query, principal=principal(request), invalidators=grants
            ).data
        rows = [a for a in ACCOUNTS if status is None or a["status"] == status]
        page = rows[start : start + limit]
        scope = {"resource": "service_accounts", "snapshot": "s1"}
        if start + limit < len(rows):
            nxt = tokens.mint_cursor(
                start + limit,
                query=query,
                principal=principal(request),
                snapshot="s1",  # cursor.snapshot: frozen -- every page reads this snapshot
                invalidators=grants,
            )
            return models.ListServiceAccountsPage.partial_page(
                page, next_cursor=nxt, scope=scope, page={"requested_size": limit}
            )
        done = models.ListServiceAccountsPage.complete_page(page, scope=scope)
        return tokens.with_evidence(
            done, ids=[a["id"] for a in rows], query=query, principal=principal(request)
        )

    @app.get(
        "/service-accounts/search",
        response_model=models.SearchServiceAccountsPage,
        response_model_exclude_none=True,
    )
    def search(
        q: str = Query(min_length=1),
        cursor: str | None = None,
        limit: int = 50,
        time_budget_ms: int = 2000,
    ) -> Any:
        hits = [a for a in ACCOUNTS if q in a["name"]]
        if "shard" in q:
            return models.SearchServiceAccountsPage.partial_page(
                hits, reasons=[{"code": "SHARD_REBALANCING", "shard": "s-2"}]
            )
        if len(q) > 20:
            return models.SearchServiceAccountsPage.partial_page(
                hits, reasons=[{"code": "TIME_BUDGET_EXCEEDED", "budget_ms": time_budget_ms}]
            )
        return models.SearchServiceAccountsPage.complete_page(hits)

    @app.get(
        "/service-accounts/{id}",
        response_model=models.RESULT_MODELS["getServiceAccount"],
        response_model_exclude_none=True,
        responses={404: {}},
    )
    def get_account(id: str, fields: str | None = None) -> Any:
        for a in ACCOUNTS:
            if a["id"] == id:
                omitted = {"owner": "NOT_REQUESTED"} if fields else None
                return {**a, "omitted_fields": omitted}
        return JSONResponse({"error": {"code": "NOT_FOUND", "message": "no such account"}}, 404)

    @app.post("/service-accounts/archive", response_model=models.ArchiveServiceAccountsResponse)
    def archive(body: models.ArchiveServiceAccountsRequest, request: Request) -> Any:
        svc.archive_service_accounts.verify(
            body.evidence, ids=body.ids, principal=principal(request)
        )
        return {"archived": body.ids}

    return app


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def _serve(app: Any) -> Iterator[str]:
    """Real uvicorn on 127.0.0.1 (free port) in a thread; bounded start and stop."""
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def base_url(svc) -> Iterator[str]:
    with _serve(build_app("gen_svc")) as url:
        yield url


def _schemathesis(spec: Path, url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            str(Path(sys.executable).parent / "schemathesis"),
            "run",
            str(spec),
            "--url",
            url,
            "--mode",
            "positive",
            "--phases",
            "examples,fuzzing",
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance,"
            "response_schema_conformance",
            "--seed",
            "1",
            "--workers",
            "1",
            "--request-timeout",
            "10",
            "--generation-database",
            "none",
            "--no-color",
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=spec.parent,
        check=False,
    )


def test_listing_walks_to_a_complete_result_and_evidence_is_honoured(base_url: str) -> None:
    with httpx.Client(base_url=base_url, timeout=10) as http:
        seen: list[str] = []
        params: dict[str, Any] = {"limit": 3}
        for _ in range(10):  # bounded walk
            body = http.get("/service-accounts", params=params).json()
            seen += [a["id"] for a in body["items"]]
            if body["complete"]:
                break
            assert body["incomplete_reasons"][0]["code"] == "MORE_PAGES_AVAILABLE"
            params = {"limit": 3, "cursor": body["next_cursor"]}
        assert body["complete"] is True and seen == [a["id"] for a in ACCOUNTS]
        evidence = body["evidence"]
        ok = http.post("/service-accounts/archive", json={"ids": ["svc-001"], "evidence": evidence})
        assert ok.status_code == 200 and ok.json() == {"archived": ["svc-001"]}
        bad = http.post(
            "/service-accounts/archive", json={"ids": ["svc-999"], "evidence": evidence}
        )
        assert bad.status_code == 409
        assert bad.json()["error"]["code"] == "EVIDENCE_REJECTED"
        assert bad.json()["error"]["reason"] == "target_outside_evidence"
        tampered = http.get("/service-accounts", params={"cursor": "v1.abc.def"})
        assert tampered.status_code == 400 and tampered.json()["error"]["code"] == "CURSOR_INVALID"


def test_schemathesis_against_the_augmented_document(base_url: str, svc_out: Path) -> None:
    spec = svc_out / "gen_svc" / "openapi.augmented.json"
    assert json.loads(spec.read_text())["paths"]["/service-accounts"]["get"]["responses"]["410"]
    proc = _schemathesis(spec, base_url, "--max-examples", "15")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "No issues found" in proc.stdout, proc.stdout[-2000:]


def test_schemathesis_catches_a_service_that_drifts_from_the_envelope(svc, svc_out: Path) -> None:
    """Negative control: the same check fails when a listing bypasses the generated models."""
    spec = svc_out / "gen_svc" / "openapi.augmented.json"
    with _serve(build_app("gen_svc", drifted=True)) as url:
        proc = _schemathesis(
            spec, url, "--max-examples", "3", "--include-path", "/service-accounts"
        )
    assert proc.returncode != 0
    assert "Response violates schema" in proc.stdout, proc.stdout[-2000:]
