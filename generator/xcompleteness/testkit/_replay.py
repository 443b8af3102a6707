"""``verify --recorded``: the verify walk answered from recorded traffic, offline (issue 19 §5).

The walk is the live run's (:class:`Verifier`, same XC71x codes); only the transport differs:
each request is answered with the recorded page it asks for, found from the request itself:

* a **HAR** page matches on method and URL path (the recording may carry a base path before
  the spec's path) and on the query: every parameter the walk sends (but the page size, which
  the walk varies) has the recorded value, and a position parameter the walk does *not* send
  (cursor, offset, page) must be absent from the recording too, so the first page is the one
  recorded without a position, or one that starts a recorded walk (``audit.recorded_walks``: a
  start token such as ``cursor=-1`` continues no page before it). A POST search paged in its
  JSON body (``$request.body#/marker``) is matched the same way on the top-level properties of
  its body (the HAR's ``postData``) next to its query: the cursor the walk writes into the body
  must be the recorded one. A parameter or body property that no recorded request of the
  operation carries is left out of the match (an API ignores a name it does not know), so a
  draft that writes the cursor under a wrong name reads the first page again, as it would live;
* a **folder** page (no request recorded) is located by the walk's position: no position is
  the operation's first page; a cursor or next URL is the page after the one that handed it
  out; an offset is the page after the items counted so far; a page number counts pages. A
  position the walk writes into the JSON body is read from the body.

A request nothing was recorded for is answered 404 with the error code ``NOT_RECORDED``, which
the walk reports as ``XC717`` naming it: the walk left the recording (a wrong next location, an
end the recording did not show). A cursor sent as ``""`` counts as no cursor, as most APIs
answer it with the first page: a declaration that follows an empty cursor then loops (XC713)
exactly as it would live.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from xcompleteness.audit import WalkRoles, unmatched_recorded, walk_starts
from xcompleteness.diagnostics import Diagnostic
from xcompleteness.document import pointer_tokens
from xcompleteness.load import RecordedPage
from xcompleteness.runtime.expressions import MISSING, read_json, resolve_pointer

__all__ = ["NOT_RECORDED", "Replay"]


NOT_RECORDED = "NOT_RECORDED"


def _template(path: str) -> re.Pattern[str]:
    regex = re.sub(r"\\\{[^}]*\\\}", "[^/]+", re.escape(path))
    return re.compile(r"(?:.*?)" + regex + "/?")


def _at(body: Any, expr: Any) -> Any:
    text = str(expr or "")
    if not text.startswith("$response.body#"):
        return MISSING
    return resolve_pointer(body, pointer_tokens(text.partition("#")[2]) or ())


def _next_value(body: Any, expr: Any) -> str | None:
    """The next cursor a recorded page hands out, as the walk sends it (a number as its
    decimal text)."""
    found = _at(body, expr)
    if isinstance(found, (int, float)) and not isinstance(found, bool):
        return str(int(found)) if float(found).is_integer() else json.dumps(found)
    return found if isinstance(found, str) and found else None


class Replay:
    """Answers the verify walk's requests from recorded pages (see the module docstring)."""

    def __init__(self, pages: list[RecordedPage], result: Any):
        self.pages = pages
        self.ops = []
        for op_id, contract in sorted(result.contracts.items()):
            if not contract.is_listing:
                continue
            self.ops.append(
                (str(contract.method).lower(), _template(str(contract.path)), op_id, contract)
            )
        self.ops.sort(key=lambda o: -len(re.sub(r"\{[^}]*\}", "", str(o[3].path))))
        self.served: list[str] = []

    def unmatched(self, origin: str) -> list[Diagnostic]:
        """``XC019`` warnings for recorded answers no declared listing can be answered from."""
        matched: dict[str, list[RecordedPage]] = {}
        for page in self.pages:
            for method, template, op_id, _ in self.ops:
                if page.operation == op_id or (
                    page.path is not None
                    and page.method == method
                    and template.fullmatch(page.path)
                ):
                    matched.setdefault(op_id, []).append(page)
                    break
        return unmatched_recorded(self.pages, matched, origin, "declared listing of the spec")

    def transport(self) -> Any:
        import httpx

        return httpx.MockTransport(self.handle)

    def handle(self, request: Any) -> Any:
        import httpx

        method = request.method.lower()
        path = request.url.path
        raw = request.url.query
        text = raw.decode() if isinstance(raw, bytes) else str(raw)
        query = dict(parse_qsl(text, keep_blank_values=True))
        query.update(_fields(_json(request.content)))  # a POST search's body, by property
        op = next((o for o in self.ops if o[0] == method and o[1].fullmatch(path)), None)
        page = None
        if op is not None:
            page = self._find(op[2], op[3], path, query, str(request.url))
        if page is None:
            return httpx.Response(
                404,
                json={
                    "error": {
                        "code": NOT_RECORDED,
                        "message": "no recorded page answers this request",
                    }
                },
            )
        self.served.append(page.source)
        headers = [
            (_wire(k), _wire(v))
            for k, v in page.headers.items()
            if k in ("link", "content-type") or k.startswith("x-")
        ]
        return httpx.Response(page.status, json=page.body, headers=headers)

    # -- finding the page ------------------------------------------------------------------

    def _find(
        self, op_id: str, contract: Any, path: str, query: dict[str, str], url: str
    ) -> RecordedPage | None:
        pagination = contract.pagination
        request = pagination.request if pagination else None
        size = request.size if request else None
        positions = [
            p for p in ((request.cursor, request.offset, request.page) if request else ()) if p
        ]
        for p in positions:
            if query.get(p) == "":
                del query[p]  # an empty cursor is answered like none: the first page
        har = [
            p
            for p in self.pages
            if p.path is not None
            and p.method == str(contract.method).lower()
            and _template(str(contract.path)).fullmatch(p.path)
            and (p.path.endswith(path) or path.endswith(p.path))  # the same concrete path
        ]
        if har:
            starts = {id(p) for p in walk_starts(har, WalkRoles.of_contract(contract))}
            return self._har_page(har, query, size, positions, starts)
        folder = [p for p in self.pages if p.operation == op_id]
        if not folder:
            return None
        return self._folder_page(folder, contract, query, url, positions)

    def _har_page(
        self,
        pages: list[RecordedPage],
        query: dict[str, str],
        size: str | None,
        positions: list[str],
        starts: set[int],
    ) -> RecordedPage | None:
        sent = [{**p.query, **_fields(p.request_body)} for p in pages]
        # A name no recorded request carries is one the recording cannot speak for: left out,
        # as an API ignores a field it does not know (the live run then shows what follows).
        known = {k for names in sent for k in names}
        wanted = {k: v for k, v in query.items() if k != size and k in known}
        for page, recorded in zip(pages, sent, strict=True):
            got = {k: v for k, v in recorded.items() if k != size}
            if any(got.get(k) != v for k, v in wanted.items()):
                continue
            if any(p in got and p not in wanted for p in positions) and id(page) not in starts:
                continue  # a later page: the walk asked for the first (a start token is one)
            return page
        return None

    def _folder_page(
        self,
        pages: list[RecordedPage],
        contract: Any,
        query: dict[str, str],
        url: str,
        positions: list[str],
    ) -> RecordedPage | None:
        pagination = contract.pagination
        request = pagination.request if pagination else None
        sent = [(p, query[p]) for p in positions if p in query]
        nxt = pagination.response.next if pagination else None
        if (
            pagination is not None
            and pagination.style in ("next-url", "link-header")
            and "?" in url
            and _is_later(url, pages, nxt)
        ):
            for i, page in enumerate(pages[:-1]):
                value = _next_value(page.body, nxt)
                if value and urlsplit(value).query == urlsplit(url).query:
                    return pages[i + 1]
            return None
        if not sent:
            return pages[0]
        name, value = sent[0]
        if request is not None and name == request.cursor:
            if value.startswith(("http://", "https://")):
                return None  # a recorded next URL was requested as that URL, not as a cursor
            for i, page in enumerate(pages[:-1]):
                if _next_value(page.body, nxt) == value:
                    return pages[i + 1]
            return None
        if request is not None and name == request.offset and value.isdigit():
            items_expr = contract.items
            seen = 0
            for page in pages:
                if seen == int(value):
                    return page
                seen += len(_items(page.body, items_expr))
            return None
        if request is not None and name == request.page and value.isdigit():
            index = int(value) - pagination.first_page  # pages count from first-page
            return pages[index] if 0 <= index < len(pages) else None
        return None


