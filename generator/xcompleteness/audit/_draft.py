"""Draft ``x-completeness`` declarations from audit findings, written as an OpenAPI Overlay 1.0.

A draft declares only what the spec shows (adapter mode: items location, id, pagination request
parameters and response locations, reasons whose ``when`` reads a native signal) and lists what a
person must decide in ``x-todo``: one string per open question, starting with a stable topic
(``visibility:``, ``items:``, ``id:``, ``pagination:``, ``limit:``, ``signal:``). ``x-`` keys are
allowed by the vocabulary's schema, so a draft validates as written, and ``xcompleteness check``
reports every ``x-todo`` entry as one ``XC900`` warning (``rules_todo``): check on spec plus
draft lists exactly the TODOs, and a reviewer deletes each entry once it is settled.

Where an inference would need a value the spec cannot give (the items of an object with several
arrays, say), the draft writes the nearest valid placeholder and a TODO saying so, rather than
leaving the declaration invalid: the draft must pass ``check`` apart from its TODOs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import yaml

from xcompleteness.audit._responses import cross_check
from xcompleteness.audit._size_cap import draft_cap
from xcompleteness.detect import ITEM_ID_CURSORS, Finding, Signal, fold, supported_styles
from xcompleteness.diagnostics import pointer_join
from xcompleteness.load import RecordedPage

__all__ = [
    "FILE_SUFFIX",
    "TODO_KEY",
    "draft_declaration",
    "draft_operation_id",
    "draft_overlay",
    "dump_overlay",
    "jsonpath_name",
    "operation_target",
    "resource_name",
    "todo_pointers",
]


TODO_KEY = "x-todo"
_FIELDS_SHOWN = 12
_ID_SUFFIX = re.compile(r"(?:[a-z0-9]Id|[a-z0-9]ID|_id|_ID)$")
_NON_IDENT = re.compile(r"[^a-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def draft_declaration(
    f: Finding,
    defaults: Mapping[str, Any] | None = None,
    recorded: list[RecordedPage] | None = None,
) -> dict[str, Any]:
    """The draft ``x-completeness`` object for one finding (TODOs under ``x-todo``).

    ``defaults`` is the document's ``x-completeness-defaults``: what it answers (visibility,
    snapshot, mode, and the audit-only ``drafts`` answers) is inherited, not asked again.
    ``recorded`` are the operation's recorded responses (``audit --responses``): the draft is
    cross-checked against them (``audit._responses``).
    """
    decl = _draft(f, defaults)
    if recorded:
        cross_check(decl, f, recorded)
    return decl


def _draft(f: Finding, defaults: Mapping[str, Any] | None) -> dict[str, Any]:
    defaults = defaults if isinstance(defaults, Mapping) else {}
    scope_defaults = defaults.get("scope") if isinstance(defaults.get("scope"), Mapping) else {}
    drafts = defaults.get("drafts") if isinstance(defaults.get("drafts"), Mapping) else {}
    todos: list[str] = []
    if "visibility" not in scope_defaults:
        todos.append(
            "visibility: say in scope.visibility whose view a complete answer covers (complete "
            "then means every item the caller may see); add VISIBILITY_RESTRICTED only with a "
            "when on a signal the API gives when it withheld items, never when: always "
            "(or answer it once for every listing in x-completeness-defaults)"
        )
    decl: dict[str, Any] = {"kind": f.kind}
    if defaults.get("mode") != "adapter":
        decl["mode"] = "adapter"
    decl["scope"] = {"resource": resource_name(f.path)}
    if "snapshot" not in scope_defaults:
        decl["scope"]["snapshot"] = "none"
    if f.kind_doubt and f.kind_other == "collection" and f.kind == "aggregate":
        todos.append(
            f"kind: {f.kind_doubt}; if each item is a record (not a computed summary), set "
            "kind: collection"
        )
    elif f.kind_doubt and f.kind_other == "collection":
        todos.append(
            f"kind: {f.kind_doubt}; if the result is every object of the resource in scope "
            "(no query narrows it), set kind: collection"
        )
    elif f.kind_doubt and f.kind_other == "aggregate":
        # the doubt is that the items carry no identifier; an id-fields answer in the defaults
        # that names a field of the item settles it (records with an identifier): no question
        if _defaults_id(f, drafts) is None:
            todos.append(
                f"kind: {f.kind_doubt}; if the result is one computed summary (chart points, "
                "groups, report rows) rather than records of a resource, set kind: aggregate"
            )
    elif f.kind_doubt:
        todos.append(
            f"kind: {f.kind_doubt}; if the result is every object matching a query (rather than "
            "every object of the resource in scope), set kind: search and say whether it stops "
            "at a cap (RESULT_LIMIT_REACHED)"
        )
    if f.listing_doubt:
        shown = f.items is not None and not f.items_doubt
        todos.append(
            f"kind: {f.listing_doubt}; if the operation returns one object (or a fixed set), it "
            "is no listing: replace this declaration by {kind: none, why: ...}; else confirm "
            f"kind: {f.kind}"
            + ("" if shown else " and add the array of results to the response schema")
        )
    if f.imported is not None:
        return _imported_declaration(f, decl, todos)
    if f.items is not None:
        decl["items"] = f.items
        if f.items_doubt:
            todos.append(
                f"items: {f.items_doubt}; confirm {f.items} is the array of results (if the "
                "operation returns one object, it is not a listing: delete this declaration)"
            )
    else:
        decl["items"] = "$response.body#"
        todos.append(
            "items: no single array found in the response; $response.body# is a placeholder, "
            "point items at the array of results"
        )
    if f.operation_id is None:
        todos.append(
            "operationId: the operation had none and a declaration needs one; the draft sets "
            "one (drafted from method and path), rename it if you like"
        )
    _id(f, decl, todos, drafts)
    reasons: list[dict[str, Any]] = []
    pagination = _pagination(f, reasons, todos, drafts)
    if pagination is not None:
        decl["pagination"] = pagination
    _signal_reasons(f, reasons, todos, drafts)
    if reasons:
        decl["reasons"] = _one_limit(reasons)
    decl[TODO_KEY] = todos
    return decl


def _one_limit(reasons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A capped unpaged draft declares RESULT_LIMIT_REACHED bare; a documented cap with a
    ``when`` declares it too: one entry, the one with the ``when`` (the walk reports a full
    answer under either)."""
    limits = [r for r in reasons if r.get("code") == "RESULT_LIMIT_REACHED"]
    if len(limits) < 2:
        return reasons
    keep = next((r for r in limits if "when" in r), limits[0])
    return [r for r in reasons if r.get("code") != "RESULT_LIMIT_REACHED" or r is keep]


