"""The generated client of a DigitalOcean-shaped listing, over real uvicorn (issue 10 items 2, 3).

``droplets_list`` pages by number (``page``, ``per_page``) and declares the total at
``meta.total``. Before the fix, ``collect(max_pages=1)`` then ``collect(continuation=...)``
requested page 4, 5, 6 ... forever: the resumed walk counted only the items read since the resume.
The fake counts every request it answers and refuses to serve more than a few hundred, so a walk
that does not end fails the test instead of hanging it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from support.fault_server import serve

SPEC = Path(__file__).parent / "specs" / "digitalocean_droplets.yaml"
PACKAGE = "client_area_droplets"
TOTAL = 45
BROKEN = {7, 31}  # droplets without the required `status` (real specs drift)


def droplet(k: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": 1000 + k,
        "name": f"web-{k:02d}",
        "status": "active",
        "memory": 1024,
        "tags": ["env:prod"] if k % 2 else [],
    }
    if k in BROKEN:
        del out["status"]
    return out


class Fake:
    def __init__(self) -> None:
        self.droplets = [droplet(k) for k in range(TOTAL)]
        self.pages: list[int] = []

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.get("/v2/droplets")
        def droplets(request: Request, page: int = 1, per_page: int = 20) -> JSONResponse:
            self.pages.append(page)
            if len(self.pages) > 200:
                return JSONResponse({"id": "too_many_requests"}, status_code=429)
            tag = request.query_params.get("tag_name")
            rows = [d for d in self.droplets if tag is None or tag in d["tags"]]
            chunk = rows[(page - 1) * per_page : page * per_page]
            links: dict[str, Any] = {"pages": {}}
            if page * per_page < len(rows):
                links["pages"]["next"] = f"/v2/droplets?page={page + 1}&per_page={per_page}"
            return JSONResponse({"droplets": chunk, "links": links, "meta": {"total": len(rows)}})

        return app


@pytest.fixture(scope="module")
def pkg(tmp_path_factory):
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    out = tmp_path_factory.mktemp("droplets_gen")
    write_tree(out, generate(SPEC, [], PACKAGE).files)
    sys.path.insert(0, str(out))
    importlib.invalidate_caches()
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))


@pytest.fixture
def served(pkg) -> Iterator[tuple[Any, Fake]]:
    fake = Fake()
    with serve(fake.app()) as base, pkg.Client(base) as client:
        yield client, fake


def test_resume_after_one_page_reads_the_rest_and_ends(served):
    client, fake = served
    first = client.droplets_list.collect(max_pages=1, per_page=20)
    assert first.codes == ["CLIENT_PAGE_LIMIT"] and len(first.items) == 20
    rest = client.droplets_list.collect(continuation=first.continuation, per_page=20)
    assert rest.complete is True and rest.reasons == ()
    assert fake.pages == [1, 2, 3]  # nothing past the last page
    ids = [d["id"] if isinstance(d, dict) else d.id for d in [*first.items, *rest.items]]
    assert ids == [1000 + k for k in range(TOTAL)]


def test_a_chain_of_resumes_equals_one_walk(served):
    client, fake = served
    whole = client.droplets_list.collect(per_page=7)
    fake.pages.clear()
    items, result = [], client.droplets_list.collect(max_items=10, per_page=7)
    items += result.items
    while not result.complete:
        assert result.continuation.kind == "next_cursor"
        result = client.droplets_list.collect(
            max_pages=2, continuation=result.continuation.cursor, per_page=7
        )
        items += result.items
    assert len(items) == TOTAL == len(whole.items)
    assert fake.pages == [1, 2, 3, 4, 5, 6, 7]
    assert result.complete is whole.complete is True


def test_the_mcp_style_string_continuation_also_ends(served):
    """The tool layer hands the model ``continuation.cursor`` (a string); it resumes the same."""
    client, fake = served
    first = client.droplets_list.collect(max_pages=2, per_page=10)
    cursor = first.continuation.cursor
    assert isinstance(cursor, str) and cursor.startswith("xc1.")
    rest = client.droplets_list.collect(continuation=cursor, per_page=10)
    assert rest.complete is True and len(first.items) + len(rest.items) == TOTAL
    assert fake.pages == [1, 2, 3, 4, 5]


# -- item 2: items that do not match their schema are data, not a contract violation ---------


def _mismatches(result) -> list:
    return [w for w in result.warnings if w.code == "ITEM_SCHEMA_MISMATCH"]


def test_items_missing_a_required_field_are_kept_and_warned_about(served, pkg):
    client, _ = served
    result = client.droplets_list.collect(per_page=20)
    assert result.complete is True and result.reasons == ()  # warnings never change complete
    assert len(result.items) == TOTAL
    droplet_model = pkg.models.Droplet
    kept = [k for k, item in enumerate(result.items) if not isinstance(item, droplet_model)]
    assert kept == sorted(BROKEN)
    assert all(result.items[k] == droplet(k) for k in BROKEN)  # as received, nothing dropped
    warnings = _mismatches(result)
    assert [w.index for w in warnings] == sorted(BROKEN)
    assert warnings[0].errors == [{"loc": "/status", "type": "missing", "msg": "Field required"}]
    assert "item 7 does not match its declared schema" in warnings[0].message
    assert len(warnings[0].message) <= 500


def test_strict_items_keeps_the_contract_violation(served, pkg):
    client, _ = served
    result = client.droplets_list.collect(per_page=20, strict_items=True)
    assert result.complete is False and result.codes == ["CONTRACT_VIOLATION"]
    what = result.reason("CONTRACT_VIOLATION").what
    assert what.startswith("strict_items: item 7 does not match") and "/status" in what
    assert result.items == []  # the walk stopped on the first page holding a bad item


def test_a_strict_client_is_the_default_of_its_calls_and_a_call_can_override_it(pkg):
    fake = Fake()
    with serve(fake.app()) as base, pkg.Client(base, strict_items=True) as client:
        assert client.droplets_list.collect(per_page=50).codes == ["CONTRACT_VIOLATION"]
        lenient = client.droplets_list.collect(per_page=50, strict_items=False)
        assert lenient.complete is True and len(_mismatches(lenient)) == len(BROKEN)


def test_one_typed_page_carries_the_warning_too(served, pkg):
    client, _ = served
    page = client.droplets_list.page(per_page=10)
    assert [w.code for w in page.warnings] == ["ITEM_SCHEMA_MISMATCH"]
    assert page.warnings[0].index == 7
    assert isinstance(page.items[0], pkg.models.Droplet) and isinstance(page.items[7], dict)
    assert page.model_dump(mode="json", warnings=False)["items"][7] == droplet(7)


def test_the_stream_reports_the_warning_at_its_end(served):
    client, _ = served
    stream = client.droplets_list.iter_items(per_page=20)
    items = list(stream)
    assert len(items) == TOTAL
    assert [w.index for w in _mismatches(stream.result)] == sorted(BROKEN)


def test_the_async_client_resumes_and_warns_the_same(pkg):
    import asyncio

    fake = Fake()

    async def run(base: str):
        async with pkg.AsyncClient(base) as client:
            first = await client.droplets_list.collect(max_pages=1, per_page=20)
            rest = await client.droplets_list.collect(continuation=first.continuation, per_page=20)
            return first, rest

    with serve(fake.app()) as base:
        first, rest = asyncio.run(run(base))
    assert rest.complete is True and fake.pages == [1, 2, 3]
    assert len(first.items) + len(rest.items) == TOTAL
    assert [w.index for w in [*first.warnings, *rest.warnings]] == [7, 11]  # 31 is rest's 11th


def test_through_the_mcp_server_a_page_continuation_resumes_to_the_end(pkg):
    """The model gets continuation.cursor (a client continuation) and hands it back: the MCP
    listing tool ends at the total; a hand-edited continuation is INVALID_ARGUMENTS, not a walk."""
    import anyio
    from mcp import Client as McpClient

    server_mod = importlib.import_module(f"{PACKAGE}.tools.mcp_server")
    fake = Fake()
    args = {"tag_name": None, "deadline_s": None}  # page and per_page are the walk's own

    async def agent(server):
        async with McpClient(server) as mcp:
            first = await mcp.call_tool(
                "droplets_list", {**args, "max_pages": 1, "continuation": None}
            )
            cursor = first.structured_content["completeness"]["continuation"]["cursor"]
            rest = await mcp.call_tool(
                "droplets_list", {**args, "max_pages": None, "continuation": cursor}
            )
            forged = cursor[:-3] + ("abc" if not cursor.endswith("abc") else "abd")
            bad = await mcp.call_tool(
                "droplets_list", {**args, "max_pages": None, "continuation": forged}
            )
            return first.structured_content, rest.structured_content, bad.structured_content

    with serve(fake.app()) as base:
        server = server_mod.build_server(server_mod.build_host(base, {}, secret=b"k" * 32))
        first, rest, bad = anyio.run(agent, server)
    assert first["status"] == "partial" and rest["status"] == "complete"
    assert len(first["data"]["droplets"]) + len(rest["data"]["droplets"]) == TOTAL
    assert fake.pages == [1, 2, 3]
    assert [w["details"]["index"] for w in first["warnings"]] == [7]
    assert bad["status"] == "error" and bad["error"]["code"] == "INVALID_ARGUMENTS"
    assert "damaged" in bad["error"]["message"]
