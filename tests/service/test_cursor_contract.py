"""What the cursor contract declares, the runtime enforces (issue 10 item 9).

``cursor.invalidated-by`` and ``cursor.snapshot`` are read by the generated ``ListingTokens``
(runtime/service.py on runtime/tokens.py): the example service's cursors bind the declared
invalidators, and a request that changes one gets the declared error instead of silently going
on. Over real uvicorn with the example service, plus the helper on its own for the invalidators
the example does not declare (page size, ``x-`` ones).
"""

from __future__ import annotations

import dataclasses
import importlib

import httpx
import pytest
from service.config import ServiceConfig

AUDITOR = {"Authorization": "Bearer auditor-token"}
SECRET = b"s" * 32


def first_cursor(base: str, path: str = "/service-accounts", **params) -> str:
    with httpx.Client(base_url=base, headers=AUDITOR, timeout=30) as http:
        body = http.get(path, params={"limit": 5, **params}).json()
    assert body["next_cursor"], body
    return body["next_cursor"]


def get(base: str, path: str = "/service-accounts", **params) -> httpx.Response:
    with httpx.Client(base_url=base, headers=AUDITOR, timeout=30) as http:
        return http.get(path, params=params)


def test_a_changed_filter_is_cursor_invalid_over_http(service):
    cursor = first_cursor(service.base_url, status="active")
    same = get(service.base_url, status="active", limit=5, cursor=cursor)
    assert same.status_code == 200
    changed = get(service.base_url, status="disabled", limit=5, cursor=cursor)
    assert changed.status_code == 400
    error = changed.json()["error"]
    assert (error["code"], error["reason"]) == ("CURSOR_INVALID", "query_mismatch")
    assert "invalidated-by" in error["message"]


def test_the_page_size_is_not_an_invalidator_of_the_list_so_it_may_change(service):
    """listServiceAccounts declares invalidated-by [filter, ordering, authorization]."""
    cursor = first_cursor(service.base_url, status="active")
    resp = get(service.base_url, status="active", limit=7, cursor=cursor)
    assert resp.status_code == 200 and len(resp.json()["items"]) == 7


def test_a_live_search_cursor_binds_its_filter_too(service):
    cursor = first_cursor(service.base_url, "/service-accounts/search", q="worker")
    changed = get(service.base_url, "/service-accounts/search", q="billing", limit=5, cursor=cursor)
    assert changed.status_code == 400 and changed.json()["error"]["reason"] == "query_mismatch"


def test_the_declared_ordering_is_bound_into_the_running_services_cursor(
    service, generated, config: ServiceConfig
):
    """A cursor issued under one declared ordering is refused by a helper declaring another
    (a redeploy that changed the ordering): the cursor really carries the binding."""
    cursor = first_cursor(service.base_url, status="active")
    server = importlib.import_module(f"{generated.__name__}.server")
    helper = server.Service(config.secret).list_service_accounts
    assert helper.invalidated_by == ("filter", "ordering", "authorization")
    assert helper.ordering == "id ascending" and helper.frozen
    principal = config.tokens["auditor-token"]
    kw = {
        "query": {"status": "active"},
        "principal": principal.name,
        "invalidators": {"authorization": principal.grants_digest()},
    }
    assert helper.read_cursor(cursor, **kw).snapshot  # the same declaration reads it
    reordered = dataclasses.replace(helper, ordering="name ascending")
    with pytest.raises(server.CursorInvalidError) as err:
        reordered.read_cursor(cursor, **kw)
    assert err.value.status == 400 and err.value.reason == "ordering_mismatch"


def test_the_generated_client_reports_the_refused_resume(service, generated):
    """A native walk resumed with another filter: the service refuses, the walk says restart."""
    client_mod = importlib.import_module(f"{generated.__name__}.client")
    with client_mod.Client(service.base_url, headers=AUDITOR) as client:
        first = client.list_service_accounts.collect(max_pages=1, limit=5, status="active")
        rest = client.list_service_accounts.collect(
            continuation=first.continuation, limit=5, status="disabled"
        )
    assert first.codes == ["CLIENT_PAGE_LIMIT"]
    assert rest.complete is False and rest.codes == ["CURSOR_EXPIRED"]
    assert rest.continuation.kind == "restart" and rest.items == []


