"""One MCP answer holds what an agent's context can take; the rest follows by continuation.

Postmark's search answered 10,000 items in one tool result (20 pages of 500, the default
``max_pages``). The host now bounds one listing answer by the bytes of its items' compact JSON
(100,000 by default) and, when configured, by their number. An answer that reaches the bound is
``partial`` with the client reason ``CLIENT_ANSWER_LIMIT`` and a ``next_cursor`` continuation
that resumes at the next item: the walk cuts the page it was reading, so a chain of answers
hands out every item exactly once. Checked with the official MCP SDK client against the
generated server and a uvicorn API on loopback that counts its requests.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi import FastAPI
from support.fault_server import serve
from support.gen import generate_and_import
from support.walks import call_tools

SPEC = Path(__file__).parents[1] / "client" / "specs" / "capped_search.yaml"
PACKAGE = "tools_area_answer_bound"
EVENTS = [{"id": i, "score": i % 7, "note": "n" * (i % 50)} for i in range(1, 251)]
MESSAGES = [{"MessageID": i, "Amount": 1, "Recipient": "r@example.com"} for i in range(1, 2_001)]


def make_app(seen: list[tuple[str, dict[str, str]]]) -> FastAPI:
    app = FastAPI()

    @app.get("/events")
    def list_events(after: str | None = None, limit: int = 40):
        seen.append(("events", {"after": str(after)}))
        start = int(after) if after else 0
        page = EVENTS[start : start + limit]
        nxt = str(start + limit) if start + limit < len(EVENTS) else None
        return {"events": page, "next": nxt}

    @app.get("/messages/outbound")
    def search(count: int, offset: int):
        seen.append(("messages", {"offset": str(offset), "count": str(count)}))
        return {"TotalCount": len(MESSAGES), "Messages": MESSAGES[offset : offset + count]}

    return app


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory):
    return generate_and_import(SPEC, tmp_path_factory.mktemp("answer_bound"), PACKAGE)


def _chain(base: str, tool: str, **host_options) -> list[dict]:
    """Call ``tool`` and follow its continuations to the end; every answer, in order."""
    answers = []
    args: dict = {}
    while True:
        (answer,) = call_tools(PACKAGE, base, [(tool, args)], **host_options)
        answers.append(answer)
        assert len(answers) < 60, "the chain of answers does not end"
        if answer["status"] == "complete":
            return answers
        assert answer["status"] == "partial", answer.get("error")
        args = {"continuation": answer["completeness"]["continuation"]["cursor"]}


def test_a_cursor_listing_comes_in_bounded_answers_with_every_item_once(pkg):
    seen: list = []
    bound = 2_000
    with serve(make_app(seen)) as base:
        answers = _chain(base, "list_events", max_answer_bytes=bound)
    ids = [e["id"] for a in answers for e in a["data"]["events"]]
    assert ids == [e["id"] for e in EVENTS]  # none lost, none repeated, in order
    assert len(answers) > 6
    for answer in answers[:-1]:
        (reason,) = answer["completeness"]["reasons"]
        assert (reason["code"], reason["origin"]) == ("CLIENT_ANSWER_LIMIT", "client")
        assert reason["details"] == {"max_bytes": bound}
        assert answer["completeness"]["continuation"]["kind"] == "next_cursor"
        size = len(json.dumps(answer["data"]["events"], separators=(",", ":")).encode())
        assert size <= bound
    # Answers end inside pages of 40 (the bound is not a multiple of a page).
    assert any(len(a["data"]["events"]) % 40 for a in answers[:-1])


def test_an_offset_listing_resumes_at_the_offset_of_the_next_item(pkg):
    seen: list = []
    with serve(make_app(seen)) as base:
        first, second, third = _chain(
            base, "search_outbound_messages", max_answer_items=700, max_answer_bytes=None
        )
    counts = [len(a["data"]["messages"]) for a in (first, second, third)]
    assert counts == [700, 700, 600]
    assert first["completeness"]["reasons"][0]["details"] == {"max_items": 700}
    ids = [m["MessageID"] for a in (first, second, third) for m in a["data"]["messages"]]
    assert ids == list(range(1, 2_001))
    offsets = [int(q["offset"]) for kind, q in seen if kind == "messages"]
    assert offsets == [0, 500, 700, 1_200, 1_400, 1_900]  # resumed at the next item, not a page


def test_the_default_bound_keeps_a_large_answer_under_100_000_bytes(pkg):
    """Postmark's search with the host's defaults: the answer that held 2,000 items (20 pages
    of 100 at most) is cut near 100,000 bytes, and says so."""
    seen: list = []
    with serve(make_app(seen)) as base:
        (answer,) = call_tools(PACKAGE, base, [("search_outbound_messages", {})])
    size = len(json.dumps(answer["data"]["messages"], separators=(",", ":")).encode())
    assert 90_000 < size <= 100_000
    assert answer["status"] == "partial"
    assert [r["code"] for r in answer["completeness"]["reasons"]] == ["CLIENT_ANSWER_LIMIT"]
    assert answer["evidence"] is None


def test_an_item_larger_than_the_bound_is_still_handed_out_alone(pkg):
    seen: list = []
    ids, args = [], {}
    with serve(make_app(seen)) as base:
        for _ in range(45):  # past the first page of 40
            (answer,) = call_tools(PACKAGE, base, [("list_events", args)], max_answer_bytes=10)
            ids += [e["id"] for e in answer["data"]["events"]]
            args = {"continuation": answer["completeness"]["continuation"]["cursor"]}
    assert ids == list(range(1, 46))


def test_a_listing_within_the_bound_is_complete_and_mints_its_evidence_as_before(pkg):
    """The events listing (250 items, ~15 KB) fits the default bound: one complete answer."""
    seen: list = []
    with serve(make_app(seen)) as base:
        (answer,) = call_tools(PACKAGE, base, [("list_events", {})])
    assert answer["status"] == "complete" and len(answer["data"]["events"]) == len(EVENTS)


def test_a_bound_that_is_not_positive_is_refused(pkg):
    server_mod = __import__(f"{PACKAGE}.tools.mcp_server", fromlist=["build_host"])
    with pytest.raises(ValueError, match="max_answer_items"):
        server_mod.build_host("http://127.0.0.1:9", {}, max_answer_items=0)
    args = server_mod.parse_args(["--base-url", "http://x", "--max-answer-bytes", "0"])
    assert args.max_answer_bytes is None and args.max_answer_items is None
    with pytest.raises(SystemExit):
        server_mod.parse_args(["--base-url", "http://x", "--max-answer-items", "-3"])


def test_a_native_listing_resumes_inside_its_signed_cursor_pages(tmp_path_factory):
    """The native envelope (the fault server's /items: signed cursors, a frozen snapshot): the
    cut page is read again by its own cursor and the items already handed out are skipped."""
    from support.fault_server import FaultyCollection
    from support.fault_server import make_app as fault_app

    spec = Path(__file__).parents[1] / "client" / "specs" / "fault_api.yaml"
    package = "tools_area_answer_bound_native"
    generate_and_import(spec, tmp_path_factory.mktemp("answer_bound_native"), package)
    collection = FaultyCollection(95)
    answers, args = [], {}
    with serve(fault_app(collection)) as base:
        while len(answers) < 20:
            (answer,) = call_tools(
                package, base, [("list_items", args)], max_answer_items=30, max_answer_bytes=None
            )
            answers.append(answer)
            if answer["status"] != "partial":
                break
            args = {"continuation": answer["completeness"]["continuation"]["cursor"]}
    assert [a["status"] for a in answers] == ["partial"] * 3 + ["complete"]
    ids = [i["id"] for a in answers for i in a["data"]["items"]]
    assert len(ids) == 95 and len(set(ids)) == 95
    assert ids == sorted(ids)