def _imported_declaration(f: Finding, decl: dict[str, Any], todos: list[str]) -> dict[str, Any]:
    """A draft whose pagination comes from the spec's own extension (``f.imported``)."""
    imp = f.imported
    assert imp is not None
    decl["x-drafted-from"] = imp.source
    if f.items is not None:
        decl["items"] = f.items
    else:
        decl["items"] = "$response.body#"
        todos.append(f"items: {imp.source} names no items array; point items at the results")
    if f.operation_id is None:
        todos.append(
            "operationId: the operation had none and a declaration needs one; the draft sets "
            "one (drafted from method and path), rename it if you like"
        )
    _id(f, decl, todos, {})
    reasons: list[dict[str, Any]] = []
    size = {"size": imp.request["size"]} if "size" in imp.request else {}
    if imp.style not in supported_styles():
        todos.append(
            f"pagination: {imp.source} says the next page's URL is at {imp.next}; this build's "
            f"vocabulary has no {imp.style} style, so the walk is left undeclared"
        )
    elif imp.style == "none":
        decl["pagination"] = {"style": "none"}
    elif imp.style in ("next-url", "cursor"):
        pagination: dict[str, Any] = {"style": imp.style}
        request = {k: v for k, v in imp.request.items() if k in ("cursor", "size")}
        if request:
            pagination["request"] = request
        pagination["response"] = {"next": imp.next}
        if imp.total is not None:  # the walk compares the items it read with the total
            pagination["response"]["total"] = imp.total
        decl["pagination"] = pagination
        reasons.append(_more(imp.more_when))
    else:  # offset, page
        pagination = {"style": imp.style, "request": {imp.style: imp.request[imp.style], **size}}
        if imp.pages is not None:
            pagination["response"] = {"pages": imp.pages}
        elif imp.total is not None:
            pagination["response"] = {"total": imp.total}
        if "response" not in pagination and imp.more_when is None:
            todos.append(
                f"pagination: {imp.source} declares {imp.style} pagination with no total and no "
                "'more' flag (it stops on an empty page, which x-completeness never takes as the "
                f"end); add response.total or a MORE_PAGES_AVAILABLE when"
            )
        else:
            decl["pagination"] = pagination
            reasons.append(_more(imp.more_when))
    _signal_reasons(f, reasons, todos, {})
    if reasons:
        decl["reasons"] = reasons
    decl[TODO_KEY] = todos
    return decl


