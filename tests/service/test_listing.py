"""The listing and archive rules (cursor state, cap, taint, evidence) without HTTP."""

from __future__ import annotations

import pytest
from service.config import Principal, ServiceConfig
from service.listing import Listings, Page, Rejection, TokenError
from service.scan import Scanner
from service.seed import demo_accounts
from service.store import Query, Store
from support.service_signer import HmacSigner

OP = "listServiceAccounts"
ORPHANS = Query(status="active")  # the listing an agent walks to find accounts without owner
ACTIVE = [a for a in demo_accounts(200) if a.status == "active"]


@pytest.fixture
def listings(config: ServiceConfig, store: Store, scanner: Scanner) -> Listings:
    return Listings(config, store, scanner, HmacSigner())


def auditor(config: ServiceConfig) -> Principal:
    return config.tokens["auditor-token"]


def walk(
    listings: Listings, principal: Principal, query=ORPHANS, *, size=5, budget_ms=None, between=None
) -> list[Page]:
    pages = []
    cursor = None
    for _ in range(200):
        page = listings.page(
            OP, query, principal, limit=size, budget_ms=budget_ms, cursor=cursor, mint_evidence=True
        )
        pages.append(page)
        cursor = page.next_cursor
        if cursor is None:
            return pages
        if between:
            between(len(pages))
    raise AssertionError("no end")


def codes(page: Page) -> list[str]:
    return [r["code"] for r in page.reasons]


def test_complete_walk_mints_evidence_on_the_last_page_only(listings, config):
    pages = walk(listings, auditor(config))
    assert [codes(p) for p in pages[:-1]] == [["MORE_PAGES_AVAILABLE"]] * (len(pages) - 1)
    assert pages[-1].complete and pages[-1].evidence and pages[-1].next_cursor is None
    assert not any(p.evidence for p in pages[:-1])
    assert [a.id for p in pages for a in p.items] == [a.id for a in ACTIVE]
    assert len({p.snapshot for p in pages}) == 1


def test_slow_shard_taints_the_walk_and_no_evidence(listings, config):
    config.shards[1].latency_ms = 300
    pages = walk(listings, auditor(config), budget_ms=50)
    assert all("TIME_BUDGET_EXCEEDED" in codes(p) for p in pages)
    assert pages[-1].evidence is None
    reason = next(r for r in pages[0].reasons if r["code"] == "TIME_BUDGET_EXCEEDED")
    assert reason["budget_ms"] == 50 and "shard-1" in reason["message"]
    config.shards[1].latency_ms = 0
    # one bad page early taints the whole walk even if the last page is fine
    config.shards[1].down = True
    pages = walk(
        listings, auditor(config), between=lambda n: setattr(config.shards[1], "down", False)
    )
    assert codes(pages[0])[0] == "SOURCE_UNAVAILABLE" and pages[0].reasons[0]["source"] == "shard-1"
    assert pages[-1].complete and pages[-1].evidence is None


def test_result_cap_stops_with_a_reason_and_no_cursor(listings, config):
    config.result_limit = 12
    pages = walk(listings, auditor(config))
    assert [a.id for p in pages for a in p.items] == [a.id for a in ACTIVE[:12]]
    last = pages[-1]
    assert codes(last) == ["RESULT_LIMIT_REACHED"] and last.reasons[0]["limit"] == 12
    assert last.next_cursor is None and last.evidence is None


def test_team_credential_sees_visibility_restricted_never_names(listings, config):
    pages = walk(listings, config.tokens["payments-token"])
    assert all("VISIBILITY_RESTRICTED" in codes(p) for p in pages)
    assert all(a.team == "payments" for p in pages for a in p.items)
    text = repr([p.reasons for p in pages])
    assert "svc-" not in text and "infra" not in text


def test_grants_change_mid_walk_is_an_explicit_reason(listings, config):
    principal = config.tokens["infra-token"]
    first = listings.page(
        OP, ORPHANS, principal, limit=3, budget_ms=None, cursor=None, mint_evidence=True
    )
    narrowed = Principal(principal.name, frozenset({"infra"}))
    for other in (narrowed, auditor(config)):
        with pytest.raises(TokenError) as err:
            listings.page(
                OP,
                ORPHANS,
                other,
                limit=3,
                budget_ms=None,
                cursor=first.next_cursor,
                mint_evidence=True,
            )
        assert (err.value.code, err.value.reason) == ("CURSOR_EXPIRED", "authorization_changed")


