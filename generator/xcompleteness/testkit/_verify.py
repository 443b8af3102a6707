"""``xcompleteness verify``: drive a live API read-only and report where it breaks its contract.

For every declared listing served by ``GET``, and every POST search its declaration pages in the
JSON request body (``request: {cursor: $request.body#/marker}``: a read by its declaration;
nothing else is ever requested: no mutation, no single read), verify walks the listing twice,
with a small page size and with a large one, within ``--max-pages`` and ``--time-limit``, and
checks every page against the declaration:

=======  ==========================================================================================
XC710    an envelope invariant is broken (``complete`` missing or not a boolean, ``complete`` true
         with reasons or false without, MORE_PAGES_AVAILABLE without ``next_cursor`` or a cursor
         without it, evidence on an incomplete page)
XC711    a reason or warning code the operation does not declare
XC712    two complete walks of the same listing disagree: a short page taken as the end (one
         ended "complete" with fewer items than the other) or the same count but other ids;
         or one cursor, link-header or next-url walk ended by the API with another item count
         than its declared total (no declared cap explains it)
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

Each walk is a generated client's: the runtime's ``Walker`` (the one walk core: what a page
means, where the next one is, when the walk ends) over the runtime's ``BaseClient`` (how a next
link is resolved and which origin it may go to), with a fetcher that records every answer
(:class:`_Recorder`). verify then checks the recorded answers and reads how the core ended the
walk; it has no page reader of its own.

Exit codes like ``check``: 0 no violations, 1 violations (errors), 2 unusable input.
The command is :func:`xcompleteness.api.verify` and its formatting in :mod:`xcompleteness.cli`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from xcompleteness.diagnostics import Diagnostic, InputError, Severity
from xcompleteness.document import pointer_tokens
from xcompleteness.runtime.contract import Contract, PaginationRequest
from xcompleteness.runtime.expressions import MISSING, ResponseView, resolve_pointer
from xcompleteness.runtime.walk import (
    ApiError,
    FetchRefused,
    FetchTimedOut,
    Limits,
    Page,
    PageRequest,
    StreamResult,
    ViolationKind,
    Walker,
)
from xcompleteness.runtime.walk_results import (
    CLIENT_DEADLINE_EXCEEDED,
    CLIENT_PAGE_LIMIT,
    CONTRACT_VIOLATION,
    CURSOR_EXPIRED,
    SNAPSHOT_CHANGED,
)
from xcompleteness.testkit._verify_envelope import envelope_findings

__all__ = ["SMALL_PAGE", "VIOLATION_CODES", "Verifier", "Walk"]

VIOLATION_CODES: Mapping[ViolationKind, str] = {
    "broken_page": "XC710",
    "items_not_a_list": "XC718",
    "refused": "XC715",
    "repeated_cursor": "XC713",
    "total_mismatch": "XC712",
}
"""The finding for each kind of contract violation the walk core ends a walk on
(``runtime.walk.VIOLATION_KINDS``; tests/testkit/test_verify.py pins that every kind has one)."""


def redact_url(url: str) -> str:
    """``url`` with any ``user:password@`` replaced by ``***@`` (for messages)."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return parts._replace(netloc="***@" + parts.netloc.rsplit("@", 1)[1]).geturl()


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

    operations: list[dict[str, Any]] = field(default_factory=list)
    """One record per declared listing: how each walk went (``verify --format json``)."""

    def __post_init__(self) -> None:
        # The generated client's own base client: the URL rules (relative next links, the
        # origin a next link must keep) are the ones every generated package runs.
        from xcompleteness.runtime.operations import BaseClient

        self.client = BaseClient(
            self.base_url, headers=dict(self.headers), transport=self.transport, timeout=30.0
        )
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
            if str(contract.method).lower() != "get" and not _body_paged(contract):
                self.report(
                    contract,
                    "XC720",
                    "skipped: verify only sends GET requests (and POST searches paged in their "
                    "JSON body)",
                    severity=Severity.INFO,
                )
                self.operations.append(_record(op_id, "skipped", "not GET"))
                continue
            self.verify_listing(op_id, contract)
        return self.diagnostics

    def verify_listing(self, op_id: str, contract: Contract) -> None:
        path, query, missing = self._request(contract)
        body, missing_body = self._body(contract)
        missing += missing_body
        if missing:
            self.report(
                contract,
                "XC720",
                f"skipped: no value for the required parameter(s) {', '.join(missing)}",
                "pass --param NAME=VALUE",
                Severity.INFO,
            )
            self.operations.append(_record(op_id, "skipped", f"no value for {', '.join(missing)}"))
            return
        pagination = contract.pagination
        size_param = pagination.request.size if pagination else None
        biggest = (pagination.max_page_size if pagination else None) or 100
        sizes: list[int | None] = [SMALL_PAGE, int(biggest)] if size_param else [None]
        before = len(self.diagnostics)
        walks = [self.walk(contract, path, query, size, body) for size in sizes]
        done = [w for w in walks if w.finished and w.complete]
        if len(done) == 2 and set(done[0].ids) != set(done[1].ids):
            self._different_items(contract, done[0], done[1])
        found = self.diagnostics[before:]
        errors = sum(d.severity is Severity.ERROR for d in found)
        pages = sum(w.pages for w in walks)
        items = max((len(w.ids) for w in walks), default=0)
        state = "ok" if not found else f"{len(found)} finding(s)"
        self.summary.append(
            f"{op_id}: {state} ({len(walks)} walk(s), {pages} page(s), {items} item(s))"
        )
        record = _record(op_id, "violations" if errors else "ok", None)
        record["findings"] = sorted({d.code for d in found})
        record["walks"] = [
            {
                "page_size": w.size,
                "pages": w.pages,
                "items": len(w.ids),
                "complete": w.complete,
                "finished": w.finished,
                "truncated": w.truncated,
            }
            for w in walks
        ]
        self.operations.append(record)

    def _different_items(self, contract: Contract, one: Walk, other: Walk) -> None:
        """XC712: two complete walks of one listing disagree on its items."""
        hint = (
            "only complete == true (or the declared terminal signal) may end a listing; "
            "a short page must still carry MORE_PAGES_AVAILABLE and a cursor"
        )
        small, large = sorted((one, other), key=lambda w: len(w.ids))
        if len(small.ids) < len(large.ids):
            self.report(
                contract,
                "XC712",
                f"a walk with page size {small.size} ended complete after {len(small.ids)} "
                f"item(s); one with page size {large.size} returned {len(large.ids)}: a short "
                "page was taken as the end",
                hint,
            )
            return
        only = len(set(one.ids) ^ set(other.ids))
        self.report(
            contract,
            "XC712",
            f"walks with page sizes {one.size} and {other.size} both ended complete with "
            f"{len(one.ids)} item(s) but not the same ones ({only} id(s) seen in only one walk): "
            "the listing is not stable across page sizes",
            "both walks must return the same items; page by a stable key over one snapshot",
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

    def _body(self, contract: Contract) -> tuple[dict[str, Any] | None, list[str]]:
        """The JSON body of a POST search paged in its body: ``--param NAME=VALUE`` for each
        top-level property (a value that parses as JSON is sent as that JSON), else the
        property's example or default; a required property without one is missing. The walk
        writes the paging properties itself."""
        if not _body_paged(contract):
            return None, []
        op = self.result.doc.views.at(str(contract.path), str(contract.method))
        schemas = op.request_schemas() if op is not None else ()
        schema = schemas[0].schema if schemas else None
        schema = schema if isinstance(schema, Mapping) else {}
        props = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
        required = set(schema.get("required") or ()) if isinstance(schema, Mapping) else set()
        owned = contract.pagination.request.body_names if contract.pagination else frozenset()
        body: dict[str, Any] = {}
        missing: list[str] = []
        for name, sub in props.items():
            if name in owned:
                continue
            value: Any = self.params.get(name)
            if value is not None:
                try:
                    value = json.loads(value)
                except ValueError:
                    pass  # a plain string
            else:
                value = _example({}, sub if isinstance(sub, Mapping) else {})
            if value is None:
                if name in required:
                    missing.append(name)
                continue
            body[name] = value
        return body, missing

    def walk(
        self,
        contract: Contract,
        path: str,
        query: Mapping[str, Any],
        size: int | None,
        body: Mapping[str, Any] | None = None,
    ) -> Walk:
        """One walk, driven by the walk core a generated client runs (so a page means the same
        thing here as in the client, its MCP tools and the tests); every answer is recorded
        and checked afterwards against the declaration."""
        pagination = contract.pagination
        request = pagination.request if pagination else PaginationRequest()
        walk = Walk(size)
        params = dict(query)
        if size is not None and request.size:
            params[request.size] = size
        recorder = _Recorder(self, path, str(contract.method), body, request.body_names)
        left = self.time_limit - (time.monotonic() - self.started)
        limits = Limits(max_pages=self.max_pages, deadline=max(left, 0.001))
        stream = Walker(contract, recorder).iter_pages(params, limits)
        pages: list[Page] = []
        failed = False
        try:
            pages.extend(stream)
        except ApiError:
            failed = True  # an error answer the contract does not map: reported below (XC717)
        walk.pages = len(recorder.answers)
        before = len(self.diagnostics)
        for number, view in enumerate(recorder.answers, start=1):
            if self._status_problem(contract, view, number):
                continue
            if not contract.is_adapter:
                self._native_checks(contract, view, number)
        self._ids(contract, walk, pages)
        if failed:
            return walk
        found = len(self.diagnostics) > before
        self._ending(contract, walk, stream.result, stream.violation, recorder, found=found)
        return walk

    def _ids(self, contract: Contract, walk: Walk, pages: list[Page]) -> None:
        pagination = contract.pagination
        cursor_rules = pagination.cursor if pagination else None
        frozen = (cursor_rules is not None and cursor_rules.snapshot == "frozen") or (
            contract.scope is not None and contract.scope.snapshot == "token"
        )
        seen: set[str] = set()
        for page in pages:
            for item in page.items:
                item_id = resolve_pointer(item, pointer_tokens(contract.id or "/id") or ())
                if item_id is MISSING:
                    continue
                key = str(item_id)
                if key in seen:
                    self.report(
                        contract,
                        "XC716",
                        f"item {key!r} came back twice in one walk (page {page.number})",
                        "pages must not overlap; page by a stable key, not a live offset",
                        Severity.ERROR if frozen else Severity.WARNING,
                    )
                seen.add(key)
                walk.ids.append(key)

    def _ending(
        self,
        contract: Contract,
        walk: Walk,
        result: StreamResult,
        kind: ViolationKind | None,
        recorder: _Recorder,
        *,
        found: bool,
    ) -> None:
        """How the walk core ended the walk, as a finding where it is one; a contract
        violation is mapped by its ``kind`` (:data:`VIOLATION_CODES`), never by its wording."""
        codes = {r.code: r for r in result.reasons}
        walk.complete = result.complete
        if CLIENT_PAGE_LIMIT in codes or CLIENT_DEADLINE_EXCEEDED in codes:
            walk.truncated = True
            self.report(
                contract,
                "XC719",
                f"stopped after {walk.pages} page(s) (--max-pages {self.max_pages}, "
                f"--time-limit {self.time_limit:g}s) before the end; the rest is unverified",
                severity=Severity.WARNING,
            )
            return
        if SNAPSHOT_CHANGED in codes:
            pagination = contract.pagination
            cursor_rules = pagination.cursor if pagination else None
            frozen = (cursor_rules is not None and cursor_rules.snapshot == "frozen") or (
                contract.scope is not None and contract.scope.snapshot == "token"
            )
            if frozen:
                self.report(
                    contract,
                    "XC714",
                    f"the snapshot changed within one walk (on page {walk.pages}) although it "
                    "is declared frozen",
                    "keep every page of a walk at the first page's snapshot, or declare "
                    "cursor.snapshot: live and scope.snapshot accordingly",
                )
            return
        violation = codes.get(CONTRACT_VIOLATION)
        if violation is not None:
            what = str(violation.details.get("what") or "")
            kind = kind or "broken_page"
            code = VIOLATION_CODES[kind]
            if kind == "refused":
                self.report(
                    contract,
                    code,
                    f"the next link of page {walk.pages} was refused: {recorder.refused or what}",
                    "next links must stay on the API's scheme, host, port and base path, "
                    "without userinfo",
                )
            elif kind == "repeated_cursor":
                self.report(
                    contract,
                    code,
                    f"the continuation of page {walk.pages} was already used in this walk: "
                    "a client following it would loop",
                    "every page must hand out a new cursor or link",
                )
            elif not found:
                self.report(contract, code, f"page {walk.pages}: {what}")
            return
        if CURSOR_EXPIRED in codes:
            return  # the server ended the walk's cursor: nothing more to compare
        walk.finished = True

    def get(
        self,
        url: Any,
        params: Mapping[str, Any] | None,
        timeout: float | None,
        *,
        method: str = "GET",
        body: Mapping[str, Any] | None = None,
    ) -> Any:
        """One GET (or a body-paged search's POST); an API that cannot be reached is unusable
        input (XC722), a request cut off by the walk's own deadline is the walk's to report
        (XC719)."""
        import httpx

        try:
            return self.client.send(method, url, params=params or None, json=body, timeout=timeout)
        except httpx.TimeoutException as exc:
            if timeout is not None:
                raise FetchTimedOut(exc) from exc
            raise self._unreachable(exc) from None
        except httpx.HTTPError as exc:
            raise self._unreachable(exc) from None

    def _unreachable(self, exc: Exception) -> InputError:
        return InputError(
            [
                Diagnostic(
                    redact_url(self.base_url),
                    "",
                    "XC722",
                    Severity.ERROR,
                    f"the API cannot be reached: {type(exc).__name__}",
                    "check --base-url and that the service is running",
                )
            ]
        )

    def _status_problem(self, contract: Contract, view: ResponseView, number: int) -> bool:
        """True when the page is not a 2xx answer (reported unless the contract explains it)."""
        if 200 <= view.status < 300:
            if view.body is MISSING:
                self.report(contract, "XC717", f"page {number} is not JSON")
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
                f"page {number} answered HTTP {view.status}"
                + (f" {code}" if code else " without an error code"),
                "an error answer carries {'error': {'code': ...}} with a declared code",
            )
        return True

    def _native_checks(self, contract: Contract, view: ResponseView, number: int) -> None:
        """Each envelope invariant a native page breaks, reported one by one (the walk core
        stops at the first; verify says all of them)."""
        for code, message, hint in envelope_findings(contract, view.body, f"page {number}"):
            self.report(contract, code, message, hint)


