"""A page size the API requires is sent by the walk, whoever calls it.

Postmark's listings refuse a request without ``count`` (and ``offset``) with 422. The walk owns
both (``request: {offset: offset, size: count}``), so the MCP tool never offers them to the
model, and the client's ``count`` defaulted to None: every tool call of Postmark answered an
error, HTTP 422, and a client call without ``count=`` too. A required size parameter the walk
owns now defaults to the declared ``max-page-size`` (the client's keyword shows it); an
optional one still leaves the page size to the server. One real uvicorn server on loopback
plays the API (tests/testkit/specs/required_params_suite.yaml's ``/templates``).

The same API deletes one template by its path (``DELETE /templates/{templateIdOrAlias}``,
``evidence.ids: $request.path.templateIdOrAlias``, as the vocabulary allows). The MCP host read
target ids from a body field only, so every delete was refused ``TARGETS_MISSING`` however
complete the listing; and the ids it minted evidence over were ``1001.0`` (``TemplateId`` is
typed ``number``), so the target ``1001`` fell outside it.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from fastapi import FastAPI, Header
from fastapi.responses import JSONResponse
from support.fault_server import serve
from support.gen import generate_and_import
from support.walks import WALKS, call_tools

SPEC = Path(__file__).parents[1] / "testkit" / "specs" / "required_params_suite.yaml"
PACKAGE = "client_area_required_size"
TOKEN = "server-token"
TEMPLATES = [{"TemplateId": 1000 + i, "Name": f"template {i}"} for i in range(1203)]


def make_app(
    seen: list[tuple[int | None, int | None]], deleted: list[str] | None = None
) -> FastAPI:
    app = FastAPI()

    @app.delete("/templates/{template}")
    def delete(template: str):
        (deleted if deleted is not None else []).append(template)
        return {"Message": f"Template {template} removed."}

    @app.get("/templates")
    def templates(
        Count: int | None = None,  # noqa: N803 (the API's own names)
        Offset: int | None = None,  # noqa: N803
        x_postmark_server_token: str | None = Header(None),
    ):
        seen.append((Count, Offset))
        if x_postmark_server_token != TOKEN:
            return JSONResponse({"ErrorCode": 10, "Message": "no token"}, 401)
        if Count is None or Offset is None or Count > 500:
            return JSONResponse({"ErrorCode": 402, "Message": "Count and Offset required"}, 422)
        return {"TotalCount": len(TEMPLATES), "Templates": TEMPLATES[Offset : Offset + Count]}

    return app


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory):
    return generate_and_import(SPEC, tmp_path_factory.mktemp("required_size"), PACKAGE)


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_the_client_sends_the_declared_max_page_size_when_the_caller_names_none(pkg, walk):
    seen: list[tuple[int | None, int | None]] = []
    with serve(make_app(seen)) as base:
        result = WALKS[walk](
            pkg, base, "list_templates", headers={"X-Postmark-Server-Token": TOKEN}
        )
    assert result.complete and len(result.items) == len(TEMPLATES), result.reasons
    assert seen == [(500, 0), (500, 500), (500, 1000)]


def test_the_mcp_tool_reads_every_template_although_it_offers_no_size(pkg):
    seen: list[tuple[int | None, int | None]] = []
    headers = {"X-Postmark-Server-Token": TOKEN}
    with serve(make_app(seen)) as base:
        (answer,) = call_tools(PACKAGE, base, [("list_templates", {})], headers=headers)
    assert answer["status"] == "complete", answer.get("error")
    assert len(answer["data"]["templates"]) == len(TEMPLATES)
    assert {count for count, _ in seen} == {500}


def test_the_default_is_in_the_signature_and_an_optional_size_has_none(pkg):
    import importlib

    ops = importlib.import_module(f"{PACKAGE}._ops.list_templates")
    collect = inspect.signature(ops.ListTemplatesOperation.collect).parameters
    assert collect["count"].default == 500 and collect["offset"].default is None
    genres = importlib.import_module(f"{PACKAGE}._ops.get_genres")
    assert inspect.signature(genres.GetGenresOperation.collect).parameters["page"].default is None


def test_a_delete_named_by_its_path_needs_evidence_that_holds_its_id(pkg):
    seen: list[tuple[int | None, int | None]] = []
    deleted: list[str] = []
    headers = {"X-Postmark-Server-Token": TOKEN}
    calls = [
        ("list_templates", {"max_pages": 1}),  # 500 of 1203: partial, no evidence
        ("delete_template", {"template_id_or_alias": "1001", "evidence": None}),
        ("list_templates", {}),
    ]
    with serve(make_app(seen, deleted)) as base:
        partial, refused, complete = call_tools(PACKAGE, base, calls, headers=headers)
        assert partial["status"] == "partial" and partial["evidence"] is None
        assert refused["error"]["code"] == "EVIDENCE_REJECTED"
        assert refused["error"]["reasons"] == ["EVIDENCE_MISSING"]  # the target was named
        assert complete["status"] == "complete" and complete["evidence"], complete.get("error")
        token = complete["evidence"]
        outside, done = call_tools(
            PACKAGE,
            base,
            [
                ("delete_template", {"template_id_or_alias": "9999", "evidence": token}),
                ("delete_template", {"template_id_or_alias": "1001", "evidence": token}),
            ],
            headers=headers,
            secret=b"s" * 32,
        )
    assert outside["error"]["reasons"] == ["TARGETS_OUTSIDE_EVIDENCE"], outside
    assert done["status"] == "complete", done.get("error")
    assert deleted == ["1001"]
