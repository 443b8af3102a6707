"""A hostile API on loopback for the generated MCP server: the ``/items`` (native, cursor) and
``/search`` (GitHub-like, Link header) listings of tests/tools/specs/items.yaml, answering as the
current *mode* says: slow, trickling, huge (a gzip bomb), malformed JSON, the wrong content type,
next links to another origin, cursor loops, pages that contradict the declaration.

The server runs in the test process (``support.fault_server.serve``: uvicorn on 127.0.0.1); the
MCP server under test is a subprocess that walks it, so ``HostileApi.mode`` can change between
tool calls of one session.
"""

from __future__ import annotations

import asyncio
import functools
import gzip
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

ITEMS = [{"id": f"item-{i}", "rank": i} for i in range(6)]

NATIVE_MODES = (
    "ok",
    "slow",
    "trickle",
    "gzip-bomb",
    "malformed",
    "html",
    "empty-200",
    "status-500",
    "redirect-away",
    "cursor-loop",
    "cursor-cycle",
    "complete-with-next",
    "complete-with-reasons",
    "incomplete-no-reason",
    "undeclared-reason",
    "items-not-list",
    "item-without-id",
    "duplicate-ids",
    "complete-as-text",
    "oversized-page",
    "deep-json",
    "nan",
    "big-number",
    "latin-1",
    "duplicate-keys",
    "many-items",
)
"""Modes of ``GET /items``: all but :data:`BENIGN` make a walk that must not say ``complete``."""
SEARCH_MODES = (
    "ok",
    "other-origin",
    "userinfo",
    "link-loop",
    "over-cap",
    "incomplete-results",
    "malformed",
    "bad-link",
    "many-links",
    "deep-json",
)
"""Modes of ``GET /search``: all but :data:`BENIGN` make a walk that must not say ``complete``."""
BENIGN = frozenset({"ok", "many-links"})
"""Modes whose answers are odd but whole (2,000 other link-values beside ``rel="next"``)."""


