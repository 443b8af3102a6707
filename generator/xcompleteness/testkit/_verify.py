"""``xcompleteness verify``: drive a live API read-only and report where it breaks its contract.

For every declared listing served by ``GET`` (nothing else is ever requested: no mutation, no
single read), verify walks the listing twice, with a small page size and with a large one, within
``--max-pages`` and ``--time-limit``, and checks every page against the declaration:

=======  ==========================================================================================
XC710    an envelope invariant is broken (``complete`` missing or not a boolean, ``complete`` true
         with reasons or false without, MORE_PAGES_AVAILABLE without ``next_cursor`` or a cursor
         without it, evidence on an incomplete page)
XC711    a reason or warning code the operation does not declare
XC712    a short page taken as the end: a walk ended "complete" with fewer items than another walk
         of the same listing (the small-page walk lost items it should have paged to)
XC713    a cursor or next link repeats within one walk (the walk would loop)
XC714    the snapshot drifts within one walk although the declaration freezes it
XC715    a ``next`` link leaves the API's origin
XC716    an item id comes back twice within one walk
XC717    an answer that is not JSON, or an error status the contract does not explain
XC718    the items location does not hold a list
XC719    (warning) the walk stopped at ``--max-pages`` / ``--time-limit`` before the end
XC720    (info) an operation was skipped (not GET, or a required parameter has no value)
XC721    (exit 2) bad ``--base-url`` or ``--param``
XC722    (exit 2) the API cannot be reached
=======  ==========================================================================================

Exit codes like ``check``: 0 no violations, 1 violations (errors), 2 unusable input.
The command is :func:`xcompleteness.api.verify` and its formatting in :mod:`xcompleteness.cli`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

from xcompleteness.diagnostics import Diagnostic, InputError, Severity
from xcompleteness.document import pointer_tokens
from xcompleteness.runtime.contract import Contract, PaginationRequest, PaginationResponse
from xcompleteness.runtime.expressions import (
    MISSING,
    ResponseView,
    parse_expression,
    resolve_pointer,
)

MORE = "MORE_PAGES_AVAILABLE"

SMALL_PAGE = 2


@dataclass
class Walk:
    """What one walk saw."""

    size: int | None
    pages: int = 0
    ids: list[str] = field(default_factory=list)
    complete: bool | None = None
    finished: bool = False
    truncated: bool = False


@dataclass
class Verifier:
    """Walks the declared listings of one checked spec against ``base_url``."""

    result: Any
    base_url: str
    headers: Mapping[str, str]
    params: Mapping[str, str]
    max_pages: int = 20
    time_limit: float = 60.0
    transport: Any = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        import httpx

        self.client = httpx.Client(
            base_url=self.base_url.rstrip("/"),
            headers=dict(self.headers),
            timeout=30.0,
            transport=self.transport,
            follow_redirects=False,
        )
        self.origin = _origin(self.base_url)
        self.started = time.monotonic()

    # -- reporting ---------------------------------------------------------------------------

    def report(
        self,
        contract: Contract,
        code: str,
        message: str,
        hint: str = "",
        severity: Severity = Severity.ERROR,
    ) -> None:
        pointer = str(contract.pointer or "")
        file, line = self.result.doc.locate(pointer)
        op = contract.operation_id
        self.diagnostics.append(
            Diagnostic(file, pointer, code, severity, f"{op}: {message}", hint, line)
        )

    # -- the run -----------------------------------------------------------------------------

    def run(self) -> list[Diagnostic]:
        for op_id, contract in sorted(self.result.contracts.items()):
            if not contract.is_listing:
                continue
            if str(contract.method).lower() != "get":
                self.report(
                    contract,
                    "XC720",
                    "skipped: verify only sends GET requests",
                    severity=Severity.INFO,
                )
                continue
            self.verify_listing(op_id, contract)
        return self.diagnostics

    def verify_listing(self, op_id: str, contract: Contract) -> None:
        path, query, missing = self._request(contract)
        if missing:
            self.report(
                contract,
                "XC720",
                f"skipped: no value for the required parameter(s) {', '.join(missing)}",
                "pass --param NAME=VALUE",
                Severity.INFO,
            )
            return
        pagination = contract.pagination
        size_param = pagination.request.size if pagination else None
        biggest = (pagination.max_page_size if pagination else None) or 100
        sizes: list[int | None] = [SMALL_PAGE, int(biggest)] if size_param else [None]
        before = len(self.diagnostics)
        walks = [self.walk(contract, path, query, size) for size in sizes]
        done = [w for w in walks if w.finished and w.complete]
        if len(done) == 2 and set(done[0].ids) != set(done[1].ids):
            small, large = sorted(done, key=lambda w: len(w.ids))
            self.report(
                contract,
                "XC712",
                f"a walk with page size {small.size} ended complete after {len(small.ids)} "
                f"item(s); one with page size {large.size} returned {len(large.ids)}: a short "
                "page was taken as the end",
                "only complete == true (or the declared terminal signal) may end a listing; "
                "a short page must still carry MORE_PAGES_AVAILABLE and a cursor",
            )
        found = len(self.diagnostics) - before
        pages = sum(w.pages for w in walks)
        items = max((len(w.ids) for w in walks), default=0)
        state = "ok" if not found else f"{found} finding(s)"
        self.summary.append(
            f"{op_id}: {state} ({len(walks)} walk(s), {pages} page(s), {items} item(s))"
        )

    def _request(self, contract: Contract) -> tuple[str, dict[str, Any], list[str]]:
        op = self.result.doc.views.at(str(contract.path), str(contract.method))
        path = str(contract.path)
        query: dict[str, Any] = {}
        missing: list[str] = []
        for param in op.parameters if op is not None else ():
            name, where = param.name, param.location
            value = self.params.get(name)
            found = param.schema.schema if param.schema is not None else None
            schema = found if isinstance(found, Mapping) else {}
            if value is None and param.required:
                value = _example(param.node, schema)
                if value is None:
                    missing.append(name)
                    continue
            if value is None:
                continue
            if where == "path":
                path = path.replace("{" + name + "}", str(value))
            elif where == "query":
                query[name] = value
        return path, query, missing

    # -- one walk ----------------------------------------------------------------------------

    def walk(
        self, contract: Contract, path: str, query: Mapping[str, Any], size: int | None
    ) -> Walk:
        pagination = contract.pagination
        request = pagination.request if pagination else PaginationRequest()
        walk = Walk(size)
        params = dict(query)
        if size is not None and request.size:
            params[request.size] = size
        url: str | None = path
        seen_next: set[str] = set()
        seen_ids: set[str] = set()
        snapshot: Any = MISSING
        cursor_rules = pagination.cursor if pagination else None
        frozen = (cursor_rules is not None and cursor_rules.snapshot == "frozen") or (
            contract.scope is not None and contract.scope.snapshot == "token"
        )
        adapter = contract.is_adapter
        while url is not None:
            if walk.pages >= self.max_pages or time.monotonic() - self.started > self.time_limit:
                walk.truncated = True
                self.report(
                    contract,
                    "XC719",
                    f"stopped after {walk.pages} page(s) (--max-pages {self.max_pages}, "
                    f"--time-limit {self.time_limit:g}s) before the end; the rest is unverified",
                    severity=Severity.WARNING,
                )
                return walk
            response = self._get(url, params)
            walk.pages += 1
            view = ResponseView.from_httpx(response)
            page = (
                self._adapter_page(contract, view, walk)
                if adapter
                else self._native_page(contract, view, walk)
            )
            if page is None:
                return walk
            items, nxt, page_snapshot = page
            for item in items:
                item_id = resolve_pointer(item, _tokens(contract.id or "/id"))
                if item_id is MISSING:
                    continue
                key = str(item_id)
                if key in seen_ids:
                    self.report(
                        contract,
                        "XC716",
                        f"item {key!r} came back twice in one walk (page {walk.pages})",
                        "pages must not overlap; page by a stable key, not a live offset",
                        Severity.ERROR if frozen else Severity.WARNING,
                    )
                seen_ids.add(key)
                walk.ids.append(key)
            if frozen and page_snapshot is not MISSING:
                if snapshot is not MISSING and page_snapshot != snapshot:
                    self.report(
                        contract,
                        "XC714",
                        f"the snapshot changed within one walk ({snapshot!r} -> "
                        f"{page_snapshot!r} on page {walk.pages}) although it is declared frozen",
                        "keep every page of a walk at the first page's snapshot, or declare "
                        "cursor.snapshot: live and scope.snapshot accordingly",
                    )
                    return walk
                snapshot = page_snapshot
            if nxt is None:
                walk.finished = True
                return walk
            if nxt in seen_next:
                self.report(
                    contract,
                    "XC713",
                    f"the continuation of page {walk.pages} was already used in this walk: "
                    "a client following it would loop",
                    "every page must hand out a new cursor or link",
                )
                return walk
            seen_next.add(nxt)
            if nxt.startswith(("http://", "https://")):
                if _origin(nxt) != self.origin:
                    self.report(
                        contract,
                        "XC715",
                        f"the next link of page {walk.pages} leaves the API origin "
                        f"({_origin(nxt)} instead of {self.origin})",
                        "next links must stay on the API's scheme, host and port",
                    )
                    return walk
                url, params = nxt, {}
            else:
                cursor = request.cursor
                if not cursor:
                    return walk
                params = dict(query)
                if size is not None and request.size:
                    params[request.size] = size
                params[str(cursor)] = nxt
                url = path
        return walk

    def _get(self, url: str, params: Mapping[str, Any]) -> Any:
        import httpx

        try:
            return self.client.get(url, params=params or None)
        except httpx.HTTPError as exc:
            raise InputError(
                [
                    Diagnostic(
                        self.base_url,
                        "",
                        "XC722",
                        Severity.ERROR,
                        f"the API cannot be reached: {type(exc).__name__}: {exc}",
                        "check --base-url and that the service is running",
                    )
                ]
            ) from None

    def _status_problem(self, contract: Contract, view: ResponseView, walk: Walk) -> bool:
        """True when the page is not a 2xx answer (reported unless the contract explains it)."""
        if 200 <= view.status < 300:
            if view.body is MISSING:
                self.report(contract, "XC717", f"page {walk.pages} is not JSON")
                return True
            return False
        error = view.body.get("error") if isinstance(view.body, Mapping) else None
        code = error.get("code") if isinstance(error, Mapping) else None
        declared = contract.declared_codes
        explained = view.status == 429 or code in declared or code == "CURSOR_INVALID"
        if not explained:
            self.report(
                contract,
                "XC717",
                f"page {walk.pages} answered HTTP {view.status}"
                + (f" {code}" if code else " without an error code"),
                "an error answer carries {'error': {'code': ...}} with a declared code",
            )
        return True

    def _native_page(
        self, contract: Contract, view: ResponseView, walk: Walk
    ) -> tuple[list[Any], str | None, Any] | None:
        if self._status_problem(contract, view, walk):
            return None
        body = view.body
        where = f"page {walk.pages}"
        if not isinstance(body, Mapping):
            self.report(contract, "XC710", f"{where} is not a JSON object envelope")
            return None
        complete = body.get("complete")
        reasons = body.get("incomplete_reasons") or []
        warnings = body.get("warnings") or []
        if not isinstance(reasons, list) or not isinstance(warnings, list):
            self.report(contract, "XC710", f"{where}: incomplete_reasons and warnings are lists")
            reasons = reasons if isinstance(reasons, list) else []
            warnings = warnings if isinstance(warnings, list) else []
        codes = [r.get("code") for r in reasons if isinstance(r, Mapping)]
        nxt = body.get("next_cursor")
        if not isinstance(complete, bool):
            self.report(contract, "XC710", f"{where} has no boolean 'complete'")
        elif complete == bool(codes):
            state = "true with reasons" if complete else "false without a reason"
            self.report(contract, "XC710", f"{where}: complete is {state} {codes}")
        if (MORE in codes) != (nxt not in (None, "")):
            self.report(
                contract,
                "XC710",
                f"{where}: MORE_PAGES_AVAILABLE and next_cursor must come together "
                f"(reasons {codes}, next_cursor {'set' if nxt else 'absent'})",
            )
        if body.get("evidence") not in (None, "") and complete is not True:
            self.report(contract, "XC710", f"{where} carries evidence but is not complete")
        declared = contract.declared_codes
        for code in codes:
            if code not in declared:
                self.report(
                    contract,
                    "XC711",
                    f"{where} carries the undeclared reason {code!r}",
                    "declare it in the operation's reasons (and the registry when custom)",
                )
        declared_w = contract.declared_warnings
        for w in warnings:
            code = w.get("code") if isinstance(w, Mapping) else None
            if code not in declared_w:
                self.report(contract, "XC711", f"{where} carries the undeclared warning {code!r}")
        items = _evaluate(contract.items_location, view)
        if not isinstance(items, list):
            self.report(contract, "XC718", f"{where}: the items location does not hold a list")
            return None
        walk.complete = complete is True
        scope = body.get("scope")
        snapshot = scope.get("snapshot") if isinstance(scope, Mapping) else None
        return items, (str(nxt) if nxt not in (None, "") else None), snapshot

    def _adapter_page(
        self, contract: Contract, view: ResponseView, walk: Walk
    ) -> tuple[list[Any], str | None, Any] | None:
        if self._status_problem(contract, view, walk):
            return None
        items = _evaluate(contract.items_location, view)
        if not isinstance(items, list):
            self.report(
                contract, "XC718", f"page {walk.pages}: the items location does not hold a list"
            )
            return None
        pagination = contract.pagination
        response = pagination.response if pagination else PaginationResponse()
        more_decl = contract.reason(MORE)
        nxt: Any = None
        if response.next is not None:
            nxt = _evaluate(response.next, view)
        elif response.next_last_item and items:
            nxt = resolve_pointer(items[-1], _tokens(response.next_last_item))
        more = nxt not in (None, "", MISSING)
        if more_decl is not None and more_decl.when is not None:
            more = more_decl.when.holds(view)
        active = [r.code for r in contract.reasons if r.when is not None and r.when.holds(view)]
        walk.complete = not [c for c in active if c != MORE]
        if more and nxt in (None, "", MISSING):
            # the generated client ends such a walk with CONTRACT_VIOLATION (invariant 3)
            shown = '""' if nxt == "" else "absent"
            self.report(
                contract,
                "XC710",
                f"page {walk.pages}: MORE_PAGES_AVAILABLE holds but the next cursor is {shown}",
                "end the walk on what the last page really sends: {all: [{present: E}, "
                '{not-equals: [E, ""]}]} for a cursor sent as ""',
            )
            return None
        if not more or nxt in (None, "", MISSING):
            return items, None, MISSING
        if isinstance(nxt, str) and not nxt.startswith(("http://", "https://")):
            if pagination is not None and pagination.style == "link-header":
                nxt = urljoin(self.base_url.rstrip("/") + "/", nxt)
        return items, str(nxt), MISSING


def _evaluate(expr: str, view: ResponseView) -> Any:
    try:
        return parse_expression(expr).evaluate(view)
    except ValueError:
        return MISSING


def _tokens(pointer: str) -> tuple[str, ...]:
    return pointer_tokens(pointer) or ()


def _origin(url: str) -> str:
    parts = urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    return f"{parts.scheme}://{(parts.hostname or '').lower()}:{port}"


def _example(param: Mapping[str, Any], schema: Mapping[str, Any]) -> Any:
    for source in (param, schema):
        if "example" in source:
            return source["example"]
        examples = source.get("examples")
        if isinstance(examples, list) and examples:
            return examples[0]
    if "default" in schema:
        return schema["default"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    return None
