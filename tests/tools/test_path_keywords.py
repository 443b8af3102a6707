"""Path parameters the generated client takes as required keywords, through the MCP host.

A path parameter whose spec name is already the client's Python name (``shelf``, ``gadget``,
Google's ``tasklist``) is a required keyword-only argument of the generated call. The host sent a
single read's and a mutation's parameters in ``params=`` only (a listing already split them), so
every such tool answered ``__call__() missing ... required keyword-only argument``: the gadget
was never read, archived or labelled. Driven with the official MCP SDK client against a uvicorn
API on 127.0.0.1, which records what it was sent.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from support.gen import generate_and_import
from support.mcp_calls import call_tool

SPEC = Path(__file__).resolve().parent / "specs" / "path_keywords.yaml"
PACKAGE = "xct_path_keywords"
TIMEOUT = 60


class GadgetsApi:
    def __init__(self) -> None:
        self.seen: list[tuple[str, str, Any]] = []

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.get("/gadgets/{gadget}")
        def read(gadget: str, detail: str | None = None) -> JSONResponse:
            self.seen.append(("GET", gadget, detail))
            if gadget == "missing":
                return JSONResponse({"error": {"code": "NOT_FOUND", "message": "none"}}, 404)
            return JSONResponse({"id": gadget, "shelf": "top", "archived": False})

        @app.post("/gadgets/{gadget}/archive")
        def archive(gadget: str, body: dict[str, Any]) -> JSONResponse:
            self.seen.append(("POST", gadget, body))
            return JSONResponse({"id": gadget, "shelf": "top", "archived": True})

        @app.put("/shelves/{shelf}/label")
        def label(shelf: str, body: dict[str, Any]) -> JSONResponse:
            self.seen.append(("PUT", shelf, body))
            return JSONResponse({"shelf": shelf, "label": body.get("label")})

        return app


@pytest.fixture(scope="module")
def server_mod(tmp_path_factory):
    generate_and_import(SPEC, tmp_path_factory.mktemp("path_keywords"), PACKAGE)
    return importlib.import_module(f"{PACKAGE}.tools.mcp_server")


def call(server_mod, api: GadgetsApi, name: str, **args: Any) -> dict[str, Any]:
    return call_tool(server_mod, api.app(), name, args, secret=b"p" * 32)


def test_the_generated_client_takes_these_path_parameters_as_required_keywords(server_mod):
    client = importlib.import_module(f"{PACKAGE}.client")
    with pytest.raises(TypeError, match="required keyword-only argument"):
        client.Client("http://127.0.0.1:9").get_gadget(params={"gadget": "g"})


def test_a_single_read_reaches_the_api_with_its_path_and_query(server_mod):
    api = GadgetsApi()
    sc = call(server_mod, api, "get_gadget", gadget="g-1", detail="full")
    assert sc["status"] == "complete", sc
    item = sc["data"]["item"]
    assert (item["id"], item["shelf"], item["archived"]) == ("g-1", "top", False)
    assert api.seen == [("GET", "g-1", "full")]


def test_a_mutation_with_path_parameters_is_sent(server_mod):
    api = GadgetsApi()
    sc = call(server_mod, api, "label_shelf", shelf="top", label="tools")
    assert sc["status"] == "complete", sc
    assert sc["data"]["response"] == {"shelf": "top", "label": "tools"}
    assert api.seen == [("PUT", "top", {"label": "tools"})]


def test_a_rechecked_mutation_re_reads_its_target_then_acts(server_mod):
    api = GadgetsApi()
    sc = call(server_mod, api, "archive_gadget", gadget="g-2", reason="old")
    assert sc["status"] == "complete", sc
    assert api.seen == [("GET", "g-2", None), ("POST", "g-2", {"reason": "old"})]


def test_a_rechecked_mutation_whose_target_is_gone_is_refused_unsent(server_mod):
    api = GadgetsApi()
    sc = call(server_mod, api, "archive_gadget", gadget="missing", reason="old")
    assert sc["status"] == "error" and sc["error"]["reasons"] == ["TARGET_NOT_FOUND"], sc
    assert [s[0] for s in api.seen] == ["GET"]
