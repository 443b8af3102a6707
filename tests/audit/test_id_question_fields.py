"""The id question names the fields ending in Id first and never says there are none.

Velo's payments of a payout (``/v4/paymentaudit/payouts/{payoutId}``) carry payeeId, payorId,
paymentId and forty more fields; the heuristic takes each ``*Id`` for a reference to another
record (right for most), and the TODO said "no id-like field in the item schema; its fields are
accountName, accountNumber, ..." with the first twelve in schema order: paymentId, the answer,
was the 18th and cut, and "no id-like field" was false. The ``*Id`` fields now come first, and
the question says none of them names itself the item's identifier.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from xcompleteness import api

LETTERS = [f"field{c}" for c in "ABCDEFGHIJKLMNOP"]  # sixteen plain fields first


def _spec() -> dict:
    payment = {n: {"type": "string"} for n in [*LETTERS, "payeeId", "paymentId", "payorId"]}
    country = {"isoCountryCode": {"type": "string"}, "currencies": {"type": "array"}}

    def listing(op_id: str, props: dict, page: bool) -> dict:
        params = [{"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1}}]
        item = {"type": "object", "properties": props}
        body = {"type": "object", "properties": {"content": {"type": "array", "items": item}}}
        return {
            "get": {
                "operationId": op_id,
                "parameters": params if page else [],
                "responses": {
                    "200": {"description": "ok", "content": {"application/json": {"schema": body}}}
                },
            }
        }

    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/payouts/{payoutId}": {
                **listing("paymentsOfPayout", payment, True),
                "parameters": [
                    {
                        "name": "payoutId",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
            },
            "/supportedCountries": listing("countries", country, True),
        },
    }


def test_the_id_question_shows_the_id_fields_first(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(_spec()), encoding="utf-8")
    drafts = api.audit(spec).drafts
    todos = {
        a["target"]: [t for t in a["update"]["x-completeness"]["x-todo"] if t.startswith("id:")]
        for a in drafts["actions"]
    }
    (payments,) = todos["$.paths['/payouts/{payoutId}'].get"]
    assert "no id-like field" not in payments
    assert "its fields are payeeId, paymentId, payorId, fieldA, " in payments
    (countries,) = todos["$.paths['/supportedCountries'].get"]
    assert countries.startswith("id: no id-like field in the item schema")
    assert "isoCountryCode" in countries
