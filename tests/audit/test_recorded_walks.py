"""`audit --responses` / `verify --recorded` on APIs whose paging positions are numbers and whose
first page is asked for with a start token (issue 19 §5).

The recordings are captured here from loopback uvicorn fakes (tests/support/recorded_fakes.py)
walked the way their SDKs walk them, through an httpx event hook that writes HAR entries:

* a Twitter v1.1-shaped cursored collection: a 64-bit integer ``next_cursor`` sent back as the
  ``cursor`` query text, the first page asked for with ``cursor=-1``, the end said by
  ``next_cursor: 0``. The HAR holds the same listing walked twice, back to back;
* a DingTalk-shaped POST listing: a number ``result.next_cursor`` sent back as the number
  ``cursor`` in the JSON body, the first page sent with ``cursor: 0``; also walked twice.

What is checked: a number in a response matches the same number in the next request's body or
its decimal text in the query (never a substring); the recording is cut into walks by the chain
(a request continues a walk only when it sends what that walk's last page handed out), so a
start token starts a walk and two walks of one listing are two walks: an id repeated across the
two is no finding, one repeated within a walk is; the end a number says (``0``) is drafted; and
the reviewed drafts walk the recording and the live fake clean while the description-only draft
does not. Evidence names fields and entries, never a cursor, an id or a credential.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.fault_server import serve
from support.har import audit_outputs
from support.recorded_fakes import (
    SECRET,
    databases_app,
    dept_users_app,
    followers_app,
    record,
    walk_databases,
    walk_dept_users,
    walk_followers,
)
from xcompleteness import api

REC = Path(__file__).parent / "recorded"
FOLLOWERS = REC / "followers.yaml"
DEPT_USERS = REC / "deptusers.yaml"
DATABASES = REC / "databases.yaml"
FOLLOWERS_TARGET = "$.paths['/followers/list.json'].get"
DEPT_TARGET = "$.paths['/topapi/user/listsimple'].post"
NEXT = "$response.body#/next_cursor"


@pytest.fixture(scope="module")
def recordings(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("har")
    twice = [functools.partial(walk_followers, count=3)] * 2
    return {
        "followers": record(followers_app(), tmp / "followers.har", twice),
        "dept": record(
            dept_users_app(),
            tmp / "deptusers.har",
            [functools.partial(walk_dept_users, size=3)] * 2,
        ),
    }


def _audit(spec: Path, out: Path, responses: Path | None) -> dict[str, Any]:
    result = api.audit(spec, emit_overlay=out, responses=responses, force=True)
    assert result.report is not None, result.diagnostics
    return yaml.safe_load(out.read_text("utf-8"))["actions"][0]["update"]["x-completeness"]


def _todos(decl: dict[str, Any], topic: str) -> list[str]:
    return [t for t in decl.get("x-todo", []) if t.startswith(topic + ":")]


def _rewrite(har: Path, out: Path, edit) -> Path:
    data = json.loads(har.read_text("utf-8"))
    edit(data["log"]["entries"])
    out.write_text(json.dumps(data), "utf-8")
    return out


def _reviewed(decl: dict[str, Any], tmp_path: Path, name: str, target: str, **set_) -> Path:
    """The draft with its review questions answered as a person would: the visibility said,
    the 'up to 200 users' read as the page-size maximum (not a cap), the id named."""
    decl = copy.deepcopy(decl)
    left = {t.split(":")[0] for t in decl.pop("x-todo", [])}
    assert left <= {"visibility", "limit", "id"}, left
    decl.pop("x-evidence", None)
    decl["scope"]["visibility"] = "the followers the access token can read"
    decl.update(set_)
    overlay = {
        "overlay": "1.0.0",
        "info": {"title": name, "version": "1"},
        "actions": [{"target": target, "update": {"x-completeness": decl}}],
    }
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(overlay, sort_keys=False), "utf-8")
    return path


def _codes(result: api.VerifyResult) -> set[str]:
    return {d.code for d in result.diagnostics}


# -- a start token, two walks of one listing, a numeric end -------------------------------------


def test_two_walks_from_a_start_token_are_two_walks_and_a_repeat_across_them_is_no_finding(
    recordings, tmp_path
):
    """Both walks ask for their first page with cursor=-1 and read the same 7 followers: the
    chain cuts the HAR into two walks (cursor=-1 continues no page), so /id is unique."""
    decl = _audit(FOLLOWERS, tmp_path / "draft.yaml", recordings["followers"])
    assert _todos(decl, "id") == []
    assert (
        "id: /id is present and unique in 14 recorded items (followers.har entry 1 ... "
        "followers.har entry 6 (6 pages); 2 walks)"
    ) in decl["x-evidence"]


def test_a_repeat_within_one_walk_is_still_a_finding(recordings, tmp_path):
    def repeat(entries: list[dict[str, Any]]) -> None:
        content = entries[1]["response"]["content"]  # page 2 of walk 1
        page = json.loads(content["text"])
        page["users"][0]["id"] = json.loads(entries[0]["response"]["content"]["text"])["users"][0][
            "id"
        ]
        content["text"] = json.dumps(page)

    repeated = _rewrite(recordings["followers"], tmp_path / "repeated.har", repeat)
    decl = _audit(FOLLOWERS, tmp_path / "draft.yaml", repeated)
    (todo,) = _todos(decl, "id")
    assert todo.startswith("id: /id is repeated within a recorded walk (14 recorded items)")
    assert todo.endswith("; 2 walks)")


def test_a_numeric_end_marker_is_drafted_from_the_recording(recordings, tmp_path):
    """The schema says next_cursor is an integer, the prose says 0 ends: the description-only
    draft ends on an absent cursor and would ask for cursor=0. Every walk's last recorded page
    sends 0: the walk must end on it."""
    plain = _audit(FOLLOWERS, tmp_path / "plain.yaml", None)
    assert plain["reasons"][0]["when"] == {"present": NEXT}
    decl = _audit(FOLLOWERS, tmp_path / "draft.yaml", recordings["followers"])
    assert decl["reasons"][0] == {
        "code": "MORE_PAGES_AVAILABLE",
        "when": {"all": [{"present": NEXT}, {"not-equals": [NEXT, 0]}]},
    }
    assert (
        f"pagination: the last recorded page of each walk sends {NEXT} as 0 (followers.har entry "
        "3, followers.har entry 6); the walk ends on it, not only on an absent cursor"
    ) in decl["x-evidence"]


def test_the_recorded_end_walks_clean_offline_and_live_and_the_drafted_one_does_not(
    recordings, tmp_path
):
    """verify --recorded answers the walk's first request (no cursor) with a page recorded with
    the start token, and the numeric cursor the walk sends as query text with the recorded page
    that asked for it."""
    plain = _reviewed(
        _audit(FOLLOWERS, tmp_path / "p.yaml", None), tmp_path, "plain", FOLLOWERS_TARGET
    )
    fixed = _reviewed(
        _audit(FOLLOWERS, tmp_path / "d.yaml", recordings["followers"]),
        tmp_path,
        "fixed",
        FOLLOWERS_TARGET,
    )
    assert not api.check(FOLLOWERS, [fixed], strict=True).diagnostics
    auth = {"Authorization": f"Bearer {SECRET}"}
    offline = api.verify(FOLLOWERS, "", [fixed], recorded=recordings["followers"])
    assert offline.exit_code == 0 and not offline.diagnostics, offline.diagnostics
    assert offline.summary[0].startswith("listFollowers: ok (")
    with serve(followers_app()) as base:
        live = api.verify(FOLLOWERS, base + "/1.1", [fixed], headers=auth)
        assert live.exit_code == 0 and not live.diagnostics, live.diagnostics
        looping = api.verify(FOLLOWERS, base + "/1.1", [plain], headers=auth)
    assert "XC713" in _codes(looping)  # live: cursor=0 answers 0 again
    left = api.verify(FOLLOWERS, "", [plain], recorded=recordings["followers"])
    assert "XC717" in _codes(left)  # offline: nobody recorded cursor=0


def test_a_numeric_cursor_the_schema_does_not_show_is_found_from_the_requests(recordings, tmp_path):
    """The same API described without next_cursor in its response schema (as Asana's spec
    lacks next_page): the value of the next request's cursor query text is the number at
    /next_cursor of the page before, on every pair of both walks."""
    spec = yaml.safe_load(FOLLOWERS.read_text("utf-8"))
    schema = spec["paths"]["/followers/list.json"]["get"]["responses"]["200"]["content"]
    props = schema["application/json"]["schema"]["properties"]
    del props["next_cursor"], props["previous_cursor"]
    bare = tmp_path / "followers_bare.yaml"
    bare.write_text(yaml.safe_dump(spec, sort_keys=False), "utf-8")
    plain = _audit(bare, tmp_path / "plain.yaml", None)
    assert "pagination" not in plain and _todos(plain, "pagination")
    decl = _audit(bare, tmp_path / "draft.yaml", recordings["followers"])
    assert decl["pagination"] == {
        "style": "cursor",
        "request": {"cursor": "cursor", "size": "count"},
        "response": {"next": NEXT},
    }
    assert _todos(decl, "pagination") == []
    assert decl["reasons"][0]["when"] == {"all": [{"present": NEXT}, {"not-equals": [NEXT, 0]}]}
    assert any(
        e.startswith(
            f"pagination: the next cursor is at {NEXT}: the value recorded there is the "
            "cursor of the next request (followers.har entry 1 -> followers.har entry 2, "
            "followers.har entry 2 -> followers.har entry 3, followers.har entry 4 -> "
        )
        and e.endswith("; the last page has it 0")
        for e in decl["x-evidence"]
    ), decl["x-evidence"]


def test_an_unpaged_listing_recorded_twice_is_two_walks(recordings, tmp_path):
    """The same API described without paging (style none): each recorded request is a whole
    walk, so reading it twice repeats no id within a walk."""
    spec = yaml.safe_load(FOLLOWERS.read_text("utf-8"))
    op = spec["paths"]["/followers/list.json"]["get"]
    op["parameters"] = [p for p in op["parameters"] if p["name"] == "screen_name"]
    props = op["responses"]["200"]["content"]["application/json"]["schema"]["properties"]
    del props["next_cursor"], props["previous_cursor"]
    op["description"] = "Returns every follower of the user."
    unpaged = tmp_path / "unpaged.yaml"
    unpaged.write_text(yaml.safe_dump(spec, sort_keys=False), "utf-8")
    har = record(
        followers_app(),
        tmp_path / "twice.har",
        [functools.partial(walk_followers, count=200)] * 2,  # one page holds every follower
    )
    decl = _audit(unpaged, tmp_path / "draft.yaml", har)
    assert decl["pagination"] == {"style": "none"}
    assert _todos(decl, "id") == []
    assert (
        "id: /id is present and unique in 14 recorded items (twice.har entry 1, twice.har entry "
        "2; 2 walks)"
    ) in decl["x-evidence"]


# -- a number in the JSON body -------------------------------------------------------------------


def test_a_numeric_body_cursor_is_confirmed_and_walks_clean(recordings, tmp_path):
    plain = _audit(DEPT_USERS, tmp_path / "plain.yaml", None)
    assert any("$request.body#/cursor" in t for t in _todos(plain, "pagination"))
    decl = _audit(DEPT_USERS, tmp_path / "draft.yaml", recordings["dept"])
    assert _todos(decl, "pagination") == []
    assert decl["pagination"]["request"] == {
        "cursor": "$request.body#/cursor",
        "size": "$request.body#/size",
    }
    nxt = "$response.body#/result/next_cursor"
    assert (
        f"pagination: each recorded request sends the {nxt} of the page before in the body field "
        "cursor (deptusers.har entry 1 -> deptusers.har entry 2, deptusers.har entry 2 -> "
        "deptusers.har entry 3, deptusers.har entry 4 -> deptusers.har entry 5)"
    ) in decl["x-evidence"]
    assert (  # cursor 0 on entry 4 continues no walk: it starts the second
        f"pagination: 2 recorded page(s) end a walk with {nxt} absent; the walk ends there "
        "(deptusers.har entry 3, deptusers.har entry 6)"
    ) in decl["x-evidence"]
    reviewed = _reviewed(decl, tmp_path, "reviewed", DEPT_TARGET, id="/userid")
    assert not api.check(DEPT_USERS, [reviewed], strict=True).diagnostics
    params = {"dept_id": "1"}
    offline = api.verify(DEPT_USERS, "", [reviewed], params=params, recorded=recordings["dept"])
    assert offline.exit_code == 0 and not offline.diagnostics, offline.diagnostics
    with serve(dept_users_app()) as base:
        headers = {"x-acs-dingtalk-access-token": SECRET}
        live = api.verify(DEPT_USERS, base, [reviewed], headers=headers, params=params)
    assert live.exit_code == 0 and not live.diagnostics, live.diagnostics


def test_a_number_that_two_body_fields_carry_is_not_taken_for_the_cursor(recordings, tmp_path):
    """Page 1 hands out next_cursor 3 and page 2 asks with {cursor: 3, size: 3}: on that one
    pair both fields carry the number. A draft naming neither is told both, not one guessed."""
    cut = _rewrite(
        recordings["dept"], tmp_path / "cut.har", lambda e: e.__delitem__(slice(2, None))
    )
    spec = yaml.safe_load(DEPT_USERS.read_text("utf-8"))
    body = spec["paths"]["/topapi/user/listsimple"]["post"]["requestBody"]["content"]
    props = body["application/json"]["schema"]["properties"]
    props["next_cursor"] = props.pop("cursor")  # a description naming the cursor field wrongly
    body["application/json"]["schema"]["required"] = ["dept_id", "size"]
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(yaml.safe_dump(spec, sort_keys=False), "utf-8")
    drafted = _audit(wrong, tmp_path / "plain.yaml", None)
    if (
        drafted.get("pagination", {}).get("request", {}).get("cursor")
        != "$request.body#/next_cursor"
    ):
        pytest.fail(f"the description-only draft changed: {drafted.get('pagination')}")
    decl = _audit(wrong, tmp_path / "draft.yaml", cut)
    nxt = "$response.body#/result/next_cursor"
    assert _todos(decl, "pagination") == [
        f"pagination: the recorded requests send the {nxt} of the page before in the body field "
        "cursor or the body field size, not in the body field next_cursor; declare "
        "request.cursor as the one of them the API reads (evidence: cut.har entry 1 -> cut.har "
        "entry 2)"
    ]
    full = _audit(wrong, tmp_path / "full.yaml", recordings["dept"])  # more pairs settle it
    (todo,) = _todos(full, "pagination")
    assert (
        "in the body field cursor, not in the body field next_cursor; declare request.cursor: "
        in todo
    )


# -- the walk split when the draft names the wrong body field --------------------------------------


def test_walks_follow_where_the_recording_sends_the_cursor_not_the_drafted_field(tmp_path):
    """The Notion-shaped spec names the body cursor ``cursor``; the API reads ``start_cursor``.
    Cut by the drafted field, every page would start a walk and a repeated id would go unseen;
    cut where the recording shows the token sent, the repeat inside a walk is a finding."""
    har = record(databases_app(), tmp_path / "databases.har", [walk_databases] * 2)

    def repeat(entries: list[dict[str, Any]]) -> None:
        content = entries[1]["response"]["content"]
        page = json.loads(content["text"])
        page["results"][0]["id"] = json.loads(entries[0]["response"]["content"]["text"])["results"][
            0
        ]["id"]
        content["text"] = json.dumps(page)

    clean = _audit(DATABASES, tmp_path / "clean.yaml", har)
    assert _todos(clean, "id") == []
    assert any(
        e.startswith("id: /id is present and unique") and "2 walks" in e
        for e in clean["x-evidence"]
    )
    decl = _audit(DATABASES, tmp_path / "draft.yaml", _rewrite(har, tmp_path / "r.har", repeat))
    (todo,) = _todos(decl, "id")
    assert todo.startswith("id: /id is repeated within a recorded walk")


@pytest.mark.parametrize("name", ["followers", "dept"])
def test_no_cursor_id_or_credential_of_the_recording_is_printed(recordings, tmp_path, name):
    recording = recordings[name]
    raw = recording.read_text("utf-8")
    assert SECRET in raw and "COOKIE_NEVER_PRINT_ME" in raw
    spec = FOLLOWERS if name == "followers" else DEPT_USERS
    text = "\n".join(audit_outputs(spec, recording, tmp_path / "draft.yaml"))
    assert "evidence" in text
    cursors = {
        str(json.loads(e["response"]["content"]["text"]).get("next_cursor"))
        for e in json.loads(raw)["log"]["entries"]
    } - {"None", "0"}
    for secret in ("NEVER_PRINT_ME", "Bearer", "20037", "manager00", *cursors):
        assert secret not in text