def _id(f: Finding, decl: dict[str, Any], todos: list[str], drafts: Mapping[str, Any]) -> None:
    if f.id is not None:
        decl["id"] = f.id
        if f.id_alternatives:
            others = ", ".join(pointer_join("", n) for n in f.id_alternatives)
            todos.append(
                f"id: {f.id} drafted, but {others} look as much like the item's identifier; "
                "set id to the field that is unique per item"
            )
        return
    chosen = _defaults_id(f, drafts)
    if chosen is not None:
        decl["id"] = pointer_join("", chosen)  # answered in x-completeness-defaults.drafts
        return
    where = f" in {f.items_pointer}" if f.items_pointer else ""
    fields = [n for n in f.item_fields if isinstance(n, str)]
    # ``*Id`` fields the heuristic took for references (Velo's payments: payeeId, payorId, ...,
    # and paymentId 18th): named first, so the list never cuts the one that may be the answer,
    # and the question never says there is no id-like field when there are
    refs = [n for n in fields if _ID_SUFFIX.search(n)]
    fields = refs + [n for n in fields if n not in refs]
    if fields:
        # the value to pick is one of these: name them, so no one has to open the schema
        shown = ", ".join(fields[:_FIELDS_SHOWN]) + (", ..." if len(fields) > _FIELDS_SHOWN else "")
        choice = f"; its fields are {shown}: set id to the one unique per item (id: /<field>)"
    else:
        choice = "; set id to a field unique per item (a JSON pointer such as /name)"
    opening = (
        f"id: no field of the item schema{where} names itself the item's identifier (the "
        "fields ending in Id, listed first, may name other records)"
        if refs
        else f"id: no id-like field in the item schema{where}"
    )
    todos.append(
        f"{opening}{choice}, or delete this TODO if no field is unique (without id, duplicates "
        "across pages go unchecked)"
    )


def _defaults_id(f: Finding, drafts: Mapping[str, Any]) -> str | None:
    """The first ``x-completeness-defaults.drafts.id-fields`` answer that is a field of the item."""
    answers = drafts.get("id-fields") if isinstance(drafts.get("id-fields"), list) else []
    return next((n for n in answers if isinstance(n, str) and n in f.item_fields), None)


def _more(when: dict[str, Any] | None = None) -> dict[str, Any]:
    reason: dict[str, Any] = {"code": "MORE_PAGES_AVAILABLE"}
    if when is not None:
        reason["when"] = when
    return reason


def _cursor_present(expression: str) -> dict[str, Any]:
    """Another page, for a cursor whose last page may be missing, null or "" (the walk ends on
    any of them)."""
    return {"all": [{"present": expression}, {"not-equals": [expression, ""]}]}


def _more_when(f: Finding) -> dict[str, Any] | None:
    """The native condition for "there is another page", from the strongest signal seen."""
    has_more = f.signal("has_more")
    if has_more is not None:
        return {"equals": [has_more.expression, True]}
    token = f.signal("next_token", "next_link")
    if token is not None and token.kind == "next_token" and f.cursor_end != "absent":
        # a cursor the schema always sends (or one the spec does not settle) may be "" on the
        # last page: the walk ends on a missing, null or empty cursor, whichever the API sends
        return _cursor_present(token.expression)
    if token is not None:
        return {"present": token.expression}
    return None


