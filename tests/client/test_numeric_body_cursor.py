"""A numeric cursor in the JSON request body goes back as the number it was (issue 19 §2).

DingTalk's member listing hands out ``result.next_cursor`` as a JSON number and takes it back as
``cursor`` in the JSON request body. The walk kept cursors as text, so the generated client sent
``{"cursor": "3"}``: fine for a lenient (Jackson-like) server, refused by a strict one (Go's
``encoding/json`` into an int, pydantic strict). tests/client/specs/numeric_body_cursor.yaml
declares the listing; the strict loopback fake (``dept_users_app(strict=True)``, a pydantic
body model in strict mode on uvicorn) answers 422 to a number sent as text and keeps every body
it was sent. The generated sync and async clients, the generated MCP tool (official SDK client)
and ``verify`` walk it to ``complete: true`` sending ``{"cursor": 3}``, ``{"cursor": 6}``; a
walk stopped by a client limit resumes from its continuation sending the number again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.fault_server import serve
from support.gen import generate_and_import
from support.recorded_fakes import MEMBERS, SECRET, dept_users_app
from support.walk_helpers import scripted
from support.walks import WALKS, call_tools
from xcompleteness import api
from xcompleteness.check._pipeline import check_spec
from xcompleteness.runtime.walk import (
    ContinuationMismatch,
    Limits,
    Walker,
    decode_continuation,
    encode_continuation,
)

SPEC = Path(__file__).parent / "specs" / "numeric_body_cursor.yaml"
PACKAGE = "client_area_numeric_body_cursor"
ATTR = "list_department_users"
HEADERS = {"x-acs-dingtalk-access-token": SECRET}
USERIDS = [m["userid"] for m in MEMBERS]


def _ids(rows: list[Any]) -> list[str]:
    return [r["userid"] if isinstance(r, dict) else r.userid for r in rows]


def _cursors(app: Any) -> list[Any]:
    """The cursors the server was sent, as their JSON values (the first page sends none)."""
    return [b["cursor"] for b in app.state.bodies if "cursor" in b]


@pytest.fixture(scope="module")
def pkg(tmp_path_factory):
    return generate_and_import(SPEC, tmp_path_factory.mktemp("numeric_body_cursor"), PACKAGE)


@pytest.fixture
def strict():
    """The strict fake on a loopback uvicorn server: (base URL, app)."""
    app = dept_users_app(strict=True)
    with serve(app) as base:
        yield base, app


def test_the_strict_server_refuses_a_number_sent_as_text(strict):
    """The fake is as strict as the issue says: the old wire form is a 422, the number a page."""
    import httpx

    base, _ = strict
    url = base + "/topapi/user/listsimple"
    text = httpx.post(url, json={"dept_id": 1, "cursor": "3"}, headers=HEADERS)
    number = httpx.post(url, json={"dept_id": 1, "cursor": 3}, headers=HEADERS)
    assert text.status_code == 422 and "cursor" in text.json()["errmsg"]
    assert number.status_code == 200 and number.json()["result"]["next_cursor"] == 6


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_the_client_sends_the_numeric_cursor_back_as_a_number(pkg, strict, walk):
    base, app = strict
    result = WALKS[walk](pkg, base, ATTR, headers=HEADERS, dept_id=1)
    assert result.complete is True and result.reasons == (), result.reasons
    assert _ids(result.items) == USERIDS and result.pages == 3
    cursors = _cursors(app)
    assert cursors == [3, 6] and all(type(c) is int for c in cursors)


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_stopped_walk_resumes_sending_the_number_again(pkg, strict, walk):
    """The continuation carries the cursor as the number (a client token: plain text could not
    say whether ``"3"`` was 3), so the resumed walk sends ``{"cursor": 3}`` again."""
    base, app = strict
    first = WALKS[walk](pkg, base, ATTR, headers=HEADERS, dept_id=1, max_pages=1)
    assert first.codes == ["CLIENT_PAGE_LIMIT"] and first.continuation.kind == "next_cursor"
    token = first.continuation.cursor
    assert token.startswith("xc1.") and decode_continuation(token)["c"] == 3
    app.state.bodies.clear()
    rest = WALKS[walk](pkg, base, ATTR, headers=HEADERS, dept_id=1, continuation=first.continuation)
    assert rest.complete is True and rest.pages == 2, rest.reasons
    assert _ids(first.items) + _ids(rest.items) == USERIDS
    assert _cursors(app) == [3, 6] and all(type(c) is int for c in _cursors(app))
    # the continuation's text (what a tool hands a model) resumes the same way
    again = WALKS[walk](pkg, base, ATTR, headers=HEADERS, dept_id=1, continuation=token)
    assert again.complete is True and _ids(again.items) == USERIDS[3:]


def test_page_by_page_with_the_envelope_cursor_as_a_number(pkg, strict):
    """A page's envelope ``next_cursor`` is text (the envelope's type); given back as a number,
    the client sends it as the number."""
    base, app = strict
    with pkg.Client(base, headers=HEADERS) as client:
        op = getattr(client, ATTR)
        first = op.page(dept_id=1)
        assert first.next_cursor == "3" and _ids(first.items) == USERIDS[:3]
        second = op.page(dept_id=1, cursor=int(first.next_cursor))
        assert _ids(second.items) == USERIDS[3:6] and second.next_cursor == "6"
    assert _cursors(app) == [3] and type(_cursors(app)[0]) is int


def test_the_mcp_tool_walks_and_resumes_with_the_number(pkg, strict):
    base, app = strict
    whole, first = call_tools(
        PACKAGE,
        base,
        [(ATTR, {"dept_id": 1}), (ATTR, {"dept_id": 1, "max_pages": 1})],
        headers=HEADERS,
    )
    assert whole["status"] == "complete", whole
    assert _ids(whole["data"]["users"]) == USERIDS
    resume = first["completeness"]["continuation"]
    assert first["status"] == "partial" and resume["kind"] == "next_cursor"
    app.state.bodies.clear()
    (rest,) = call_tools(
        PACKAGE,
        base,
        [(ATTR, {"dept_id": 1, "continuation": resume["cursor"]})],
        headers=HEADERS,
    )
    assert rest["status"] == "complete", rest
    assert _ids(first["data"]["users"]) + _ids(rest["data"]["users"]) == USERIDS
    assert _cursors(app) == [3, 6] and all(type(c) is int for c in _cursors(app))


def test_verify_walks_the_strict_server(strict):
    """``verify`` drives the same walk core: it sends the number too, so the strict server
    answers every page (a 422 would be an unmapped error, XC717)."""
    base, app = strict
    report = api.verify(SPEC, base, [], headers=HEADERS, params={"dept_id": "1"})
    assert report.exit_code == 0 and not report.diagnostics, report.diagnostics
    cursors = _cursors(app)
    assert cursors and all(type(c) is int and 0 < c < len(MEMBERS) for c in cursors), cursors
    assert report.summary == ("listDepartmentUsers: ok (2 walk(s), 5 page(s), 7 item(s))",)


# -- the walk core, without HTTP ---------------------------------------------------------------


def _contract() -> Any:
    return check_spec(str(SPEC)).contracts["listDepartmentUsers"]


def _page(start: int, nxt: Any = None) -> tuple[int, dict[str, str], Any]:
    result: dict[str, Any] = {"has_more": nxt is not None, "list": MEMBERS[start : start + 3]}
    if nxt is not None:
        result["next_cursor"] = nxt
    return 200, {}, {"errcode": 0, "result": result}


@pytest.mark.parametrize(
    ("cursor", "kind"),
    [(3.5, "a fractional number"), (True, "a boolean"), ({"o": 3}, "an object"), ([3], "a list")],
)
def test_a_cursor_that_is_neither_text_nor_an_integer_ends_the_walk(cursor, kind):
    """The walk cannot send such a cursor back as the API gave it: CONTRACT_VIOLATION, never a
    guess (``3.5`` as ``"3.5"``, ``true`` as ``"True"``)."""
    log: list[Any] = []
    result = Walker(_contract(), scripted([_page(0, cursor)], log)).collect({"dept_id": 1})
    assert result.complete is False and result.codes == ["CONTRACT_VIOLATION"]
    what = result.reasons[0].details["what"]
    assert what.startswith(f"the next cursor is {kind} (") and "not a string or an integer" in what
    assert result.continuation.kind == "none" and len(log) == 1


def test_a_text_cursor_stays_text():
    """A cursor the API hands out as text goes back as the same text, even when it is digits."""
    log: list[Any] = []
    fetch = scripted([_page(0, "3"), _page(3)], log)
    result = Walker(_contract(), fetch).collect({"dept_id": 1})
    assert result.complete is True and log[1].params["cursor"] == "3"


def test_continuations_written_before_typed_cursors_still_resume():
    """A client token that carries the position as text (what every earlier runtime wrote)
    still decodes, and resumes with that text; plain text resumes as text, as it always did,
    and an integer a caller passes is sent as the integer."""
    old = encode_continuation({"o": "listDepartmentUsers", "s": "cursor", "c": "3", "n": 3})
    for resume, sent in ((old, "3"), ("3", "3"), (3, 3)):
        log: list[Any] = []
        fetch = scripted([_page(3, 6), _page(6)], log)
        result = Walker(_contract(), fetch).collect({"dept_id": 1}, resume=resume)
        assert result.complete is True and log[0].params["cursor"] == sent, resume
        assert type(log[0].params["cursor"]) is type(sent)


def test_a_tampered_or_forged_typed_continuation_is_refused():
    log: list[Any] = []
    first = Walker(_contract(), scripted([_page(0, 3)], log)).collect(
        {"dept_id": 1}, Limits(max_pages=1)
    )
    token = first.continuation.cursor
    assert decode_continuation(token)["c"] == 3
    body, check = token[len("xc1.") :].split(".")
    flipped = "A" if body[5] != "A" else "B"
    damaged = f"xc1.{body[:5]}{flipped}{body[6:]}.{check}"
    # re-sealed (the client has no secret) with a position no API hands out: still refused
    forged = [
        encode_continuation({"o": "listDepartmentUsers", "s": "cursor", "c": c, "n": 3})
        for c in (True, 3.5, None, {"o": 3})
    ]
    for text in (damaged, *forged):
        with pytest.raises(ContinuationMismatch):
            Walker(_contract(), scripted([])).collect({"dept_id": 1}, resume=text)


def test_a_numeric_cursor_equal_to_the_text_it_resumed_from_is_a_repeat():
    """The loop guard compares positions as text: a walk resumed from ``"3"`` that is handed 3
    again ends on a repeated cursor instead of reading the same page twice."""
    result = Walker(_contract(), scripted([_page(3, 3)])).collect({"dept_id": 1}, resume="3")
    assert result.codes == ["CONTRACT_VIOLATION"]
    assert result.reasons[0].details["what"] == "repeated cursor 3"
