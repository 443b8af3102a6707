"""`verify --recorded` on a POST search paged in its JSON body (issue 19 §5, request-body paging).

recorded/metadata.yaml is a Box-shaped metadata query: the query, ``marker`` and ``limit`` travel
in the JSON body of a POST, ``next_marker`` comes back (``""`` on the last page, although the
schema says null). The same three pages are recorded twice: as a HAR whose entries carry their
POST bodies (recorded/metadata.har, with credentials in its headers and cookies) and as a folder
of saved pages (recorded/box/). A loopback fake answers exactly those pages live.

The replayed walk finds each page by the cursor the walk writes into the body (a HAR entry by its
recorded body; a folder page by the cursor it follows), so the right draft walks the whole
recording, and a wrong draft (the end read from the schema's "null when there are no more",
missing the API's ``""``) is caught offline with the same XC71x codes as the live run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from support.fault_server import serve
from xcompleteness import api

REC = Path(__file__).parent / "recorded"
SPEC = REC / "metadata.yaml"
HAR = REC / "metadata.har"
FOLDER = REC / "box"
FILES = [{"id": f"f{i}", "name": f"contract-{i}.pdf"} for i in range(5)]
PARAMS = {"from": "enterprise.contract", "ancestor_folder_id": "0"}
NEXT = "$response.body#/next_marker"
RIGHT_END = {"all": [{"present": NEXT}, {"not-equals": [NEXT, ""]}]}  # what audit drafts
WRONG_END = {"present": NEXT}  # the schema's word ("null when there are no more") taken as true


def _overlay(tmp_path: Path, when: Any, name: str) -> Path:
    declaration = {
        "kind": "search",
        "mode": "adapter",
        "scope": {
            "resource": "files",
            "visibility": "files the token can read",
            "snapshot": "none",
        },
        "items": "$response.body#/entries",
        "id": "/id",
        "pagination": {
            "style": "cursor",
            "request": {"cursor": "$request.body#/marker", "size": "$request.body#/limit"},
            "response": {"next": NEXT},
            "max-page-size": 100,
        },
        "reasons": [{"code": "MORE_PAGES_AVAILABLE", "when": when}],
    }
    overlay = {
        "overlay": "1.0.0",
        "info": {"title": name, "version": "1"},
        "actions": [
            {
                "target": "$.paths['/metadata_queries/execute_read'].post",
                "update": {"x-completeness": declaration},
            }
        ],
    }
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(overlay, sort_keys=False), "utf-8")
    return path


def _page(body: dict[str, Any]) -> dict[str, Any]:
    start = int(body.get("marker") or 0)
    size = min(int(body.get("limit") or 100), 100)
    more = start + size < len(FILES)
    return {
        "entries": FILES[start : start + size],
        "limit": size,
        "next_marker": str(start + size) if more else "",
    }


@pytest.fixture(scope="module")
def live():
    app = FastAPI()

    @app.post("/2.0/metadata_queries/execute_read")
    async def query(request: Request) -> JSONResponse:
        body = await request.json()
        if body.get("from") != PARAMS["from"] or str(body.get("ancestor_folder_id")) != "0":
            return JSONResponse({"type": "error", "code": "bad_request"}, 400)
        return JSONResponse(_page(body))

    with serve(app) as base:
        yield base + "/2.0"


def _codes(result: api.VerifyResult) -> set[str]:
    return {d.code for d in result.diagnostics}


def test_the_recordings_are_the_pages_the_api_answers():
    """The fixtures are what the fake answers (so the live and offline runs see one API), and
    the HAR carries each page's POST body with its marker."""
    har = json.loads(HAR.read_text("utf-8"))
    bodies = [json.loads(e["request"]["postData"]["text"]) for e in har["log"]["entries"]]
    assert [b.get("marker") for b in bodies] == [None, "2", "4"]
    for n, (entry, body) in enumerate(zip(har["log"]["entries"], bodies, strict=True), 1):
        answered = json.loads(entry["response"]["content"]["text"])
        assert answered == _page(body)
        saved = json.loads((FOLDER / f"executeMetadataQuery.{n}.json").read_text("utf-8"))
        assert saved == answered