def _pagination(
    f: Finding, reasons: list[dict[str, Any]], todos: list[str], drafts: Mapping[str, Any]
) -> dict | None:
    size = {"size": f.request["size"]} if "size" in f.request else {}
    if f.style == "link-header":
        if f.style_doubt:
            todos.append(
                f"pagination: {f.style_doubt}; confirm the pages are linked by the Link "
                "header's rel=next (style link-header) and keep the schema patch action of "
                "this overlay that adds the header to the success response"
            )
        reasons.append(_more({"present": "$response.link.next"}))
        out: dict[str, Any] = {"style": "link-header"}
        if size:
            out["request"] = size
        out["response"] = {"next": "$response.link.next", **_total_beside(f, todos)}
        return out
    if f.style == "next-url":
        link = next(s for s in f.signals if s.kind == "next_link")
        # a link the spec shows as "" on the last page (an example, or always sent and never
        # null) ends the walk there too: "" is no URL to follow (BigRedCloud's NextPageLink)
        empty = f.cursor_end == "empty" and f.signal("next_token", "next_link") is link
        more = _cursor_present(link.expression) if empty else {"present": link.expression}
        reasons.append(_more(more))
        if f.style_doubt:
            todos.append(
                f"pagination: {f.style_doubt}; if one response holds every item, declare style "
                f"none; else keep style next-url on {link.expression}"
            )
        if f.link_doubt:  # a token parameter beside a next link only its type shows a URL
            todos.append(f"pagination: {f.link_doubt}")
        out = {"style": "next-url"}
        if size:
            out["request"] = size
        out["response"] = {"next": link.expression, **_total_beside(f, todos)}
        return out
    if f.style == "cursor" and f.body_next is not None:  # a POST paged in its request body
        nxt = f.body_next
        todos.append(
            f"pagination: {f.style_doubt}; drafted as a cursor sent in the request body "
            f"({f.request['cursor']}, see 'Paging in the request body' in docs/vocabulary.md): "
            "confirm the field, add the page-size field as request.size if there is one, and "
            f"confirm how the last page shows {nxt} (the draft ends on a missing, null or empty "
            "one)"
        )
        reasons.append(_more(_cursor_present(nxt)))
        return {
            "style": "cursor",
            "request": {"cursor": f.request["cursor"]},
            "response": {"next": nxt, **_total_beside(f, todos)},
        }
    if f.style == "cursor":
        token = f.signal("next_token")
        if token is not None:
            nxt: Any = token.expression
        elif (
            f.signal("has_more") is not None
            and f.id is not None
            and fold(f.request["cursor"]) in ITEM_ID_CURSORS
        ):
            nxt = {"last-item": f.id}  # Stripe style: the cursor is the last item's id
        else:
            todos.append(
                f"pagination: cursor parameter {f.request['cursor']} found but no next cursor in "
                "the response; add pagination (style cursor, response.next) and "
                "MORE_PAGES_AVAILABLE"
            )
            return None
        if f.style_doubt:  # a keyset value said only in prose (detect/_keyset.py)
            todos.append(f"pagination: {f.style_doubt}")
        reasons.append(_more(_more_when(f)))
        return {
            "style": "cursor",
            "request": {"cursor": f.request["cursor"], **size},
            "response": {"next": nxt, **_total_beside(f, todos)},
        }
    first_page = f.first_page
    answered = drafts.get("first-page")
    if f.style == "page" and f.first_page_unsaid and answered in (0, 1):
        first_page = answered  # answered once for the API in x-completeness-defaults.drafts
    elif f.style == "page" and f.style_doubt:  # where pages start is unsaid or said both ways
        todos.append(
            f"pagination: {f.style_doubt}; the draft counts pages from 1 (first-page 1): "
            "confirm with the API which number the first page has, and declare first-page: 0 "
            "if it is 0 (a walk from 1 would skip that page)"
            + (
                "; x-completeness-defaults.drafts.first-page answers it once for every listing"
                if f.first_page_unsaid
                else ""
            )
        )
    if f.style in ("offset", "page"):
        if f.link_doubt:  # an undescribed Link header beside the parameter: which walk?
            todos.append(f"pagination: {f.link_doubt}")
        out = {"style": f.style, "request": {f.style: f.request[f.style], **size}}
        total = f.signal("total")
        pages = f.signal("total_pages") if f.style == "page" else None
        when = _more_when(f)
        if pages is not None:
            out["response"] = {"pages": pages.expression}
        elif total is not None:
            out["response"] = {"total": total.expression}
            if f.total_doubt:  # several candidate totals: a question naming them, never a pick
                todos.append(
                    f"pagination: {f.total_doubt}; the draft's response.total is "
                    f"{total.expression}: confirm it counts every item, or set the right field"
                )
        if "response" not in out and when is None:
            # nothing but an empty page can show the end: the walk ends there and says so
            # (END_INFERRED); a person confirms there is no total, page count or flag
            todos.append(
                f"pagination: {f.style} parameter {f.request[f.style]} found but nothing in the "
                "response tells whether more pages exist (no total, page count or 'more' flag), "
                f"so the draft (style {f.style}) ends the walk on an empty page (end: "
                "empty-page, reported as END_INFERRED); confirm, or replace end with "
                "response.total or a MORE_PAGES_AVAILABLE when if the API gives one"
            )
            out["end"] = "empty-page"
        if f.style == "page" and first_page != 1:
            out["first-page"] = first_page  # the spec (or the defaults) says pages start at 0
        reasons.append(_more(when))
        return out
    if f.style == "none":
        total = f.signal("total", "total_pages")
        if "size" in f.request:  # one answer capped by its size: a full one is not complete
            return draft_cap(f, reasons, todos)
        if total is not None:  # a total beside the items hints at pages the spec does not name
            todos.append(
                f"pagination: no paging parameter, but the response carries {total.name} "
                f"({total.expression}); confirm one response holds every item, or declare how "
                "to get the next page"
            )
        elif drafts.get("unpaginated") != "complete":
            todos.append(
                "pagination: no pagination seen; confirm one response holds every item, or, if "
                "a size parameter caps it, declare {style: none, request: {size: NAME}, "
                "max-page-size: N} with RESULT_LIMIT_REACHED among the reasons"
            )
        return {"style": "none"}
    seen = ", ".join(f"{s.name} ({s.kind})" for s in f.signals) or "nothing"
    todos.append(
        f"pagination: style not recognised (response shows {seen}); "
        "declare how to get the next page, or style none if one response holds every item"
    )
    return None


