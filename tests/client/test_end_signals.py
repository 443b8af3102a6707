"""issue 19 §2: a vocabulary that says what real APIs do, walked end to end.

One real uvicorn server on loopback plays five API conventions (tests/client/specs/
end_signals.yaml); the package ``generate`` writes from that spec walks each of them with the
sync client, the async client and its MCP tool (through the official ``mcp`` SDK client):

- a boolean last-page field (Jira's ``isLast``) ends the walk, server-confirmed;
- an API whose only end is an empty page, declared ``end: empty-page``: complete, with the
  client warning ``END_INFERRED`` so it never passes for a server-confirmed end;
- an offset continuation bound to its query (``cursor.invalidated-by``): resuming it with
  another filter is refused, never walked to ``complete: true``;
- an unmapped 400 after two pages ends the walk as a partial result (the two pages kept,
  ``HTTP_ERROR`` with the status, a continuation); the same cap declared is RESULT_LIMIT_REACHED;
- offset paging under inserts reads an id twice: a live listing warns (``ITEMS_SEEN_TWICE``), a
  listing declared frozen is not complete (``DUPLICATE_ITEMS``), both naming the duplicate ids.
"""

from __future__ import annotations

import importlib
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from support.fault_server import serve
from support.gen import generate_and_import
from support.walks import WALKS, call_tools, collect_sync
from xcompleteness.check._pipeline import check_spec

SPEC = Path(__file__).parent / "specs" / "end_signals.yaml"
PACKAGE = "client_area_end_signals"
ISSUES = {
    "project=P": [{"id": f"{10000 + i}", "key": f"P-{i}"} for i in range(7)],
    "project=OTHER": [{"id": f"{20000 + i}", "key": f"O-{i}"} for i in range(2)],
}
EVENTS = [{"id": f"ev{i}", "kind": "login"} for i in range(7)]
OTHER_EVENTS = [{"id": f"out{i}", "kind": "logout"} for i in range(2)]
API_TOKEN = "api-evidence-token"
FILES = [{"id": f"f{i}", "amount": 50 * i} for i in range(8)]
QUERY = {"from": "enterprise.contract", "ancestor_folder_id": "0", "query": "amount >= :value"}
USERS = [{"accountId": f"acc{i}", "displayName": f"User {i}"} for i in range(9)]
USER_CAP = 4  # startAt above this is answered with 400
TICKETS = 6


