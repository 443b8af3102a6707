"""POST searches that follow next URLs while their query and page size travel in the JSON body
(issue 19 §2, request-body paging with the ``next-url`` and ``link-header`` styles).

With a URL style the walk follows the URL the API gives, so ``request`` names at most the page
size; a cursor, offset or page number in the body is not declarable (``XC049``: the URL carries
the position). What a next URL means for a POST search: the walk sends it with the same method
and the same JSON body (the caller's fields and the page size), as it sent the first page.

tests/client/specs/body_paging_urls.yaml declares an adapter search paged by a next URL in its
body, one by a ``Link`` header, a native envelope paged by a ``Link`` header and one whose body
gives the next URL (all four with the size in the body) and a GET next-url listing.
``xcompleteness mock`` (a subprocess on loopback) serves them: each next URL carries the position
and the URL's own query, never the body's values. The generated client (sync and async) and the
generated MCP tool (official SDK client) walk each to ``complete: true`` with the body's page
size on every page, and resume from a continuation.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
import yaml
from support.gen import generate_and_import
from support.har import HarRecorder
from support.mock_proc import mock_server
from support.walks import WALKS, call_tools
from xcompleteness import api

SPEC = Path(__file__).parent / "specs" / "body_paging_urls.yaml"
PACKAGE = "client_area_body_paging_urls"
BODIES = {
    "search_events": ({"kind": "deploy"}, "limit"),
    "search_alerts": ({"state": "open"}, "per_page"),
    "search_audits": ({"actor": "alice"}, "limit"),
    "search_notes": ({"tag": "todo"}, "limit"),
    "list_events": ({"kind": "deploy"}, "limit"),
}


def _ids(rows: list[Any]) -> list[str]:
    return [r["id"] if isinstance(r, dict) else r.id for r in rows]


@pytest.fixture(scope="module")
def pkg(tmp_path_factory):
    return generate_and_import(SPEC, tmp_path_factory.mktemp("body_paging_urls_gen"), PACKAGE)


@pytest.fixture(scope="module")
def mock():
    with mock_server(SPEC, "seed: 5\nitems: 9\npage-size: 4\n") as url:
        yield url


@pytest.mark.parametrize("walk", sorted(WALKS))
@pytest.mark.parametrize("attr", sorted(BODIES))
def test_the_client_walks_url_paged_searches_with_the_size_in_the_body(pkg, mock, walk, attr):
    body, size = BODIES[attr]
    result = WALKS[walk](pkg, mock, attr, **body, **{size: 2})
    assert result.complete is True and result.reasons == ()
    assert len(result.items) == 9 and len(set(_ids(result.items))) == 9
    # 2 + 2 + 2 + 2 + 1: the size the caller gave was sent on every page, not only the first
    # (the mock's own page size is 4)
    assert result.pages == 5
    first = WALKS[walk](pkg, mock, attr, max_pages=2, **body, **{size: 2})
    assert first.codes == ["CLIENT_PAGE_LIMIT"] and first.continuation
    rest = WALKS[walk](pkg, mock, attr, continuation=first.continuation, **body, **{size: 2})
    assert rest.complete is True and rest.pages == 3
    assert _ids(first.items) + _ids(rest.items) == _ids(result.items)


@pytest.mark.parametrize(
    ("path", "body", "where"),
    [
        ("/events/search", {"kind": "deploy", "limit": 2}, "body"),
        ("/alerts/search", {"state": "open", "per_page": 2}, "link"),
        ("/audits/search", {"actor": "alice", "limit": 2}, "link"),
        ("/notes/search", {"tag": "todo", "limit": 2}, "native-body"),
    ],
    ids=["next-url", "link-header", "native-link-header", "native-next-url"],
)
def test_a_next_url_carries_the_position_never_the_body(mock, path, body, where):
    """The next URL of a POST search is on the mock's origin and carries no body value: the body
    is sent again with it, and the size it carries decides the next page."""
    first = httpx.post(mock + path, json=body)
    assert first.status_code == 200
    nxt = {"body": "next_page_url", "native-body": "next_url"}.get(where)
    nxt = first.json()[nxt] if nxt else first.links["next"]["url"]
    parts = urlsplit(nxt)
    assert f"{parts.scheme}://{parts.netloc}" == mock and parts.path == path
    assert set(parse_qs(parts.query)) == {"_mock_cursor"}  # no kind/state/actor, no size
    again = httpx.post(nxt, json={**body, **{k: 3 for k in body if k in ("limit", "per_page")}})
    page = again.json()
    rows = page["data"] if where == "body" else page if isinstance(page, list) else page["items"]
    if where.startswith("native"):  # the envelope's continuation is the same next URL
        assert urlsplit(first.json()["next_cursor"]) == parts
    assert len(rows) == 3  # the body's size, read on a followed URL


def test_the_mcp_tool_walks_the_url_paged_body_searches(pkg, mock):
    calls = [(attr, body) for attr, (body, _) in sorted(BODIES.items())]
    results = call_tools(PACKAGE, mock, calls, secret=b"u" * 32)
    for (attr, _), result in zip(calls, results, strict=True):
        assert result["status"] == "complete", (attr, result)
        rows = next(v for v in result["data"].values() if isinstance(v, list))
        assert len(rows) == 9 and len(set(_ids(rows))) == 9, attr


@pytest.mark.parametrize("role", ["cursor", "offset", "page"])
@pytest.mark.parametrize("style", ["next-url", "link-header"])
def test_a_position_in_the_body_with_a_url_style_is_refused(tmp_path, role, style):
    """The URL carries the position: a cursor, offset or page in the body cannot be declared
    with a URL style. check says XC049 at the role; the mock refuses to start (exit 2) with the
    same diagnostic instead of serving pages nobody could walk."""
    doc = yaml.safe_load(SPEC.read_text("utf-8"))
    op = doc["paths"]["/events/search" if style == "next-url" else "/alerts/search"]["post"]
    op["x-completeness"]["pagination"]["request"][role] = "$request.body#/position"
    schema = op["requestBody"]["content"]["application/json"]["schema"]
    schema["properties"]["position"] = {"type": "string"}
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(doc, sort_keys=False), "utf-8")
    where = f"/x-completeness/pagination/request/{role}"
    for command in (["check"], ["mock", "--port", "0"]):
        proc = subprocess.run(
            [sys.executable, "-m", "xcompleteness", *command, str(spec)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        out = proc.stdout + proc.stderr
        assert proc.returncode == (1 if command == ["check"] else 2), out
        assert "error XC049" in out and where in out and f"remove request.{role}" in out
        assert "Traceback" not in out


def test_verify_walks_them_live_and_from_a_recording_of_the_same_traffic(mock, tmp_path):
    """``verify`` walks the four POST searches against the mock, and ``verify --recorded``
    walks a HAR captured from the same mock (each next URL sent with the body again; the replay
    matches each recorded request by its URL and body)."""
    params = {"kind": "deploy", "state": "open", "actor": "alice", "tag": "todo"}
    recorder = HarRecorder()
    with recorder.client(mock) as client:
        for path, field, size in (
            ("/events/search", "kind", "limit"),
            ("/alerts/search", "state", "per_page"),
            ("/audits/search", "actor", "limit"),
            ("/notes/search", "tag", "limit"),
        ):
            for body in ({field: params[field]}, {field: params[field], size: 100}):
                answer = client.post(path, json=body)  # a walk with and one without a size
                while nxt := (
                    answer.json().get("next_page_url" if path == "/events/search" else "next_url")
                    if path in ("/events/search", "/notes/search")
                    else answer.links.get("next", {}).get("url")
                ):
                    answer = client.post(nxt, json=body)
    har = recorder.write(tmp_path / "urls.har")
    live = api.verify(SPEC, mock, [], params=params)
    offline = api.verify(SPEC, "", [], params=params, recorded=har)
    assert live.exit_code == 0 and not live.diagnostics, live.diagnostics
    searches = [s for s in offline.summary if s.startswith("search")]
    assert searches == [
        f"{op}: ok (2 walk(s), 6 page(s), 9 item(s))"
        for op in ("searchAlerts", "searchAudits", "searchEvents", "searchNotes")
    ]
    assert {d.code for d in offline.diagnostics} == {"XC717"}  # listEvents was not recorded
    assert all("listEvents" in d.message for d in offline.diagnostics)
