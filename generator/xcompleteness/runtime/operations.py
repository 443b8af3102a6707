"""HTTP plumbing behind the generated ``client.py``: clients, listing operations and plain calls.

Why here and not in a template: how a request is built (path, query and header parameters by
their spec names), how a next link is checked before it is followed, and how error bodies become
typed exceptions is the same for every spec, so it is written once and tested directly. The
generated client only declares, per operation, its id (the key into ``_contracts.json``), its
parameter table and its models, and forwards typed keyword arguments here.

Listings go through :mod:`.walk` (the one walk that never loses completeness). Sync and async
twins have mirrored names: :class:`BaseClient` / :class:`AsyncBaseClient`, :class:`Listing` /
:class:`AsyncListing`, :class:`Call` / :class:`AsyncCall`.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote_plus

import httpx

if TYPE_CHECKING:  # typing.Self from Python 3.11; typing_extensions comes with pydantic
    from typing_extensions import Self

from .codes import CLIENT_WARNING_CODES
from .contract import Contract, as_contract
from .envelope import ITEM_MISMATCHES
from .expressions import MISSING, ResponseView, read_json
from .lazy import LazyModel
from .page_items import deferred_page, items_deferred
from .parameters import ParamSpec, cookie_header, header_value, path_value, query_fragments
from .walk import (
    ApiError,
    AsyncItemStream,
    AsyncPageStream,
    AsyncWalker,
    CollectResult,
    Continuation,
    FetchRefused,
    FetchTimedOut,
    ItemStream,
    Limits,
    PageRequest,
    PageStream,
    Walker,
    WalkFailed,
    next_link_target,
)

__all__ = [
    "DEFAULT_MAX_RESPONSE_BYTES",
    "DEFAULT_TIMEOUT",
    "ApiError",
    "AsyncBaseClient",
    "AsyncCall",
    "AsyncListing",
    "BaseClient",
    "Call",
    "CursorExpired",
    "EvidenceRejected",
    "ResponseTooLarge",
    "Listing",
    "Param",
    "WalkFailed",
]

Param = tuple[Any, ...]
"""One parameter: (python keyword, name in the spec, location: path|query|header|cookie[, style
[, explode]]). Style and explode are OpenAPI's (see :mod:`.parameters`); left out, they are the
location's defaults (form/explode for query and cookie, simple for path and header)."""

DEFAULT_TIMEOUT = 30.0

DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024
"""The most bytes of one answer's body a client reads (after decompression) before it stops and
raises :class:`ResponseTooLarge`; ``max_response_bytes=None`` reads any size. The timeout bounds
how long an answer takes, this how much of it is held in memory: a server (or anything between)
that sends a huge or gzip-bombed body is refused, not read whole."""

DEADLINE_GRACE_S = 0.25
"""A walk's request may run this long past the walk's deadline before it is cut off. The walk
then ends with CLIENT_DEADLINE_EXCEEDED (items kept, a continuation); without the grace the HTTP
timeout and the deadline race, and an API answering right at the deadline is lost to a timeout."""

SERVER_MARGIN_S = 0.25
"""The declared server time budget is the walk's remaining time minus this (at most a fifth of
it), so a server that spends its whole budget still answers before the walk's deadline."""


class EvidenceRejected(ApiError):
    """A mutation refused for its evidence (409 ``EVIDENCE_REJECTED``); ``reason`` says why."""

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(status, body)
        err = body.get("error", {}) if isinstance(body, Mapping) else {}
        self.code = "EVIDENCE_REJECTED"
        self.reason = err.get("reason") if isinstance(err, Mapping) else None
        self.message = err.get("message") if isinstance(err, Mapping) else None


class ResponseTooLarge(FetchRefused):
    """An answer whose body passed the client's ``max_response_bytes`` (its declared
    ``Content-Length``, or the bytes read after decompression): the rest is not read.

    In a walk it ends the walk like any refused fetch, CONTRACT_VIOLATION with the pages read
    kept; a single call raises it (the MCP host's error envelope says CALL_FAILED)."""

    def __init__(self, limit: int, url: Any) -> None:
        super().__init__(
            f"the answer from {url} is longer than the client reads "
            f"(max_response_bytes={limit}); nothing of it was used"
        )
        self.limit = limit


class CursorExpired(ApiError):
    """A single call answered 410 ``CURSOR_EXPIRED`` or 400 ``CURSOR_INVALID``."""