class Fake:
    """The loopback API's state: request log and the ticket store that grows under the walk."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.log: list[tuple[str, str]] = []
        self.reset()

    def reset(self) -> None:
        with self.lock:
            self.log.clear()
            self.bodies: list[dict[str, Any]] = []
            self.tickets = [{"id": f"t{i}", "title": f"ticket {i}"} for i in range(TICKETS, 0, -1)]
            self.inserted = 0

    def tickets_page(self, offset: int, limit: int) -> dict[str, Any]:
        with self.lock:
            page = self.tickets[offset : offset + limit]
            last = offset + limit >= len(self.tickets)
            if offset == 0:  # a ticket is filed while the client reads: every offset shifts
                self.inserted += 1
                self.tickets.insert(0, {"id": f"new{self.inserted}", "title": "just filed"})
            return {"last": last, "tickets": page}


def make_app(fake: Fake) -> FastAPI:
    app = FastAPI()

    def note(request: Request) -> None:
        fake.log.append((request.url.path, request.scope["query_string"].decode()))

    @app.get("/rest/api/3/search")
    def search(request: Request) -> JSONResponse:
        note(request)
        q = request.query_params
        start, size = int(q.get("startAt") or 0), int(q.get("maxResults") or 3)
        issues = ISSUES.get(q.get("jql") or "", [])
        page = issues[start : start + size]
        return JSONResponse(
            {
                "startAt": start,
                "maxResults": size,
                "isLast": start + size >= len(issues),
                "issues": page,
            }
        )

    def events(request: Request) -> JSONResponse:
        note(request)
        q = request.query_params
        page, count = int(q.get("page") or 1), min(int(q.get("count") or 3), 3)
        return JSONResponse(EVENTS[(page - 1) * count : page * count])

    app.get("/events")(events)
    app.get("/events/short")(events)
    app.get("/events/minted")(events)
    app.get("/events/accepted")(events)

    @app.get("/events/bound")
    def events_by_kind(request: Request) -> JSONResponse:
        note(request)
        q = request.query_params
        page, count = int(q.get("page") or 1), min(int(q.get("count") or 3), 3)
        kind = q.get("kind")
        chosen = [e for e in EVENTS + OTHER_EVENTS if kind is None or e["kind"] == kind]
        return JSONResponse(chosen[(page - 1) * count : page * count])

    def users(request: Request) -> JSONResponse:
        note(request)
        q = request.query_params
        start, size = int(q.get("startAt") or 0), int(q.get("maxResults") or 3)
        if start > USER_CAP:
            return JSONResponse(
                {"errorMessages": [f"startAt above {USER_CAP} is not allowed"]}, 400
            )
        return JSONResponse(
            {"isLast": start + size >= len(USERS), "values": USERS[start : start + size]}
        )

    app.get("/users")(users)
    app.get("/users/capped")(users)

    def tickets(request: Request) -> JSONResponse:
        note(request)
        q = request.query_params
        return JSONResponse(fake.tickets_page(int(q.get("offset") or 0), int(q.get("limit") or 3)))

    app.get("/tickets")(tickets)
    app.get("/tickets/frozen")(tickets)
    app.get("/tickets/minted")(tickets)

    @app.post("/metadata_queries/execute_read")
    async def metadata_query(request: Request) -> JSONResponse:
        body = await request.json()
        fake.log.append((request.url.path, request.scope["query_string"].decode()))
        fake.bodies.append(body)
        if body.get("from") != "enterprise.contract" or "ancestor_folder_id" not in body:
            return JSONResponse({"code": "bad_request"}, 400)
        least = (body.get("query_params") or {}).get("value", 0)
        chosen = [f for f in FILES if f["amount"] >= least]
        start, size = int(body.get("marker") or 0), min(int(body.get("limit") or 100), 100)
        page = {"entries": chosen[start : start + size], "limit": size}
        if start + size < len(chosen):
            page["next_marker"] = str(start + size)
        return JSONResponse(page)

    @app.get("/native/tickets")
    def native_tickets(request: Request) -> JSONResponse:
        note(request)
        q = request.query_params
        offset, limit = int(q.get("cursor") or 0), int(q.get("limit") or 3)
        page = fake.tickets_page(offset, limit)
        last = page["last"]
        return JSONResponse(
            {
                "items": page["tickets"],
                "complete": last,
                "incomplete_reasons": [] if last else [{"code": "MORE_PAGES_AVAILABLE"}],
                "next_cursor": None if last else str(offset + limit),
                "warnings": [],
                "evidence": API_TOKEN if last else None,
            }
        )

    return app


@pytest.fixture(scope="module")
def pkg(tmp_path_factory):
    return generate_and_import(SPEC, tmp_path_factory.mktemp("end_signals_gen"), PACKAGE)


@pytest.fixture(scope="module")
def api():
    fake = Fake()
    with serve(make_app(fake)) as base:
        yield base, fake


def _tool(pkg, base: str, name: str, **args: Any) -> dict[str, Any]:
    """One tools/call through the generated MCP server, by the official SDK client."""
    [result] = call_tools(PACKAGE, base, [(name, args)], secret=b"s" * 32)
    return result


def test_the_declarations_check_clean_but_for_the_documented_frozen_warning():
    result = check_spec(SPEC)
    found = {(d.code, d.pointer) for d in result.diagnostics}
    assert found == {
        ("XC131", "/paths/~1tickets~1frozen/get/x-completeness/pagination/cursor/snapshot")
    }


# -- isLast ----------------------------------------------------------------------------------


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_is_last_ends_the_walk_server_confirmed(pkg, api, walk):
    base, fake = api
    fake.reset()
    result = WALKS[walk](pkg, base, "search_issues", jql="project=P", maxResults=3)
    assert result.complete is True and result.reasons == () and result.warnings == ()
    assert [i.key for i in result.items] == [i["key"] for i in ISSUES["project=P"]]
    assert result.pages == 3
    assert [q for p, q in fake.log] == [
        "jql=project%3DP&maxResults=3&startAt=0",
        "jql=project%3DP&maxResults=3&startAt=3",
        "jql=project%3DP&maxResults=3&startAt=6",
    ]


def test_is_last_through_the_mcp_tool(pkg, api):
    base, fake = api
    env = _tool(pkg, base, "search_issues", jql="project=P")
    assert env["status"] == "complete"
    assert env["completeness"]["complete"] is True and env["warnings"] == []
    assert [i["key"] for i in env["data"]["issues"]] == [i["key"] for i in ISSUES["project=P"]]


# -- empty-page end ---------------------------------------------------------------------------


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_an_empty_page_ends_the_walk_and_says_the_end_was_inferred(pkg, api, walk):
    base, fake = api
    fake.reset()
    result = WALKS[walk](pkg, base, "list_events")
    assert result.complete is True and result.reasons == ()
    assert [e.id for e in result.items] == [e["id"] for e in EVENTS]
    assert result.pages == 4  # 3 + 3 + 1, then the empty page 4 (a short page does not end it)
    assert [w.code for w in result.warnings] == ["END_INFERRED"]
    assert result.warnings[0].details == {"end": "empty-page", "page": 4}
    assert [q for _, q in fake.log] == [f"page={n}" for n in (1, 2, 3, 4)]


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_short_page_ends_the_walk_against_the_size_the_walk_sent(pkg, api, walk):
    base, fake = api
    fake.reset()
    result = WALKS[walk](pkg, base, "list_events_short", count=50)  # at most max-page-size
    assert result.complete is True and [e.id for e in result.items] == [e["id"] for e in EVENTS]
    assert result.pages == 3  # 3 + 3 + 1: the short third page ends it, no empty page asked
    assert [(w.code, w.details) for w in result.warnings] == [
        ("END_INFERRED", {"end": "short-page", "page": 3})
    ]
    assert [q for _, q in fake.log] == [f"count=3&page={n}" for n in (1, 2, 3)]
    # the text an agent and a person read (it said "ended on an short page")
    assert result.warnings[0].message == (
        "the walk ended on a short page (pagination.end: short-page); the API gave no end signal"
    )


def test_empty_page_end_through_the_mcp_tool(pkg, api):
    base, _ = api
    env = _tool(pkg, base, "list_events")
    assert env["status"] == "complete"
    assert [w["code"] for w in env["warnings"]] == ["END_INFERRED"]
    assert len(env["data"]["events"]) == len(EVENTS)


# -- an offset continuation bound to its filter -------------------------------------------------


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_an_offset_continuation_resumes_its_own_query_only(pkg, api, walk):
    base, fake = api
    first = WALKS[walk](pkg, base, "search_issues", jql="project=P", maxResults=3, max_pages=1)
    assert first.complete is False and first.codes == ["CLIENT_PAGE_LIMIT"]
    token = first.continuation.cursor
    rest = WALKS[walk](
        pkg, base, "search_issues", jql="project=P", maxResults=3, continuation=token
    )
    assert rest.complete is True
    assert [i.key for i in first.items + rest.items] == [i["key"] for i in ISSUES["project=P"]]
    cont = importlib.import_module(f"{PACKAGE}._runtime.walk_continuations")
    for other in ({"jql": "project=OTHER", "maxResults": 3}, {"jql": "project=P", "maxResults": 2},
                  {"jql": "project=P", "maxResults": 3, "orderBy": "key"}):  # fmt: skip
        fake.reset()
        with pytest.raises(cont.ContinuationMismatch, match="invalidated-by"):
            WALKS[walk](pkg, base, "search_issues", continuation=token, **other)
        assert fake.log == []  # refused before any request


def test_an_offset_continuation_of_another_query_is_refused_by_the_mcp_tool(pkg, api):
    base, _ = api
    first = _tool(pkg, base, "search_issues", jql="project=P", max_pages=1)
    assert first["status"] == "partial"
    token = first["completeness"]["continuation"]["cursor"]
    same = _tool(pkg, base, "search_issues", jql="project=P", continuation=token)
    assert same["status"] == "complete"
    other = _tool(pkg, base, "search_issues", jql="project=OTHER", continuation=token)
    assert other["status"] == "error" and other["data"] is None
    assert other["error"]["code"] == "INVALID_ARGUMENTS"
    assert "invalidated-by" in other["error"]["message"]


# -- an unmapped 400 after two pages ----------------------------------------------------------


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_an_unmapped_error_after_two_pages_keeps_them_as_a_partial_result(pkg, api, walk):
    base, fake = api
    fake.reset()
    result = WALKS[walk](pkg, base, "list_users", maxResults=3)
    assert result.complete is False and result.pages == 2
    assert [u.accountId for u in result.items] == [u["accountId"] for u in USERS[:6]]
    (reason,) = result.reasons
    assert (reason.code, reason.origin, reason.details) == ("HTTP_ERROR", "client", {"status": 400})
    assert result.continuation.kind == "next_cursor"
    # the continuation retries the failed page (offset 6); with nothing read yet, that resumed
    # walk's error is an ApiError again (there are no pages to keep)
    fake.reset()
    ops = importlib.import_module(f"{PACKAGE}._runtime.operations")
    with pytest.raises(ops.ApiError) as caught:
        WALKS[walk](pkg, base, "list_users", maxResults=3, continuation=result.continuation)
    assert caught.value.status == 400
    assert [q for _, q in fake.log] == ["maxResults=3&startAt=6"]


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_the_same_cap_declared_is_result_limit_reached(pkg, api, walk):
    """The declared ``limit: 4`` is the number of items the API serves: the walk asks for the
    one item left below it on the second page and stops there, never sending the request the
    API answers 400 (tests/client/test_declared_cap.py)."""
    base, fake = api
    fake.reset()
    result = WALKS[walk](pkg, base, "list_users_capped", maxResults=3)
    assert result.complete is False and len(result.items) == 4
    assert result.codes == ["RESULT_LIMIT_REACHED"] and result.reasons[0].details == {"limit": 4}
    assert result.continuation.kind == "narrow_query"
    assert [q for _, q in fake.log] == ["maxResults=3&startAt=0", "maxResults=1&startAt=3"]


def test_an_unmapped_error_through_the_mcp_tool_is_partial_data(pkg, api):
    base, _ = api
    env = _tool(pkg, base, "list_users")  # the tool leaves the page size to the API (3)
    assert env["status"] == "partial"
    assert len(env["data"]["users"]) == 6
    (reason,) = env["completeness"]["reasons"]
    assert reason["code"] == "HTTP_ERROR" and reason["origin"] == "client"
    assert reason["details"] == {"status": 400}
    assert env["completeness"]["continuation"]["kind"] == "next_cursor"


def test_a_first_page_error_is_still_an_api_error(pkg, api):
    base, _ = api
    ops = importlib.import_module(f"{PACKAGE}._runtime.operations")
    with pkg.Client(base) as client, pytest.raises(ops.ApiError) as caught:
        client.list_users.collect(startAt=5)
    assert caught.value.status == 400


# -- duplicates under inserts -----------------------------------------------------------------


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_live_listing_that_repeats_an_id_warns_with_the_ids(pkg, api, walk):
    base, fake = api
    fake.reset()
    result = WALKS[walk](pkg, base, "list_tickets", limit=3)
    ids = [t.id for t in result.items]
    assert ids == ["t6", "t5", "t4", "t4", "t3", "t2", "t1"]  # t4 read twice: the offset shifted
    assert result.complete is True  # live: the listing may move; the warning says it did
    assert [w.code for w in result.warnings] == ["ITEMS_SEEN_TWICE"]
    assert result.warnings[0].details == {"ids": ["t4"], "count": 1}


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_frozen_listing_that_repeats_an_id_is_not_complete(pkg, api, walk):
    base, fake = api
    fake.reset()
    result = WALKS[walk](pkg, base, "list_tickets_frozen", limit=3)
    assert len(result.items) == 7
    assert result.complete is False
    (reason,) = result.reasons
    assert (reason.code, reason.origin) == ("DUPLICATE_ITEMS", "client")
    assert reason.details == {"ids": ["t4"], "count": 1}
    assert result.continuation.kind == "restart"


def test_duplicates_through_the_mcp_tool(pkg, api):
    base, fake = api
    fake.reset()
    live = _tool(pkg, base, "list_tickets")
    assert live["status"] == "complete"
    assert [(w["code"], w["details"]) for w in live["warnings"]] == [
        ("ITEMS_SEEN_TWICE", {"ids": ["t4"], "count": 1})
    ]
    fake.reset()
    frozen = _tool(pkg, base, "list_tickets_frozen")
    assert frozen["status"] == "partial" and frozen["evidence"] is None
    assert [r["code"] for r in frozen["completeness"]["reasons"]] == ["DUPLICATE_ITEMS"]
    assert frozen["completeness"]["continuation"]["kind"] == "restart"


# -- evidence only from a server-confirmed, undoubted end ------------------------------------


def test_an_inferred_end_withholds_the_mcp_evidence_and_says_why(pkg, api):
    base, _ = api
    env = _tool(pkg, base, "list_events_minted")
    assert env["status"] == "complete" and env["evidence"] is None
    assert [w["code"] for w in env["warnings"]] == ["END_INFERRED", "EVIDENCE_WITHHELD"]
    withheld = env["warnings"][1]
    assert withheld["details"] == {"because": ["END_INFERRED"]}
    assert withheld["message"].startswith("evidence withheld: the end was inferred from an empty")


def test_a_declared_accept_lets_an_inferred_end_mint(pkg, api):
    base, _ = api
    env = _tool(pkg, base, "list_events_accepted")
    assert env["status"] == "complete" and isinstance(env["evidence"], str)
    assert [w["code"] for w in env["warnings"]] == ["END_INFERRED"]


def test_items_seen_twice_withholds_the_mcp_evidence(pkg, api):
    base, fake = api
    fake.reset()
    env = _tool(pkg, base, "list_tickets_minted")
    assert env["status"] == "complete" and env["evidence"] is None
    assert [w["code"] for w in env["warnings"]] == ["ITEMS_SEEN_TWICE", "EVIDENCE_WITHHELD"]
    assert env["warnings"][1]["details"] == {"because": ["ITEMS_SEEN_TWICE"]}
    assert "moved under the walk" in env["warnings"][1]["message"]
    fake.reset()
    fake.tickets_page = _no_insert(fake)  # type: ignore[method-assign]  # nothing filed meanwhile
    try:
        clean = _tool(pkg, base, "list_tickets_minted")
    finally:
        del fake.tickets_page
    assert clean["status"] == "complete" and isinstance(clean["evidence"], str)
    assert clean["warnings"] == []


def _no_insert(fake: Fake):
    def page(offset: int, limit: int) -> dict[str, Any]:
        with fake.lock:
            rows = fake.tickets[offset : offset + limit]
            return {"last": offset + limit >= len(fake.tickets), "tickets": rows}

    return page


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_the_clients_evidence_is_withheld_when_the_listing_moved(pkg, api, walk):
    """A native listing's own evidence token is not handed out from a doubted walk (the client's
    ``.evidence``), and is when nothing moved."""
    base, fake = api
    fake.reset()
    result = WALKS[walk](pkg, base, "list_native_tickets", limit=3)
    assert result.complete is True and len(result.items) == 7
    assert result.evidence is None
    assert [w.code for w in result.warnings] == ["ITEMS_SEEN_TWICE", "EVIDENCE_WITHHELD"]
    assert result.warnings[1].details == {"because": ["ITEMS_SEEN_TWICE"]}
    fake.reset()
    fake.tickets_page = _no_insert(fake)  # type: ignore[method-assign]
    try:
        clean = WALKS[walk](pkg, base, "list_native_tickets", limit=3)
    finally:
        del fake.tickets_page
    assert clean.complete is True and clean.evidence == API_TOKEN and clean.warnings == ()


def test_the_native_listing_through_the_mcp_tool_withholds_once(pkg, api):
    base, fake = api
    fake.reset()
    env = _tool(pkg, base, "list_native_tickets")
    assert env["status"] == "complete" and env["evidence"] is None
    assert [w["code"] for w in env["warnings"]] == ["ITEMS_SEEN_TWICE", "EVIDENCE_WITHHELD"]


# -- a page continuation bound to its filter --------------------------------------------------


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_page_continuation_resumes_its_own_query_only(pkg, api, walk):
    base, fake = api
    first = WALKS[walk](pkg, base, "list_events_by_kind", kind="login", count=3, max_pages=1)
    assert first.complete is False and first.codes == ["CLIENT_PAGE_LIMIT"]
    token = first.continuation.cursor
    rest = WALKS[walk](pkg, base, "list_events_by_kind", kind="login", count=3, continuation=token)
    assert rest.complete is True
    assert [e.id for e in first.items + rest.items] == [e["id"] for e in EVENTS]
    cont = importlib.import_module(f"{PACKAGE}._runtime.walk_continuations")
    for other in ({"kind": "logout", "count": 3}, {"kind": "login", "count": 2}):
        fake.reset()
        with pytest.raises(cont.ContinuationMismatch, match="invalidated-by"):
            WALKS[walk](pkg, base, "list_events_by_kind", continuation=token, **other)
        assert fake.log == []  # refused before any request


def test_a_page_continuation_of_another_query_is_refused_by_the_mcp_tool(pkg, api):
    base, fake = api
    first = _tool(pkg, base, "list_events_by_kind", kind="login", max_pages=1)
    assert first["status"] == "partial"
    token = first["completeness"]["continuation"]["cursor"]
    same = _tool(pkg, base, "list_events_by_kind", kind="login", continuation=token)
    assert same["status"] == "complete"
    fake.reset()
    other = _tool(pkg, base, "list_events_by_kind", kind="logout", continuation=token)
    assert other["status"] == "error" and other["data"] is None
    assert other["error"]["code"] == "INVALID_ARGUMENTS"
    assert "invalidated-by" in other["error"]["message"]
    assert fake.log == []


# -- the set of seen ids is bounded -----------------------------------------------------------


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_full_set_of_seen_ids_says_duplicate_detection_stopped(pkg, api, walk, monkeypatch):
    base, fake = api
    fake.reset()
    monkeypatch.setenv("XC_MAX_SEEN_IDS", "2")
    result = WALKS[walk](pkg, base, "list_tickets", limit=3)
    # t6, t5 remembered; t4 (read twice) is not: the repeat goes unseen, and the result says so
    assert [t.id for t in result.items] == ["t6", "t5", "t4", "t4", "t3", "t2", "t1"]
    assert result.complete is True
    assert [(w.code, w.details) for w in result.warnings] == [
        ("DUPLICATE_CHECK_STOPPED", {"limit": 2, "after": 2})
    ]
    assert "XC_MAX_SEEN_IDS" in result.warnings[0].message
    monkeypatch.setenv("XC_MAX_SEEN_IDS", "3")  # t4 remembered: its repeat is still caught
    fake.reset()
    result = WALKS[walk](pkg, base, "list_tickets", limit=3)
    assert [(w.code, w.details) for w in result.warnings] == [
        ("DUPLICATE_CHECK_STOPPED", {"limit": 3, "after": 4}),
        ("ITEMS_SEEN_TWICE", {"ids": ["t4"], "count": 1}),
    ]


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_frozen_listing_whose_duplicate_check_stopped_is_not_complete(
    pkg, api, walk, monkeypatch
):
    """Frozen promises no id twice; a walk that stopped remembering ids cannot confirm it, so
    it ends with the client reason DUPLICATES_UNCHECKED (items kept, narrow_query), never a
    complete result; with the bound high enough the same walk is complete."""
    base, fake = api
    fake.reset()
    fake.tickets_page = _no_insert(fake)  # type: ignore[method-assign]  # a truly frozen listing
    try:
        whole = WALKS[walk](pkg, base, "list_tickets_frozen", limit=3)
        assert whole.complete is True and whole.warnings == () and len(whole.items) == TICKETS
        monkeypatch.setenv("XC_MAX_SEEN_IDS", "2")
        result = WALKS[walk](pkg, base, "list_tickets_frozen", limit=3)
    finally:
        del fake.tickets_page
    assert [t.id for t in result.items] == [t.id for t in whole.items]  # every item kept
    assert result.complete is False and result.warnings == ()
    (reason,) = result.reasons
    assert (reason.code, reason.origin) == ("DUPLICATES_UNCHECKED", "client")
    assert reason.details == {"limit": 2, "after": 2}
    assert "XC_MAX_SEEN_IDS" in reason.message
    assert result.continuation.kind == "narrow_query"


def test_a_frozen_listing_whose_duplicate_check_stopped_is_partial_for_the_mcp_tool(
    pkg, api, monkeypatch
):
    base, fake = api
    fake.reset()
    monkeypatch.setenv("XC_MAX_SEEN_IDS", "2")
    fake.tickets_page = _no_insert(fake)  # type: ignore[method-assign]
    try:
        env = _tool(pkg, base, "list_tickets_frozen")
    finally:
        del fake.tickets_page
    assert env["status"] == "partial" and env["evidence"] is None
    assert [r["code"] for r in env["completeness"]["reasons"]] == ["DUPLICATES_UNCHECKED"]
    assert env["completeness"]["continuation"]["kind"] == "narrow_query"
    assert len(env["data"]["tickets"]) == TICKETS


def test_a_stopped_duplicate_check_withholds_the_mcp_evidence(pkg, api, monkeypatch):
    base, fake = api
    fake.reset()
    monkeypatch.setenv("XC_MAX_SEEN_IDS", "2")
    env = _tool(pkg, base, "list_tickets_minted")
    assert env["status"] == "complete" and env["evidence"] is None
    assert [w["code"] for w in env["warnings"]] == ["DUPLICATE_CHECK_STOPPED", "EVIDENCE_WITHHELD"]
    assert env["warnings"][1]["details"] == {"because": ["DUPLICATE_CHECK_STOPPED"]}


def test_a_bad_seen_ids_bound_is_refused(pkg, api, monkeypatch):
    base, _ = api
    monkeypatch.setenv("XC_MAX_SEEN_IDS", "none")
    with pytest.raises(ValueError, match="XC_MAX_SEEN_IDS must be a positive integer"):
        collect_sync(pkg, base, "list_tickets", limit=3)


# -- a request-body cursor (Box's POST metadata query) ----------------------------------------


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_body_cursor_is_walked_in_the_json_body(pkg, api, walk):
    base, fake = api
    fake.reset()
    result = WALKS[walk](
        pkg, base, "execute_metadata_query", params=QUERY, query_params={"value": 100}, limit=2
    )
    assert result.complete is True and result.reasons == () and result.pages == 3
    assert [f.id for f in result.items] == ["f2", "f3", "f4", "f5", "f6", "f7"]
    assert [q for _, q in fake.log] == ["", "", ""]  # nothing in the query string
    sent = [{k: b.get(k) for k in ("marker", "limit")} for b in fake.bodies]
    assert sent == [
        {"marker": None, "limit": 2},
        {"marker": "2", "limit": 2},
        {"marker": "4", "limit": 2},
    ]
    assert all({**QUERY, "query_params": {"value": 100}}.items() <= b.items() for b in fake.bodies)


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_body_cursor_continuation_resumes_its_own_query_only(pkg, api, walk):
    base, fake = api
    ask = {"params": QUERY, "query_params": {"value": 100}, "limit": 2}
    first = WALKS[walk](pkg, base, "execute_metadata_query", max_pages=1, **ask)
    assert first.codes == ["CLIENT_PAGE_LIMIT"]
    fake.reset()
    rest = WALKS[walk](pkg, base, "execute_metadata_query", continuation=first.continuation, **ask)
    assert rest.complete is True and [f.id for f in first.items + rest.items] == [
        f"f{i}" for i in range(2, 8)
    ]
    assert fake.bodies[0]["marker"] == "2"  # resumed in the body where the first walk stopped
    cont = importlib.import_module(f"{PACKAGE}._runtime.walk_continuations")
    fake.reset()
    with pytest.raises(cont.ContinuationMismatch, match="invalidated-by"):
        WALKS[walk](
            pkg,
            base,
            "execute_metadata_query",
            continuation=first.continuation,
            **{**ask, "query_params": {"value": 300}},
        )
    assert fake.log == []


def test_a_body_cursor_through_the_mcp_tool(pkg, api):
    base, fake = api
    server_mod = importlib.import_module(f"{PACKAGE}.tools.mcp_server")
    host = server_mod.build_host(base, {}, secret=b"s" * 32)
    (tool,) = [t for t in host.definitions() if t["name"] == "execute_metadata_query"]
    offered = set(tool["inputSchema"]["properties"])
    # the query's body fields are offered; the body cursor and size are the walk's
    assert {"from", "query", "query_params", "ancestor_folder_id"} <= offered
    assert not {"marker", "limit"} & offered
    fake.reset()
    env = _tool(
        pkg,
        base,
        "execute_metadata_query",
        **{"from": "enterprise.contract"},
        ancestor_folder_id="0",
        query="amount >= :value",
        query_params=json.dumps({"value": 100}),  # an open object: a JSON-encoded argument
    )
    assert env["status"] == "complete", env.get("error")
    assert [f["id"] for f in env["data"]["entries"]] == [f"f{i}" for i in range(2, 8)]
    assert [b.get("marker") for b in fake.bodies] == [None]  # one page of up to 100
    assert fake.bodies[0]["from"] == "enterprise.contract"
    assert fake.bodies[0]["query_params"] == {"value": 100}


def test_verify_walks_the_body_paged_search_with_its_body(api):
    """verify sends a POST search paged in its body (its declaration makes it a read), with the
    body built from --param values, twice (page sizes 2 and 100); nothing else that is not GET."""
    from xcompleteness.api import verify

    base, fake = api
    fake.reset()
    result = verify(
        SPEC,
        base,
        params={"from": "enterprise.contract", "ancestor_folder_id": "0"},
        max_pages=10,
    )
    (record,) = [o for o in result.operations if o["operation_id"] == "executeMetadataQuery"]
    assert record["state"] == "ok" and record["findings"] == []
    walks = [(w["page_size"], w["pages"], w["items"], w["complete"]) for w in record["walks"]]
    assert walks == [(2, 4, 8, True), (100, 1, 8, True)]
    sent = [(b.get("marker"), b.get("limit")) for b in fake.bodies]
    assert sent == [(None, 2), ("2", 2), ("4", 2), ("6", 2), (None, 100)]
    assert all(b["from"] == "enterprise.contract" for b in fake.bodies)
    assert {p for p, _ in fake.log} >= {"/metadata_queries/execute_read"}
