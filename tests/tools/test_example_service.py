"""The MCP server in front of the real example service (examples/service_accounts).

The native service mints its own evidence and re-checks it on archive; the MCP server must fill
that token in itself (the model never sees it), refuse on partial listings (a team-scoped
credential sees VISIBILITY_RESTRICTED) and on a voiding STALE_INDEX warning, and let a complete,
fresh listing authorise exactly its ids.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client
from support.gen import import_generated
from support.paths import EXAMPLES

SVC = "xct_svc"
AUDITOR = {"Authorization": "Bearer auditor-token"}
PAYMENTS = {"Authorization": "Bearer payments-token"}
ALL = {"status": None, "owner": None, "max_pages": 50, "deadline_s": 30, "continuation": None}


@pytest.fixture(scope="module")
def service_app(generated, tmp_path_factory):
    """The example service on uvicorn (127.0.0.1) with 60 seeded accounts, wired to our package."""
    example = str(EXAMPLES / "service_accounts")
    if example not in sys.path:
        sys.path.insert(0, example)
    import_generated(generated[SVC].parent, SVC)
    from service.app import create_app
    from service.config import ServiceConfig, demo_tokens
    from service.runner import start_in_thread
    from service.seed import seed
    from service.store import Store
    from service.wire import Wire

    config = ServiceConfig(
        data_dir=Path(tmp_path_factory.mktemp("svc")) / "data", tokens=demo_tokens()
    )
    seed(Store(config).open(), 60)
    running = start_in_thread(create_app(config, Wire.from_package(SVC, config.secret)))
    yield running.base_url, config
    running.stop()


def run(base_url, headers, body):
    server_mod = importlib.import_module(f"{SVC}.tools.mcp_server")
    server = server_mod.build_server(server_mod.build_host(base_url, headers, secret=b"m" * 32))

    async def main():
        with anyio.fail_after(60):
            async with Client(server) as client:
                return await body(client)

    return anyio.run(main)


async def call(client, name, **args):
    result = await client.call_tool(name, args)
    return result.structured_content


def test_a_complete_listing_authorises_exactly_its_ids_with_the_service_evidence(service_app):
    base_url, _ = service_app

    async def body(client):
        listing = await call(client, "list_service_accounts", **ALL)
        ids = [a["id"] for a in listing["data"]["service_accounts"]][:2]
        outside = await call(
            client,
            "archive_service_accounts",
            ids=[*ids, "svc-does-not-exist"],
            evidence=listing["evidence"],
        )
        done = await call(client, "archive_service_accounts", ids=ids, evidence=listing["evidence"])
        return listing, outside, done

    listing, outside, done = run(base_url, AUDITOR, body)
    assert listing["status"] == "complete" and listing["evidence"]
    assert outside["error"]["reasons"] == ["TARGETS_OUTSIDE_EVIDENCE"]
    assert done["status"] == "complete", done


def test_a_team_scoped_credential_gets_partial_and_cannot_archive(service_app):
    base_url, _ = service_app

    async def body(client):
        listing = await call(client, "list_service_accounts", **ALL)
        ids = [a["id"] for a in listing["data"]["service_accounts"]][:1]
        refused = await call(
            client, "archive_service_accounts", ids=ids, evidence=listing["evidence"]
        )
        return listing, refused

    listing, refused = run(base_url, PAYMENTS, body)
    assert listing["status"] == "partial" and listing["evidence"] is None
    assert "VISIBILITY_RESTRICTED" in [r["code"] for r in listing["completeness"]["reasons"]]
    assert refused["error"]["reasons"] == ["EVIDENCE_MISSING"]
    assert refused["approval"]["options"][1]["option"] == "act_only_on_returned_ids"


def test_a_stale_index_warning_voids_the_evidence_for_archive(service_app):
    base_url, config = service_app
    config.shards[0].stale = True
    try:

        async def body(client):
            listing = await call(client, "list_service_accounts", **ALL)
            ids = [a["id"] for a in listing["data"]["service_accounts"]][:1]
            refused = await call(
                client, "archive_service_accounts", ids=ids, evidence=listing["evidence"]
            )
            return listing, refused

        listing, refused = run(base_url, AUDITOR, body)
    finally:
        config.shards[0].stale = False
    assert "STALE_INDEX" in [w["code"] for w in listing["warnings"]]
    assert refused["error"]["reasons"] == ["EVIDENCE_VOIDED_BY_WARNING"]
