"""`audit --responses` on POST searches paged in their JSON body (issue 19 §5).

A cursor sent in the request body is drafted from names alone (``cursor`` in the request schema,
``cursor``/``next_cursor`` in the response) under a TODO: the description cannot say which body
field the API really reads. A HAR recording can: its entries keep each request's ``postData``, so
audit sees where request *k+1* sent page *k*'s next token.

The recordings are captured here, from loopback uvicorn fakes walked by an httpx client whose
event hook writes HAR entries (tests/support/har.py), with an Authorization header, a cookie and
opaque cursors that must never be printed:

* recorded/customers.yaml, a Square-shaped customer search: the API reads ``cursor`` and
  ``limit`` from the body, as the spec says. The recording confirms the draft (the TODO goes,
  ``request.size`` is the body's ``limit``, the evidence names the entries), and the reviewed
  draft walks the recording and the live API clean;
* recorded/databases.yaml, a Notion-shaped database query from a hand-written spec that names
  the body cursor ``cursor`` while the API reads ``start_cursor``: the draft would loop on page 1
  (verify: XC713/XC716 live and offline). The recording raises a TODO naming ``start_cursor``
  with its evidence, and following that TODO gives a declaration that walks clean;
* the same customer search recorded from an API that takes the cursor as a query parameter of
  the POST: the TODO names the query parameter.

A folder of saved pages, or a HAR exported without request bodies, cannot tell: the TODO stays.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from support.fault_server import serve
from support.har import HarRecorder, audit_outputs
from support.recorded_fakes import databases_app, opaque_offset, opaque_token
from xcompleteness import api

REC = Path(__file__).parent / "recorded"
CUSTOMERS = REC / "customers.yaml"
DATABASES = REC / "databases.yaml"
SECRET = "sq0atp-NEVER_PRINT_ME"
COOKIE = "session=COOKIE_NEVER_PRINT_ME"
PEOPLE = [
    {"id": f"C{i:02d}", "given_name": f"Person {i}", "group_ids": ["vip" if i % 2 else "std"]}
    for i in range(7)
]


def _customers_app(cursor_in_query: bool = False) -> FastAPI:
    app = FastAPI()

    @app.post("/v2/customers/search")
    async def search(request: Request) -> JSONResponse:
        if request.headers.get("authorization") != f"Bearer {SECRET}":
            return JSONResponse({"errors": [{"code": "UNAUTHORIZED"}]}, 401)
        body = await request.json()
        groups = ((body.get("query") or {}).get("filter") or {}).get("group_ids")
        rows = [p for p in PEOPLE if not groups or set(groups) & set(p["group_ids"])]
        cursor = request.query_params.get("cursor") if cursor_in_query else body.get("cursor")
        start, size = opaque_offset(cursor), min(int(body.get("limit") or 100), 100)
        page: dict[str, Any] = {"customers": rows[start : start + size]}
        if start + size < len(rows):
            page["cursor"] = opaque_token(start + size)  # absent on the last page
        return JSONResponse(page)

    return app


def _walk(client, path: str, body: dict[str, Any], cursor: str, nxt: str, query: bool = False):
    """Read every page the way the API's own SDK does, recording each exchange."""
    token = None
    while True:
        sent = dict(body) if query or token is None else {**body, cursor: token}
        params = {cursor: token} if query and token else None
        answer = client.post(path, json=sent, params=params).json()
        token = answer.get(nxt)
        if not token:
            return


def _record(app: FastAPI, tmp_path: Path, name: str, walks, *, query: bool = False) -> Path:
    recorder = HarRecorder()
    with serve(app) as base:
        headers = {"Authorization": f"Bearer {SECRET}", "Cookie": COOKIE}
        with recorder.client(base, headers=headers) as client:
            for path, body, cursor, nxt in walks:
                _walk(client, path, body, cursor, nxt, query)
    return recorder.write(tmp_path / name)


CUSTOMER_WALKS = [
    ("/v2/customers/search", {"limit": 3}, "cursor", "cursor"),
    (
        "/v2/customers/search",
        {"limit": 2, "query": {"filter": {"group_ids": ["vip"]}}},
        "cursor",
        "cursor",
    ),
]
DATABASE_WALKS = [("/v1/databases/d1/query", {}, "start_cursor", "next_cursor")]


