"""The example service over HTTP on real uvicorn: envelopes, faults, credentials, evidence."""

from __future__ import annotations

import importlib
import sqlite3
import threading
from contextlib import closing

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from service.config import Principal, ServiceConfig
from service.scan import Scanner
from service.seed import TEAMS, demo_accounts
from service.store import Account, Query, Store

AUDITOR = {"Authorization": "Bearer auditor-token"}
ACTIVE = [a for a in demo_accounts(200) if a.status == "active"]


def walk(base: str, headers=AUDITOR, *, between=None, **params) -> list[httpx.Response]:
    """Follow next_cursor to the end; ``between(n)`` runs after page n."""
    responses = []
    query = {"limit": 20, **params}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as http:
        for _ in range(100):
            resp = http.get("/service-accounts", params=query)
            responses.append(resp)
            body = resp.json()
            if resp.status_code != 200 or not body.get("next_cursor"):
                return responses
            if between:
                between(len(responses))
            query = {**query, "cursor": body["next_cursor"]}
    raise AssertionError("walk did not end")


def codes(body: dict) -> list[str]:
    return [r["code"] for r in body["incomplete_reasons"]]


def test_every_page_is_a_valid_generated_envelope(service, generated):
    import importlib

    model = importlib.import_module(f"{generated.__name__}.models").ListServiceAccountsPage
    pages = walk(service.base_url, status="active")
    bodies = [r.json() for r in pages]
    for body in bodies:
        model.model_validate(body)  # invariants 1-5 hold on the wire
    assert [codes(b) for b in bodies[:-1]] == [["MORE_PAGES_AVAILABLE"]] * (len(bodies) - 1)
    assert bodies[-1]["complete"] is True and bodies[-1]["evidence"]
    assert [i["id"] for b in bodies for i in b["items"]] == [a.id for a in ACTIVE]
    assert len({b["scope"]["snapshot"] for b in bodies}) == 1
    assert bodies[0]["work"] == {
        "sources_planned": 4,
        "sources_completed": 4,
        "elapsed_ms": bodies[0]["work"]["elapsed_ms"],
    }


def test_concurrent_writes_during_a_snapshot_scan_lose_and_duplicate_nothing(service, store):
    stop = threading.Event()
    done: list[int] = []

    def writer() -> None:
        n = 0
        while not stop.is_set() and n < 300:
            n += 1
            store.update(f"svc-{1 + (n * 37) % 200:04d}", owner=f"w{n}")
            store.put([Account(f"svc-0{n:03d}x", f"new-{n}", TEAMS[n % 4], None)])
            if n % 10 == 0:
                store.archive([f"svc-0{n:03d}x"])
            done.append(n)

    marks: list[int] = []
    thread = threading.Thread(target=writer)
    thread.start()
    try:
        pages = walk(service.base_url, limit=7, between=lambda n: marks.append(len(done)))
    finally:
        stop.set()
        thread.join(timeout=30)
    assert marks[-1] - marks[0] > 5, "the writer barely ran during the scan"
    ids = [i["id"] for r in pages for i in r.json()["items"]]
    snapshot = int(pages[0].json()["scope"]["snapshot"].removeprefix("v"))
    assert store.current_version() > snapshot + 5
    at_snapshot = Scanner(store).page(
        Query(), snapshot=snapshot, teams=frozenset(TEAMS), after=None, limit=None, budget_ms=5000
    )
    assert len(ids) == len(set(ids))  # nothing twice
    assert ids == [a.id for a in at_snapshot.items]  # nothing lost, nothing from later
    assert pages[-1].json()["complete"] is True


def test_killing_a_shard_mid_scan_names_it(service, store: Store):
    victim = "shard-2"

    def kill(n: int) -> None:
        if n == 1:
            store.shard_path(victim).rename(store.shard_path(victim).with_suffix(".dead"))

    pages = walk(service.base_url, between=kill)
    second = pages[1].json()
    assert "SOURCE_UNAVAILABLE" in codes(second)
    reason = next(r for r in second["incomplete_reasons"] if r["code"] == "SOURCE_UNAVAILABLE")
    assert reason["source"] == victim
    assert second["work"]["sources_completed"] == 3
    assert pages[-1].json()["evidence"] is None  # a walk with a hole never mints evidence


def test_a_slow_shard_over_budget_is_time_budget_exceeded(service, config: ServiceConfig):
    config.shards[1].latency_ms = 300
    body = walk(service.base_url, time_budget_ms=60)[0].json()
    reason = next(r for r in body["incomplete_reasons"] if r["code"] == "TIME_BUDGET_EXCEEDED")
    assert reason["budget_ms"] == 60 and "shard-1" in reason["message"]
    body = walk(service.base_url, time_budget_ms=2000, status="active")[-1].json()
    assert body["complete"] is True


