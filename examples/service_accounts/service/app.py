"""The HTTP face of the example service (FastAPI), speaking the contract of openapi.yaml.

Routes stay thin: they authenticate the bearer token, parse parameters, call
:class:`~service.listing.Listings`, and hand the outcome to :mod:`service.wire`, which builds the
envelopes with the generated package's models and signs tokens with its helpers. Errors always
have the shape ``{"error": {"code": ..., "message": ...}}``; nothing a caller sends produces a
traceback.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import Body, FastAPI, Header, Request
from fastapi import Query as QueryParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from .config import Principal, ServiceConfig
from .listing import ListingError, Listings, scan_budget_ms
from .scan import Scanner
from .store import Query, Store
from .wire import Wire

LIST_OP = "listServiceAccounts"
SEARCH_OP = "searchServiceAccounts"
ARCHIVE_OP = "archiveServiceAccounts"
MAX_ARCHIVE_IDS = 500


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.body = {"error": {"code": code, "message": message, **extra}}


def create_app(config: ServiceConfig, wire: Wire) -> FastAPI:
    """A ready app over the store in ``config.data_dir`` (created and opened here)."""
    store = Store(config).open()
    scanner = Scanner(store)
    listings = Listings(config, store, scanner, wire.service)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        scanner.close()

    app = FastAPI(
        title="service accounts (x-completeness example)",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.config = config
    app.state.store = store
    app.state.listings = listings

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body, status_code=exc.status)

    @app.exception_handler(ListingError)
    async def _listing_error(request: Request, exc: ListingError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(wire.errors)
    async def _service_error(request: Request, exc: Any) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        where = "; ".join(
            ".".join(str(p) for p in e["loc"]) + ": " + e["msg"] for e in exc.errors()
        )
        body = {"error": {"code": "INVALID_REQUEST", "message": where}}
        return JSONResponse(body, status_code=400)

    def principal_of(authorization: str | None) -> Principal:
        scheme, _, token = (authorization or "").partition(" ")
        principal = config.principal(token.strip()) if scheme.lower() == "bearer" else None
        if principal is None:
            raise ApiError(401, "UNAUTHENTICATED", "a known bearer token is required")
        return principal

    def listing(
        op: str, query: Query, auth: str | None, filters: dict[str, Any], **params: Any
    ) -> dict[str, Any]:
        principal = principal_of(auth)
        _bounds(params["limit"], 1, wire.max_page_size(op) or config.max_page_size, "limit")
        _bounds(params["budget_ms"], 1, config.max_budget_ms, "time_budget_ms")
        page = listings.page(
            op,
            query,
            principal,
            filters={k: v for k, v in filters.items() if v is not None},
            mint_evidence=wire.mints(op),
            frozen=wire.frozen(op),
            **params,
        )
        return wire.page(op, page)

    @app.get("/service-accounts")
    def list_service_accounts(
        authorization: Annotated[str | None, Header()] = None,
        cursor: str | None = None,
        limit: int | None = None,
        status: Literal["active", "disabled", "archived"] | None = None,
        owner: str | None = None,
        time_budget_ms: int | None = None,
    ) -> dict[str, Any]:
        return listing(
            LIST_OP,
            Query(status=status, owner=owner),
            authorization,
            {"status": status, "owner": owner},
            limit=limit,
            budget_ms=time_budget_ms,
            cursor=cursor,
        )

    @app.get("/service-accounts/search")
    def search_service_accounts(
        q: Annotated[str, QueryParam(min_length=1)],
        authorization: Annotated[str | None, Header()] = None,
        cursor: str | None = None,
        limit: int | None = None,
        time_budget_ms: int | None = None,
    ) -> dict[str, Any]:
        return listing(
            SEARCH_OP,
            Query(text=q),
            authorization,
            {"q": q},
            limit=limit,
            budget_ms=time_budget_ms,
            cursor=cursor,
        )

    @app.get("/service-accounts/{account_id}")
    def get_service_account(
        account_id: str,
        authorization: Annotated[str | None, Header()] = None,
        fields: str | None = None,
    ) -> dict[str, Any]:
        principal = principal_of(authorization)
        account = store.get(account_id)
        if account is None or account.team not in principal.teams:
            # Hidden and missing look the same: a hidden account is never confirmed to exist.
            raise ApiError(404, "NOT_FOUND", "no such service account")
        wanted = None if fields is None else {f.strip() for f in fields.split(",") if f.strip()}
        return wire.item(account, wanted)

    @app.post("/service-accounts/archive")
    def archive_service_accounts(
        body: Annotated[dict[str, Any], Body()],
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        principal = principal_of(authorization)
        ids, evidence = body.get("ids"), body.get("evidence")
        if (
            not isinstance(ids, list)
            or not 1 <= len(ids) <= MAX_ARCHIVE_IDS
            or not all(isinstance(i, str) for i in ids)
        ):
            raise ApiError(
                400, "INVALID_REQUEST", f"ids must be a list of 1 to {MAX_ARCHIVE_IDS} strings"
            )
        listings.archive(
            ARCHIVE_OP, ids, evidence if isinstance(evidence, str) else None, principal
        )
        return {"archived": list(dict.fromkeys(ids))}

    if config.admin_token:
        _admin_routes(app, config)

        @app.post("/_admin/evidence/revoke")
        def revoke_evidence(
            body: Annotated[dict[str, Any], Body()],
            authorization: Annotated[str | None, Header()] = None,
        ) -> dict[str, Any]:
            """Revoke an evidence token on every replica sharing the token store."""
            if authorization != f"Bearer {config.admin_token}":
                raise ApiError(403, "FORBIDDEN", "admin token required")
            revoked = listings.revoke(ARCHIVE_OP, str(body.get("evidence") or ""))
            return {"revoked": revoked}
    if config.bare_routes:

        @app.get("/_bare/service-accounts")
        def bare_list(
            authorization: Annotated[str | None, Header()] = None,
            after: str | None = None,
            limit: int | None = None,
            status: Literal["active", "disabled", "archived"] | None = None,
        ) -> dict[str, Any]:
            """The same scan as listServiceAccounts, answered the way most APIs do: a bare list
            and the last id. No envelope, no signed cursor, no snapshot, no evidence. Exists only
            as the benchmark's peer (bench/bench_service.py)."""
            principal = principal_of(authorization)
            size = min(limit or config.default_page_size, config.max_page_size)
            scan = scanner.page(
                Query(status=status),
                snapshot=store.current_version(),
                teams=principal.teams,
                after=None if after is None else (0, after),
                limit=size,
                budget_ms=scan_budget_ms(config.default_budget_ms),
            )
            items = [a.public() for a in scan.items]
            return {"items": items, "next": scan.items[-1].id if scan.more else None}

    return app