@pytest.fixture(scope="module")
def recordings(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("har")
    return {
        "customers": _record(_customers_app(), tmp, "customers.har", CUSTOMER_WALKS),
        "query": _record(_customers_app(True), tmp, "query.har", CUSTOMER_WALKS, query=True),
        "databases": _record(databases_app(), tmp, "databases.har", DATABASE_WALKS),
    }


def _audit(spec: Path, out: Path, responses: Path | None) -> dict[str, Any]:
    result = api.audit(spec, emit_overlay=out, responses=responses, force=True)
    assert result.report is not None, result.diagnostics
    overlay = yaml.safe_load(out.read_text("utf-8"))
    return overlay["actions"][0]["update"]["x-completeness"]


def _body_todos(decl: dict[str, Any]) -> list[str]:
    return [t for t in decl.get("x-todo", []) if t.startswith("pagination:")]


def _reviewed(decl: dict[str, Any], tmp_path: Path, name: str, target: str, **extra) -> Path:
    """The draft with its remaining review TODOs answered (visibility), as a person would."""
    decl = copy.deepcopy(decl)
    assert [t.split(":")[0] for t in decl.pop("x-todo", [])] == ["visibility"]
    decl.pop("x-evidence", None)
    decl["scope"]["visibility"] = "objects the access token can read"
    actions = [{"target": target, "update": {"x-completeness": decl}}, *extra.get("more", [])]
    overlay = {"overlay": "1.0.0", "info": {"title": name, "version": "1"}, "actions": actions}
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(overlay, sort_keys=False), "utf-8")
    return path


def _codes(result: api.VerifyResult) -> set[str]:
    return {d.code for d in result.diagnostics}


def test_the_recorded_request_bodies_confirm_the_drafted_body_cursor(recordings, tmp_path):
    plain = _audit(CUSTOMERS, tmp_path / "plain.yaml", None)
    assert len(_body_todos(plain)) == 1 and "$request.body#/cursor" in _body_todos(plain)[0]
    assert "size" not in plain["pagination"]["request"]

    decl = _audit(CUSTOMERS, tmp_path / "draft.yaml", recordings["customers"])
    assert _body_todos(decl) == []  # the question the description left open is answered
    assert decl["pagination"]["request"] == {
        "cursor": "$request.body#/cursor",
        "size": "$request.body#/limit",  # found in the recorded bodies, not guessed
    }
    evidence = "\n".join(decl["x-evidence"])
    assert (
        "each recorded request sends the $response.body#/cursor of the page before in the body "
        "field cursor (customers.har entry 1 -> customers.har entry 2, customers.har entry 2 -> "
        "customers.har entry 3, customers.har entry 4 -> customers.har entry 5)"
    ) in evidence
    assert "request.size is the body field limit" in evidence
    assert (
        "2 recorded page(s) end a walk with $response.body#/cursor absent; the walk ends there "
        "(customers.har entry 3, customers.har entry 5)"
    ) in evidence


def test_the_confirmed_draft_walks_the_recording_and_the_live_api(recordings, tmp_path):
    decl = _audit(CUSTOMERS, tmp_path / "draft.yaml", recordings["customers"])
    reviewed = _reviewed(decl, tmp_path, "reviewed", "$.paths['/v2/customers/search'].post")
    assert not api.check(CUSTOMERS, [reviewed], strict=True).diagnostics
    offline = api.verify(CUSTOMERS, "", [reviewed], recorded=recordings["customers"])
    assert offline.exit_code == 0 and not offline.diagnostics, offline.diagnostics
    with serve(_customers_app()) as base:
        live = api.verify(
            CUSTOMERS, base, [reviewed], headers={"Authorization": f"Bearer {SECRET}"}
        )
    assert live.exit_code == 0 and not live.diagnostics, live.diagnostics


def test_a_recording_that_sends_the_token_in_another_body_field_raises_a_todo(recordings, tmp_path):
    """The hand-written spec names the body cursor ``cursor``; the API reads ``start_cursor``.
    From the description the draft is as good as any; the recording shows it is wrong."""
    decl = _audit(DATABASES, tmp_path / "draft.yaml", recordings["databases"])
    todos = _body_todos(decl)
    assert todos == [
        "pagination: the recorded requests send the $response.body#/next_cursor of the page "
        "before in the body field start_cursor, not in the body field cursor; declare "
        "request.cursor: $request.body#/start_cursor and add the property to the request body "
        "schema if it lacks it (XC146) (evidence: databases.har entry 1 -> databases.har entry 2)"
    ]
    assert decl["pagination"]["request"] == {"cursor": "$request.body#/cursor"}  # not confirmed
    assert not any("body field" in e for e in decl.get("x-evidence", []))

    target = "$.paths['/databases/{database_id}/query'].post"
    drafted = dict(decl, **{"x-todo": [t for t in decl["x-todo"] if t not in todos]})
    wrong = _reviewed(drafted, tmp_path, "wrong", target)
    params = {"database_id": "d1"}
    with serve(databases_app()) as base:
        online = api.verify(DATABASES, base + "/v1", [wrong], params=params)
        # the TODO followed literally: the field it names, added to the request body schema
        fixed = copy.deepcopy(drafted)
        fixed["pagination"]["request"]["cursor"] = "$request.body#/start_cursor"
        schema = (
            "$.paths['/databases/{database_id}/query'].post.requestBody.content"
            "['application/json'].schema.properties"
        )
        patch = {"target": schema, "update": {"start_cursor": {"type": "string"}}}
        right = _reviewed(fixed, tmp_path, "right", target, more=[patch])
        assert not api.check(DATABASES, [right], strict=True).diagnostics
        assert not api.verify(DATABASES, base + "/v1", [right], params=params).diagnostics
    offline = api.verify(DATABASES, "", [wrong], params=params, recorded=recordings["databases"])
    assert _codes(online) == _codes(offline) == {"XC713", "XC716"}  # the draft loops on page 1
    right_offline = api.verify(
        DATABASES, "", [right], params=params, recorded=recordings["databases"]
    )
    assert not right_offline.diagnostics, right_offline.diagnostics