def test_credential_change_mid_scan_is_an_explicit_reason(service, config: ServiceConfig):
    def narrow(n: int) -> None:
        config.tokens["infra-token"] = Principal("infra-bot", frozenset({"infra"}))

    pages = walk(service.base_url, {"Authorization": "Bearer infra-token"}, between=narrow)
    assert [r.status_code for r in pages] == [200, 410]
    error = pages[1].json()["error"]
    assert error["code"] == "CURSOR_EXPIRED" and error["reason"] == "authorization_changed"


def test_team_token_gets_visibility_restricted_and_never_hidden_names(service):
    pages = walk(service.base_url, {"Authorization": "Bearer payments-token"})
    text = " ".join(r.text for r in pages)
    visible = {a.id for a in demo_accounts(200) if a.team == "payments"}
    assert {i["id"] for r in pages for i in r.json()["items"]} == visible
    assert all("VISIBILITY_RESTRICTED" in codes(r.json()) for r in pages)
    hidden = [a.id for a in demo_accounts(200) if a.team != "payments"]
    assert not any(h in text for h in hidden)
    with httpx.Client(base_url=service.base_url) as http:
        resp = http.get(
            f"/service-accounts/{hidden[0]}", headers={"Authorization": "Bearer payments-token"}
        )
    assert resp.status_code == 404


def test_result_cap(service, config: ServiceConfig):
    config.result_limit = 30
    pages = walk(service.base_url)
    last = pages[-1].json()
    assert codes(last) == ["RESULT_LIMIT_REACHED"] and last["incomplete_reasons"][0]["limit"] == 30
    assert sum(len(r.json()["items"]) for r in pages) == 30 and last["next_cursor"] is None


def test_search_is_ranked_and_reports_a_rebalancing_shard(service, config: ServiceConfig):
    with httpx.Client(base_url=service.base_url, headers=AUDITOR) as http:
        body = http.get("/service-accounts/search", params={"q": "payments-worker-8"}).json()
        assert body["items"][0]["name"] == "payments-worker-8" and body["complete"] is True
        config.shards[3].rebalancing = True
        body = http.get("/service-accounts/search", params={"q": "worker", "limit": 100}).json()
    reason = next(r for r in body["incomplete_reasons"] if r["code"] == "SHARD_REBALANCING")
    assert reason["shard"] == "shard-3"


def test_get_names_the_fields_it_leaves_out(service):
    with httpx.Client(base_url=service.base_url, headers=AUDITOR) as http:
        body = http.get("/service-accounts/svc-0007", params={"fields": "id,name"}).json()
    assert "owner" not in body and body["omitted_fields"]["owner"] == "NOT_REQUESTED"
    assert body["id"] == "svc-0007" and body["status"] == "active"


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status", "code"),
    [
        ("get", "/service-accounts", {"params": {"limit": 0}}, 400, "INVALID_REQUEST"),
        ("get", "/service-accounts", {"params": {"limit": 201}}, 400, "INVALID_REQUEST"),
        ("get", "/service-accounts", {"params": {"status": "gone"}}, 400, "INVALID_REQUEST"),
        ("get", "/service-accounts", {"params": {"cursor": "v1.e30.AAAA"}}, 400, "CURSOR_INVALID"),
        ("get", "/service-accounts", {"params": {"cursor": "%%%"}}, 400, "CURSOR_INVALID"),
        ("get", "/service-accounts/search", {"params": {"q": ""}}, 400, "INVALID_REQUEST"),
        ("post", "/service-accounts/archive", {"json": {"ids": []}}, 400, "INVALID_REQUEST"),
        ("post", "/service-accounts/archive", {"json": ["x"]}, 400, "INVALID_REQUEST"),
        (
            "post",
            "/service-accounts/archive",
            {"json": {"ids": ["svc-0007"]}},
            409,
            "EVIDENCE_REJECTED",
        ),
        (
            "post",
            "/service-accounts/archive",
            {"json": {"ids": ["svc-0007"], "evidence": "x.y"}},
            409,
            "EVIDENCE_REJECTED",
        ),
    ],
)
def test_bad_input_is_a_typed_error_never_a_500(service, method, path, kwargs, status, code):
    with httpx.Client(base_url=service.base_url, headers=AUDITOR) as http:
        resp = http.request(method.upper(), path, **kwargs)
    assert resp.status_code == status, resp.text
    assert resp.json()["error"]["code"] == code


def test_unknown_token_is_401(service):
    resp = httpx.get(service.base_url + "/service-accounts", headers={"Authorization": "Bearer x"})
    assert resp.status_code == 401 and resp.json()["error"]["code"] == "UNAUTHENTICATED"


