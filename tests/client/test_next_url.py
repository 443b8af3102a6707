"""``style: next-url``: a next page URL in the body (Azure ``nextLink``, OData ``@odata.nextLink``).

The whole path a user takes: ``audit`` drafts the declaration from a plain spec, the reviewer
settles its TODOs, ``check`` is clean, ``generate`` builds the client, and the client walks a real
uvicorn server to ``complete``. A next URL on another origin is refused (the client's headers never
leave the API's host) and a walk stopped by a client limit resumes from its continuation.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from support.fault_server import serve
from support.gen import import_generated
from xcompleteness.check._pipeline import check_spec
from xcompleteness.cli import main

SPEC = Path(__file__).parent / "specs" / "next_url_base.yaml"
PACKAGE = "client_area_next_url"
VAULTS = [{"id": f"/subscriptions/s1/vaults/v{i:02d}", "name": f"v{i:02d}"} for i in range(8)]
USERS = [{"id": f"u{i:02d}", "displayName": f"User {i}"} for i in range(5)]
VAULTS_PATH = "/subscriptions/s1/providers/Microsoft.KeyVault/vaults"


def make_app(state: dict[str, Any]) -> FastAPI:
    app = FastAPI()

    @app.get("/subscriptions/{sub}/providers/Microsoft.KeyVault/vaults")
    async def vaults(request: Request, sub: str) -> JSONResponse:
        state["log"].append(
            (request.url.path, request.scope["query_string"].decode(), request.headers.get("x-key"))
        )
        skip = int(request.query_params.get("$skiptoken") or 0)
        top = int(request.query_params.get("$top") or 3)
        body: dict[str, Any] = {"value": VAULTS[skip : skip + top]}
        if skip + top < len(VAULTS):
            base = state.get("next_base") or str(request.base_url).rstrip("/")
            body["nextLink"] = (
                f"{base}/subscriptions/{sub}/providers/Microsoft.KeyVault/vaults"
                f"?api-version=2023-07-01&$top={top}&$skiptoken={skip + top}"
            )
            if state.get("next_number"):
                body["nextLink"] = skip + top  # not a URL: a page position
        return JSONResponse(body)

    @app.get("/v1.0/users")
    async def users(request: Request) -> JSONResponse:
        state["log"].append((request.url.path, request.scope["query_string"].decode(), None))
        skip = int(request.query_params.get("$skiptoken") or 0)
        body: dict[str, Any] = {
            "@odata.context": "$metadata#users",
            "value": USERS[skip : skip + 2],
        }
        if skip + 2 < len(USERS):
            # a relative next link resolves against the API's base URL
            body["@odata.nextLink"] = f"/v1.0/users?$skiptoken={skip + 2}"
        return JSONResponse(body)

    return app


@pytest.fixture(scope="module")
def drafted(tmp_path_factory) -> tuple[Path, dict[str, Any]]:
    """audit's draft with its TODOs settled the way a reviewer would."""
    tmp = tmp_path_factory.mktemp("next_url_draft")
    draft = tmp / "draft.yaml"
    assert main(["audit", str(SPEC), "--emit-overlay", str(draft), "--format", "json"]) == 1
    overlay = yaml.safe_load(draft.read_text(encoding="utf-8"))
    for action in overlay["actions"]:
        decl = action["update"]["x-completeness"]
        assert [t.split(":")[0] for t in decl.pop("x-todo")] == ["visibility"]
        decl["scope"]["visibility"] = "what the credential can read"
    draft.write_text(yaml.safe_dump(overlay), encoding="utf-8")
    return draft, overlay


@pytest.fixture(scope="module")
def pkg(drafted, tmp_path_factory):
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    out = tmp_path_factory.mktemp("next_url_gen")
    write_tree(out, generate(SPEC, [drafted[0]], PACKAGE).files)
    return import_generated(out, PACKAGE), out


@pytest.fixture(scope="module")
def server():
    state: dict[str, Any] = {"log": []}
    with serve(make_app(state)) as base:
        yield base, state


def test_audit_drafts_next_url_and_the_draft_checks_clean(drafted):
    draft, overlay = drafted
    pagination = {
        a["target"]: a["update"]["x-completeness"]["pagination"] for a in overlay["actions"]
    }
    assert pagination == {
        "$.paths['/subscriptions/{subscriptionId}/providers/Microsoft.KeyVault/vaults'].get": {
            "style": "next-url",
            "request": {"size": "$top"},
            "response": {"next": "$response.body#/nextLink"},
        },
        "$.paths['/v1.0/users'].get": {
            "style": "next-url",
            "request": {"size": "$top"},
            "response": {"next": "$response.body#/@odata.nextLink"},
        },
    }
    result = check_spec(SPEC, [draft])
    assert [d.render() for d in result.diagnostics] == []
    contract = result.contracts["Vaults_ListBySubscription"].to_dict()
    assert contract["pagination"]["style"] == "next-url"
    assert contract["pagination"]["response"]["next"] == "$response.body#/nextLink"


