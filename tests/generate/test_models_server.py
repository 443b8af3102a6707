"""The generated models and server helpers of examples/service_accounts, used as a service would.

Invalid envelopes must be impossible to build or parse (invariants 1-5, typed details, declared
codes only); tokens must bind operation, query, principal and expiry; evidence only from a
complete result and verified at mutation time.
"""

from __future__ import annotations

import importlib

import pytest
from pydantic import ValidationError

ITEM = {"id": "svc-1", "name": "one", "status": "active"}
SECRET = b"0123456789abcdef-test-secret"


@pytest.fixture(scope="module")
def models(svc):
    return importlib.import_module("gen_svc.models")


@pytest.fixture(scope="module")
def server(svc):
    return importlib.import_module("gen_svc.server")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_complete_and_partial_builders(models) -> None:
    Page = models.ListServiceAccountsPage
    done = Page.complete_page([ITEM], scope={"resource": "service_accounts"})
    assert done.complete is True and done.incomplete_reasons == [] and done.page.returned == 1
    assert isinstance(done.items[0], models.ServiceAccount)
    part = Page.partial_page(
        [ITEM], next_cursor="c1", reasons=[{"code": "RESULT_LIMIT_REACHED", "limit": 5}]
    )
    assert part.complete is False
    assert [r.code for r in part.incomplete_reasons] == [
        "MORE_PAGES_AVAILABLE",
        "RESULT_LIMIT_REACHED",
    ]
    assert type(part.incomplete_reasons[1]).__name__ == "ResultLimitReached"
    assert part.incomplete_reasons[1].limit == 5
    empty = Page.partial_page([], reasons=["VISIBILITY_RESTRICTED"])
    assert empty.complete is False and empty.items == []


def test_warnings_never_change_complete(models) -> None:
    page = models.ListServiceAccountsPage.complete_page(
        [ITEM], warnings=[{"code": "STALE_INDEX", "source": "idx"}]
    )
    assert page.complete is True and page.warnings[0].source == "idx"


BAD_ENVELOPES = {
    "complete missing": {"items": []},
    "complete as text": {"items": [], "complete": "true"},
    "complete with a reason": {
        "items": [],
        "complete": True,
        "incomplete_reasons": [{"code": "VISIBILITY_RESTRICTED"}],
    },
    "incomplete without a reason": {"items": [], "complete": False},
    "more pages without cursor": {
        "items": [],
        "complete": False,
        "incomplete_reasons": [{"code": "MORE_PAGES_AVAILABLE"}],
    },
    "cursor without more pages": {
        "items": [],
        "complete": False,
        "incomplete_reasons": [{"code": "VISIBILITY_RESTRICTED"}],
        "next_cursor": "c",
    },
    "undeclared reason": {
        "items": [],
        "complete": False,
        "incomplete_reasons": [{"code": "SHARD_REBALANCING", "shard": "s1"}],
    },
    "undeclared warning": {
        "items": [],
        "complete": True,
        "warnings": [{"code": "PARTIAL_FIELD_SET", "fields": ["x"]}],
    },
    "details missing": {
        "items": [],
        "complete": False,
        "incomplete_reasons": [{"code": "RESULT_LIMIT_REACHED"}],
    },
    "evidence on partial": {
        "items": [],
        "complete": False,
        "incomplete_reasons": [{"code": "VISIBILITY_RESTRICTED"}],
        "evidence": "tok",
    },
    "item not matching its schema": {"items": [{"id": "x"}], "complete": True},
}


@pytest.mark.parametrize("case", sorted(BAD_ENVELOPES))
def test_invalid_envelopes_are_rejected_on_parse(models, case: str) -> None:
    with pytest.raises(ValidationError):
        models.ListServiceAccountsPage.model_validate(BAD_ENVELOPES[case])


def test_declared_codes_differ_per_operation(models) -> None:
    body = {
        "items": [],
        "complete": False,
        "incomplete_reasons": [{"code": "SHARD_REBALANCING", "shard": "s1"}],
    }
    page = models.SearchServiceAccountsPage.model_validate(body)
    assert page.incomplete_reasons[0].shard == "s1"
    assert type(page.incomplete_reasons[0]).__name__ == "ShardRebalancingReason"
    with pytest.raises(ValidationError):
        models.ListServiceAccountsPage.model_validate(body)


def test_resource_result_types_omitted_fields(models) -> None:
    Result = models.RESULT_MODELS["getServiceAccount"]
    ok = Result.model_validate({**ITEM, "omitted_fields": {"owner": "FORBIDDEN"}})
    assert ok.omitted_fields == {"owner": "FORBIDDEN"}
    with pytest.raises(ValidationError):
        Result.model_validate({**ITEM, "omitted_fields": {"owner": "HIDDEN"}})