def _total_beside(f: Finding, todos: list[str]) -> dict[str, str]:
    """``{total: E}`` for a cursor, link-header or next-url draft whose response also counts
    every item (App Store Connect's ``meta.paging.total`` beside ``links.next``, GitHub's
    ``total_count`` beside its Link header): the walk compares the items it read with it.
    Drafted as the offset and page drafts draft theirs: the one total-like field (a count
    described as one page's or as an estimate is no total: detect drops it); several candidates
    keep the first under a TODO naming them all, never a silent pick; a bare ``count`` or a
    count exact only up to a bound is drafted under a TODO."""
    total = f.signal("total")
    if total is None:
        return {}
    compared = (
        f"the draft's response.total is {total.expression}, which the walk compares with the "
        "items it read (another count ends the walk partial): confirm it counts every item of "
        "the listing, set the right field, or remove response.total"
    )
    if f.total_doubt:
        todos.append(f"pagination: {f.total_doubt}; {compared}")
    elif f.total_bound:
        # Exact only up to a bound: a longer listing would end partial against an inexact count.
        todos.append(
            f"pagination: {f.total_bound}, so above that bound it is no exact count; {compared}"
        )
    elif fold(total.name) == "count" and not _drf_page(f, total):
        # A bare ``count`` beside a next cursor or URL counts the listing (SendGrid's
        # ``_metadata``) as often as this page: the walk would call every multi-page listing
        # partial.
        todos.append(
            f"pagination: the response's count ({total.expression}) may count the whole "
            f"listing or only this page, and nothing in the spec says which; {compared}"
        )
    return {"total": total.expression}


def _drf_page(f: Finding, total: Signal) -> bool:
    """Django REST framework's page ``{count, next, previous, results}`` (a framework many APIs
    answer with: NetBox, RAWG, Nordigen ...): its ``count`` is documented as the number of items
    of the whole listing, so the bare name asks nothing there."""
    link = f.signal("next_link")
    return (
        total.expression == "$response.body#/count"
        and f.items == "$response.body#/results"
        and link is not None
        and link.expression == "$response.body#/next"
    )