def test_walks_azure_next_links_to_complete_with_credentials_on_every_page(pkg, server):
    package, _ = pkg
    base, state = server
    state["log"].clear()
    with package.Client(base, headers={"x-key": "secret"}) as client:
        result = client.vaults_list_by_subscription.collect(
            subscription_id="s1", api_version="2023-07-01"
        )
    assert result.complete is True and result.reasons == ()
    assert [v.id for v in result.items] == [v["id"] for v in VAULTS]
    assert result.pages == 3
    assert [q for _, q, _ in state["log"]] == [
        "api-version=2023-07-01",
        "api-version=2023-07-01&$top=3&$skiptoken=3",
        "api-version=2023-07-01&$top=3&$skiptoken=6",
    ]
    assert {key for _, _, key in state["log"]} == {"secret"}


def test_walks_relative_odata_next_links(pkg, server):
    package, _ = pkg
    base, _ = server
    with package.Client(base) as client:
        result = client.list_users.collect()
    assert result.complete is True
    assert [u.id for u in result.items] == [u["id"] for u in USERS]


def test_an_off_origin_next_link_is_refused_and_nothing_is_sent_there(pkg, server):
    package, _ = pkg
    base, state = server
    other_state: dict[str, Any] = {"log": []}
    with serve(make_app(other_state)) as other:
        state["next_base"] = other  # same host, another port: another origin
        state["log"].clear()
        try:
            with package.Client(base, headers={"x-key": "secret"}) as client:
                result = client.vaults_list_by_subscription.collect(
                    subscription_id="s1", api_version="2023-07-01"
                )
        finally:
            state["next_base"] = None
    assert result.complete is False
    assert result.codes == ["CONTRACT_VIOLATION"]
    assert "origin" in json.dumps(result.reason("CONTRACT_VIOLATION").details)
    assert [v.id for v in result.items] == [v["id"] for v in VAULTS[:3]]  # the first page kept
    assert len(state["log"]) == 1
    assert other_state["log"] == []  # the credential never left the API's host


def test_a_next_link_that_is_not_a_string_is_a_contract_violation(pkg, server):
    package, _ = pkg
    base, state = server
    state["next_number"] = True
    try:
        with package.Client(base) as client:
            result = client.vaults_list_by_subscription.collect(
                subscription_id="s1", api_version="2023-07-01"
            )
    finally:
        state["next_number"] = False
    assert result.complete is False and result.codes == ["CONTRACT_VIOLATION"]
    assert "not a string" in json.dumps(result.reason("CONTRACT_VIOLATION").details)


def test_a_limited_walk_resumes_from_its_next_url_continuation(pkg, server):
    package, _ = pkg
    base, _ = server
    with package.Client(base) as client:
        op = client.vaults_list_by_subscription
        first = op.collect(max_pages=1, subscription_id="s1", api_version="2023-07-01")
        assert first.complete is False and first.codes == ["CLIENT_PAGE_LIMIT"]
        assert first.continuation.kind == "next_cursor"
        assert first.continuation.cursor.startswith(base + VAULTS_PATH)
        second = op.collect(
            max_pages=1,
            continuation=first.continuation,
            subscription_id="s1",
            api_version="2023-07-01",
        )
        # the continuation is the next URL itself: it already carries every query parameter
        rest = op.collect(
            continuation=second.continuation.cursor, subscription_id="s1", api_version="x"
        )
    assert rest.complete is True
    ids = [v.id for r in (first, second, rest) for v in r.items]
    assert ids == [v["id"] for v in VAULTS]


def test_the_mcp_tool_walks_and_resumes_next_urls(pkg, server):
    package, _ = pkg
    base, _ = server
    mcp_server = importlib.import_module(f"{PACKAGE}.tools.mcp_server")
    host = mcp_server.build_host(base, secret=b"k" * 32)
    try:
        args = {"subscription_id": "s1", "api_version": "2023-07-01", "max_pages": 2}
        env, is_error = host.call("vaults_list_by_subscription", args)
        assert not is_error and env["status"] == "partial"
        cont = env["completeness"]["continuation"]
        assert cont["kind"] == "next_cursor" and "$skiptoken=6" in cont["cursor"]
        env2, is_error = host.call(
            "vaults_list_by_subscription", {**args, "continuation": cont["cursor"]}
        )
        # a continuation is model input: one naming another origin is refused, never fetched
        other_state: dict[str, Any] = {"log": []}
        with serve(make_app(other_state)) as other:
            evil = other + VAULTS_PATH + "?$skiptoken=3"
            env3, _ = host.call("vaults_list_by_subscription", {**args, "continuation": evil})
        assert other_state["log"] == []
        assert env3["status"] != "complete"
        assert [r["code"] for r in env3["completeness"]["reasons"]] == ["CONTRACT_VIOLATION"]
    finally:
        host.client.close()
    assert not is_error and env2["status"] == "complete"
    ids = [v["id"] for e in (env, env2) for v in e["data"]["vaults"]]
    assert ids == [v["id"] for v in VAULTS]
