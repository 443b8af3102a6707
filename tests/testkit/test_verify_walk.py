"""verify walks through the walk core a generated client runs, so it reads pages the same way.

A real uvicorn server on loopback serves an adapter listing whose next page URL is relative (the
way many APIs write ``next``): verify follows it like the client does instead of stopping after
one page and calling it "ok". Its JSON output carries one summary per operation, and XC712 says
what it saw when two complete walks disagree on the items without one being shorter.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from xcompleteness.cli import main

SPEC = """
openapi: 3.0.3
info: {title: Relative, version: "1"}
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - {name: limit, in: query, schema: {type: integer}}
        - {name: page, in: query, schema: {type: integer}}
      x-completeness:
        kind: collection
        mode: adapter
        scope: {resource: things, snapshot: none}
        items: $response.body#/items
        id: /id
        pagination:
          style: next-url
          request: {size: limit}
          response: {next: $response.body#/next}
        reasons: [MORE_PAGES_AVAILABLE]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  items:
                    type: array
                    items: {type: object, properties: {id: {type: string}}}
                  next: {type: string, nullable: true}
"""


def _serve(pages: Callable[[int, int], tuple[list[str], bool]]) -> Iterator[str]:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def things(request):
        limit = int(request.query_params.get("limit", "100"))
        page = int(request.query_params.get("page", "1"))
        ids, more = pages(limit, page)
        nxt = f"/things?limit={limit}&page={page + 1}" if more else None  # relative
        return JSONResponse({"items": [{"id": i} for i in ids], "next": nxt})

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    server = uvicorn.Server(uvicorn.Config(Starlette(routes=[Route("/things", things)])))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def _verify(tmp_path: Path, url: str, capsys) -> tuple[int, dict[str, Any]]:
    spec = tmp_path / "relative.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    code = main(["verify", str(spec), "--base-url", url, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


ITEMS = ["a", "b", "c", "d", "e"]


@pytest.fixture
def paged() -> Iterator[str]:
    def pages(limit: int, page: int) -> tuple[list[str], bool]:
        start = (page - 1) * limit
        return ITEMS[start : start + limit], start + limit < len(ITEMS)

    yield from _serve(pages)


def test_a_relative_next_url_is_followed_like_the_client(paged, tmp_path, capsys) -> None:
    code, out = _verify(tmp_path, paged, capsys)
    assert code == 0 and out["diagnostics"] == []
    (record,) = out["operations"]
    assert record["operation_id"] == "listThings" and record["state"] == "ok"
    small, large = record["walks"]
    # page size 2 walks 3 pages to all 5 items; page size 100 reads them in one
    assert (small["page_size"], small["pages"], small["items"]) == (2, 3, 5)
    assert (large["page_size"], large["pages"], large["items"]) == (100, 1, 5)
    assert small["complete"] and small["finished"] and not small["truncated"]


@pytest.fixture
def unstable() -> Iterator[str]:
    def pages(limit: int, page: int) -> tuple[list[str], bool]:
        if limit >= 4:  # the big page answers a different fourth item
            return ["a", "b", "c", "z"], False
        chunks = [["a", "b"], ["c", "d"]]
        return chunks[page - 1], page < len(chunks)

    yield from _serve(pages)


def test_xc712_with_equal_counts_says_the_items_differ_not_a_short_page(
    unstable, tmp_path, capsys
) -> None:
    code, out = _verify(tmp_path, unstable, capsys)
    assert code == 1
    (finding,) = out["diagnostics"]
    assert finding["code"] == "XC712"
    assert "short page" not in finding["message"]
    assert "both ended complete with 4 item(s) but not the same ones" in finding["message"]
    assert "2 id(s) seen in only one walk" in finding["message"]
    (record,) = out["operations"]
    assert record["state"] == "violations" and record["findings"] == ["XC712"]