class _Recorder:
    """The fetcher verify hands the walk core: a GET through the generated client's own
    ``BaseClient`` (so a next link, relative or absolute, is followed, or refused, exactly as a
    generated client does), every answer kept for the checks."""

    def __init__(
        self,
        verifier: Verifier,
        path: str,
        method: str = "GET",
        body: Mapping[str, Any] | None = None,
        body_names: frozenset[str] = frozenset(),
    ) -> None:
        self.verifier = verifier
        self.path = path
        self.method = method.upper()
        self.body = body
        self.body_names = body_names
        self.answers: list[ResponseView] = []
        self.refused: str | None = None

    def __call__(self, request: PageRequest) -> ResponseView:
        client = self.verifier.client
        params: Mapping[str, Any] | None = request.params
        body = None
        if self.body is not None:  # a POST search: the walk's paging names go in the body
            body = {
                **self.body,
                **{k: v for k, v in request.params.items() if k in self.body_names},
            }
            params = {k: v for k, v in request.params.items() if k not in self.body_names}
        if request.url is not None:
            try:
                url = client.same_origin(request.url)
            except FetchRefused as exc:
                self.refused = str(exc)
                raise
            params = None  # the next link carries its own query
        else:
            url = client.url(self.path)
        answer = self.verifier.get(url, params, request.timeout, method=self.method, body=body)
        self.answers.append(answer)
        return answer


def _body_paged(contract: Contract) -> bool:
    """A POST search paged in its JSON body (``$request.body#/marker``): a read by its
    declaration, so verify walks it (no other non-GET operation is ever sent)."""
    pagination = contract.pagination
    return (
        str(contract.method).lower() == "post"
        and pagination is not None
        and bool(pagination.request.body)
    )


def _record(op_id: str, state: str, why: str | None) -> dict[str, Any]:
    """The per-operation summary verify --format json reports (docs/testing.md)."""
    return {"operation_id": op_id, "state": state, "why": why, "findings": [], "walks": []}


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