def _bounds(value: int | None, low: int, high: int, name: str) -> None:
    if value is not None and not low <= value <= high:
        raise ApiError(400, "INVALID_REQUEST", f"{name} must be between {low} and {high}")


def _admin_routes(app: FastAPI, config: ServiceConfig) -> None:
    """Fault injection for scenarios and tests (only when an admin token is configured)."""

    def require(authorization: str | None) -> None:
        if authorization != f"Bearer {config.admin_token}":
            raise ApiError(403, "FORBIDDEN", "admin token required")

    @app.post("/_admin/shards/{name}")
    def set_shard(
        name: str,
        body: Annotated[dict[str, Any], Body()],
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        require(authorization)
        try:
            shard = config.shard(name)
        except KeyError as exc:
            raise ApiError(404, "NOT_FOUND", "no such shard") from exc
        for key in ("latency_ms", "down", "stale"):
            if key in body:
                setattr(shard, key, type(getattr(shard, key))(body[key]))
        return {
            "name": shard.name,
            "latency_ms": shard.latency_ms,
            "down": shard.down,
            "stale": shard.stale,
        }

    @app.post("/_admin/tokens/{token}")
    def set_token(
        token: str,
        body: Annotated[dict[str, Any], Body()],
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        require(authorization)
        config.tokens[token] = Principal(str(body["name"]), frozenset(map(str, body["teams"])))
        return {"token": token, "teams": sorted(config.tokens[token].teams)}

    @app.post("/_admin/config")
    def set_config(
        body: Annotated[dict[str, Any], Body()],
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        require(authorization)
        for key in ("result_limit", "default_budget_ms"):
            if key in body:
                setattr(config, key, int(body[key]))
        return {"result_limit": config.result_limit, "default_budget_ms": config.default_budget_ms}