def test_cursor_round_trip_and_binding(server) -> None:
    clock = Clock()
    svc = server.Service(SECRET, clock=clock)
    tokens = svc.list_service_accounts
    query = {"status": "active", "limit": 10}
    grants = {"authorization": "alice:infra"}  # declared invalidated-by: authorization
    cursor = tokens.mint_cursor(
        {"after": "svc-9"}, query=query, principal="alice", snapshot="s1", invalidators=grants
    )
    claims = tokens.read_cursor(
        cursor, query={"status": "active", "limit": 50}, principal="alice", invalidators=grants
    )
    assert claims.data == {"after": "svc-9"} and claims.snapshot == "s1"
    with pytest.raises(server.CursorInvalidError) as other_user:
        tokens.read_cursor(cursor, query=query, principal="mallory", invalidators=grants)
    assert other_user.value.status == 400
    assert other_user.value.body()["error"]["code"] == "CURSOR_INVALID"
    with pytest.raises(server.CursorInvalidError):
        tokens.read_cursor(
            cursor, query={"status": "disabled"}, principal="alice", invalidators=grants
        )
    with pytest.raises(server.CursorInvalidError):
        svc.search_service_accounts.read_cursor(
            cursor, query=query, principal="alice", invalidators=grants
        )
    with pytest.raises(server.CursorInvalidError):
        tokens.read_cursor(cursor[:-2] + "xx", query=query, principal="alice", invalidators=grants)
    clock.now += 901
    with pytest.raises(server.CursorExpiredError) as expired:
        tokens.read_cursor(cursor, query=query, principal="alice", invalidators=grants)
    assert expired.value.status == 410
    assert expired.value.body() == {
        "error": {"code": "CURSOR_EXPIRED", "message": expired.value.message, "reason": "expired"}
    }


def test_evidence_only_from_complete_results(models, server) -> None:
    svc = server.Service(SECRET)
    partial = models.ListServiceAccountsPage.partial_page([ITEM], next_cursor="c")
    with pytest.raises(ValueError):
        svc.list_service_accounts.mint_evidence(partial, ids=["svc-1"], principal="alice")
    complete = models.ListServiceAccountsPage.complete_page([ITEM])
    with pytest.raises(ValueError):  # search declares no evidence
        svc.search_service_accounts.mint_evidence(complete, ids=["svc-1"], principal="alice")


def test_evidence_verified_at_mutation_time(models, server) -> None:
    clock = Clock()
    svc = server.Service([SECRET, b"an-older-secret-still-valid"], clock=clock)
    page = models.ListServiceAccountsPage.complete_page([ITEM])
    page = svc.list_service_accounts.with_evidence(
        page, ids=["svc-1", "svc-2"], principal="alice", snapshot="s1"
    )
    assert page.evidence and page.complete
    archive = svc.archive_service_accounts
    claims = archive.verify(page.evidence, ids=["svc-2"], principal="alice", snapshot="s1")
    assert set(claims.ids) == {"svc-1", "svc-2"}

    def reason(**kwargs) -> str:
        args = {"ids": ["svc-1"], "principal": "alice", "snapshot": "s1", **kwargs}
        with pytest.raises(server.EvidenceRejectedError) as exc:
            archive.verify(args.pop("token", page.evidence), **args)
        assert exc.value.status == 409
        assert exc.value.body()["error"]["code"] == "EVIDENCE_REJECTED"
        return exc.value.reason

    assert reason(ids=["svc-1", "svc-3"]) == "target_outside_evidence"
    assert reason(principal="mallory") == "principal_mismatch"
    assert reason(snapshot="s2") == "snapshot_mismatch"
    assert reason(token="") == "missing"
    assert reason(token=page.evidence[:-3] + "abc") == "invalid"
    assert reason(warnings_seen=["STALE_INDEX"]) == "voided_by_warning"
    cursor = svc.list_service_accounts.mint_cursor(
        1, principal="alice", snapshot="s1", invalidators={"authorization": "alice:infra"}
    )
    assert reason(token=cursor) == "purpose_mismatch"
    stale = models.ListServiceAccountsPage.complete_page(
        [ITEM], warnings=[{"code": "STALE_INDEX", "source": "idx"}]
    )
    stale = svc.list_service_accounts.with_evidence(stale, ids=["svc-1"], principal="alice")
    assert reason(token=stale.evidence, snapshot=None) == "voided_by_warning"
    clock.now += 601
    assert reason() == "expired"


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory):
    from support.gen import generate_example, import_generated

    out = generate_example(
        "link_header_search", tmp_path_factory.mktemp("repos"), package="gen_repos"
    )
    import_generated(out, "gen_repos")
    return importlib.import_module("gen_repos.models")


def test_adapter_pages_keep_codes_strict_but_details_open(repos) -> None:
    """Adapter mode: native signals rarely carry details (GitHub's incomplete_results has no
    budget), so a declared code without them is kept as an open Reason; typed when they fit."""
    Page = repos.SearchRepositoriesPage
    body = {
        "items": [],
        "complete": False,
        "incomplete_reasons": [{"code": "TIME_BUDGET_EXCEEDED"}],
    }
    page = Page.model_validate(body)
    assert page.incomplete_reasons[0].code == "TIME_BUDGET_EXCEEDED"
    typed = Page.model_validate(
        {**body, "incomplete_reasons": [{"code": "RESULT_LIMIT_REACHED", "limit": 1000}]}
    )
    assert type(typed.incomplete_reasons[0]).__name__ == "ResultLimitReached"
    with pytest.raises(ValidationError):
        Page.model_validate({**body, "incomplete_reasons": [{"code": "SOURCE_UNAVAILABLE"}]})
    with pytest.raises(ValidationError):  # listRepositories declares no TIME_BUDGET_EXCEEDED
        repos.ListRepositoriesPage.model_validate(body)