# -- the helper on its own -----------------------------------------------------------------------


def tokens(**kw):
    from xcompleteness.runtime.service import ListingTokens
    from xcompleteness.runtime.tokens import TokenSigner

    base = {
        "operation": "listThings",
        "paging_params": ("cursor", "per_page"),
        "size_param": "per_page",
    }
    return ListingTokens(TokenSigner(SECRET), **{**base, **kw})


def test_a_declared_page_size_binds_the_size_parameter():
    from xcompleteness.runtime.service import CursorInvalidError

    t = tokens(invalidated_by=("filter", "page-size"))
    cursor = t.mint_cursor({"after": 5}, query={"tag": "a", "per_page": 10})
    assert t.read_cursor(cursor, query={"tag": "a", "per_page": 10}).data == {"after": 5}
    with pytest.raises(CursorInvalidError) as err:
        t.read_cursor(cursor, query={"tag": "a", "per_page": 20})
    assert err.value.reason == "page_size_mismatch" and "page size changed" in err.value.message
    undeclared = tokens(invalidated_by=("filter",))
    cursor = undeclared.mint_cursor({"after": 5}, query={"tag": "a", "per_page": 10})
    assert undeclared.read_cursor(cursor, query={"tag": "a", "per_page": 20}).data


def test_filters_are_bound_only_when_declared_or_when_nothing_was_declared():
    from xcompleteness.runtime.service import CursorInvalidError

    legacy = tokens()  # no declaration read: filters bound, as before
    cursor = legacy.mint_cursor(1, query={"tag": "a"})
    with pytest.raises(CursorInvalidError):
        legacy.read_cursor(cursor, query={"tag": "b"})
    loose = tokens(invalidated_by=("ordering",), ordering="id ascending")
    cursor = loose.mint_cursor(1, query={"tag": "a"})
    assert loose.read_cursor(cursor, query={"tag": "b"}).data == 1


def test_authorization_and_x_invalidators_need_their_values():
    from xcompleteness.runtime.service import CursorExpiredError, CursorInvalidError

    t = tokens(invalidated_by=("authorization", "x-tenant"))
    with pytest.raises(ValueError, match="authorization"):
        t.mint_cursor(1, invalidators={"x-tenant": "t1"})
    with pytest.raises(ValueError, match="x-tenant"):
        t.mint_cursor(1, invalidators={"authorization": "g1"})
    both = {"authorization": "g1", "x-tenant": "t1"}
    cursor = t.mint_cursor(1, invalidators=both)
    assert t.read_cursor(cursor, invalidators=both).data == 1
    with pytest.raises(CursorExpiredError) as expired:
        t.read_cursor(cursor, invalidators={**both, "authorization": "g2"})
    assert expired.value.status == 410 and expired.value.reason == "authorization_changed"
    with pytest.raises(CursorInvalidError) as invalid:
        t.read_cursor(cursor, invalidators={**both, "x-tenant": "t2"})
    assert invalid.value.reason == "x_tenant_mismatch"


def test_frozen_cursors_carry_their_snapshot_live_ones_need_not():
    from xcompleteness.runtime.service import CursorInvalidError
    from xcompleteness.runtime.tokens import TokenSigner

    frozen = tokens(snapshot_kind="frozen")
    with pytest.raises(ValueError, match="frozen"):
        frozen.mint_cursor(1)
    assert frozen.read_cursor(frozen.mint_cursor(1, snapshot="v3")).snapshot == "v3"
    live = tokens(snapshot_kind="live")
    unpinned = live.mint_cursor(1)
    assert live.read_cursor(unpinned).snapshot is None
    # a snapshot-less cursor (same key, a live declaration) is refused by a frozen one
    with pytest.raises(CursorInvalidError):
        dataclasses.replace(frozen, signer=TokenSigner(SECRET)).read_cursor(unpinned)


def test_bound_values_are_digests_not_plain_text():
    import base64
    import json

    t = tokens(invalidated_by=("authorization",))
    cursor = t.mint_cursor(1, invalidators={"authorization": "team-secret-grants"})
    payload = cursor.split(".")[1]
    text = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode()
    assert "team-secret-grants" not in text and set(json.loads(text)["b"]) == {"authorization"}