def test_live_cursor_reads_the_newest_version_frozen_does_not(listings, config, store):
    kwargs = dict(limit=3, budget_ms=None, mint_evidence=False)
    frozen = listings.page(OP, ORPHANS, auditor(config), cursor=None, **kwargs)
    live = listings.page(
        "searchServiceAccounts",
        Query(text="worker"),
        auditor(config),
        cursor=None,
        frozen=False,
        **kwargs,
    )
    store.update("svc-0200", name="zzz")
    nxt_frozen = listings.page(OP, ORPHANS, auditor(config), cursor=frozen.next_cursor, **kwargs)
    nxt_live = listings.page(
        "searchServiceAccounts",
        Query(text="worker"),
        auditor(config),
        cursor=live.next_cursor,
        frozen=False,
        **kwargs,
    )
    assert nxt_frozen.snapshot == frozen.snapshot
    assert nxt_live.snapshot == live.snapshot + 1


def test_cursor_for_another_filter_or_forged_is_invalid(listings, config):
    first = listings.page(
        OP, ORPHANS, auditor(config), limit=3, budget_ms=None, cursor=None, mint_evidence=True
    )
    with pytest.raises(TokenError) as err:
        listings.page(
            OP,
            Query(),
            auditor(config),
            limit=3,
            budget_ms=None,
            cursor=first.next_cursor,
            mint_evidence=True,
        )
    assert err.value.code == "CURSOR_INVALID"
    with pytest.raises(TokenError):
        listings.page(
            OP,
            ORPHANS,
            auditor(config),
            limit=3,
            budget_ms=None,
            cursor=first.next_cursor[:-2] + "00",
            mint_evidence=True,
        )


def evidence_for(listings, config, query=ORPHANS):
    """Walk the listing; return the ids without owner it found and the evidence token."""
    pages = walk(listings, auditor(config), query, size=50)
    return [a.id for p in pages for a in p.items if a.owner is None], pages[-1].evidence


def test_archive_with_evidence_archives_exactly_the_targets(listings, config, store):
    ids, evidence = evidence_for(listings, config)
    version = listings.archive(ids[:3], evidence, auditor(config), operation=OP)
    assert [store.get(i).status for i in ids[:4]] == ["archived"] * 3 + ["active"]
    assert len(ids) > 5
    assert store.get(ids[0]).version == version


@pytest.mark.parametrize(
    ("mutate", "reason"),
    [
        (lambda ev, ids, p: ("x" + ev, ids, p), "invalid"),
        (lambda ev, ids, p: (ev, ids + ["svc-0001"], p), "target_outside_evidence"),
        (
            lambda ev, ids, p: (ev, ids, Principal("auditor", frozenset({"infra"}))),
            "principal_changed",
        ),
        (lambda ev, ids, p: (ev, [], p), "no_targets"),
    ],
)
def test_archive_rejections_write_nothing(listings, config, store, mutate, reason):
    ids, evidence = evidence_for(listings, config)
    before = store.current_version()
    ev, targets, principal = mutate(evidence, ids[:2], auditor(config))
    with pytest.raises(Rejection) as err:
        listings.archive(targets, ev, principal, operation=OP)
    assert err.value.reason == reason
    assert store.current_version() == before


def test_archive_refuses_a_target_changed_after_the_snapshot(listings, config, store):
    ids, evidence = evidence_for(listings, config)
    store.update(ids[1], owner="someone@example.com")
    before = store.current_version()
    with pytest.raises(Rejection) as err:
        listings.archive(ids[:3], evidence, auditor(config), operation=OP)
    assert err.value.reason == "target_changed" and err.value.ids == [ids[1]]
    assert store.current_version() == before and store.get(ids[0]).status == "active"


def test_expired_evidence_is_rejected(listings, config):
    ids, evidence = evidence_for(listings, config)
    listings.signer.now = lambda: 10**12
    with pytest.raises(Rejection) as err:
        listings.archive(ids[:1], evidence, auditor(config), operation=OP)
    assert err.value.reason == "expired"


def test_evidence_of_one_listing_does_not_stand_in_for_another(listings, config):
    ids, evidence = evidence_for(listings, config)
    with pytest.raises(Rejection) as err:
        listings.archive(ids[:1], evidence, auditor(config), operation="searchServiceAccounts")
    assert err.value.reason == "wrong_operation"
