"""The generated client (real pipeline) against the fault server: in-process and over uvicorn."""

from __future__ import annotations

import asyncio
import importlib
import inspect
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from support.fault_server import Faults, FaultyCollection, make_app, mock_transport, serve

SPEC = Path(__file__).parent / "specs" / "fault_api.yaml"
PACKAGE = "client_area_fault_api"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory):
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    out = tmp_path_factory.mktemp("client_gen")
    write_tree(out, generate(SPEC, [], PACKAGE).files)
    sys.path.insert(0, str(out))
    importlib.invalidate_caches()
    try:
        yield importlib.import_module(f"{PACKAGE}.client"), out
    finally:
        sys.path.remove(str(out))


def client_for(pkg, coll, **kw):
    client_mod, _ = pkg
    return client_mod.Client("http://fault.test", transport=mock_transport(coll), **kw)


def test_generated_client_is_ruff_clean_and_imports_in_a_fresh_process(pkg):
    _, out = pkg
    lint = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", str(out / PACKAGE / "client.py")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert lint.returncode == 0, lint.stdout
    run = subprocess.run(
        [sys.executable, "-c", f"import {PACKAGE}; print({PACKAGE}.Client.__name__)"],
        cwd=out,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0 and run.stdout.strip() == "Client", run.stderr


def test_one_attribute_per_operation_named_by_snake_case(pkg):
    client_mod, _ = pkg
    with client_for(pkg, FaultyCollection(1)) as client:
        for attr in ("list_items", "search_items", "get_item", "archive_items"):
            assert hasattr(client, attr)
    sig = inspect.signature(client_mod.Client)
    assert list(sig.parameters) == [
        "base_url", "headers", "http_client", "transport", "timeout", "strict_items",
        "max_response_bytes", "params",
    ]  # fmt: skip
    collect = inspect.signature(client.list_items.collect).parameters
    assert {"max_pages", "max_items", "deadline", "cursor", "limit"} <= set(collect)


def test_page_is_the_typed_envelope(pkg):
    client_mod, _ = pkg
    models = importlib.import_module(f"{PACKAGE}.models")
    with client_for(pkg, FaultyCollection(25)) as client:
        page = client.list_items.page(limit=10)
        assert isinstance(page, models.ListItemsPage)
        assert page.complete is False and len(page.items) == 10
        assert isinstance(page.items[0], models.Item)
        nxt = client.list_items.page(limit=10, cursor=page.next_cursor)
        assert nxt.items[0].id == "item-0000010"


def test_collect_typed_items_and_evidence(pkg):
    models = importlib.import_module(f"{PACKAGE}.models")
    coll = FaultyCollection(95)
    with client_for(pkg, coll) as client:
        result = client.list_items.collect(limit=20)
    assert result.complete and result.evidence == "evidence-1"
    assert [i.id for i in result.items] == coll.alive_ids()
    assert all(isinstance(i, models.Item) for i in result.items)


def test_essay_page_limit_then_resume_through_the_generated_client(pkg):
    coll = FaultyCollection(100)
    with client_for(pkg, coll) as client:
        first = client.list_items.collect(max_pages=2, limit=10)
        assert not first.complete and first.codes == ["CLIENT_PAGE_LIMIT"]
        assert first.reasons[0].origin == "client" and first.reasons[0].max_pages == 2
        rest = client.list_items.collect(limit=10, continuation=first.continuation)
    assert rest.complete
    assert [i.id for i in first.items + rest.items] == coll.alive_ids()


def test_adapter_page_is_a_client_computed_envelope(pkg):
    models = importlib.import_module(f"{PACKAGE}.models")
    with client_for(pkg, FaultyCollection(1500, snapshot="none")) as client:
        page = client.search_items.page(per_page=100)
        assert isinstance(page, models.SearchItemsPage)
        assert page.complete is False
        assert {r.code for r in page.incomplete_reasons} == {
            "MORE_PAGES_AVAILABLE",
            "RESULT_LIMIT_REACHED",
        }
        result = client.search_items.collect(per_page=100)
    assert result.codes == ["RESULT_LIMIT_REACHED"] and len(result.items) == 1000
    assert result.continuation.kind == "narrow_query"


def test_streaming_form_exposes_completeness_at_the_end(pkg):
    client_mod, _ = pkg
    coll = FaultyCollection(50)
    with client_for(pkg, coll) as client:
        stream = client.list_items.iter_items(limit=7, max_items=30)
        with pytest.raises(client_mod.ResultNotReady):
            _ = stream.result
        seen = [item.id for item in stream]
    assert seen == coll.alive_ids()[:35]
    assert stream.result.complete is False and stream.result.codes == ["CLIENT_ITEM_LIMIT"]


def test_unknown_parameter_is_refused(pkg):
    with client_for(pkg, FaultyCollection(5)) as client, pytest.raises(TypeError):
        client.list_items.collect(limt=3)


def test_mutation_with_typed_errors(pkg):
    client_mod, _ = pkg
    coll = FaultyCollection(20)
    with client_for(pkg, coll) as client:
        listing = client.list_items.collect(limit=50)
        assert listing.complete
        with pytest.raises(client_mod.EvidenceRejected) as err:
            client.archive_items(ids=["item-0000001"], evidence="forged")
        assert err.value.reason == "EVIDENCE_INVALID" and err.value.status == 409
        with pytest.raises(client_mod.EvidenceRejected) as err:
            client.archive_items(ids=["nope"], evidence=listing.evidence)
        assert err.value.reason == "TARGETS_OUTSIDE_EVIDENCE"
        done = client.archive_items(ids=["item-0000001"], evidence=listing.evidence)
        assert done.archived == ["item-0000001"]
        assert client.get_item(id="item-0000002").rank == 2
        with pytest.raises(client_mod.ApiError) as err:
            client.get_item(id="item-0000001")
        assert err.value.status == 404
    assert coll.archived == ["item-0000001"]


def test_next_link_to_another_origin_is_never_followed(pkg):
    coll = FaultyCollection(30, snapshot="none")
    real = mock_transport(coll)

    def evil(request: httpx.Request) -> httpx.Response:
        response = real.handle_request(request)
        if "link" in response.headers:
            response.headers["link"] = '<http://evil.test/search?page=2>; rel="next"'
        return response

    client_mod, _ = pkg
    with client_mod.Client("http://fault.test", transport=httpx.MockTransport(evil)) as client:
        result = client.search_items.collect(per_page=10)
    assert not result.complete and result.codes == ["CONTRACT_VIOLATION"]
    assert "origin" in result.reasons[0].what and len(result.items) == 10


def test_async_client_mirrors_the_sync_one(pkg):
    client_mod, _ = pkg
    coll = FaultyCollection(60, faults=Faults(shard_down_from=2))
    app = make_app(coll)

    async def main():
        transport = httpx.ASGITransport(app=app)
        async with client_mod.AsyncClient("http://fault.test", transport=transport) as client:
            page = await client.list_items.page(limit=10)
            result = await client.list_items.collect(limit=10)
            stream = client.search_items.iter_items(per_page=25)
            streamed = [i.id async for i in stream]
            return page, result, streamed, stream.result

    page, result, streamed, summary = asyncio.run(main())
    assert len(page.items) == 10
    assert result.codes == ["SOURCE_UNAVAILABLE"] and result.continuation.kind == "retry_after"
    assert summary.codes == ["TIME_BUDGET_EXCEEDED"] and len(streamed) == summary.item_count


def test_real_uvicorn_on_loopback_with_faults(pkg):
    client_mod, _ = pkg

    def churn(c, n):
        if n in (2, 3):
            c.insert(rank=1)
            c.reorder(c.alive_ids()[-1], -5)

    coll = FaultyCollection(80, between=churn, faults=Faults(rate_limit={4: 0}))
    with serve(make_app(coll)) as base, client_mod.Client(base) as client:
        result = client.list_items.collect(limit=9, deadline=30)
        expired = FaultyCollection(80, faults=Faults(expire_from=3))
    assert result.complete and [i.id for i in result.items] == coll.alive_ids(1)
    with serve(make_app(expired)) as base, client_mod.Client(base) as client:
        partial = client.list_items.collect(limit=10)
    assert partial.codes == ["CURSOR_EXPIRED"] and partial.continuation.kind == "restart"
    assert len(partial.items) == 20


FAULT_CASES = {
    "shard fails after another returned data": (
        Faults(shard_down_from=2),
        lambda r: r.codes == ["SOURCE_UNAVAILABLE"] and r.reasons[0].source == "shard-1",
    ),
    "permission revoked mid-scan": (
        Faults(revoke_from=3),
        lambda r: r.codes == ["VISIBILITY_RESTRICTED"],
    ),
    "pages cut by byte size": (
        Faults(max_bytes=150),
        lambda r: r.complete and len(r.items) == 40 and r.pages > 4,
    ),
    "empty first page with more pages": (
        Faults(empty_first_page=True),
        lambda r: r.complete and len(r.items) == 40,
    ),
    "rate limited past the deadline": (
        Faults(rate_limit={2: 120}),
        lambda r: r.codes == ["RATE_LIMITED"] and r.continuation.seconds == 120,
    ),
    "undeclared code": (
        Faults(undeclared_code_at=2),
        lambda r: r.codes == ["CONTRACT_VIOLATION"] and "SHARD_REBALANCING" in r.reasons[0].what,
    ),
}


def test_fault_matrix_over_real_uvicorn(pkg):
    """One loopback server, each fault in turn, through the generated client."""
    client_mod, _ = pkg
    coll = FaultyCollection(40)
    failures = []
    with serve(make_app(coll)) as base, client_mod.Client(base) as client:
        for case, (faults, expect) in FAULT_CASES.items():
            coll.faults, coll.requests = faults, 0
            result = client.list_items.collect(limit=10, deadline=20)
            if not expect(result):
                failures.append((case, result.codes, len(result.items)))
            if not result.complete:
                assert result.continuation is not None and result.reasons
    assert failures == []


def test_async_client_over_real_uvicorn(pkg):
    client_mod, _ = pkg
    coll = FaultyCollection(70, faults=Faults(revoke_from=2, rate_limit={3: 0}))

    async def main():
        async with client_mod.AsyncClient(base) as client:
            result = await client.list_items.collect(limit=10, max_pages=5)
            more = await client.list_items.collect(limit=10, continuation=result.continuation)
            return result, more

    with serve(make_app(coll)) as base:
        result, more = asyncio.run(main())
    assert result.codes == ["VISIBILITY_RESTRICTED", "CLIENT_PAGE_LIMIT"]
    assert result.continuation.kind == "next_cursor" and result.pages == 5
    assert more.codes == ["VISIBILITY_RESTRICTED"] and more.continuation.kind == "none"