@dataclass
class HostileApi:
    mode: str = "ok"
    hits: list[str] = field(default_factory=list)

    # -- /items: native envelope, cursor style --------------------------------------------

    def _native(self, page: int, *, nxt: Any, **over: Any) -> dict[str, Any]:
        items = ITEMS[(page - 1) * 3 : page * 3]
        body = {
            "items": items,
            "complete": nxt is None,
            "incomplete_reasons": [] if nxt is None else [{"code": "MORE_PAGES_AVAILABLE"}],
            "next_cursor": nxt,
            "scope": {"resource": "items", "visibility": "all", "snapshot": "v1"},
            "page": {"returned": len(items), "requested_size": 3, "ordering": "rank ascending"},
            "warnings": [],
            "evidence": "evidence-1" if nxt is None else None,
        }
        body.update(over)
        return body

    async def items(self, request: Request) -> Response:
        cursor = request.query_params.get("cursor")
        self.hits.append(f"/items?cursor={cursor}")
        page = {None: 1, "c2": 2, "c3": 3}.get(cursor, 9)
        m = self.mode
        if page == 1:
            over: dict[str, Any] = {}
            if m == "complete-with-next":
                over = {"complete": True, "incomplete_reasons": []}
            return JSONResponse(self._native(1, nxt="c2", **over))
        if page == 9:
            return JSONResponse({"error": {"code": "CURSOR_INVALID", "message": "?"}}, 400)
        # page 2 and 3: where the modes bite
        if m == "slow":
            await asyncio.sleep(30)
        if m == "trickle":
            return StreamingResponse(_trickle(json.dumps(self._native(2, nxt=None))),
                                     media_type="application/json")  # fmt: skip
        if m == "gzip-bomb":
            return Response(_bomb(), headers={"Content-Encoding": "gzip"},
                            media_type="application/json")  # fmt: skip
        if m == "malformed":
            return Response(b'{"items": [{"id": "item-3"', media_type="application/json")
        if m == "html":
            return Response(b"<html><body>Login</body></html>", media_type="text/html")
        if m == "empty-200":
            return Response(b"", media_type="application/json")
        if m == "status-500":
            return JSONResponse({"error": {"code": "INTERNAL", "message": "boom"}}, 500)
        if m == "redirect-away":
            return Response(status_code=302, headers={"Location": "http://localhost:9/items"})
        if m == "cursor-loop":
            return JSONResponse(self._native(2, nxt="c2"))
        if m == "cursor-cycle":
            return JSONResponse(self._native(page, nxt="c3" if page == 2 else "c2"))
        if m == "complete-with-reasons":
            return JSONResponse(self._native(2, nxt=None,
                                incomplete_reasons=[{"code": "SOURCE_UNAVAILABLE"}]))  # fmt: skip
        if m == "incomplete-no-reason":
            return JSONResponse(self._native(2, nxt=None, complete=False, evidence=None))
        if m == "undeclared-reason":
            return JSONResponse(self._native(2, nxt=None, complete=False, evidence=None,
                                incomplete_reasons=[{"code": "SHARD_GONE"}]))  # fmt: skip
        if m == "items-not-list":
            return JSONResponse(self._native(2, nxt=None, items={"id": "item-3"}))
        if m == "item-without-id":
            return JSONResponse(self._native(2, nxt=None, items=[{"rank": 3}, {"id": 5}]))
        if m == "duplicate-ids":
            return JSONResponse(self._native(2, nxt=None, items=ITEMS[:3]))
        if m == "complete-as-text":
            return JSONResponse(self._native(2, nxt=None, complete="false"))
        if m == "oversized-page":
            return JSONResponse(self._native(2, nxt=None, items=[
                {"id": f"x-{i}", "rank": 10 + i} for i in range(600)]))  # fmt: skip
        if m == "deep-json":  # deeper than json.loads can recurse
            return Response(b'{"items": ' + b"[" * 200_000 + b"]" * 200_000 + b"}",
                            media_type="application/json")  # fmt: skip
        if m == "nan":
            text = json.dumps(self._native(2, nxt=None)).replace('"rank": 3', '"rank": NaN')
            return Response(text.encode(), media_type="application/json")
        if m == "big-number":
            text = json.dumps(self._native(2, nxt=None)).replace(
                '"rank": 3', '"rank": ' + "9" * 5000
            )
            return Response(text.encode(), media_type="application/json")
        if m == "latin-1":  # JSON on the wire is UTF-8 (RFC 8259); this is ISO-8859-1
            text = json.dumps(self._native(2, nxt=None), ensure_ascii=False)
            return Response(text.replace("item-3", "itém-3").encode("latin-1"),
                            media_type="application/json")  # fmt: skip
        if m == "duplicate-keys":
            text = json.dumps(self._native(2, nxt=None))
            return Response(
                text[:-1].encode() + b', "complete": false}', media_type="application/json"
            )
        if m == "many-items":  # 200,000 items in one page (a few MB: under the size cap)
            many = [{"id": f"m{i}", "rank": 10 + i} for i in range(200_000)]
            return JSONResponse(self._native(2, nxt=None, items=many))
        return JSONResponse(self._native(2, nxt=None))

    # -- /search: GitHub-like, Link header ------------------------------------------------

    async def search(self, request: Request) -> Response:
        page = int(request.query_params.get("page") or 1)
        self.hits.append(f"/search?page={page}")
        base = str(request.base_url).rstrip("/")
        m = self.mode
        body: dict[str, Any] = {"total_count": 6, "incomplete_results": False,
                                "items": ITEMS[(page - 1) * 3 : page * 3]}  # fmt: skip
        headers = {}
        nxt = None
        if page == 1:
            nxt = f"{base}/search?page=2"
            if m == "other-origin":
                nxt = nxt.replace("127.0.0.1", "localhost")
            elif m == "userinfo":
                nxt = nxt.replace("http://", "http://evil:pw@")
        elif m == "link-loop":
            nxt = f"{base}/search?page=1"
        if page > 1 and m == "over-cap":
            body["total_count"] = 5000
        if page > 1 and m == "incomplete-results":
            body["incomplete_results"] = True
        if page > 1 and m == "deep-json":
            return Response(b"[" * 200_000 + b"]" * 200_000, media_type="application/json")
        if page == 1 and m == "bad-link":
            headers["Link"] = f'<{base}/search?page=2; rel="next", <<>>; rel=next; ' + "\x7f" * 10
            return JSONResponse(body, headers=headers)
        if page == 1 and m == "many-links":
            headers["Link"] = ", ".join(f'<{base}/x{i}>; rel="n{i}"' for i in range(2000))
            headers["Link"] += f', <{base}/search?page=2>; rel="next"'
            return JSONResponse(body, headers=headers)
        if page > 1 and m == "malformed":
            return Response(b'{"total_count": 6, "items": [', media_type="application/json")
        if nxt:
            headers["Link"] = f'<{nxt}>; rel="next"'
        return JSONResponse(body, headers=headers)


@functools.cache
def _bomb() -> bytes:
    """80 MiB of JSON (past the client's 64 MiB answer cap) in about 80 KB of gzip."""
    return gzip.compress(b'{"items": [], "pad": "' + b" " * (80 * 1024 * 1024) + b'"}', 1)


async def _trickle(text: str) -> AsyncIterator[bytes]:
    for ch in text.encode():
        yield bytes([ch])
        await asyncio.sleep(0.2)


def make_hostile_app(api: HostileApi) -> Starlette:
    return Starlette(routes=[Route("/items", api.items), Route("/search", api.search)])