def test_a_token_sent_back_as_a_query_parameter_is_named_as_one(recordings, tmp_path):
    decl = _audit(CUSTOMERS, tmp_path / "draft.yaml", recordings["query"])
    assert _body_todos(decl) == [
        "pagination: the recorded requests send the $response.body#/cursor of the page before "
        "in the query parameter cursor, not in the body field cursor; declare request.cursor: "
        "cursor (a query parameter) (evidence: query.har entry 1 -> query.har entry 2)"
    ]


def test_recordings_without_request_bodies_leave_the_question_open(recordings, tmp_path):
    """A folder of saved pages has no requests; a HAR exported without its request bodies has
    none either. Neither can say which field carries the cursor: the TODO stays as drafted."""
    plain = _body_todos(_audit(CUSTOMERS, tmp_path / "plain.yaml", None))
    har = json.loads(recordings["customers"].read_text("utf-8"))
    for entry in har["log"]["entries"]:
        entry["request"].pop("postData", None)
    bare = tmp_path / "bare.har"
    bare.write_text(json.dumps(har), "utf-8")
    folder = tmp_path / "pages"
    folder.mkdir()
    for n, entry in enumerate(har["log"]["entries"][:3], 1):
        (folder / f"SearchCustomers.{n}.json").write_text(entry["response"]["content"]["text"])
    for recording in (bare, folder):
        decl = _audit(CUSTOMERS, tmp_path / "draft.yaml", recording)
        assert _body_todos(decl) == plain
        assert decl["pagination"]["request"] == {"cursor": "$request.body#/cursor"}


def test_the_recording_stopping_before_the_end_keeps_the_end_question(recordings, tmp_path):
    har = json.loads(recordings["customers"].read_text("utf-8"))
    har["log"]["entries"] = har["log"]["entries"][:2]  # pages 1 and 2 of 3
    cut = tmp_path / "cut.har"
    cut.write_text(json.dumps(har), "utf-8")
    decl = _audit(CUSTOMERS, tmp_path / "draft.yaml", cut)
    assert decl["pagination"]["request"]["size"] == "$request.body#/limit"
    assert _body_todos(decl) == [
        "pagination: the recording stops before the last page (its last page still sends "
        "$response.body#/cursor); confirm how the last page shows it (the draft ends on a "
        "missing, null or empty one) (evidence: cut.har entry 2)"
    ]


@pytest.mark.parametrize("name", ["customers", "databases"])
def test_secrets_and_cursors_of_the_recording_are_never_printed(recordings, tmp_path, name):
    recording = recordings[name]
    raw = recording.read_text("utf-8")
    assert SECRET in raw and "COOKIE_NEVER_PRINT_ME" in raw and opaque_token(2) in raw
    spec = CUSTOMERS if name == "customers" else DATABASES
    text = "\n".join(audit_outputs(spec, recording, tmp_path / "draft.yaml"))
    assert "evidence" in text
    for secret in ("NEVER_PRINT_ME", "Bearer", "CURSORSECRET", opaque_token(2), opaque_token(3)):
        assert secret not in text


def test_ids_are_unique_per_recorded_walk_not_across_walks(recordings, tmp_path):
    """The customers recording holds two walks (all customers, then the VIP ones): the VIP
    customers come twice in the recording, once in each walk, which says nothing against /id. A
    repeat inside one walk does."""
    decl = _audit(CUSTOMERS, tmp_path / "draft.yaml", recordings["customers"])
    assert not any(t.startswith("id:") for t in decl["x-todo"])
    assert any(
        e.startswith("id: /id is present and unique in 10 recorded items") and "2 walks" in e
        for e in decl["x-evidence"]
    )
    har = json.loads(recordings["customers"].read_text("utf-8"))
    second = har["log"]["entries"][1]["response"]["content"]
    page = json.loads(second["text"])
    page["customers"][0]["id"] = "C00"  # page 2 of the first walk repeats page 1's first id
    second["text"] = json.dumps(page)
    repeated = tmp_path / "repeated.har"
    repeated.write_text(json.dumps(har), "utf-8")
    decl = _audit(CUSTOMERS, tmp_path / "draft.yaml", repeated)
    (todo,) = [t for t in decl["x-todo"] if t.startswith("id:")]
    assert todo.startswith("id: /id is repeated within a recorded walk (10 recorded items)")
