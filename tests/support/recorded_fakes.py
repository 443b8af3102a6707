"""Loopback fakes of two APIs whose paging positions are numbers, and how their SDKs walk them.

* a **Twitter v1.1-shaped** cursored collection (``GET /1.1/followers/list.json``): the cursor is
  a 64-bit integer handed out as ``next_cursor`` and sent back as the ``cursor`` query parameter;
  the first page is asked for with the start token ``cursor=-1`` (what tweepy's ``Cursor``
  sends), the last page answers ``next_cursor: 0``, and ``cursor=0`` answers an empty page that
  again says 0 (so a walk that does not stop on 0 loops). Optionally gzip-compressed, as the
  real API answers when asked;
* a **DingTalk-shaped** department member listing (``POST /topapi/user/listsimple``): the
  cursor is a number in the JSON body (``{"dept_id": 1, "cursor": 0, "size": 3}``), the first
  page sends ``cursor: 0``, a page hands out ``result.next_cursor`` (a number) while
  ``result.has_more`` is true and leaves it out on the last page. Like a Jackson-bound server,
  it reads a number sent as its decimal text too; ``strict=True`` makes it a strict one (a
  pydantic body model in strict mode, like Go's ``encoding/json`` into an int field): a number
  sent as text (``{"cursor": "3"}``) is refused with a 422, pages hold 3 unless a size is sent,
  and every body it was sent is kept in ``app.state.bodies``.

Both require a credential (a bearer token, a DingTalk access-token header) that must never be
printed. Also the Notion-shaped database query of tests/audit/test_recorded_body_audit.py
(:func:`databases_app`: opaque string cursors, read from the body's ``start_cursor``).
:func:`record` walks an app the way its SDK does and writes the HAR.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict
from starlette.middleware.gzip import GZipMiddleware

from support.fault_server import serve
from support.har import HarRecorder

__all__ = [
    "FOLLOWERS",
    "MEMBERS",
    "SECRET",
    "ROWS",
    "databases_app",
    "dept_users_app",
    "followers_app",
    "opaque_offset",
    "opaque_token",
    "record",
    "walk_databases",
    "walk_dept_users",
    "walk_followers",
]

SECRET = "AAAA-TWITTER-NEVER_PRINT_ME"
FOLLOWERS = [{"id": 20_000 + 37 * i, "screen_name": f"user{i}"} for i in range(7)]
MEMBERS = [{"userid": f"manager{i:03d}", "name": f"Member {i}"} for i in range(7)]
_BASE = 1_489_467_234_237_774_933  # Twitter's cursors are opaque 64-bit integers


def _cursor(offset: int) -> int:
    return _BASE - 7919 * offset


def _offset(cursor: int) -> int:
    return (_BASE - cursor) // 7919


ROWS = [
    {"id": f"3f2b6c1e-0000-4000-8000-00000000000{i}", "url": f"https://n.test/p{i}"}
    for i in range(5)
]


def opaque_token(n: int) -> str:
    """An opaque cursor (a real API's cursors may carry state worth keeping private)."""
    return base64.urlsafe_b64encode(f"CURSORSECRET:{n}".encode()).decode()


def opaque_offset(token: str | None) -> int:
    return int(base64.urlsafe_b64decode(token).decode().split(":")[1]) if token else 0


def databases_app() -> FastAPI:
    app = FastAPI()

    @app.post("/v1/databases/{database_id}/query")
    async def query(database_id: str, request: Request) -> JSONResponse:
        body = await request.json()  # the API reads start_cursor; a "cursor" it ignores
        start = opaque_offset(body.get("start_cursor"))
        size = min(int(body.get("page_size") or 2), 100)  # a small default page
        more = start + size < len(ROWS)
        return JSONResponse(
            {
                "object": "list",
                "results": ROWS[start : start + size],
                "next_cursor": opaque_token(start + size) if more else None,
                "has_more": more,
            }
        )

    return app


def followers_app(gzip: bool = False) -> FastAPI:
    app = FastAPI()
    if gzip:
        app.add_middleware(GZipMiddleware, minimum_size=0)

    @app.get("/1.1/followers/list.json")
    async def followers(request: Request, cursor: int = -1, count: int = 20) -> JSONResponse:
        if request.headers.get("authorization") != f"Bearer {SECRET}":
            return JSONResponse({"errors": [{"code": 89, "message": "Invalid token"}]}, 401)
        count = max(1, min(count, 200))
        start = 0 if cursor == -1 else len(FOLLOWERS) if cursor == 0 else _offset(cursor)
        more = start + count < len(FOLLOWERS)
        return JSONResponse(
            {
                "users": FOLLOWERS[start : start + count],
                "next_cursor": _cursor(start + count) if more else 0,
                "previous_cursor": -_cursor(start) if 0 < start < len(FOLLOWERS) else 0,
            }
        )

    return app


class _StrictListSimple(BaseModel):
    """The body a strict server takes: integers only, nothing else (pages of 3 by default)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    dept_id: int
    cursor: int = 0
    size: int = 3


def dept_users_app(strict: bool = False) -> FastAPI:
    app = FastAPI()
    app.state.bodies = []

    @app.post("/topapi/user/listsimple")
    async def listsimple(request: Request) -> JSONResponse:
        if request.headers.get("x-acs-dingtalk-access-token") != SECRET:
            return JSONResponse({"errcode": 88, "errmsg": "invalid access token"}, 401)
        body = await request.json()
        if strict:
            app.state.bodies.append(body)  # as sent: the test reads the JSON types
            try:
                body = _StrictListSimple.model_validate(body).model_dump()
            except ValueError as exc:
                return JSONResponse({"errcode": 40035, "errmsg": str(exc)}, 422)
        cursor, size = int(body.get("cursor") or 0), min(int(body.get("size") or 10), 100)
        more = cursor + size < len(MEMBERS)
        result: dict[str, Any] = {"has_more": more, "list": MEMBERS[cursor : cursor + size]}
        if more:
            result["next_cursor"] = cursor + size
        return JSONResponse({"errcode": 0, "errmsg": "ok", "result": result})

    return app


def walk_followers(client: Any, count: int) -> None:
    """tweepy's Cursor: start at -1, follow next_cursor until it is 0."""
    cursor = -1
    while True:
        params = {"screen_name": "xc", "count": count, "cursor": cursor}
        cursor = client.get("/1.1/followers/list.json", params=params).json()["next_cursor"]
        if cursor == 0:
            return


def walk_dept_users(client: Any, size: int) -> None:
    """DingTalk's SDK: cursor 0 first, then next_cursor while has_more."""
    cursor = 0
    while True:
        body = {"dept_id": 1, "cursor": cursor, "size": size}
        result = client.post("/topapi/user/listsimple", json=body).json()["result"]
        if not result["has_more"]:
            return
        cursor = result["next_cursor"]


def walk_databases(client: Any) -> None:
    """Notion's SDK: no start_cursor first, then next_cursor while there is one."""
    token = None
    while True:
        body = {} if token is None else {"start_cursor": token}
        token = client.post("/v1/databases/d1/query", json=body).json()["next_cursor"]
        if not token:
            return


def record(app: FastAPI, path: Path, walks: list[Any], *, body: str = "text") -> Path:
    """Walk ``app`` on a loopback uvicorn server once per entry of ``walks`` (a callable taking
    the client), recording every exchange, with the credential and a cookie sent."""
    recorder = HarRecorder(body)
    headers = {
        "Authorization": f"Bearer {SECRET}",
        "x-acs-dingtalk-access-token": SECRET,
        "Cookie": "auth_token=COOKIE_NEVER_PRINT_ME",
    }
    with serve(app) as base:
        with recorder.client(base, headers=headers) as client:
            for walk in walks:
                walk(client)
    return recorder.write(path)