def _error_code(body: Any) -> str | None:
    err = body.get("error") if isinstance(body, Mapping) else None
    code = err.get("code") if isinstance(err, Mapping) else None
    return code if isinstance(code, str) else None


def raise_for_error(status: int, body: Any) -> None:
    """Turn a non-2xx answer into the typed error of its declared error body."""
    if 200 <= status < 300:
        return
    code = _error_code(body)
    if code == "EVIDENCE_REJECTED":
        raise EvidenceRejected(status, body)
    if code in ("CURSOR_EXPIRED", "CURSOR_INVALID"):
        raise CursorExpired(status, body)
    error = ApiError(status, body)
    error.code = code  # type: ignore[attr-defined]
    raise error


# --------------------------------------------------------------------------- clients


class _ClientCore:
    def __init__(
        self,
        base_url: str,
        headers: Mapping[str, str] | None,
        timeout: float | httpx.Timeout | None,
        strict_items: bool = False,
        max_response_bytes: int | None = DEFAULT_MAX_RESPONSE_BYTES,
        params: Mapping[str, str] | None = None,
    ) -> None:
        self.base_url = httpx.URL(str(base_url).rstrip("/") + "/")
        self.headers = dict(headers or {})
        self.params = {str(k): str(v) for k, v in (params or {}).items()}
        """Query parameters sent with every request, such as a query credential (Google's
        ``key``): added to each URL that does not carry the name already (a request's own value
        wins, as a request header does over :attr:`headers`); never shown in an error."""
        self._param_fragments = [
            (k, f"{quote(k, safe='')}={quote(v, safe='')}") for k, v in self.params.items()
        ]
        self.timeout = timeout
        self.max_response_bytes = _byte_limit(max_response_bytes)
        """The most bytes of one answer's body read (:data:`DEFAULT_MAX_RESPONSE_BYTES`)."""
        self.strict_items = bool(strict_items)
        """Default of every listing call: an item that does not match its schema ends the walk
        with CONTRACT_VIOLATION (True) or is kept as received with ITEM_SCHEMA_MISMATCH."""
        self._urls: dict[str, httpx.URL] = {}

    def url(self, path: str) -> httpx.URL:
        """The absolute URL of ``path`` (cached: parsing URLs is a visible cost per page)."""
        cached = self._urls.get(path)
        if cached is None:
            if len(self._urls) > 1024:
                self._urls.clear()
            cached = self._urls[path] = self.base_url.join(path.lstrip("/"))
        return cached

    def merged_headers(self, headers: Mapping[str, str] | None) -> dict[str, str] | None:
        """The client's headers, then the request's; a request ``Cookie`` joins the client's."""
        if not headers:
            return self.headers or None
        out = {**self.headers, **headers}
        cookie = headers.get("Cookie")
        if cookie is not None:
            own = [k for k in self.headers if k.lower() == "cookie"]
            out.pop("Cookie")
            for k in own:
                out.pop(k, None)
            out["Cookie"] = "; ".join([*(self.headers[k] for k in own), cookie])
        return out

    def with_params(self, url: httpx.URL) -> httpx.URL:
        """``url`` plus :attr:`params` for the names its query does not carry (kept byte for
        byte: a next link or cursor is not re-encoded)."""
        if not self._param_fragments:
            return url
        query = url.query.decode("ascii")
        present = {unquote_plus(p.split("=", 1)[0]) for p in query.split("&") if p}
        added = [frag for name, frag in self._param_fragments if name not in present]
        if not added:
            return url
        return url.copy_with(query="&".join([*([query] if query else []), *added]).encode("ascii"))

    def shown(self, url: httpx.URL) -> str:
        """``url`` as an error may show it: the values of :attr:`params` masked."""
        if not self.params or not url.query:
            return str(url)
        parts = []
        for part in url.query.decode("ascii").split("&"):
            name = unquote_plus(part.split("=", 1)[0])
            parts.append(f"{part.split('=', 1)[0]}=***" if name in self.params else part)
        return str(url.copy_with(query="&".join(parts).encode("ascii")))

    def same_origin(self, url: str) -> httpx.URL:
        """A next link to follow, under the one origin rule (:func:`.walk.next_link_target`)."""
        return httpx.URL(next_link_target(str(self.base_url), url))