def listing_evidence(base: str, **params) -> tuple[set[str], str]:
    pages = walk(base, limit=200, **params)
    last = pages[-1].json()
    assert last["complete"] is True
    return {i["id"] for r in pages for i in r.json()["items"]}, last["evidence"]


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_no_request_ever_archives_an_account_outside_the_evidence(service, store, data):
    """Random archive requests (right, wrong, stale, forged evidence; ids in and out of it)."""
    base = service.base_url
    with httpx.Client(base_url=base, headers=AUDITOR) as http:
        before = statuses(store)
        owner = data.draw(st.sampled_from(["ana", "bo", "chen"]))
        listed, evidence = listing_evidence(base, owner=owner)
        pool = sorted(listed) + ["svc-0001", "svc-0002", "svc-0150", "svc-9999"]
        ids = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=6))
        token = data.draw(st.sampled_from([evidence, evidence[:-3] + "AAA", "", "v1.e30.e30"]))
        if data.draw(st.booleans()):
            store.update(data.draw(st.sampled_from(sorted(listed))), description="touched")
        resp = http.post("/service-accounts/archive", json={"ids": ids, "evidence": token})
    after = statuses(store)
    changed = {i for i in after if after[i] != before.get(i)}
    if resp.status_code == 200:
        assert set(ids) <= listed and changed == set(ids)
        assert all(after[i] == "archived" for i in ids)
    else:
        assert resp.status_code in (400, 409) and changed == set()
    assert changed <= listed


def statuses(store: Store) -> dict[str, str]:
    """id -> current status, read straight from every shard file."""
    out: dict[str, str] = {}
    for name in store.shard_names:
        with closing(sqlite3.connect(store.shard_path(name))) as db:
            sql = "SELECT id, status FROM account_versions WHERE valid_to IS NULL"
            out.update(dict(db.execute(sql).fetchall()))
    return out


def client_of(generated, base: str, token: str = "auditor-token"):
    module = importlib.import_module(f"{generated.__name__}.client")
    return module.Client(base, headers={"Authorization": f"Bearer {token}"})


def test_generated_client_sees_a_shard_killed_mid_walk(service, store, generated):
    victim = "shard-1"
    with client_of(generated, service.base_url) as client:
        stream = client.list_service_accounts.iter_pages(limit=20)
        pages = []
        for page in stream:
            pages.append(page)
            if len(pages) == 1:
                store.shard_path(victim).rename(store.shard_path(victim).with_suffix(".dead"))
        result = stream.result
    assert not result.complete and result.evidence is None
    source = [r for r in result.reasons if r.code == "SOURCE_UNAVAILABLE"]
    assert source and {r.details["source"] for r in source} == {victim}


def test_generated_client_reports_a_credential_change_as_a_restart(service, config, generated):
    with client_of(generated, service.base_url, "infra-token") as client:
        stream = client.list_service_accounts.iter_pages(limit=20)
        for n, _ in enumerate(stream):
            if n == 0:
                config.tokens["infra-token"] = Principal("infra-bot", frozenset({"infra"}))
        result = stream.result
    assert not result.complete
    codes = [r.code for r in result.reasons]
    assert codes == ["VISIBILITY_RESTRICTED", "CURSOR_EXPIRED"]  # a team token never sees all
    assert result.continuation.kind == "restart"


def test_generated_client_complete_walk_then_archive_with_its_evidence(service, generated, store):
    with client_of(generated, service.base_url) as client:
        result = client.list_service_accounts.collect(status="active", limit=100)
        assert result.complete and result.evidence
        orphans = [i.id for i in result.items if i.owner is None]
        done = client.archive_service_accounts(ids=orphans, evidence=result.evidence)
    assert sorted(done.archived) == sorted(orphans)
    assert all(store.get(i).status == "archived" for i in orphans)


def test_admin_hook_breaks_a_shard_and_moves_a_credential(service):
    with httpx.Client(base_url=service.base_url) as http:
        denied = http.post("/_admin/shards/shard-0", json={"down": True}, headers=AUDITOR)
        assert denied.status_code == 403
        admin = {"Authorization": "Bearer admin-secret"}
        assert http.post("/_admin/shards/shard-0", json={"down": True}, headers=admin).json()[
            "down"
        ]
        body = http.get("/service-accounts", headers=AUDITOR).json()
        assert [r["source"] for r in body["incomplete_reasons"] if "source" in r] == ["shard-0"]
        moved = http.post(
            "/_admin/tokens/new-token", json={"name": "n", "teams": ["data"]}, headers=admin
        )
        assert moved.json()["teams"] == ["data"]
        page = http.get("/service-accounts", headers={"Authorization": "Bearer new-token"}).json()
        assert page["items"] and "VISIBILITY_RESTRICTED" in codes(page)
