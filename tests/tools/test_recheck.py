"""Destructive mutations declared with ``recheck: {each-target: getWidget}`` (no snapshot evidence).

The generated MCP server (tests/tools/specs/recheck.yaml), driven by the official MCP SDK client,
re-reads every target through the generated client against a real uvicorn API on 127.0.0.1 and
calls the mutation only when every target exists and reads complete; otherwise the refusal names
the failing ids and the API's delete endpoint was never called.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from support.gen import import_generated
from support.mcp_calls import call_tool

SECRET = b"r" * 32
TIMEOUT = 60
WIDGETS: dict[str, dict[str, Any]] = {
    "w-1": {"id": "w-1", "owner": "ann"},
    "w-2": {"id": "w-2", "owner": "bob"},
    "w-unasked": {"id": "w-unasked", "omitted_fields": {"owner": "NOT_REQUESTED"}},
    "w-hidden": {"id": "w-hidden", "owner": None, "omitted_fields": {"owner": "FORBIDDEN"}},
    "w-shard": {"id": "w-shard", "omitted_fields": {"owner": "SOURCE_FAILED"}},
    "w-absent": {"id": "w-absent", "omitted_fields": {"owner": "NOT_PRESENT"}},
    "w-both": {"id": "w-both", "omitted_fields": {"owner": "FORBIDDEN", "tag": "SOURCE_FAILED"}},
    "w-garbled": {"id": "w-garbled", "omitted_fields": None},
}
BROKEN = "w-broken"  # the read answers 500


class WidgetsApi:
    """The loopback API: records every read and every delete the MCP server sends."""

    def __init__(self) -> None:
        self.reads: list[str] = []
        self.deletes: list[list[str]] = []

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.get("/widgets/{widget_id}")
        def read(widget_id: str) -> JSONResponse:
            self.reads.append(widget_id)
            if widget_id == BROKEN:
                return JSONResponse({"error": {"code": "INTERNAL", "message": "boom"}}, 500)
            if widget_id not in WIDGETS:
                return JSONResponse({"error": {"code": "NOT_FOUND", "message": "none"}}, 404)
            return JSONResponse(WIDGETS[widget_id])

        @app.post("/widgets/delete")
        def delete(body: dict[str, Any]) -> JSONResponse:
            self.deletes.append(list(body.get("ids") or []))
            return JSONResponse({"deleted": list(body.get("ids") or [])})

        return app


@pytest.fixture(scope="module")
def server_mod(generated):
    import_generated(generated["xct_recheck"].parent, "xct_recheck")
    return importlib.import_module("xct_recheck.tools.mcp_server")


def call(server_mod, api: WidgetsApi, name: str, **args: Any) -> dict[str, Any]:
    return call_tool(server_mod, api.app(), name, args, secret=SECRET)


def failed(sc: dict[str, Any]) -> dict[str, str]:
    return {f["id"]: f["code"] for f in sc["approval"]["target_scope"]["failed_targets"]}


def test_every_target_present_and_complete_proceeds(server_mod):
    api = WidgetsApi()
    sc = call(server_mod, api, "delete_widgets", ids=["w-1", "w-2", "w-unasked"])
    assert sc["status"] == "complete"
    assert sc["data"]["response"] == {"deleted": ["w-1", "w-2", "w-unasked"]}
    assert api.reads == ["w-1", "w-2", "w-unasked"]  # NOT_REQUESTED is no gap in the answer
    assert api.deletes == [["w-1", "w-2", "w-unasked"]]


def test_a_missing_target_refuses_and_the_mutation_is_never_called(server_mod):
    api = WidgetsApi()
    sc = call(server_mod, api, "delete_widgets", ids=["w-1", "w-gone", "w-2"])
    assert sc["status"] == "error" and sc["error"]["reasons"] == ["TARGET_NOT_FOUND"]
    assert sc["error"]["decision"] == "refuse_or_request_review"
    assert failed(sc) == {"w-gone": "TARGET_NOT_FOUND"}
    scope = sc["approval"]["target_scope"]
    assert scope["recheck_tool"] == "get_widget" and scope["targets"] == ["w-1", "w-gone", "w-2"]
    assert [o["option"] for o in sc["approval"]["options"]] == [
        "retry_with_longer_deadline",
        "act_only_on_returned_ids",
        "abandon",
    ]
    assert "2 of the 3" in sc["approval"]["options"][1]["description"]
    assert api.reads == ["w-1", "w-gone", "w-2"] and api.deletes == []


def test_forbidden_source_failed_and_unreadable_targets_are_all_named(server_mod):
    api = WidgetsApi()
    sc = call(server_mod, api, "delete_widgets", ids=["w-hidden", "w-1", "w-shard", BROKEN])
    assert sc["error"]["reasons"] == ["TARGET_INCOMPLETE", "TARGET_READ_FAILED"]
    assert failed(sc) == {
        "w-hidden": "TARGET_INCOMPLETE",
        "w-shard": "TARGET_INCOMPLETE",
        BROKEN: "TARGET_READ_FAILED",
    }
    details = {f["id"]: f["detail"] for f in sc["approval"]["target_scope"]["failed_targets"]}
    assert details["w-hidden"] == "omitted: owner=FORBIDDEN" and details[BROKEN] == "HTTP 500"
    assert api.deletes == []


def test_no_targets_or_too_many_are_refused_without_any_api_call(server_mod):
    api = WidgetsApi()
    empty = call(server_mod, api, "delete_widgets", ids=[])
    many = call(server_mod, api, "delete_widgets", ids=[f"w-{i}" for i in range(201)])
    assert empty["error"]["reasons"] == ["TARGETS_MISSING"]
    assert many["error"]["reasons"] == ["TARGETS_TOO_MANY"]
    assert api.reads == [] and api.deletes == []


def test_the_recheck_tool_takes_no_evidence_and_says_what_it_rereads(generated):
    tools = json.loads((generated["xct_recheck"] / "tools" / "mcp.json").read_text())["tools"]
    delete = next(t for t in tools if t["name"] == "delete_widgets")
    assert set(delete["inputSchema"]["properties"]) == {"ids"}
    assert "re-reads every target id with get_widget" in delete["description"]
    assert delete["annotations"]["destructiveHint"] is True
    rules = (generated["xct_recheck"] / "tools" / "AGENT_RULES.md").read_text()
    assert "Re-reads every target with `get_widget` first" in rules


@pytest.mark.parametrize(
    ("widget", "codes", "details", "continuation"),
    [
        ("w-hidden", ["VISIBILITY_RESTRICTED"], [{"excluded": "fields: owner"}], "none"),
        ("w-shard", ["SOURCE_UNAVAILABLE"], [{"source": "fields: owner"}], "retry_after"),
        (
            "w-both",
            ["VISIBILITY_RESTRICTED", "SOURCE_UNAVAILABLE"],
            [{"excluded": "fields: owner"}, {"source": "fields: tag"}],
            "retry_after",
        ),
    ],
)
def test_a_single_read_missing_forbidden_or_failed_fields_is_partial(
    server_mod, widget, codes, details, continuation
):
    """Omitted fields must say why, and a read with a gap is never "complete"."""
    sc = call(server_mod, WidgetsApi(), "get_widget", id=widget)
    assert sc["status"] == "partial" and sc["completeness"]["complete"] is False
    assert [r["code"] for r in sc["completeness"]["reasons"]] == codes
    assert [r["details"] for r in sc["completeness"]["reasons"]] == details
    assert all(r["origin"] == "server" for r in sc["completeness"]["reasons"])
    assert "owner" in sc["completeness"]["reasons"][0]["message"]
    assert sc["completeness"]["continuation"] == {"kind": continuation}
    assert sc["data"]["item"]["id"] == widget  # what was read is still returned


@pytest.mark.parametrize("widget", ["w-1", "w-unasked", "w-absent", "w-garbled"])
def test_a_single_read_not_requested_or_not_present_fields_stays_complete(server_mod, widget):
    """NOT_REQUESTED (the caller asked for less) and NOT_PRESENT (no value) are no gap."""
    sc = call(server_mod, WidgetsApi(), "get_widget", id=widget)
    assert sc["status"] == "complete" and sc["completeness"]["complete"] is True
    assert sc["completeness"]["reasons"] == [] and sc["completeness"]["continuation"] is None
