"""A loopback fake of Stripe's list and search endpoints, in Stripe's own wire shapes.

Shapes follow Stripe's API reference (and validate against the real description's schemas):

* ``GET /v1/customers``, ``GET /v1/charges``: a list object
  ``{"object": "list", "data": [...], "has_more": bool, "url": "/v1/customers"}``, newest first,
  ``limit`` (1..100, default 10), ``starting_after`` / ``ending_before`` (an object id), and the
  ``created`` filter as Stripe reads it: deepObject ``created[gt]=N`` (also ``gte``, ``lt``,
  ``lte``) or a plain ``created=N``. Anything else under ``created`` (a form-serialised object such
  as ``created=gt,5``) is answered 400 ``invalid_request_error`` like Stripe does.
* ``GET /v1/customers/search``, ``GET /v1/charges/search``: a search result
  ``{"object": "search_result", "data", "has_more", "next_page", "url"}``; ``page`` takes the
  opaque ``next_page`` token; ``query`` supports ``field:"value"`` (exact) and ``field~"value"``
  (substring) clauses joined by ``AND``.

``StripeFake.queries`` records every query string received (raw, as sent), so tests can check
what the client put on the wire.
"""

from __future__ import annotations

import base64
import re
from typing import Any
from urllib.parse import unquote

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

EPOCH = 1_700_000_000
_CLAUSE = re.compile(r'^\s*(\w+)\s*([:~])\s*"([^"]*)"\s*$')


def customer(i: int) -> dict[str, Any]:
    return {
        "id": f"cus_{i:014d}",
        "object": "customer",
        "address": None,
        "balance": 0,
        "created": EPOCH + i * 100,
        "currency": "usd",
        "default_source": None,
        "delinquent": False,
        "description": None,
        "discount": None,
        "email": f"user{i}@example.com",
        "invoice_prefix": f"INV{i:05d}",
        "invoice_settings": {
            "custom_fields": None,
            "default_payment_method": None,
            "footer": None,
            "rendering_options": None,
        },
        "livemode": False,
        "metadata": {"segment": "gold" if i % 4 == 0 else "basic"},
        "name": f"Customer {i}",
        "next_invoice_sequence": 1,
        "phone": None,
        "preferred_locales": [],
        "shipping": None,
        "tax_exempt": "none",
        "test_clock": None,
    }


def charge(i: int) -> dict[str, Any]:
    amount = 1000 + 7 * i
    return {
        "id": f"ch_{i:016d}",
        "object": "charge",
        "amount": amount,
        "amount_captured": amount,
        "amount_refunded": 0,
        "application": None,
        "application_fee": None,
        "application_fee_amount": None,
        "balance_transaction": f"txn_{i:016d}",
        "billing_details": {
            "address": {
                "city": None,
                "country": None,
                "line1": None,
                "line2": None,
                "postal_code": None,
                "state": None,
            },
            "email": None,
            "name": None,
            "phone": None,
        },
        "calculated_statement_descriptor": "ACME",
        "captured": True,
        "created": EPOCH + i * 60,
        "currency": "usd",
        "customer": f"cus_{i % 20:014d}",
        "description": f"order {i}",
        "disputed": False,
        "failure_balance_transaction": None,
        "failure_code": None,
        "failure_message": None,
        "fraud_details": {},
        "livemode": False,
        "metadata": {},
        "on_behalf_of": None,
        "outcome": None,
        "paid": True,
        "payment_intent": None,
        "payment_method": None,
        "receipt_email": None,
        "receipt_number": None,
        "receipt_url": None,
        "refunded": False,
        "review": None,
        "shipping": None,
        "source_transfer": None,
        "statement_descriptor": None,
        "statement_descriptor_suffix": None,
        "status": "succeeded" if i % 9 else "failed",
        "transfer_data": None,
        "transfer_group": None,
    }


def _error(message: str, param: str | None = None, status: int = 400) -> JSONResponse:
    body = {"error": {"type": "invalid_request_error", "message": message}}
    if param:
        body["error"]["param"] = param
    return JSONResponse(body, status_code=status)


