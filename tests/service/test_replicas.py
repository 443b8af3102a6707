"""Single-use evidence and revocation across replicas (issue 13, item 4).

Two replicas of the example service run as separate processes (real uvicorn on loopback) over one
data folder and one token store; two generated MCP servers run as separate processes (official
``mcp`` SDK client over stdio) sharing a secret and a store. Evidence spent on one is refused on
the other, a revocation on one holds on the other, a restarted process forgets nothing, and of
two archives racing on one token exactly one succeeds.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client, StdioServerParameters
from support.redis_server import redis_server

GEN_PACKAGE = "svc_service_area"
AUDITOR = {"Authorization": "Bearer auditor-token"}
ADMIN = {"Authorization": "Bearer admin-secret"}
SECRET = "ab" * 32
TIMEOUT = 60


@pytest.fixture(scope="module")
def gen_out(tmp_path_factory):
    from support.gen import generate_example

    return generate_example("service_accounts", tmp_path_factory.mktemp("gen"), package="svc_rep")


def _replica(gen_out: Path, data: Path, store: str | None):
    from service.runner import start_process

    env = {
        "XC_SERVICE_DATA": str(data),
        "XC_SERVICE_SECRET": SECRET,
        "XC_SERVICE_ADMIN_TOKEN": "admin-secret",
    }
    if store:
        env["XC_SERVICE_TOKEN_STORE"] = store
    args = ["--generated", str(gen_out), "--package", "svc_rep", "--seed", "60"]
    return start_process(args, env)


def _evidence(base_url: str) -> tuple[list[str], str]:
    page = httpx.get(f"{base_url}/service-accounts", params={"limit": 200}, headers=AUDITOR)
    body = page.json()
    assert page.status_code == 200 and body["complete"] is True and body["evidence"], body
    return [a["id"] for a in body["items"] if a["status"] != "archived"], body["evidence"]


def _archive(base_url: str, ids: list[str], evidence: str) -> httpx.Response:
    body = {"ids": ids, "evidence": evidence}
    return httpx.post(f"{base_url}/service-accounts/archive", json=body, headers=AUDITOR)


def _reason(response: httpx.Response) -> str | None:
    return (response.json().get("error") or {}).get("reason")


@pytest.mark.parametrize("backend", ["sqlite-default", "redis"])
def test_two_service_replicas_share_single_use_and_revocation_and_survive_restart(
    backend, gen_out, tmp_path
):
    data = tmp_path / "data"
    if backend == "redis":
        context = redis_server(tmp_path / "redis")
    else:
        context = _null()
    with context as store:
        a = _replica(gen_out, data, store)
        b = _replica(gen_out, data, store)
        try:
            ids, evidence = _evidence(a.base_url)
            assert _archive(b.base_url, ids[:2], evidence).status_code == 200
            # Other, untouched targets: only the spent token can explain the refusal.
            again = _archive(a.base_url, ids[2:3], evidence)
            assert again.status_code == 409 and _reason(again) == "already_used", again.text
            a.stop()
            a = _replica(gen_out, data, store)  # a restart loses nothing
            after = _archive(a.base_url, ids[3:4], evidence)
            assert after.status_code == 409 and _reason(after) == "already_used", after.text

            _, fresh = _evidence(a.base_url)
            revoked = httpx.post(
                f"{b.base_url}/_admin/evidence/revoke", json={"evidence": fresh}, headers=ADMIN
            )
            assert revoked.json() == {"revoked": True}
            refused = _archive(a.base_url, ids[4:5], fresh)
            assert refused.status_code == 409 and _reason(refused) == "revoked", refused.text

            time.sleep(1.1)  # a token is minted per second: the same second gives the same one
            _, raced = _evidence(b.base_url)
            assert raced != fresh
            answers: list[httpx.Response] = []
            barrier = threading.Barrier(2)

            def go(url: str, targets: list[str]) -> None:
                barrier.wait()
                answers.append(_archive(url, targets, raced))

            threads = [
                threading.Thread(target=go, args=(a.base_url, ids[5:6])),
                threading.Thread(target=go, args=(b.base_url, ids[6:7])),
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join(TIMEOUT)
            codes = sorted(r.status_code for r in answers)
            assert codes == [200, 409], [r.text for r in answers]
            assert [_reason(r) for r in answers if r.status_code == 409] == ["already_used"]
        finally:
            a.stop()
            b.stop()
    if backend == "sqlite-default":
        assert (data / "tokens.sqlite3").exists()


class _null:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


# -- two MCP servers ---------------------------------------------------------------------------


def _mcp_params(gen_out: Path, base_url: str, store: str) -> StdioServerParameters:
    path = os.pathsep.join([str(gen_out), os.environ.get("PYTHONPATH", "")])
    return StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "svc_rep.tools.mcp_server",
            "--base-url",
            base_url,
            "--header",
            "Authorization: Bearer auditor-token",
            "--store",
            store,
        ],
        env={**os.environ, "PYTHONPATH": path, "XCOMPLETENESS_MCP_SECRET": SECRET},
        cwd=str(gen_out),
    )


LIST_ARGS = {"status": None, "owner": None, "max_pages": 50, "deadline_s": 30, "continuation": None}


async def _call(params: StdioServerParameters, name: str, **args):
    async with Client(params) as client:
        result = await client.call_tool(name, args)
        return result.structured_content


def test_two_mcp_servers_sharing_a_sqlite_store_honour_each_others_single_use(gen_out, tmp_path):
    data = tmp_path / "data"
    store = f"sqlite:///{tmp_path / 'mcp-tokens.sqlite3'}"
    service = _replica(gen_out, data, None)
    try:
        one = _mcp_params(gen_out, service.base_url, store)
        two = _mcp_params(gen_out, service.base_url, store)

        async def main():
            with anyio.fail_after(TIMEOUT * 2):
                listing = await _call(one, "list_service_accounts", **LIST_ARGS)
                ids = [a["id"] for a in listing["data"]["service_accounts"]]
                ev = listing["evidence"]
                done = await _call(two, "archive_service_accounts", ids=ids[:1], evidence=ev)
                replay = await _call(one, "archive_service_accounts", ids=ids[1:2], evidence=ev)
                # "one" again in a fresh process: a restarted MCP server forgets nothing
                restarted = await _call(one, "archive_service_accounts", ids=ids[2:3], evidence=ev)
                return listing, done, replay, restarted

        listing, done, replay, restarted = anyio.run(main)
    finally:
        service.stop()
    assert listing["status"] == "complete" and listing["evidence"]
    # two filled in the API's own evidence it never saw: kept by one in the shared store
    assert done["status"] == "complete", done
    assert replay["error"]["reasons"] == ["EVIDENCE_ALREADY_USED"], replay
    assert restarted["error"]["reasons"] == ["EVIDENCE_ALREADY_USED"], restarted


def test_the_mcp_server_default_store_and_a_bad_store_url(gen_out, tmp_path, monkeypatch):
    import importlib
    import subprocess

    from support.gen import import_generated

    import_generated(gen_out, "svc_rep")
    server = importlib.import_module("svc_rep.tools.mcp_server")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert server.default_store_url(False) == "memory:"  # a per-process secret: nothing to keep
    url = server.default_store_url(True)
    assert url == f"sqlite:///{tmp_path / 'state' / 'xcompleteness' / 'svc_rep-evidence.sqlite3'}"
    monkeypatch.setenv("XCOMPLETENESS_MCP_SECRET", SECRET)
    host = server.build_host("http://127.0.0.1:9", {})
    assert type(host.keeper.store).__name__ == "SqliteStore"
    assert (tmp_path / "state" / "xcompleteness" / "svc_rep-evidence.sqlite3").exists()

    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "svc_rep.tools.mcp_server",
            "--base-url",
            "http://x",
            "--store",
            "ftp://nope",
        ],
        cwd=gen_out,
        env={**os.environ, "PYTHONPATH": str(gen_out)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "unknown token store URL" in proc.stderr
    assert "Traceback" not in proc.stderr