def _json(content: Any) -> Any:
    """A request's JSON body (None for no body or one that is not JSON)."""
    if not content:
        return None
    try:
        return read_json(content)
    except ValueError:
        return None


def _fields(body: Any) -> dict[str, str]:
    """The top-level properties of a JSON object body as comparable text (a string as itself,
    anything else as canonical JSON, so ``2`` and ``"2"`` match like query values do)."""
    if not isinstance(body, dict):
        return {}
    return {
        str(k): v if isinstance(v, str) else json.dumps(v, sort_keys=True, separators=(",", ":"))
        for k, v in body.items()
        if v is not None
    }


def _is_later(url: str, pages: list[RecordedPage], nxt: str | None) -> bool:
    return any(
        _next_value(p.body, nxt) and urlsplit(_next_value(p.body, nxt)).query == urlsplit(url).query
        for p in pages
    )


def _items(body: Any, expr: Any) -> list[Any]:
    found = _at(body, expr or "$response.body#")
    return found if isinstance(found, list) else []


def _wire(text: str) -> bytes:
    """A recorded header name or value as the bytes it had on the wire: a HAR holds them as
    text (a browser decodes non-ASCII header bytes as Latin-1), and httpx takes only ASCII text;
    text Latin-1 cannot spell was never on the wire as such and is sent as UTF-8."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8")