def _signal_reasons(
    f: Finding, reasons: list[dict[str, Any]], todos: list[str], drafts: Mapping[str, Any]
) -> None:
    for s in f.signals:
        if s.kind in ("incomplete_results", "timed_out"):
            reasons.append(
                {"code": "TIME_BUDGET_EXCEEDED", "when": {"equals": [s.expression, True]}}
            )
        elif s.kind == "shards":
            reasons.append(
                {
                    "code": "SOURCE_UNAVAILABLE",
                    "source": "shards",
                    "when": {"gt": [s.expression, 0]},
                }
            )
        elif s.kind == "truncated":
            todos.append(_truncated_todo(s))
    for n, where, text in f.caps:
        code = _cap_status(text, n)
        if code is not None:  # the sentence says how the API answers the cap: the walk sees it
            reasons.append(
                {
                    "code": "RESULT_LIMIT_REACHED",
                    "limit": n,
                    "when": {"equals": ["$statusCode", code]},
                }
            )
            todos.append(
                f"limit: the {where} says {text!r}; the draft maps a {code} answer to "
                f"RESULT_LIMIT_REACHED (limit {n}, continuation narrow_query): confirm, or "
                f"delete that reason if this listing also answers {code} for other mistakes "
                "(a bad filter would then read as the cap)"
            )
            continue
        total = f.signal("total")
        shows = (
            f"when: {{gte: [{total.expression}, {n}]}}"
            if total is not None
            else "a when on a response field that shows it"
        )
        todos.append(
            f"limit: the {where} says {text!r}; if the listing stops there, add {{code: "
            f"RESULT_LIMIT_REACHED, limit: {n}}} with {shows}; if no response field shows "
            f"it, say the cap in scope.covers (e.g. 'the first {n} results'), never with "
            "when: always"
        )
    total = f.signal("total")
    limit = drafts.get("search-limit")
    if f.kind == "search" and total is not None and limit == "none":
        return  # answered in x-completeness-defaults.drafts: searches have no fixed cap
    counted = isinstance(limit, int) and not isinstance(limit, bool) and limit > 0
    if f.kind == "search" and total is not None and counted:
        reasons.append(
            {
                "code": "RESULT_LIMIT_REACHED",
                "limit": limit,
                "when": {"gt": [total.expression, limit]},
            }
        )
        return
    if f.kind == "search" and total is not None and not f.caps:
        todos.append(
            f"limit: does the search stop at a fixed number of results? if so add {{code: "
            f"RESULT_LIMIT_REACHED, limit: N, when: {{gt: [{total.expression}, N]}}}}"
        )


_CAP_STATUS = re.compile(
    r"(?:\b(?:returns?|returned|respond(?:s|ed)?(?:\s+with)?|answer(?:s|ed)?(?:\s+with)?"
    r"|fails?(?:\s+with)?|status(?:\s+code)?|HTTP|with\s+an?)\s+(?:an?\s+)?(?P<a>4\d\d)\b)"
    r"|(?:\b(?P<b>4\d\d)\s+(?:bad\s+request|error|unprocessable|range\s+not))",
    re.IGNORECASE,
)


def _cap_status(sentence: str, cap: int) -> int | None:
    """The HTTP status a documented cap is answered with ("offset above 10000 returns 400" ->
    400), or None when the sentence names none (a 4xx number that is the cap itself is not)."""
    for m in _CAP_STATUS.finditer(sentence):
        status = int(m.group("a") or m.group("b"))
        if status != cap:
            return status
    return None


def _truncated_todo(s: Signal) -> str:
    return (
        f"signal: {s.name} at {s.pointer} is a truncation flag; map it to MORE_PAGES_AVAILABLE or "
        f"RESULT_LIMIT_REACHED with when: {{equals: [{s.expression}, true]}}"
    )


FILE_SUFFIX = re.compile(r"\.(?:json|xml|csv|ya?ml|txt|html?)$", re.IGNORECASE)
"""A format suffix on a path segment (``Messages.json``): never part of a resource name."""


# A last segment that says how the listing is read, not what it lists (Data2CRM's
# ``/application/entity/account/list``, ``/users/all``, ``/orders/search``): the resource is the
# segment before it. Folded (``listAll``, ``list_all`` -> ``listall``); singular verbs only, so a
# plural collection (``/queries``, ``/filters``) keeps its name.
_ACTION_SEGMENTS = frozenset(
    {
        "list",
        "listall",
        "all",
        "getall",
        "findall",
        "search",
        "query",
        "find",
        "lookup",
        "browse",
        "fetch",
        "get",
        "retrieve",
        "filter",
    }
)


_NOT_A_RESOURCE = re.compile(r"v?\d+(?:_\d+)*|api|rest|json|xml|csv|pub|public")


def resource_name(path: str) -> str:
    """A snake_case resource name from the last literal path segment (``/a/{b}/c`` -> c), less a
    file suffix (``/Accounts/{Sid}/Messages.json`` -> ``messages``, not ``messages_json``), and
    less a trailing action word (``/entity/account/list`` -> ``account``, never ``list``; a path
    of action words alone keeps the last one: ``/search`` -> ``search``)."""
    action = None
    for segment in reversed([s for s in path.split("/") if s]):
        if "{" in segment:
            continue
        segment = FILE_SUFFIX.sub("", segment)
        name = _NON_IDENT.sub("_", _CAMEL.sub("_", segment).lower()).strip("_")
        if name and name.replace("_", "") in _ACTION_SEGMENTS:
            action = action or name
            continue
        if _NOT_A_RESOURCE.fullmatch(name):
            continue  # /v1/list, /json/search: a version, API or format prefix lists nothing
        if name:
            return name
    return action or "items"