class BaseClient(_ClientCore):
    """Synchronous client over ``httpx.Client`` (yours via ``http_client``, or one it owns)."""

    def __init__(
        self,
        base_url: str,
        *,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.Client | None = None,
        transport: httpx.BaseTransport | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        strict_items: bool = False,
        max_response_bytes: int | None = DEFAULT_MAX_RESPONSE_BYTES,
        params: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(base_url, headers, timeout, strict_items, max_response_bytes, params)
        self._owns = http_client is None
        self._http = http_client
        self._transport = transport
        self._http_timeout = timeout

    @property
    def http(self) -> httpx.Client:
        """The ``httpx.Client`` (yours, or one made on first use: see :class:`_LazyTLS`)."""
        if self._http is None:
            transport = self._transport or _LazyTLS()
            self._http = httpx.Client(transport=transport, timeout=self._http_timeout)
        return self._http

    def close(self) -> None:
        if self._owns and self._http is not None:
            self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(
        self,
        method: str,
        url: httpx.URL,
        *,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        json: Any = None,
        timeout: float | None = None,
    ) -> ResponseView:
        request = self.http.build_request(
            method.upper(),
            self.with_params(url),
            params=_query(params),
            headers=self.merged_headers(headers),
            json=json,
            timeout=_timeout(self.timeout, timeout),
        )
        until = _read_until(self.timeout, timeout)
        response = self.http.send(request, stream=True)
        try:
            body = _Body(self.max_response_bytes, response, self.shown)
            for chunk in response.iter_bytes():
                body.add(chunk)
                _check_time(until, request)
        finally:
            response.close()
        return _view(response, body.read())


class AsyncBaseClient(_ClientCore):
    """Asynchronous twin of :class:`BaseClient` over ``httpx.AsyncClient``."""

    def __init__(
        self,
        base_url: str,
        *,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        strict_items: bool = False,
        max_response_bytes: int | None = DEFAULT_MAX_RESPONSE_BYTES,
        params: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(base_url, headers, timeout, strict_items, max_response_bytes, params)
        self._owns = http_client is None
        self._http = http_client
        self._transport = transport
        self._http_timeout = timeout

    @property
    def http(self) -> httpx.AsyncClient:
        """The ``httpx.AsyncClient`` (yours, or one made on first use: see :class:`_LazyTLS`)."""
        if self._http is None:
            transport = self._transport or _AsyncLazyTLS()
            self._http = httpx.AsyncClient(transport=transport, timeout=self._http_timeout)
        return self._http

    async def aclose(self) -> None:
        if self._owns and self._http is not None:
            await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def send(
        self,
        method: str,
        url: httpx.URL,
        *,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        json: Any = None,
        timeout: float | None = None,
    ) -> ResponseView:
        request = self.http.build_request(
            method.upper(),
            self.with_params(url),
            params=_query(params),
            headers=self.merged_headers(headers),
            json=json,
            timeout=_timeout(self.timeout, timeout),
        )
        until = _read_until(self.timeout, timeout)
        response = await self.http.send(request, stream=True)
        try:
            body = _Body(self.max_response_bytes, response, self.shown)
            async for chunk in response.aiter_bytes():
                body.add(chunk)
                _check_time(until, request)
        finally:
            await response.aclose()
        return _view(response, body.read())


def _no_tls() -> ssl.SSLContext:
    """A client TLS context that verifies certificates and trusts none (no CA bundle loaded)."""
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


class _LazyTLS(httpx.BaseTransport):
    """httpx's own transport, with its TLS context made only when an ``https`` request needs it.

    Building the default SSL context (loading the CA bundle) is most of the cost of a first call
    (about 0.3 s). Plain ``http`` requests (a local service, a test server) go through a
    transport whose TLS context trusts nothing (:func:`_no_tls`: plain HTTP never uses it, and
    nothing could verify through it); the first ``https`` request makes httpx's default
    transport, with its default verification.
    """

    def __init__(self) -> None:
        self._plain: httpx.HTTPTransport | None = None
        self._tls: httpx.HTTPTransport | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.scheme == "http":
            if self._plain is None:
                self._plain = httpx.HTTPTransport(verify=_no_tls())
            return self._plain.handle_request(request)
        if self._tls is None:
            self._tls = httpx.HTTPTransport()
        return self._tls.handle_request(request)

    def close(self) -> None:
        for transport in (self._plain, self._tls):
            if transport is not None:
                transport.close()


class _AsyncLazyTLS(httpx.AsyncBaseTransport):
    """The asynchronous twin of :class:`_LazyTLS`."""

    def __init__(self) -> None:
        self._plain: httpx.AsyncHTTPTransport | None = None
        self._tls: httpx.AsyncHTTPTransport | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.scheme == "http":
            if self._plain is None:
                self._plain = httpx.AsyncHTTPTransport(verify=_no_tls())
            return await self._plain.handle_async_request(request)
        if self._tls is None:
            self._tls = httpx.AsyncHTTPTransport()
        return await self._tls.handle_async_request(request)

    async def aclose(self) -> None:
        for transport in (self._plain, self._tls):
            if transport is not None:
                await transport.aclose()


def _query(params: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not params:
        return None
    out: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, bool):
            out[key] = "true" if value else "false"
        elif isinstance(value, (list, tuple)):
            out[key] = [str(v).lower() if isinstance(v, bool) else v for v in value]
        else:
            out[key] = value
    return out


def _read_until(default: Any, remaining: float | None) -> float | None:
    """When the whole response (headers and body) must have arrived, on the monotonic clock.

    httpx's timeouts bound each read, so a server trickling one byte a second never times out;
    this bounds the total: what is left of a walk's deadline (plus :data:`DEADLINE_GRACE_S`), or
    else the client's timeout when it is a number."""
    if remaining is not None:
        return time.monotonic() + max(0.0, remaining) + DEADLINE_GRACE_S
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        return time.monotonic() + float(default)
    return None


def _byte_limit(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"max_response_bytes must be a whole number >= 0 or None, not {value!r}")
    return value


class _Body:
    """One answer's body as it is read, refused (:class:`ResponseTooLarge`) past ``limit`` bytes:
    at once when its ``Content-Length`` says so, else when the bytes read (decompressed) do."""

    def __init__(self, limit: int | None, response: httpx.Response, shown: Any = str) -> None:
        self.limit = limit
        self.response = response
        self.shown = shown  # what an error may show of the URL (credentials masked)
        self.size = 0
        self.chunks: list[bytes] = []
        declared = response.headers.get("content-length", "")
        encoded = response.headers.get("content-encoding", "identity").lower()
        if limit is not None and declared.isdigit() and encoded in ("", "identity"):
            if int(declared) > limit:
                raise self._refused(limit)

    def add(self, chunk: bytes) -> None:
        self.size += len(chunk)
        if self.limit is not None and self.size > self.limit:
            raise self._refused(self.limit)
        self.chunks.append(chunk)

    def _refused(self, limit: int) -> ResponseTooLarge:
        """The refusal, its URL shown only now (not on every request read)."""
        return ResponseTooLarge(limit, self.shown(self.response.request.url))

    def read(self) -> bytes:
        return b"".join(self.chunks)


def _check_time(until: float | None, request: httpx.Request) -> None:
    if until is not None and time.monotonic() > until:
        raise httpx.ReadTimeout("the response did not finish in time", request=request)


def _view(response: httpx.Response, body: bytes) -> ResponseView:
    """A :class:`ResponseView` of a response whose body was read (a body that is not JSON by
    :func:`read_json` is MISSING)."""
    try:
        data = read_json(body) if body else MISSING
    except ValueError:
        data = MISSING
    return ResponseView(status=response.status_code, headers=response.headers, body=data)


def _timeout(default: Any, remaining: float | None) -> Any:
    """The request timeout: the client's, shortened to what is left of a walk's deadline plus
    :data:`DEADLINE_GRACE_S` (the walk, not the transport, reports the deadline)."""
    if remaining is None:
        return httpx.USE_CLIENT_DEFAULT
    remaining = max(0.0, remaining) + DEADLINE_GRACE_S
    if isinstance(default, (int, float)):
        return min(float(default), remaining)
    return remaining


# --------------------------------------------------------------------------- requests


class _Request:
    """How one operation's arguments become a request: path, query, header and cookie parameters,
    each serialised by its OpenAPI style and explode (:mod:`.parameters`)."""

    def __init__(self, method: str, path: str, parameters: Sequence[Param]) -> None:
        self.method = method
        self.path = path
        self.specs = tuple(ParamSpec.of(p) for p in parameters)
        self.by_python = {s.python: (s.name, s.location) for s in self.specs}
        self.by_name = {s.name: (s.name, s.location) for s in self.specs}
        self.spec_of = {s.name: s for s in self.specs}
        # No path, header or cookie parameters: every value is a query parameter (the common
        # listing), so the split below is skipped.
        self.query_only = all(s.location == "query" for s in self.specs)

    def split_arguments(
        self, arguments: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Arguments by spec name -> (keywords by Python name, the rest for ``params=``).

        A caller holding spec names (the MCP tool host) passes the operation's own parameters as
        keywords, so required ones (path parameters: ``namespace``, ``owner``) are satisfied.
        """
        keywords: dict[str, Any] = {}
        rest: dict[str, Any] = {}
        python_of = {s.name: s.python for s in self.specs}
        for name, value in arguments.items():
            if name in python_of:
                keywords[python_of[name]] = value
            else:
                rest[name] = value
        return keywords, rest

    def spec_params(
        self, typed: Mapping[str, Any], params: Mapping[str, Any] | None, more: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Merge typed keywords, ``params`` and extra keywords into {spec name: value}."""
        out: dict[str, Any] = {}
        for py, value in typed.items():
            if value is not None:
                out[self.by_python[py][0]] = value
        for source in (params or {}), more:
            for key, value in source.items():
                if key in self.by_name:
                    name = key
                elif key in self.by_python:
                    name = self.by_python[key][0]
                else:
                    known = ", ".join(sorted(self.by_name)) or "none"
                    raise TypeError(f"unknown parameter {key!r} (known: {known})")
                if value is not None:
                    out[name] = value
        return out

    def query(self, values: Mapping[str, Any]) -> str:
        """The encoded query of {spec name: value}; names the table does not know (the walk's
        own cursor, offset, page and size when the spec does not declare them) are form."""
        fragments: list[str] = []
        for name, value in values.items():
            spec = self.spec_of.get(name) or ParamSpec(name, name, "query", "form", True)
            fragments.extend(query_fragments(spec, value))
        return "&".join(fragments)

    def split(self, values: Mapping[str, Any]) -> tuple[str, str, dict[str, str], dict[str, Any]]:
        """(path, encoded query, headers, unplaced) for {spec name: value}."""
        path = self.path
        query: dict[str, Any] = {}
        headers: dict[str, str] = {}
        cookies: list[tuple[ParamSpec, Any]] = []
        rest: dict[str, Any] = {}
        for name, value in values.items():
            spec = self.spec_of.get(name)
            loc = spec.location if spec is not None else None
            if spec is not None and loc == "path":
                path = path.replace("{" + name + "}", path_value(spec, value))
            elif spec is not None and loc == "header":
                headers[name] = header_value(spec, value)
            elif spec is not None and loc == "cookie":
                cookies.append((spec, value))  # a Cookie header: never in the URL or its logs
            elif loc == "query":
                query[name] = value
            else:
                rest[name] = value  # walk-added (cursor, offset) or body fields
        if cookies:
            headers["Cookie"] = cookie_header(cookies)
        missing = [s for s in self.specs if s.location == "path" and s.name not in values]
        if missing:
            # the keyword the caller writes (job_id), with the spec's name when it differs
            named = ", ".join(
                s.python if s.python == s.name else f"{s.python} (spec name {s.name})"
                for s in missing
            )
            raise TypeError(f"missing path parameter(s): {named}")
        return path, self.query(query), headers, rest


def _with_query(url: httpx.URL, query: str) -> httpx.URL:
    """``url`` with an already encoded query (httpx keeps it byte for byte)."""
    return url.copy_with(query=query.encode("ascii")) if query else url


# --------------------------------------------------------------------------- listings


class _ListingBase:
    operation_id: str = ""

    def __init__(
        self,
        client: _ClientCore,
        contract: Contract | Mapping[str, Any],
        *,
        parameters: Sequence[Param] = (),
        body_fields: Sequence[tuple[str, str]] = (),
        envelope_model: Any = None,
        item_model: Any = None,
    ) -> None:
        self._client = client
        self._contract = contract = as_contract(contract)
        self._request = _Request(str(contract.method), str(contract.path), parameters)
        # A POST search sends its JSON body on every page: the caller's fields, plus the ones the
        # walk writes itself when the declaration pages in the body ($request.body#/marker).
        self._body = {py: name for py, name in body_fields}
        paging = contract.pagination
        walk_body = paging.request.body_names if paging is not None else frozenset()
        self._body_names = frozenset(self._body.values()) | walk_body
        self._envelope_model = envelope_model
        self._item_model = item_model
        self._native = contract.mode == "native"
        deadline = contract.deadline
        self._deadline_param = deadline if deadline is not None and deadline.param else None

    def split_arguments(
        self, arguments: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """See :meth:`_Request.split_arguments`."""
        return self._request.split_arguments(arguments)

    def _item_class(self) -> Any:
        """The item model (a :class:`.lazy.LazyModel` is imported now)."""
        model = self._item_model
        return model.resolve() if isinstance(model, LazyModel) else model

    def _defers(self, strict: bool) -> bool:
        """Whether ``page()`` validates its items on first read (``_runtime/page_items.py``):
        with lenient items and a typed envelope and item model. Under ``strict_items`` an item
        is contract (a mismatch refuses the page), so it is validated before ``page()``
        returns."""
        return not strict and self._envelope_model is not None and self._item_model is not None

    def _walk_options(self, defer: bool = False) -> dict[str, Any]:
        if self._native:
            model = self._envelope_model
            if model is not None and defer:
                model = items_deferred(model)
            return {"parse_page": model.model_validate if model is not None else None}
        model = None if defer else self._item_class()
        return {"parse_item": model.model_validate if model is not None else None}

    def _prepare(
        self,
        typed: Mapping[str, Any],
        params: Mapping[str, Any] | None,
        more: Mapping[str, Any],
        deadline: float | None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {}
        if self._body_names:
            typed, params, more = (self._take_body(s, body) for s in (typed, params or {}, more))
        values = self._request.spec_params(typed, params, more)
        values.update(body)  # by their body names; _target moves them into the JSON body
        dl = self._deadline_param
        if deadline is not None and dl is not None and dl.param and dl.param not in values:
            # Tell the server how long it has, so it can stop early and say so (a reason),
            # instead of being cut off by the client's own deadline.
            budget = deadline * (1000.0 if dl.unit == "ms" else 1.0)
            if dl.max is not None:
                budget = min(budget, float(dl.max))
            values[dl.param] = int(budget) if dl.unit == "ms" else budget
        return values

    def _take_body(self, source: Mapping[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        """Move the body fields of ``source`` (by Python or body name) into ``body``; a
        parameter of the same name stays a parameter (as for :class:`Call`)."""
        kept: dict[str, Any] = {}
        for key, value in source.items():
            named = key in self._body or key in self._body_names
            if named and key not in self._request.by_python and key not in self._request.by_name:
                if value is not None:
                    body[self._body.get(key, key)] = _plain(value)
            else:
                kept[key] = value
        return kept

    def _target(self, req: PageRequest) -> tuple[httpx.URL, dict[str, str], Any]:
        """(URL, headers, JSON body or None) of one page request."""
        params: Mapping[str, Any] = self._budget(req)
        body = None
        if self._body_names:
            body = {
                k: v
                for k, v in params.items()
                if k in self._body_names and k not in self._request.by_name
            }
            params = {k: v for k, v in params.items() if k not in body}
            if not body and self._request.method.upper() == "GET":
                body = None  # a GET whose spec describes a body: none sent unless given
        if req.url is not None:
            # path parameters ride along only to satisfy split(); the next URL already has them
            _, _, headers, _ = self._request.split(
                {k: v for k, v in params.items() if self._is_header(k) or self._is_path(k)}
            )
            return self._client.same_origin(req.url), headers, body
        if self._request.query_only:
            query = self._request.query(params)
            return _with_query(self._client.url(self._request.path), query), {}, body
        path, query, headers, rest = self._request.split(params)
        if rest:  # the walk's own cursor/offset/page/size parameters are query ones
            query = "&".join(q for q in (query, self._request.query(rest)) if q)
        return _with_query(self._client.url(path), query), headers, body

    def _budget(self, req: PageRequest) -> Mapping[str, Any]:
        """Cap the declared server time-budget parameter at what is left of the walk's deadline.

        Every page gets the remaining time (less :data:`SERVER_MARGIN_S`), not the whole
        deadline again, so a server that uses its budget to the end still leaves the walk time to
        report (and the server says TIME_BUDGET_EXCEEDED itself instead of being cut off).
        """
        dl = self._deadline_param
        name = dl.param if dl is not None else None
        if dl is None or req.timeout is None or not name or name not in req.params:
            return req.params
        ms = dl.unit == "ms"
        left = max(0.0, req.timeout)
        left = (left - min(SERVER_MARGIN_S, left / 5)) * (1000.0 if ms else 1.0)
        try:
            current = float(req.params[name])
        except (TypeError, ValueError):
            return req.params
        if current <= left:
            return req.params
        return {**req.params, name: int(left) if ms else left}

    def _is_header(self, name: str) -> bool:
        return self._request.by_name.get(name, (name, None))[1] in ("header", "cookie")

    def _is_path(self, name: str) -> bool:
        return self._request.by_name.get(name, (name, None))[1] == "path"

    def _strict(self, strict_items: bool | None) -> bool:
        return self._client.strict_items if strict_items is None else bool(strict_items)

    def _page_model(self, page: Any, defer: bool = False) -> Any:
        """The typed page; the client's own warnings (ITEM_SCHEMA_MISMATCH) are added to it.

        ``defer``: the walk read the page without typing its items (:meth:`_defers`); the
        envelope is validated here (adapter mode) or was by the walk (native mode) without its
        items, which are validated on first read."""
        if defer:
            model = self._envelope_model
            head = page.envelope
            if not self._native:
                head = items_deferred(model).model_validate(head)
            extra = [w for w in page.warnings if w.code in CLIENT_WARNING_CODES]
            return deferred_page(model, head, head.items, self._item_class, extra)
        if self._native or self._envelope_model is None:
            envelope = page.envelope
        else:
            # The walk already checked the items (and warned); mismatched ones stay as received.
            envelope = self._envelope_model.model_validate(
                page.envelope, context={ITEM_MISMATCHES: []}
            )
        extra = [w for w in page.warnings if w.code in CLIENT_WARNING_CODES]
        if not extra or not hasattr(envelope, "model_copy"):
            return envelope
        return envelope.model_copy(update={"warnings": [*envelope.warnings, *extra]})


class Listing(_ListingBase):
    """A listing on a sync client: ``page``, ``collect``, ``iter_items``, ``iter_pages``."""

    def __init__(
        self, client: BaseClient, contract: Contract | Mapping[str, Any], **kw: Any
    ) -> None:
        super().__init__(client, contract, **kw)
        self._sync_client = client

    def _fetch(self, req: PageRequest) -> ResponseView:
        url, headers, body = self._target(req)
        try:
            return self._sync_client.send(
                self._request.method, url, headers=headers, json=body, timeout=req.timeout
            )
        except httpx.TimeoutException as exc:
            if req.timeout is None:
                raise
            raise FetchTimedOut(exc) from exc  # the walk decides: its deadline, or a failure

    def _walker(self, strict_items: bool | None, defer: bool = False) -> Walker:
        return Walker(
            self._contract,
            self._fetch,
            strict_items=self._strict(strict_items),
            **self._walk_options(defer),
        )

    def _page(self, values: Mapping[str, Any], strict_items: bool | None = None) -> Any:
        defer = self._defers(self._strict(strict_items))
        return self._page_model(self._walker(strict_items, defer).page(values), defer)

    def _collect(
        self,
        values: Mapping[str, Any],
        limits: Limits,
        resume: Continuation | str | None,
        strict_items: bool | None = None,
    ) -> CollectResult:
        return self._walker(strict_items).collect(values, limits, resume=resume)

    def _iter_pages(
        self,
        values: Mapping[str, Any],
        limits: Limits,
        resume: Any,
        strict_items: bool | None = None,
    ) -> PageStream:
        return self._walker(strict_items).iter_pages(values, limits, resume=resume)

    def _iter_items(
        self,
        values: Mapping[str, Any],
        limits: Limits,
        resume: Any,
        strict_items: bool | None = None,
    ) -> ItemStream:
        return self._walker(strict_items).iter_items(values, limits, resume=resume)


class AsyncListing(_ListingBase):
    """The async twin of :class:`Listing`."""

    def __init__(
        self, client: AsyncBaseClient, contract: Contract | Mapping[str, Any], **kw: Any
    ) -> None:
        super().__init__(client, contract, **kw)
        self._async_client = client

    async def _fetch(self, req: PageRequest) -> ResponseView:
        url, headers, body = self._target(req)
        try:
            return await self._async_client.send(
                self._request.method, url, headers=headers, json=body, timeout=req.timeout
            )
        except httpx.TimeoutException as exc:
            if req.timeout is None:
                raise
            raise FetchTimedOut(exc) from exc  # the walk decides: its deadline, or a failure

    def _walker(self, strict_items: bool | None, defer: bool = False) -> AsyncWalker:
        return AsyncWalker(
            self._contract,
            self._fetch,
            strict_items=self._strict(strict_items),
            **self._walk_options(defer),
        )

    async def _page(self, values: Mapping[str, Any], strict_items: bool | None = None) -> Any:
        defer = self._defers(self._strict(strict_items))
        return self._page_model(await self._walker(strict_items, defer).page(values), defer)

    async def _collect(
        self,
        values: Mapping[str, Any],
        limits: Limits,
        resume: Continuation | str | None,
        strict_items: bool | None = None,
    ) -> CollectResult:
        return await self._walker(strict_items).collect(values, limits, resume=resume)

    def _iter_pages(
        self,
        values: Mapping[str, Any],
        limits: Limits,
        resume: Any,
        strict_items: bool | None = None,
    ) -> AsyncPageStream:
        return self._walker(strict_items).iter_pages(values, limits, resume=resume)

    def _iter_items(
        self,
        values: Mapping[str, Any],
        limits: Limits,
        resume: Any,
        strict_items: bool | None = None,
    ) -> AsyncItemStream:
        return self._walker(strict_items).iter_items(values, limits, resume=resume)


def limits(max_pages: int | None, max_items: int | None, deadline: float | None) -> Limits:
    """The client's own bounds, checked: a bound must be positive."""
    for name, value in (("max_pages", max_pages), ("max_items", max_items)):
        if value is not None and (isinstance(value, bool) or int(value) < 1):
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if deadline is not None and float(deadline) <= 0:
        raise ValueError(f"deadline must be positive seconds, got {deadline!r}")
    return Limits(
        max_pages=None if max_pages is None else int(max_pages),
        max_items=None if max_items is None else int(max_items),
        deadline=None if deadline is None else float(deadline),
    )


# --------------------------------------------------------------------------- single calls


class _CallBase:
    def __init__(
        self,
        client: _ClientCore,
        contract: Contract | Mapping[str, Any],
        *,
        parameters: Sequence[Param] = (),
        body_fields: Sequence[tuple[str, str]] = (),
        response_model: Any = None,
    ) -> None:
        self._client = client
        contract = as_contract(contract, kind="resource")
        self._request = _Request(str(contract.method), str(contract.path), parameters)
        self._body = {py: name for py, name in body_fields}
        self._body_names = set(self._body.values())
        self._response_model = response_model

    def split_arguments(
        self, arguments: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """See :meth:`_Request.split_arguments`."""
        return self._request.split_arguments(arguments)

    def _build(
        self, typed: Mapping[str, Any], params: Mapping[str, Any] | None, more: Mapping[str, Any]
    ) -> tuple[httpx.URL, dict[str, str], Any]:
        body: dict[str, Any] = {}
        rest_more: dict[str, Any] = {}
        for key, value in {**typed, **more}.items():
            if key in self._body or key in self._body_names:
                if key in self._request.by_python or key in self._request.by_name:
                    rest_more[key] = value  # a parameter and a field share the name: parameter
                elif value is not None:
                    body[self._body.get(key, key)] = _plain(value)
            else:
                rest_more[key] = value
        values = self._request.spec_params({}, params, rest_more)
        path, query, headers, _ = self._request.split(values)
        url = _with_query(self._client.url(path), query)
        return url, headers, (body if self._body else None)

    def _result(self, response: ResponseView) -> Any:
        raise_for_error(response.status, response.body)
        if response.body is MISSING:
            # a success with no JSON body (Velo's and Data2CRM's deletes answer 204): None, never
            # the parser's sentinel (it reached the MCP answer and failed it after the API acted)
            return None
        if self._response_model is None:
            return response.body
        return self._response_model.model_validate(response.body)


class Call(_CallBase):
    """A single request (read or mutation) on a sync client; typed response, typed errors."""

    def __init__(
        self, client: BaseClient, contract: Contract | Mapping[str, Any], **kw: Any
    ) -> None:
        super().__init__(client, contract, **kw)
        self._sync_client = client

    def _call(
        self, typed: Mapping[str, Any], params: Mapping[str, Any] | None, more: Mapping[str, Any]
    ) -> Any:
        url, headers, body = self._build(typed, params, more)
        return self._result(
            self._sync_client.send(self._request.method, url, headers=headers, json=body)
        )


class AsyncCall(_CallBase):
    """The async twin of :class:`Call`."""

    def __init__(
        self, client: AsyncBaseClient, contract: Contract | Mapping[str, Any], **kw: Any
    ) -> None:
        super().__init__(client, contract, **kw)
        self._async_client = client

    async def _call(
        self, typed: Mapping[str, Any], params: Mapping[str, Any] | None, more: Mapping[str, Any]
    ) -> Any:
        url, headers, body = self._build(typed, params, more)
        return self._result(
            await self._async_client.send(self._request.method, url, headers=headers, json=body)
        )


def _plain(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
