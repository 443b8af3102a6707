"""A total that is not a finite number is a CONTRACT_VIOLATION on every style.

An offset walk ends at its total. A header's total is text read as a number, and ``NaN`` read as
a number ended the walk after one page, ``complete`` (every comparison with NaN is false);
``Infinity`` and plain text must not pass either. Generated client against a real uvicorn server
on loopback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from support.fault_server import serve
from support.gen import generate_and_import

SPEC = Path(__file__).parent / "specs" / "header_total.yaml"
PACKAGE = "client_area_header_total"
EVENTS = [{"id": f"e{i:02d}", "name": f"event {i}"} for i in range(10)]
HEADER = {"clean": "10", "nan": "NaN", "inf": "Infinity", "text": "ten"}


def make_app(state: dict[str, Any]) -> FastAPI:
    app = FastAPI()

    @app.get("/events")
    async def events(request: Request) -> JSONResponse:
        start = int(request.query_params.get("offset") or 0)
        size = int(request.query_params.get("count") or 3)
        body = {"events": EVENTS[start : start + size]}
        return JSONResponse(body, headers={"X-Total-Count": HEADER[state["mode"]]})

    return app


@pytest.fixture(scope="module")
def client_mod(tmp_path_factory):
    return generate_and_import(SPEC, tmp_path_factory.mktemp("header_total_gen"), PACKAGE).client


@pytest.fixture(scope="module")
def server():
    state: dict[str, Any] = {}
    with serve(make_app(state)) as base:
        yield base, state


def _walk(client_mod, server, mode: str):
    base, state = server
    state["mode"] = mode
    with client_mod.Client(base) as client:
        return client.list_events.collect()


def test_a_numeric_header_total_ends_the_walk_complete(client_mod, server) -> None:
    result = _walk(client_mod, server, "clean")
    assert result.complete and len(result.items) == 10


@pytest.mark.parametrize("mode", ["nan", "inf", "text"])
def test_a_header_total_that_is_no_finite_number_is_a_violation(
    client_mod, server, mode: str
) -> None:
    result = _walk(client_mod, server, mode)
    assert not result.complete
    assert [r.code for r in result.reasons] == ["CONTRACT_VIOLATION"]
    what = result.reasons[0].details["what"]
    assert what.startswith("the declared total is missing or not a number"), what
    assert result.items == []  # the page whose total is broken is not used
