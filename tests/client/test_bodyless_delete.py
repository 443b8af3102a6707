"""A destructive delete that answers 204 with no body reaches the agent as a success.

Velo Payments' ``DELETE /v4/payees/{payeeId}`` and Data2CRM's
``DELETE /application/entity/contact/{contact_id}`` answer ``204 No Content``. The generated
single call returned the JSON parser's internal "no body" sentinel, the MCP server could not
serialise it, and the agent got an MCP error (``Object of type _Missing is not JSON
serializable``) for a delete the API had done; the Python client returned the sentinel too. A
success with no JSON body is now ``None`` in the client and ``data.response.value: null`` in a
``complete`` tool answer. One real uvicorn server on loopback plays the API
(``tests/client/specs/path_delete_204.yaml``).
"""

from __future__ import annotations

import asyncio
import importlib
import json
from pathlib import Path

import pytest
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from support.fault_server import serve
from support.gen import generate_and_import
from support.walks import call_tools

SPEC = Path(__file__).parent / "specs" / "path_delete_204.yaml"
PACKAGE = "client_area_bodyless_delete"
HEADERS = {"X-CRM-User-Key": "uk", "X-CRM-Application-Key": "ak", "WM_SVC.NAME": "svc"}
CONTACTS = [{"contactId": f"c{i:03d}", "name": f"contact {i}"} for i in range(45)]


def make_app(deleted: list[str]) -> FastAPI:
    app = FastAPI()

    def refused(request: Request) -> JSONResponse | None:
        if any(request.headers.get(k) != v for k, v in HEADERS.items()):
            return JSONResponse({"message": "keys required"}, 401)
        return None

    @app.get("/contacts/list")
    def contacts(request: Request, page: int = 1, pageSize: int = 20):  # noqa: N803
        if (bad := refused(request)) is not None:
            return bad
        live = [c for c in CONTACTS if c["contactId"] not in deleted]
        pages = max(1, -(-len(live) // pageSize))
        chunk = live[(page - 1) * pageSize : page * pageSize]
        return {"content": chunk, "page": {"totalPages": pages, "page": page}}

    @app.delete("/contacts/{contact_id}")
    def delete(contact_id: str, request: Request):
        if (bad := refused(request)) is not None:
            return bad
        deleted.append(contact_id)
        return Response(status_code=204)

    return app


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory):
    return generate_and_import(SPEC, tmp_path_factory.mktemp("bodyless_delete"), PACKAGE)


def test_the_agent_reads_a_204_delete_as_done_and_cannot_replay_its_evidence(pkg):
    deleted: list[str] = []
    with serve(make_app(deleted)) as base:
        (listing,) = call_tools(PACKAGE, base, [("list_contacts", {})], headers=HEADERS)
        assert listing["status"] == "complete" and listing["evidence"], listing.get("error")
        token = listing["evidence"]
        done, replay = call_tools(
            PACKAGE,
            base,
            [
                ("delete_contact", {"contact_id": "c007", "evidence": token}),
                ("delete_contact", {"contact_id": "c008", "evidence": token}),
            ],
            headers=HEADERS,
        )
    assert done["status"] == "complete", done
    assert done["data"] == {"response": {"value": None}}
    json.dumps(done)  # what the MCP server sends as the text content
    assert replay["error"]["reasons"] == ["EVIDENCE_ALREADY_USED"]
    assert deleted == ["c007"]


def test_the_client_call_answers_none_for_a_204(pkg):
    client_mod = importlib.import_module(f"{PACKAGE}.client")
    deleted: list[str] = []
    with serve(make_app(deleted)) as base, client_mod.Client(base, headers=HEADERS) as client:
        assert client.delete_contact(contact_id="c001") is None
    assert deleted == ["c001"]


def test_the_async_client_call_answers_none_for_a_204(pkg):
    client_mod = importlib.import_module(f"{PACKAGE}.client")
    deleted: list[str] = []

    async def run(base: str) -> object:
        async with client_mod.AsyncClient(base, headers=HEADERS) as client:
            return await client.delete_contact(contact_id="c002")

    with serve(make_app(deleted)) as base:
        assert asyncio.run(run(base)) is None
    assert deleted == ["c002"]
