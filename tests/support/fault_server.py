"""A fault-injecting test API over an in-memory, versioned collection.

Why: the lies a client must not repeat only appear when data moves and parts fail *between* pages
(the essay: insert, delete and reorder during a scan, let a cursor expire, let one shard fail after
another returned data, revoke a permission mid-scan). Static fixtures cannot show them.

Three layers, so each test picks the cheapest real part it needs:

- :class:`FaultyCollection` — the data and the faults, answering one request as
  ``(status, headers, body)`` in two wire shapes: :meth:`native` (the x-completeness envelope,
  cursor style, signed cursors, snapshot tokens) and :meth:`github` (a GitHub-like adapter shape:
  page/per_page, ``Link: rel="next"``, ``total_count``, ``incomplete_results``, a 1000-result cap);
- :func:`make_app` — a FastAPI app serving both (``/items`` and ``/search``), usable in-process
  through ``httpx.ASGITransport`` / ``httpx.MockTransport`` (:func:`mock_transport`);
- :func:`serve` — the same app on a real uvicorn server on 127.0.0.1 (free port, bounded start
  and stop), a context manager yielding the base URL.

Rows are versioned (``created``/``deleted`` versions), so a frozen snapshot read sees exactly the
rows alive at its version while writes continue; ``snapshot="live"`` reads the current version and
reports it, so the client sees the change; ``snapshot="none"`` reports no snapshot at all.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import httpx
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

SECRET = b"fault-server-test-secret"
RESULT_CAP = 1000

# The canonical contracts (docs/internals.md) of the two endpoints, as the generator would write
# them into _contracts.json.
NATIVE_REASONS = [
    "MORE_PAGES_AVAILABLE",
    "SOURCE_UNAVAILABLE",
    "VISIBILITY_RESTRICTED",
    "CURSOR_EXPIRED",
    "RESULT_LIMIT_REACHED",
]


def _reason(code: str, continuation: str, when: Any = None, **details: Any) -> dict[str, Any]:
    return {
        "code": code,
        "when": when,
        "details": details,
        "continuation": continuation,
        "origin": "server",
    }


def native_contract(snapshot: str = "token") -> dict[str, Any]:
    """Canonical contract of ``GET /items`` (native mode, cursor style)."""
    return {
        "operation_id": "listItems",
        "method": "get",
        "path": "/items",
        "pointer": "/paths/~1items/get/x-completeness",
        "kind": "collection",
        "mode": "native",
        "scope": {"resource": "items", "visibility": "all", "snapshot": snapshot, "covers": "all"},
        "items": "$response.body#/items",
        "id": "/id",
        "pagination": {
            "style": "cursor",
            "request": {"cursor": "cursor", "size": "limit", "offset": None, "page": None},
            "response": {
                "next": "$response.body#/next_cursor",
                "next_last_item": None,
                "total": None,
                "pages": None,
            },
            "max_page_size": 500,
            "ordering": "rank ascending",
            "cursor": {
                "snapshot": "frozen" if snapshot == "token" else "live",
                "ttl_seconds": 900,
                "invalidated_by": ["filter"],
                "on_expiry": "error",
            },
        },
        "reasons": [
            _reason("MORE_PAGES_AVAILABLE", "next_cursor"),
            _reason("SOURCE_UNAVAILABLE", "retry_after"),
            _reason("VISIBILITY_RESTRICTED", "none"),
            _reason("CURSOR_EXPIRED", "restart"),
            _reason("RESULT_LIMIT_REACHED", "narrow_query", limit=RESULT_CAP),
            _reason("RATE_LIMITED", "retry_after"),
        ],
        "warnings": ["STALE_INDEX"],
        "deadline": None,
        "evidence": {"mint": True, "ttl_seconds": 600},
        "mutation": None,
        "omitted_fields": None,
        "destructive": False,
    }


def github_contract() -> dict[str, Any]:
    """Canonical contract of ``GET /search`` (adapter mode over a GitHub-like shape)."""
    return {
        "operation_id": "searchItems",
        "method": "get",
        "path": "/search",
        "pointer": "/paths/~1search/get/x-completeness",
        "kind": "search",
        "mode": "adapter",
        "scope": {"resource": "items", "visibility": "token", "snapshot": "none", "covers": "all"},
        "items": "$response.body#/items",
        "id": "/id",
        "pagination": {
            "style": "link-header",
            "request": {"cursor": None, "size": "per_page", "offset": None, "page": None},
            "response": {
                "next": "$response.link.next",
                "next_last_item": None,
                "total": None,
                "pages": None,
            },
            "max_page_size": 100,
            "ordering": None,
            "cursor": None,
        },
        "reasons": [
            _reason("MORE_PAGES_AVAILABLE", "next_cursor", {"present": "$response.link.next"}),
            _reason(
                "TIME_BUDGET_EXCEEDED",
                "retry_with_deadline",
                {"equals": ["$response.body#/incomplete_results", True]},
            ),
            _reason(
                "RESULT_LIMIT_REACHED",
                "narrow_query",
                {"gt": ["$response.body#/total_count", RESULT_CAP]},
                limit=RESULT_CAP,
            ),
            _reason(
                "VISIBILITY_RESTRICTED",
                "none",
                {"equals": ["$response.header.X-Visibility", "restricted"]},
            ),
            _reason("RATE_LIMITED", "retry_after", {"equals": ["$statusCode", 429]}),
            _reason("CURSOR_EXPIRED", "restart", {"equals": ["$statusCode", 410]}),
        ],
        "warnings": [],
        "deadline": None,
        "evidence": None,
        "mutation": None,
        "omitted_fields": None,
        "destructive": False,
    }


@dataclass
class Row:
    id: str
    rank: int
    created: int
    deleted: int | None = None
    shard: int = 0
    secret: bool = False

    def alive(self, version: int) -> bool:
        return self.created <= version and (self.deleted is None or self.deleted > version)


@dataclass
class Faults:
    """What goes wrong, by request number (1-based, counted per collection)."""

    expire_from: int | None = None  # requests carrying a cursor from this one on get 410
    rate_limit: dict[int, float] = field(default_factory=dict)  # request -> Retry-After seconds
    shard_down_from: int | None = None  # shard 1 stops answering from this request on
    revoke_from: int | None = None  # secret rows hidden (VISIBILITY_RESTRICTED) from here on
    max_bytes: int | None = None  # a page is cut when its JSON would exceed this many bytes
    empty_first_page: bool = False  # the first page returns no items but more pages
    incomplete_from: int | None = None  # github shape: incomplete_results true from here on
    undeclared_code_at: int | None = None  # native: a page carries an undeclared code
    repeat_cursor_at: int | None = None  # native: a page hands back the cursor it was given
    bad_rank_every: int | None = None  # native: rows whose rank % N == 0 send rank as text


class FaultyCollection:
    """An in-memory collection with versions, shards and scheduled faults."""

    def __init__(
        self,
        n: int = 0,
        *,
        snapshot: str = "frozen",
        faults: Faults | None = None,
        between: Callable[[FaultyCollection, int], None] | None = None,
        shards: int = 2,
    ) -> None:
        self.version = 1
        self.rows: list[Row] = []
        self.snapshot = snapshot  # frozen | live | none
        self.faults = faults or Faults()
        self.between = between  # called before every request (mutations between pages)
        self.shards = shards
        self.requests = 0
        self.archived: list[str] = []
        self.lock = threading.Lock()
        for i in range(n):
            self.rows.append(Row(f"item-{i:07d}", i, 1, shard=i % shards, secret=i % 7 == 3))
        self._next_rank = n

    def _native_item(self, row: Row) -> dict[str, Any]:
        every = self.faults.bad_rank_every
        if every and row.rank % every == 0:
            return {"id": row.id, "rank": f"#{row.rank}"}  # drifted data: not its declared type
        return {"id": row.id, "rank": row.rank}

    # -- mutations (each one a new version) -------------------------------------------------

    def _row(self, item_id: str) -> Row | None:
        return next(
            (r for r in self.rows if r.id == item_id and r.deleted is None),
            None,
        )

    def insert(self, item_id: str | None = None, rank: int | None = None) -> str:
        self.version += 1
        rank = self._next_rank if rank is None else rank
        self._next_rank = max(self._next_rank, rank) + 1
        item_id = item_id or f"new-{self.version:07d}"
        self.rows.append(Row(item_id, rank, self.version, shard=rank % self.shards))
        return item_id

    def delete(self, item_id: str) -> None:
        row = self._row(item_id)
        if row is not None:
            self.version += 1
            row.deleted = self.version

    def reorder(self, item_id: str, rank: int) -> None:
        """Move an item to another position: its old row ends, a new row begins (same id)."""
        row = self._row(item_id)
        if row is not None:
            self.version += 1
            row.deleted = self.version
            self.rows.append(Row(item_id, rank, self.version, shard=row.shard, secret=row.secret))

    def alive_ids(self, version: int | None = None) -> list[str]:
        v = self.version if version is None else version
        return [r.id for r in sorted(self.rows, key=lambda r: (r.rank, r.id)) if r.alive(v)]

    # -- cursors ---------------------------------------------------------------------------

    @staticmethod
    def _sign(payload: dict[str, Any]) -> str:
        raw = base64.urlsafe_b64encode(json.dumps(payload, separators=(",", ":")).encode())
        mac = hmac.new(SECRET, raw, hashlib.sha256).hexdigest()[:16]
        return raw.decode() + "." + mac

    @staticmethod
    def _unsign(token: str) -> dict[str, Any] | None:
        raw, _, mac = token.rpartition(".")
        good = hmac.new(SECRET, raw.encode(), hashlib.sha256).hexdigest()[:16]
        if not raw or not hmac.compare_digest(mac, good):
            return None
        try:
            return json.loads(base64.urlsafe_b64decode(raw.encode()))
        except ValueError:
            return None

    # -- one request -----------------------------------------------------------------------

    def _begin(self) -> int:
        with self.lock:
            self.requests += 1
            n = self.requests
        if self.between is not None:
            self.between(self, n)
        return n

    def _visible(self, version: int, n: int) -> tuple[list[Row], list[dict[str, Any]]]:
        f = self.faults
        rows = sorted((r for r in self.rows if r.alive(version)), key=lambda r: (r.rank, r.id))
        reasons: list[dict[str, Any]] = []
        if f.shard_down_from is not None and n >= f.shard_down_from:
            rows = [r for r in rows if r.shard != 1]
            reasons.append({"code": "SOURCE_UNAVAILABLE", "source": "shard-1"})
        if f.revoke_from is not None and n >= f.revoke_from:
            rows = [r for r in rows if not r.secret]
            reasons.append({"code": "VISIBILITY_RESTRICTED"})
        return rows, reasons

    def native(self, params: dict[str, Any]) -> tuple[int, dict[str, str], Any]:
        """Answer ``GET /items?cursor=&limit=`` with the native envelope."""
        n = self._begin()
        f = self.faults
        if n in f.rate_limit:
            body = {"error": {"code": "RATE_LIMITED", "message": "slow down"}}
            return 429, {"Retry-After": str(int(f.rate_limit[n]))}, body
        limit = max(1, min(int(params.get("limit") or 50), 500))
        cursor = params.get("cursor")
        version, after = self.version, None
        if cursor:
            state = self._unsign(str(cursor))
            if state is None:
                return 400, {}, {"error": {"code": "CURSOR_INVALID", "message": "bad cursor"}}
            if f.expire_from is not None and n >= f.expire_from:
                return 410, {}, {"error": {"code": "CURSOR_EXPIRED", "message": "expired"}}
            if self.snapshot == "frozen":
                version = state["v"]
            after = tuple(state["after"]) if state["after"] is not None else None
        rows, reasons = self._visible(version, n)
        if after is not None:
            rows = [r for r in rows if (r.rank, r.id) > after]
        if f.empty_first_page and n == 1 and not cursor:
            page: list[Row] = []
        else:
            page = rows[:limit]
            if f.max_bytes is not None:
                page = self._cut(page, f.max_bytes)
        more = len(page) < len(rows)
        last = after if not page else (page[-1].rank, page[-1].id)
        if more:
            reasons.insert(0, {"code": "MORE_PAGES_AVAILABLE"})
        if f.undeclared_code_at == n:
            reasons.append({"code": "SHARD_REBALANCING", "shard": "s1"})
        next_cursor = self._sign({"v": version, "after": last}) if more else None
        if f.repeat_cursor_at == n and cursor:
            next_cursor = str(cursor)
        complete = not reasons
        snap = None if self.snapshot == "none" else f"v{version}"
        body = {
            "items": [self._native_item(r) for r in page],
            "complete": complete,
            "incomplete_reasons": reasons,
            "next_cursor": next_cursor,
            "scope": {"resource": "items", "visibility": "all", "snapshot": snap},
            "page": {"returned": len(page), "requested_size": limit, "ordering": "rank ascending"},
            "warnings": [],
            "evidence": f"evidence-{version}" if complete else None,
        }
        return 200, {}, body

    def get(self, item_id: str) -> tuple[int, dict[str, str], Any]:
        """Answer ``GET /items/{id}``."""
        self._begin()
        row = self._row(item_id)
        if row is None:
            return 404, {}, {"error": {"code": "NOT_FOUND", "message": "no such item"}}
        return 200, {}, {"id": row.id, "rank": row.rank}

    def archive(self, body: Any) -> tuple[int, dict[str, str], Any]:
        """Answer ``POST /items/archive``: evidence must come from a complete listing."""
        self._begin()
        ids = body.get("ids") if isinstance(body, dict) else None
        evidence = body.get("evidence") if isinstance(body, dict) else None
        if not isinstance(ids, list) or not isinstance(evidence, str):
            return 400, {}, {"error": {"code": "BAD_REQUEST", "message": "ids and evidence"}}
        version = evidence.removeprefix("evidence-")
        if not evidence.startswith("evidence-") or not version.isdigit():
            return self._rejected("EVIDENCE_INVALID")
        listed = set(self.alive_ids(int(version)))
        if not set(ids) <= listed:
            return self._rejected("TARGETS_OUTSIDE_EVIDENCE")
        for item_id in ids:
            self.delete(item_id)
        self.archived.extend(ids)
        return 200, {}, {"archived": ids}

    @staticmethod
    def _rejected(reason: str) -> tuple[int, dict[str, str], Any]:
        err = {"code": "EVIDENCE_REJECTED", "reason": reason, "message": "evidence rejected"}
        return 409, {}, {"error": err}

    @staticmethod
    def _cut(page: list[Row], max_bytes: int) -> list[Row]:
        out: list[Row] = []
        size = 0
        for r in page:
            size += len(json.dumps({"id": r.id, "rank": r.rank})) + 1
            if out and size > max_bytes:
                break
            out.append(r)
        return out

    def github(self, params: dict[str, Any], base: str) -> tuple[int, dict[str, str], Any]:
        """Answer ``GET /search?page=&per_page=`` in a GitHub-like shape (always live data)."""
        n = self._begin()
        f = self.faults
        if n in f.rate_limit:
            headers = {"Retry-After": str(int(f.rate_limit[n]))}
            return 429, headers, {"message": "API rate limit exceeded"}
        if f.expire_from is not None and n >= f.expire_from:
            return 410, {}, {"message": "gone"}
        per_page = max(1, min(int(params.get("per_page") or 30), 100))
        page_no = max(1, int(params.get("page") or 1))
        rows, reasons = self._visible(self.version, n)
        total = len(rows)
        reachable = rows[:RESULT_CAP]
        start = (page_no - 1) * per_page
        page = reachable[start : start + per_page]
        headers: dict[str, str] = {}
        if start + per_page < len(reachable):
            query = urlencode({"page": page_no + 1, "per_page": per_page})
            headers["Link"] = f'<{base}/search?{query}>; rel="next"'
        if any(r["code"] == "VISIBILITY_RESTRICTED" for r in reasons):
            headers["X-Visibility"] = "restricted"
        incomplete = any(r["code"] == "SOURCE_UNAVAILABLE" for r in reasons) or (
            f.incomplete_from is not None and n >= f.incomplete_from
        )
        body = {
            "total_count": total,
            "incomplete_results": incomplete,
            "items": [self._native_item(r) for r in page],
        }
        return 200, headers, body


# -- HTTP ------------------------------------------------------------------------------------


def make_app(collection: FaultyCollection) -> FastAPI:
    """A FastAPI app serving ``/items`` (native) and ``/search`` (GitHub-like shape)."""
    app = FastAPI()

    @app.get("/items")
    def items(request: Request) -> JSONResponse:
        status, headers, body = collection.native(dict(request.query_params))
        return JSONResponse(body, status_code=status, headers=headers)

    @app.post("/items/archive")
    async def archive(request: Request) -> JSONResponse:
        status, headers, body = collection.archive(await request.json())
        return JSONResponse(body, status_code=status, headers=headers)

    @app.get("/items/{item_id}")
    def get_item(item_id: str) -> JSONResponse:
        status, headers, body = collection.get(item_id)
        return JSONResponse(body, status_code=status, headers=headers)

    @app.get("/search")
    def search(request: Request) -> JSONResponse:
        base = str(request.base_url).rstrip("/")
        status, headers, body = collection.github(dict(request.query_params), base)
        return JSONResponse(body, status_code=status, headers=headers)

    return app


def mock_transport(collection: FaultyCollection) -> httpx.MockTransport:
    """An ``httpx.MockTransport`` answering like :func:`make_app`, without ASGI (fast, sync)."""

    def handler(request: httpx.Request) -> httpx.Response:
        params = dict(request.url.params)
        base = f"{request.url.scheme}://{request.url.netloc.decode()}"
        if request.url.path == "/items":
            status, headers, body = collection.native(params)
        elif request.url.path == "/items/archive" and request.method == "POST":
            status, headers, body = collection.archive(json.loads(request.content or b"null"))
        elif request.url.path.startswith("/items/"):
            status, headers, body = collection.get(request.url.path.removeprefix("/items/"))
        elif request.url.path == "/search":
            status, headers, body = collection.github(params, base)
        else:
            status, headers, body = 404, {}, {"error": {"code": "NOT_FOUND"}}
        return httpx.Response(status, headers=headers, json=body)

    return httpx.MockTransport(handler)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def serve(app: Any, *, start_timeout: float = 10.0, stop_timeout: float = 10.0) -> Iterator[str]:
    """Run ``app`` on a real uvicorn server on 127.0.0.1 in a thread; yields the base URL."""
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError(f"uvicorn did not start on 127.0.0.1:{port}")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(stop_timeout)
