"""A whole number in a field typed ``number`` reaches the caller as the API sent it.

Postmark's ids and amounts are typed ``number`` (Swagger 2.0 origin) and sent as integers. The
item models typed them ``float`` and pydantic turned ``1001`` into ``1001.0``: the MCP tool
answer showed the model ``"MessageID": 1001.0`` (which it may send back as a path parameter),
a client caller formatting an id got ``"1001.0"``, and an integer past 2**53 lost digits. Items
now keep the JSON value: an integer stays an integer, a fraction a fraction, and ``1001.0`` as
sent stays ``1001.0``. Checked through the official MCP SDK client against the generated server
and a real uvicorn API on loopback, and through the generated client.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi import FastAPI
from support.fault_server import serve
from support.gen import generate_and_import
from support.walks import WALKS, call_tools

SPEC = Path(__file__).parents[1] / "client" / "specs" / "capped_search.yaml"
PACKAGE = "tools_area_json_numbers"
BIG = 2**53 + 1  # no float holds it


def make_app() -> FastAPI:
    app = FastAPI()
    messages = [
        {"MessageID": 1001, "Amount": 5, "Recipient": "a@example.com"},
        {"MessageID": BIG, "Amount": 2.5, "Recipient": "b@example.com"},
        {"MessageID": 1003.0, "Amount": -0.0, "Recipient": "c@example.com"},
    ]
    events = [{"id": 7, "score": 12, "weights": [1, 0.5, 3]}]

    @app.get("/messages/outbound")
    def search(count: int, offset: int):
        return {"TotalCount": len(messages), "Messages": messages[offset : offset + count]}

    @app.get("/events")
    def list_events():
        return {"events": events, "next": None}

    return app


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory):
    return generate_and_import(SPEC, tmp_path_factory.mktemp("json_numbers"), PACKAGE)


def test_the_tool_answer_keeps_each_number_as_the_api_sent_it(pkg):
    with serve(make_app()) as base:
        messages, events = call_tools(
            PACKAGE, base, [("search_outbound_messages", {}), ("list_events", {})]
        )
    assert messages["status"] == "complete", messages.get("error")
    got = [(m["MessageID"], m["Amount"]) for m in messages["data"]["messages"]]
    assert got == [(1001, 5), (BIG, 2.5), (1003.0, -0.0)]
    kinds = [(type(i).__name__, type(a).__name__) for i, a in got]
    assert kinds == [("int", "int"), ("int", "float"), ("float", "float")]
    text = json.dumps(messages["data"])
    assert '"MessageID": 1001,' in text and "1001.0" not in text and str(BIG) in text
    (event,) = events["data"]["events"]
    assert (event["id"], event["score"], event["weights"]) == (7, 12, [1, 0.5, 3])
    assert [type(w).__name__ for w in event["weights"]] == ["int", "float", "int"]


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_the_client_items_hold_the_same_values(pkg, walk):
    with serve(make_app()) as base:
        result = WALKS[walk](pkg, base, "search_outbound_messages")
    ids = [m.MessageID for m in result.items]
    assert ids == [1001, BIG, 1003.0] and [type(i) for i in ids] == [int, int, float]
    assert f"{result.items[0].MessageID}" == "1001"


def test_a_number_still_refuses_what_is_no_number(pkg):
    from tools_area_json_numbers._items import ListEventsItem

    with pytest.raises(ValueError) as caught:
        ListEventsItem.model_validate({"id": "seven"})
    assert [e["type"] for e in caught.value.errors()] == ["float_type"]  # one error, not two
    with pytest.raises(ValueError):
        ListEventsItem.model_validate({"id": 1, "score": -1})  # the schema's minimum holds
    assert ListEventsItem.model_validate({"id": "12"}).id == 12.0  # lax, as before