class StripeFake:
    """The data (newest first) and the request log of one fake."""

    def __init__(self, customers: int = 57, charges: int = 83) -> None:
        self.data = {
            "customers": sorted(
                (customer(i) for i in range(customers)), key=lambda r: -r["created"]
            ),
            "charges": sorted((charge(i) for i in range(charges)), key=lambda r: -r["created"]),
        }
        self.queries: list[tuple[str, str]] = []  # (path, raw query string)

    # -- filters -------------------------------------------------------------------------

    @staticmethod
    def _created(request: Request) -> list[tuple[str, int]] | JSONResponse:
        ops = []
        for key, value in request.query_params.multi_items():
            if key == "created":
                if not value.lstrip("-").isdigit():
                    return _error(f"Invalid integer: {value}", "created")
                ops.append(("eq", int(value)))
            elif key.startswith("created["):
                op = key[len("created[") : -1]
                if op not in ("gt", "gte", "lt", "lte") or not key.endswith("]"):
                    return _error(f"Received unknown parameter: {key}", key)
                if not value.lstrip("-").isdigit():
                    return _error(f"Invalid integer: {value}", key)
                ops.append((op, int(value)))
        return ops

    @staticmethod
    def _keep(row: dict[str, Any], ops: list[tuple[str, int]]) -> bool:
        c = row["created"]
        tests = {
            "eq": lambda v: c == v,
            "gt": lambda v: c > v,
            "gte": lambda v: c >= v,
            "lt": lambda v: c < v,
            "lte": lambda v: c <= v,
        }
        return all(tests[op](v) for op, v in ops)

    @staticmethod
    def _limit(request: Request) -> int | JSONResponse:
        raw = request.query_params.get("limit", "10")
        if not raw.isdigit() or not 1 <= int(raw) <= 100:
            return _error("Invalid integer: limit must be between 1 and 100", "limit")
        return int(raw)

    # -- endpoints -----------------------------------------------------------------------

    def listing(self, request: Request, kind: str, fields: tuple[str, ...]) -> JSONResponse:
        self.queries.append((request.url.path, unquote(request.url.query)))
        limit = self._limit(request)
        if isinstance(limit, JSONResponse):
            return limit
        ops = self._created(request)
        if isinstance(ops, JSONResponse):
            return ops
        rows = [r for r in self.data[kind] if self._keep(r, ops)]
        for field in fields:
            if (want := request.query_params.get(field)) is not None:
                rows = [r for r in rows if r.get(field) == want]
        start = 0
        if (after := request.query_params.get("starting_after")) is not None:
            ids = [r["id"] for r in rows]
            if after not in ids:
                return _error(f"No such object: '{after}'", "starting_after", 404)
            start = ids.index(after) + 1
        chunk = rows[start : start + limit]
        body = {
            "object": "list",
            "data": chunk,
            "has_more": start + limit < len(rows),
            "url": f"/v1/{kind}",
        }
        return JSONResponse(body)

    def search(self, request: Request, kind: str) -> JSONResponse:
        self.queries.append((request.url.path, unquote(request.url.query)))
        limit = self._limit(request)
        if isinstance(limit, JSONResponse):
            return limit
        query = request.query_params.get("query")
        if not query:
            return _error("Missing required param: query.", "query")
        rows = self.data[kind]
        for clause in query.split(" AND "):
            m = _CLAUSE.match(clause)
            if not m:
                return _error(f"Invalid search query: {query}", "query")
            field, op, value = m.groups()
            if op == ":":
                rows = [r for r in rows if str(r.get(field)) == value]
            else:
                rows = [r for r in rows if value in str(r.get(field) or "")]
        start = 0
        if (page := request.query_params.get("page")) is not None:
            try:
                start = int(base64.urlsafe_b64decode(page.encode()).decode().split(":")[1])
            except (ValueError, IndexError, UnicodeDecodeError):
                return _error("Invalid page token", "page")
        chunk = rows[start : start + limit]
        more = start + limit < len(rows)
        token = base64.urlsafe_b64encode(f"page:{start + limit}".encode()).decode()
        body = {
            "object": "search_result",
            "data": chunk,
            "has_more": more,
            "next_page": token if more else None,
            "url": f"/v1/{kind}/search",
        }
        return JSONResponse(body)


def make_app(fake: StripeFake | None = None) -> FastAPI:
    fake = fake or StripeFake()
    app = FastAPI(title="stripe-fake")
    app.state.fake = fake

    @app.get("/v1/customers")
    def customers(request: Request) -> JSONResponse:
        return fake.listing(request, "customers", ("email",))

    @app.get("/v1/charges")
    def charges(request: Request) -> JSONResponse:
        return fake.listing(request, "charges", ("customer", "payment_intent", "transfer_group"))

    @app.get("/v1/customers/search")
    def customers_search(request: Request) -> JSONResponse:
        return fake.search(request, "customers")

    @app.get("/v1/charges/search")
    def charges_search(request: Request) -> JSONResponse:
        return fake.search(request, "charges")

    return app