@pytest.mark.parametrize("recording", [HAR, FOLDER], ids=["har", "folder"])
def test_the_right_draft_walks_the_recording_by_its_body_cursor(tmp_path, recording):
    right = _overlay(tmp_path, RIGHT_END, "right")
    result = api.verify(SPEC, "", [right], params=PARAMS, recorded=recording)
    assert result.exit_code == 0 and not result.diagnostics, result.diagnostics
    # two walks (page sizes 2 and 100), each through the three recorded pages: the marker the
    # walk wrote into the body found pages 2 and 3 (a replay that ignored the body would answer
    # page 1 again and report a repeated cursor)
    assert result.summary == ("executeMetadataQuery: ok (2 walk(s), 6 page(s), 5 item(s))",)


def test_a_har_entry_is_matched_on_its_body_not_only_its_url(tmp_path):
    """The recorded query fields in the body must match too: a walk sent with another folder
    leaves the recording (XC717 NOT_RECORDED), never reads another query's pages."""
    right = _overlay(tmp_path, RIGHT_END, "right")
    other = {**PARAMS, "ancestor_folder_id": "12345"}
    result = api.verify(SPEC, "", [right], params=other, recorded=HAR)
    assert _codes(result) == {"XC717"} and result.exit_code == 1
    assert any("NOT_RECORDED" in d.message for d in result.diagnostics)


@pytest.mark.parametrize("recording", [HAR, FOLDER], ids=["har", "folder"])
def test_a_wrong_end_is_caught_offline_with_the_codes_of_the_live_run(tmp_path, live, recording):
    right = _overlay(tmp_path, RIGHT_END, "right")
    wrong = _overlay(tmp_path, WRONG_END, "wrong")
    assert not api.verify(SPEC, live, [right], params=PARAMS).diagnostics  # the API is sound
    online = api.verify(SPEC, live, [wrong], params=PARAMS)
    offline = api.verify(SPEC, "", [wrong], params=PARAMS, recorded=recording)
    assert online.exit_code == offline.exit_code == 1
    assert _codes(offline) == _codes(online) == {"XC710"}  # more signalled, no cursor to go on


def test_a_cursor_written_under_a_wrong_body_name_is_caught_like_live(tmp_path, live):
    """A draft that writes the cursor into another body property (``query``): the API ignores
    it and answers the first page again; the HAR replay (which leaves out a name no recorded
    request carries) reads the first page again too, and both report the same codes. A folder
    has no requests, so it cannot tell which name the cursor travels under."""
    wrong = _overlay(tmp_path, RIGHT_END, "wrong_name")
    overlay = yaml.safe_load(wrong.read_text("utf-8"))
    pagination = overlay["actions"][0]["update"]["x-completeness"]["pagination"]
    pagination["request"]["cursor"] = "$request.body#/query"
    wrong.write_text(yaml.safe_dump(overlay, sort_keys=False), "utf-8")
    online = api.verify(SPEC, live, [wrong], params=PARAMS)
    offline = api.verify(SPEC, "", [wrong], params=PARAMS, recorded=HAR)
    assert _codes(offline) == _codes(online) == {"XC713", "XC716"}  # loops on page 1


def test_secrets_of_the_har_never_reach_the_output(tmp_path):
    raw = HAR.read_text("utf-8")
    assert "box_NEVER_PRINT_ME" in raw and "COOKIE_NEVER_PRINT_ME" in raw
    wrong = _overlay(tmp_path, WRONG_END, "wrong")
    result = api.verify(SPEC, "", [wrong], params=PARAMS, recorded=HAR)
    text = json.dumps([str(d) for d in result.diagnostics]) + "\n".join(result.summary)
    assert "NEVER_PRINT_ME" not in text and "Bearer" not in text