def jsonpath_name(name: str) -> str:
    """``name`` as an RFC 9535 single-quoted name selector (escapes ``\\``, ``'``, controls)."""
    out = []
    for ch in name:
        if ch in ("\\", "'"):
            out.append("\\" + ch)
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "'" + "".join(out) + "'"


def operation_target(path: str, method: str) -> str:
    return f"$.paths[{jsonpath_name(path)}].{method}"


def draft_overlay(
    findings: list[Finding],
    title: str,
    taken: Iterable[str] = (),
    defaults: Mapping[str, Any] | None = None,
    patches: Iterable[dict[str, Any]] = (),
    recorded: Mapping[str, list[RecordedPage]] | None = None,
    targets: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """An Overlay 1.0 document declaring every undeclared finding.

    ``targets`` maps a finding's pointer to its Overlay target where the operation is not
    written at ``/paths/PATH/METHOD`` (a ``$ref`` path item; ``AuditReport.targets``).

    ``patches`` are schema patch actions (``audit._patches``) appended after the declarations.

    ``taken`` holds the document's existing operationIds: an operation without one gets a drafted
    id (declarations need one) that collides with none of them. ``defaults`` is the document's
    ``x-completeness-defaults`` (what it answers is not asked again).
    """
    used = set(taken)
    actions = []
    for f in findings:
        if f.declared:
            continue
        decl = draft_declaration(f, defaults, (recorded or {}).get(f.pointer))
        label = f.operation_id or f"{f.method.upper()} {f.path}"
        update: dict[str, Any] = {}
        if f.operation_id is None:
            update["operationId"] = _unique(draft_operation_id(f.method, f.path), used)
        # a draft with nothing left to ask carries no empty ``x-todo: []`` for a reader to delete
        update["x-completeness"] = {k: v for k, v in decl.items() if k != TODO_KEY or v}
        style = "no" if f.style == "none" else f.style
        actions.append(
            {
                "target": (targets or {}).get(f.pointer) or operation_target(f.path, f.method),
                "description": f"{label}: {f.kind}, {style} pagination"
                + (f" (from {f.imported.source})" if f.imported else "")
                + f", {len(decl[TODO_KEY])} TODO(s)",
                "update": update,
            }
        )
    actions.extend(patches)
    return {
        "overlay": "1.0.0",
        "info": {"title": f"Draft x-completeness declarations for {title}", "version": "0.0.1"},
        "actions": actions,
    }


def draft_operation_id(method: str, path: str) -> str:
    """``get /users/{id}/repos`` -> ``get_users_id_repos`` (lower snake case, never empty)."""
    name = _NON_IDENT.sub("_", _CAMEL.sub("_", path).lower()).strip("_")
    return f"{method.lower()}_{name}" if name else method.lower()


def _unique(name: str, used: set[str]) -> str:
    candidate, n = name, 2
    while candidate in used:
        candidate, n = f"{name}_{n}", n + 1
    used.add(candidate)
    return candidate


def todo_pointers(findings: list[Finding], defaults: Mapping[str, Any] | None = None) -> list[str]:
    """JSON pointers (in the spec with the draft applied) of every TODO the draft writes."""
    out = []
    for f in findings:
        if not f.declared:
            n = len(draft_declaration(f, defaults)[TODO_KEY])
            base = pointer_join(f.pointer, "x-completeness", TODO_KEY)
            out.extend(pointer_join(base, i) for i in range(n))
    return out


def dump_overlay(overlay: dict[str, Any]) -> str:
    """YAML text of an overlay: deterministic, safe, readable."""
    header = (
        "# Draft written by `xcompleteness audit --emit-overlay`. Review every x-todo entry,\n"
        "# fill in what it asks, then delete it; `xcompleteness check SPEC --overlay THIS`\n"
        "# lists what is left.\n"
    )
    # libyaml's emitter is ~10x faster on GitHub-sized drafts; the pure one is the fallback
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    text = yaml.dump(overlay, Dumper=dumper, sort_keys=False, allow_unicode=True, width=100)
    return header + text
