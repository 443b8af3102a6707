"""Find list, search and aggregate operations in a plain OpenAPI document and read their signals.

The one list-likeness heuristic: ``check`` (rule XC100) and ``audit`` both call it, and it
imports no ``audit*`` module (a test keeps check's import graph free of them). It reads the typed
views of the parsed document (:func:`xcompleteness.document.views`; ``$ref`` path items, parameters
and responses followed through the one resolver), so it runs the same on a spec loaded by
``load_spec``, on one with overlays applied, or on a test's literal dict. One :class:`Finding`
per list-like operation says why it looks list-like, where its items sit, how it paginates
(``cursor``, ``link-header``, ``next-url``, ``offset``, ``page``, ``none`` or ``unknown``) and
which native completeness signals its response shows, each with the JSON pointer of the node
that shows it.
``audit_overlay`` builds draft declarations from findings.

This module weighs the facts; each kind of fact has its own module: ``_operation_facts`` (what the
operation views say: responses, streams, ``kind: none``), ``_pagination_params`` (parameter roles
and the style), ``_shape`` (where the items sit), ``_body_signals`` (native signals), ``_naming``
(what a path or a name says), ``_finding`` (what is reported).

What makes an operation list-like (false alarms cost a reviewer's time, misses cost an agent a wrong
"there are none"):

* a GET whose success response is an array, or an object that wraps an array (the array is named
  like ``items``/``data``/``results``, or every other property is paging metadata), possibly one
  container down (``hits.hits``, ``data.children``);
* or a GET with a position parameter (cursor, offset, page) or a paging signal in its response
  (``has_more``, next links or tokens, a ``Link`` header, ``incomplete_results``, ...);
* or any other method whose path or operationId says search/query/list and whose response shows
  one of the above;
* or any operation carrying a pagination extension ``pagination_imports`` reads.

A GET whose path ends in ``{param}`` reads one resource unless its own top level pages an array
(``_naming``). Streams (Kubernetes ``watch``, ``;stream=`` media, server-sent events) and
declarations ``{kind: none, why}`` are :class:`Excluded` with their reason, never findings.

Reuse (``check``'s XC100 rule inside ``generate``): :func:`undeclared_listings` keeps, per
operation, why it looks list-like (or that it does not) in a :func:`scan_store`
(:mod:`xcompleteness.emit._value_cache`), keyed by the document's declaration-free digest
(:func:`xcompleteness.document.declaration_free_digest`) and the source of ``detect`` and
``document``. Sound because :func:`scan_operation` reads an operation's declaration in exactly
two places: ``declared_none_reason`` (a ``kind: none`` declaration ends the scan: such an
operation is not recorded, so it is scanned afresh if it is ever undeclared) and
``Finding.declared`` (not recorded; the rule reads ``declared`` from the operation at hand).
Everything else it reads (paths, methods, parameters, responses, schemas, other tools'
extensions, the root's non-``x-completeness`` keys) is in the digest, so a recorded reason is
the one a fresh scan gives. An operation the entry does not name is scanned.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any, Literal, overload

from xcompleteness import collector
from xcompleteness.detect import _body_paging as body_paging
from xcompleteness.detect import _evidence as evidence
from xcompleteness.detect import _pagination_imports as pagination_imports
from xcompleteness.detect import _prose as prose
from xcompleteness.detect import _words as sig
from xcompleteness.detect._body_signals import (
    described_header_token,
    header_signals,
    told_header_doubt,
)
from xcompleteness.detect._finding import (
    PAGING_KINDS,
    STRONG_KINDS,
    STYLES,
    Excluded,
    Finding,
    Signal,
)
from xcompleteness.detect._keyset import keyset_cursor, keyset_doubt, keyset_signals
from xcompleteness.detect._naming import (
    listing_path,
    listy_name,
    named_report,
    not_listing_after_all,
    report_read,
    single_object,
)
from xcompleteness.detect._one_record import one_record
from xcompleteness.detect._operation_facts import (
    DEFAULT_ONLY,
    OperationRef,
    cap_texts,
    declared_none_reason,
    file_exclusion,
    iter_operations,
    operation_ids,
    stream_exclusion,
    success_response,
)
from xcompleteness.detect._pagination_imports import Imported
from xcompleteness.detect._pagination_params import (
    bare_next_link_doubt,
    cursor_fed_by_token,
    header_cursor,
    pagination_style,
    param_roles,
)
from xcompleteness.detect._schema_walk import Located, SchemaWalker
from xcompleteness.detect._shape import (
    MAP_RESPONSE,
    Shape,
    body_shape,
    last_literal,
    last_token,
    link_arrays,
)
from xcompleteness.detect._size_param import body_size, size_param
from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import Parameter, pointer_tokens
from xcompleteness.reuse import StoreSlot, ValueStore, hash_sources, keep, recall
from xcompleteness.runtime.contract import BODY_LOCATION

__all__ = [
    "Excluded",
    "Finding",
    "OperationRef",
    "STYLES",
    "Signal",
    "iter_operations",
    "operation_ids",
    "scan",
    "scan_all",
    "scan_operation",
    "scan_store",
    "undeclared_listings",
]

_SLOT: StoreSlot[ValueStore] = StoreSlot("xc_scan_store")
scan_store = _SLOT.using
"""``with scan_store(store):`` lets :func:`undeclared_listings` reuse its findings (module doc)."""


@cache
def _code_digest() -> bytes:
    """The scan's code: every module of ``detect`` and ``document`` and the vocabulary schema
    (:func:`~xcompleteness.detect._pagination_imports.supported_styles` reads it)."""
    h = hashlib.sha256(b"xc-scan 1\n")
    package = Path(__file__).resolve().parent.parent
    for folder in ("detect", "document"):
        names = sorted(p.name for p in (package / folder).glob("*.py"))
        hash_sources(h, package / folder, names)
    from xcompleteness.resources import load_json

    schema = load_json("x-completeness.schema.json")
    h.update(json.dumps(schema, sort_keys=True).encode())
    return h.digest()


def _scan_key(document: Any) -> str | None:
    digest = getattr(document, "declaration_free_digest", None)
    if digest is None:
        return None
    return hashlib.sha256(_code_digest() + digest).hexdigest()


def _recorded(value: Any) -> dict[str, str | None] | None:
    """A decoded entry, if it has the shape of one: operation pointer -> reason or null."""
    if not isinstance(value, dict):
        return None
    for pointer, why in value.items():
        if not isinstance(pointer, str) or not (why is None or isinstance(why, str)):
            return None
    return value


def scan(document: Any) -> list[Finding]:
    """All list-like operations of ``document``, in document order (declared ones included)."""
    return scan_all(document)[0]


def scan_all(document: Any, *, memo: bool = True) -> tuple[list[Finding], list[Excluded]]:
    """List-like operations and the operations excluded with a reason, in document order.

    ``memo=False`` shares no answer between operations (:meth:`SchemaWalker.remembered`): the
    reference the memoised scan is compared with in tests."""
    walker = SchemaWalker(getattr(document, "data", document), memo=memo)
    found: list[Finding] = []
    excluded: list[Excluded] = []
    with collector.paused():
        for ref in iter_operations(document):
            result = scan_operation(ref, walker)
            if isinstance(result, Finding):
                found.append(result)
            elif isinstance(result, Excluded):
                excluded.append(result)
    return found, excluded


def undeclared_listings(document: Any) -> dict[str, str]:
    """Operation pointer -> why it looks list-like, for every undeclared list-like operation.

    The one heuristic ``check``'s "listing without a declaration" rule can share with audit, so
    that check on a spec plus audit's draft reports exactly the draft's TODOs. Inside
    :func:`scan_store`, reasons recorded for the same declaration-free document are reused
    (module doc).
    """
    store = _SLOT.current()
    key = _scan_key(document) if store is not None else None
    recorded = _recorded(recall(store, key)) if key is not None else None
    known: dict[str, str | None] = dict(recorded or {})
    walker: SchemaWalker | None = None
    out: dict[str, str] = {}
    learned = recorded is None
    with collector.paused():
        for ref in iter_operations(document):
            if ref.view.declared and recorded is not None:
                continue  # not reported: its reason is not needed
            if ref.pointer in known and not ref.view.declared:
                why = known[ref.pointer]
            else:
                if walker is None:
                    walker = SchemaWalker(getattr(document, "data", document))
                result = listing_reasons(ref, walker)
                if isinstance(result, Excluded) and result.source == "declared":
                    continue  # its declaration ended the scan: nothing to record
                why = "; ".join(result) if isinstance(result, tuple) else None
                known[ref.pointer] = why
                learned = True
            if why is not None and not ref.view.declared:
                out[ref.pointer] = why
    if learned:
        keep(store, key, known)
    return out


def scan_operation(ref: OperationRef, walker: SchemaWalker) -> Finding | Excluded | None:
    """The finding for one operation, an exclusion with its reason, or None (not list-like)."""
    return _scan(ref, walker, reasons_only=False)


def listing_reasons(ref: OperationRef, walker: SchemaWalker) -> tuple[str, ...] | Excluded | None:
    """Why one operation is list-like (its :class:`Finding`'s ``why``), its ``kind: none``
    declaration (an :class:`Excluded`), or None: no finding, or a stream.

    Stops the moment the operation is known to be a listing: ``check``'s XC100 reads nothing
    else, and the rest of a finding (style, kind questions, caps, doubts) is most of a
    listing's cost; a non-GET operation that can be no finding stops before anything is read
    (:func:`_never_a_listing`). Same verdict as :func:`scan_operation`, a stream's exclusion
    being None (tests/check/test_scan_parity.py)."""
    return _scan(ref, walker, reasons_only=True)


@overload
def _scan(
    ref: OperationRef, walker: SchemaWalker, *, reasons_only: Literal[False]
) -> Finding | Excluded | None: ...


@overload
def _scan(
    ref: OperationRef, walker: SchemaWalker, *, reasons_only: Literal[True]
) -> tuple[str, ...] | Excluded | None: ...


def _scan(
    ref: OperationRef, walker: SchemaWalker, *, reasons_only: bool
) -> Finding | Excluded | tuple[str, ...] | None:
    """:func:`scan_operation`, or :func:`listing_reasons` when ``reasons_only``."""
    op = ref.view
    op_id = op.operation_id
    declared_none = declared_none_reason(op)
    if declared_none is not None:
        return Excluded(ref.method, ref.path, ref.pointer, op_id, "declared", declared_none)
    if reasons_only and ref.method != "get" and _never_a_listing(ref, walker):
        return None  # no finding, whatever its parameters and response say
    roles = param_roles(ref.parameters, walker)
    status, body, headers, examples = success_response(op, walker)
    keyset = keyset_cursor(ref.parameters, roles, body, walker)
    if keyset is not None:  # Listen Notes' ``next_episode_pub_date``, sent back as it came
        roles = {**roles, "cursor": keyset.param}
    positioned = any(r in roles for r in ("cursor", "offset", "page", "page_token"))
    # An operation named ``list...`` (``apps_list_instanceSizes``) says it lists: its only array
    # is the items even with one field beside it (``{discount_percent, instance_sizes}``).
    # ... and so does one whose summary or description opens "Gets a list of ...".
    # ... unless the API has a resource named "list" (Trello's ``getListsBoardByIdList`` on
    # ``/lists/{idList}/board`` reads the board of one list).
    listy = ref.method == "get" and (
        (sig.has_word(op_id or "", "list") and not _list_resource(ref.path))
        or prose.first_sentence_lists(t for t in (op.summary, op.description) if t)
    )
    cursor_keys = {sig.fold(roles[r]) for r in ("cursor", "page_token") if r in roles}
    lpath = listing_path(ref)  # less a trailing selector (``.../members/{filter}``)
    # the array a path ending in inputs names (``/taxonomyClasses/{classifierName}``): never at
    # a read by id, nor at a path ending in a literal (the wrapper rules judge those: GitHub's
    # traffic ``{count, uniques, views: [...]}`` is one summary)
    by_path = ref.method == "get" and _reads_by_input(ref, lpath, walker)
    shape = (
        body_shape(
            body, walker, lpath, positioned, listy, cursor_keys, examples, by_path, reasons_only
        )
        if body is not None
        else Shape()
    )
    signals = list(shape.signals) + header_signals(headers) + keyset_signals(keyset)
    told = None  # a next token's response header said only in prose, for a cursor to feed
    sends = "cursor" in roles or any(p.location == "header" for p in ref.parameters)
    if sends and not any(s.kind == "next_token" for s in signals):
        texts = [t for _, t in _prose_texts(ref)]
        told = described_header_token(texts, ref.parameters, headers, ref.pointer)
        signals += [told] if told is not None else []
    fed_header = None if "cursor" in roles else header_cursor(ref.parameters, signals)
    if fed_header is not None:  # a token returned and sent back in headers (DLx)
        roles = {**roles, "cursor": fed_header}
        positioned = True
    # A Link header said only in prose is a paging signal but not a strong one: it is a reason
    # only beside items. Without items, check's reasons read it once there is another reason.
    deferred = reasons_only and shape.items is None
    style_doubt = None if deferred else _described_link_header(ref, signals)
    tokens = [(s.name, s.expression) for s in signals if s.kind == "next_token"]
    fed = None  # a read by POST that pages its array through a cursor in the request body
    if ref.method == "post" and shape.items is not None:
        fed = body_paging.body_cursor(op, walker, tokens)
    # a search that requires its query text (the path or operationId names the search)
    query_search = "query" in roles and sig.is_search(ref.path, op_id)
    why: list[str] = []
    if shape.items is not None:
        why.append(shape.why)
    for role in ("cursor", "offset", "page", "page_token"):
        if role in roles:
            why.append(f"{role.replace('_', ' ')} parameter {roles[role]}")
    paging = [s for s in signals if s.kind in PAGING_KINDS]
    strong = [s for s in paging if shape.items is not None or s.kind in STRONG_KINDS]
    why.extend(f"signal {s.name}" for s in strong[:3])
    if shape.aggregate:
        why.append("aggregation fields")
    if not why and shape.containers and sig.has_word(op_id or "", "list"):
        why.append("operation named list with " + shape.containers)
    if not why and shape.containers and ref.method == "get":
        named = body_paging.arrays_named(body, walker, sig.fold(last_literal(ref.path)))
        if len(named) > 2:  # GET .../tabs answers {signTabs: [...], dateTabs: [...], ...}
            why.append(f"arrays named after the path ({', '.join(named[:3])}...)")
    if not why and shape.containers and ref.method == "get":
        parts = body_paging.same_item_arrays(body, walker)
        if parts:  # GET .../context answers {ancestors: [Status], descendants: [Status]}
            why.append(f"arrays of one item schema in named parts ({', '.join(parts)})")
    series = None
    if not why and ref.method == "get" and not shape.containers and not _reads_one(lpath):
        series = body_paging.series_parts(body, walker)
        if series is not None:  # a trend chart: {results: {high: [...], low: [...]}, step}
            why.append(f"series of one item shape in the parts of {series[0]} "
                       f"({', '.join(series[1])})")  # fmt: skip
    if not why and query_search:
        nested = shape.containers or ", ".join(body_paging.nested_arrays(body, walker))
        if nested:  # a search that requires its query text answers its matches, however nested
            why.append(f"search with a required query and arrays in its response ({nested})")
    # no schema where a success answers, or no success response at all (only ``default``)
    unshown = (
        "no success response is declared"
        if status == DEFAULT_ONLY
        else "the response declares no schema"
    )
    if not why and body is None and status is not None and listy:
        why.append(f"described as a list; {unshown}")
    if (
        not why
        and listy
        and body is not None
        and not _reads_one(lpath)
        and _no_array(body, shape, walker)
    ):
        # GitLab types "Get the list of system hooks" as one Hook; Snyk's "List" answers a map
        # it declares as ``{properties: {}}``: asked whether it lists (listing_doubt)
        why.append("described as a list; the response schema shows no array")
    mapped = (
        not why and listy and by_path and shape.items is None and shape.containers == MAP_RESPONSE
    )
    if mapped:  # RGD's "Return a list of ... values" answering a map at .../{refRgdId}/{termString}
        why.append("described as a list; the response is a map at a path ending in its inputs")
    if not why and listy and body is not None and shape.items is None and not shape.containers:
        links = link_arrays(body, walker)
        if links:  # "List of available metadata templates types, each with their endpoints"
            # answering only ``{links: [{href, rel}]}``: asked (listing_doubt), never settled
            why.append(f"described as a list; its only array ({links[0]}) holds hypermedia links")
    if not why and body is None and status is not None and ref.method == "get":
        # ``/users/suggestions.json`` where every path ends in ``.json``: a format, not a file
        rpath = _resource_path(lpath, walker)
        plural = _plural_tail(rpath)
        shown = _example_array(examples)
        if query_search:
            why.append(f"a search taking a query text; {unshown}")
        elif plural is not None:  # GET /boards/{idBoard}/lists with "Success" only
            why.append(f"the path ends in the plural {plural!r}; {unshown}")
        elif not _reads_one(rpath) and (read := _plural_object(ref, rpath)) is not None:
            # "Get unpaid seller orders"; not at a read by id (``/saved_searches/show/{id}``)
            why.append(f"the summary reads plural things ({read!r}); {unshown}")
        elif shown is not None:  # {data: {current_page, data: [{...}, ...]}} shown, no schema
            why.append(f"its response example holds an array of objects ({shown}); {unshown}")
    if fed is not None:
        why.append(f"request body cursor {fed[0]} fed by {fed[1]}")
    queries = {p.name for p in ref.parameters if p.location == "query"}
    imported = pagination_imports.read(op.node, queries)
    if imported is not None and not _import_fits(imported, body, walker):
        imported = None  # it names body fields the response schema lacks: not trusted
    if imported is not None:  # the spec says so itself: a listing, whatever its shape
        why.insert(0, f"{imported.source} extension")
    if not why:
        return None
    if deferred:
        style_doubt = _described_link_header(ref, signals)
    searchy = query_search if "query" in roles else sig.is_search(ref.path, op_id)
    stream = stream_exclusion(op, shape)
    if stream is not None:  # no finding: check's reasons answer None (see _never_a_listing)
        if reasons_only:
            return None
        return Excluded(ref.method, ref.path, ref.pointer, op_id, "stream", stream)
    # an export or a download: likewise no finding for check; one described as a list (Magento's
    # "Return the list of company IDs ..." typed as one string) stays asked whether it lists
    file = None if imported is not None or listy else file_exclusion(op, body, walker)
    if file is not None:
        if reasons_only:
            return None
        return Excluded(ref.method, ref.path, ref.pointer, op_id, "file", file)
    if (
        imported is None
        and fed is None
        and not mapped
        and not_listing_after_all(ref, shape, strong, positioned, searchy, signals)
    ):
        return None
    paged = positioned or any(s.kind in PAGING_KINDS or s.kind == "total" for s in signals)
    bare = shape.items == "$response.body#" or _alone_in_body(body, shape, walker)
    plural = _nouns_said_plural(ref, sig.SINGLE_OBJECT_NOUNS)
    if imported is None and not paged and single_object(ref, shape, op_id, bare, plural):
        return None
    if reasons_only:
        return tuple(why)
    searchy = searchy or "query" in roles  # a listing that needs a query text is a search
    kind = "search" if searchy else "collection"
    words = sig.words(ref.path) | sig.words(op_id or "")
    if shape.aggregate or any(w.startswith(sig.AGGREGATE_PREFIXES) for w in words):
        kind = "aggregate" if not searchy else kind
    if not paged and not searchy and named_report(ref.path):
        kind = "aggregate"  # one computed report, not pages of records
    if not searchy and report_read(ref):
        kind = "aggregate"  # report rows read by POST (filters in the body)
    cursor_fed_by_token(roles, signals, ref.parameters)
    walk = _without_bare_link(roles, signals, walker) if style_doubt is None else signals
    style, request = pagination_style(roles, walk)
    link_doubt = None
    if walk is not signals and style in ("offset", "page"):
        link_doubt = _bare_link_question(style, request[style], signals)
    elif walk is not signals and style != "next-url":  # nothing settles it: the header walks
        style, request = pagination_style(roles, signals)
    if body is None and style == "none":
        style = "unknown"  # no response schema: nothing shows whether or how it pages
    first_page, page_start_unsaid = 1, False
    if style == "page":
        first_page, style_doubt, page_start_unsaid = _first_page(
            request["page"], ref.parameters, walker
        )
    if fed is not None and style == "unknown":  # declared as $request.body#/NAME (vocabulary.md)
        style, request = "cursor", {"cursor": BODY_LOCATION + fed[0]}
    if style == "none" and "size" not in request and ref.method != "get":
        sized = body_size(op, walker)  # a POST search sized in its body: one capped answer
        request = {**request, "size": sized} if sized is not None else request
    if style == "next-url" and imported is None and link_doubt is None:
        # a token parameter beside a bare ``next`` only its type shows a URL: which walk?
        link_doubt = bare_next_link_doubt(roles, signals, ref.parameters, walker)
    if imported is not None:
        style, request = imported.style, dict(imported.request)
        if imported.items is not None and imported.items != shape.items:
            shape.items, shape.id, shape.item_fields = imported.items, None, ()
            shape.items_pointer = None
    kind_doubt, kind_other = _kind_question(kind, ref, shape, paged, "query" in roles, walker)
    if series is not None and not searchy and kind_doubt is None:
        kind, kind_other = "aggregate", "collection"
        kind_doubt = (
            f"{series[0]} holds only arrays of one item shape ({', '.join(series[1])}): most "
            "likely the series of one chart or breakdown, one per category; if each array is a "
            "list of records, set kind: collection and say which one is the items"
        )
    return Finding(
        method=ref.method,
        path=ref.path,
        pointer=ref.pointer,
        operation_id=op_id,
        kind=kind,
        why=tuple(why),
        style=style,
        request=request,
        items=shape.items,
        items_pointer=shape.items_pointer,
        id=shape.id,
        signals=tuple(signals),
        status=status,
        declared=op.declared,
        item_fields=shape.item_fields,
        imported=imported,
        items_doubt=shape.items_doubt,
        id_alternatives=shape.id_alternatives,
        cursor_end=shape.cursor_end,
        caps=tuple(evidence.documented_caps(cap_texts(op, roles), unpaged=not paged)),
        style_doubt=_style_doubt(
            style,
            style_doubt,
            fed,
            request,
            imported is None,
            signals,
            _dropped(roles, request, walker, signals),
        )
        or keyset_doubt(keyset, style)
        or told_header_doubt(told, style),
        first_page=first_page if style == "page" else 1,
        first_page_unsaid=page_start_unsaid and style == "page",
        body_next=fed[1] if fed is not None and style == "cursor" else None,
        kind_doubt=kind_doubt,
        kind_other=kind_other,
        total_doubt=shape.total_doubt,
        total_bound=shape.total_bound,
        link_doubt=link_doubt,
        size_param=size_param(ref.parameters, request.get("size"), walker, op)
        if style == "none"
        else None,
        listing_doubt=None
        if imported is not None or fed is not None
        else _arrayless(body, shape, walker, why, status)
        or (_map_doubt(why) if mapped else None)
        or _member_read(ref, lpath, walker)
        or _parent_envelope(ref, lpath, walker, positioned or "size" in roles)
        or _one_object(ref, lpath, shape, paged, bare)
        or shape.named_part
        or _parts_of_one(shape, paged)
        or one_record(ref, kind, shape, paged, bare)
        or _named_in_request(ref, walker, shape, positioned or "size" in roles),
    )


def _never_a_listing(ref: OperationRef, walker: SchemaWalker) -> bool:
    """A non-GET operation that check's XC100 can never report, told before its parameters,
    response and body shape are read: without a pagination extension and a request body field
    named like a cursor (``fed``, POST only), :func:`not_listing_after_all` drops a non-GET
    whatever its reasons unless it is searchy (which needs :func:`sig.is_search` of its path or
    operationId), named like a listing or a report read. Of Microsoft Graph's 5,598 POST,
    PATCH, PUT and DELETE operations 187 are read further, of GitHub's 584 none. (A stream is
    then no finding either: :func:`listing_reasons` answers None for it.)"""
    op = ref.view
    node = op.node
    if any(name in node for name in pagination_imports.EXTENSIONS):
        return False  # read, and trusted if it fits: a listing whatever else it is
    op_id = op.operation_id
    if listy_name(op_id, ref.path) or sig.is_search(ref.path, op_id) or report_read(ref):
        return False
    return not (ref.method == "post" and body_paging.body_cursor_fields(op, walker))


def _reads_one(path: str) -> bool:
    """The path ends in a parameter (``/targets/{target_id}``): a read by id."""
    return path.rstrip("/").rsplit("/", 1)[-1].startswith("{")


def _reads_by_input(ref: OperationRef, path: str, walker: SchemaWalker) -> bool:
    """The path ends in parameters that are the inputs of what its last literal names, not the
    address of one member of a collection: NamSor's ``/taxonomyClasses/{classifierName}`` and
    ``/chineseNameCandidates/{surname}/{given}``, where the API serves no ``/taxonomyClasses``.
    Not an id (``/groups/{id}``, ``{manifest_request_id}``), nor any parameter after a path the
    API serves itself (``/Genres`` beside ``/Genres/{genreName}``)."""
    head = path.rstrip("/")
    last = head.rsplit("/", 1)[-1]
    if not (last.startswith("{") and last.endswith("}")):
        return False
    if sig.fold(last[1:-1]).endswith(("id", "uuid")):
        return False
    while head.rsplit("/", 1)[-1].startswith("{"):
        head = head.rsplit("/", 1)[0]
    return head not in walker.fact("served_paths", _served_paths)


def _member_read(ref: OperationRef, path: str, walker: SchemaWalker) -> str | None:
    """Why a read may be of one record whatever its response looks like: the path ends in an id
    parameter (``.../educationfurtherindications/{educationFurtherIndicationId}``) and the API
    also replaces, updates or deletes at that very path, which addresses one member. Loket.nl's
    "Details of an education further indication" answers a copy of its collection's paged
    envelope (``{currentPage, totalPages, _embedded: [...]}``) and takes its page parameters:
    asked, never settled as a listing."""
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if ref.method != "get" or not (last.startswith("{") and last.endswith("}")):
        return None
    if not sig.fold(last[1:-1]).endswith(("id", "uuid")):
        return None
    if path.rstrip("/") not in walker.fact("written_paths", _written_paths):
        return None
    return (
        f"the path ends in the id {last} and the API also replaces, updates or deletes there: "
        "it most likely addresses one record, even if the response has the shape of a page"
    )


def _parent_envelope(ref: OperationRef, path: str, walker: SchemaWalker, paged: bool) -> str | None:
    """Why a read by id may be of one record though it answers a page: the path ends in a
    parameter, the operation takes no paging parameter, and its success response is the very
    schema (one ``$ref``) its parent path's GET answers, the collection's paged envelope (BBC's
    ``/broadcasts/{pid}``, "Find broadcast by PID", answering ``BroadcastsResponse`` as
    ``/broadcasts`` does). Asked, never settled as a listing."""
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if paged or ref.method != "get" or not (last.startswith("{") and last.endswith("}")):
        return None
    parent = path.rstrip("/").rsplit("/", 1)[0]
    answers = walker.fact("get_response_refs", _get_response_refs)
    mine = answers.get(ref.path.rstrip("/"))
    if mine is None or answers.get(parent) != mine:
        return None
    return (
        f"the path ends in the parameter {last}, the operation takes no paging parameter, and it "
        f"answers {mine.rsplit('/', 1)[-1]}, the envelope the collection at {parent} pages: most "
        "likely one record in the collection's envelope"
    )


def _get_response_refs(document: Any) -> dict[str, str]:
    """Path (less a trailing slash) -> the ``$ref`` its GET's first 2xx JSON schema is."""
    out: dict[str, str] = {}
    paths = document.get("paths") if isinstance(document, dict) else None
    for p, item in (paths or {}).items() if isinstance(paths, dict) else ():
        op = item.get("get") if isinstance(item, dict) else None
        responses = op.get("responses") if isinstance(op, dict) else None
        if not isinstance(p, str) or not isinstance(responses, dict):
            continue
        for status in sorted(str(c) for c in responses):
            resp = responses.get(status, responses.get(int(status) if status.isdigit() else status))
            if not status.startswith("2") or not isinstance(resp, dict):
                continue
            content = resp.get("content")
            media = content.get("application/json") if isinstance(content, dict) else None
            schema = media.get("schema") if isinstance(media, dict) else resp.get("schema")
            target = schema.get("$ref") if isinstance(schema, dict) else None
            if isinstance(target, str):
                out[p.rstrip("/")] = target
            break
    return out


def _written_paths(document: Any) -> frozenset[str]:
    """Every path (less a trailing slash) with a PUT, PATCH or DELETE operation."""
    paths = document.get("paths") if isinstance(document, dict) else None
    if not isinstance(paths, dict):
        return frozenset()
    return frozenset(
        p.rstrip("/")
        for p, item in paths.items()
        if isinstance(p, str) and isinstance(item, dict) and {"put", "patch", "delete"} & set(item)
    )


def _served_paths(document: Any) -> frozenset[str]:
    """Every path of the document, less a trailing slash."""
    paths = document.get("paths") if isinstance(document, dict) else None
    if not isinstance(paths, dict):
        return frozenset()
    return frozenset(p.rstrip("/") for p in paths if isinstance(p, str))


def _list_resource(path: str) -> bool:
    """The path names a resource called list (``/lists/{idList}``, ``/cards/{id}/list``)."""
    return any(sig.fold(seg) in ("list", "lists") for seg in path.split("/") if "{" not in seg)


def _format_suffixes(document: Any) -> frozenset[str]:
    """The suffixes (``.json``, ``.xml``) that at least half of the API's paths end in: a
    response format on every resource path (Twitter v1.1's ``/users/suggestions.json``,
    Twilio's ``/Messages.json``), not a file name (Bitbucket's one ``.../oidc/keys.json`` among
    hundreds of plain paths)."""
    paths = document.get("paths") if isinstance(document, dict) else None
    if not isinstance(paths, dict) or not paths:
        return frozenset()
    counts: dict[str, int] = {}
    for path in paths:
        last = str(path).rstrip("/").rsplit("/", 1)[-1]
        stem, dot, suffix = last.rpartition(".")
        if dot and stem and suffix.isalpha() and len(suffix) <= 5:
            counts[suffix.lower()] = counts.get(suffix.lower(), 0) + 1
    return frozenset(f".{s}" for s, n in counts.items() if n >= 2 and 2 * n >= len(paths))


def _resource_path(path: str, walker: SchemaWalker) -> str:
    """The path less a format suffix its API puts on most paths (:func:`_format_suffixes`):
    ``/users/suggestions.json`` -> ``/users/suggestions``; a file name stays as it is."""
    trimmed = path.rstrip("/")
    for suffix in walker.fact("format_suffixes", _format_suffixes):
        if trimmed.lower().endswith(suffix) and len(trimmed) > len(suffix):
            return trimmed[: -len(suffix)]
    return path


def _example_array(examples: list[Any]) -> str | None:
    """Where a response example shows an array of objects: the body itself, or a member up to
    two objects down (``/data/data`` in ``{data: {current_page, data: [{...}]}}``). Evidence of
    shape only: a listing found by it is asked (no schema settles anything)."""
    for example in examples:
        found = _object_array_in(example, "", 2)
        if found is not None:
            return found or "the body"
    return None


def _object_array_in(value: Any, at: str, depth: int) -> str | None:
    if isinstance(value, list):
        return at if value and all(isinstance(v, dict) for v in value) else None
    if not isinstance(value, dict) or depth == 0:
        return None
    for name, sub in value.items():
        found = _object_array_in(sub, pointer_join(at, str(name)), depth - 1)
        if found:
            return found
    return None


def _plural_tail(path: str) -> str | None:
    """The path's last segment when it is a literal plural noun (``/boards/{id}/lists``,
    ``/members/{id}/savedSearches``): a schema-less GET there most likely lists."""
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if not last or "{" in last or "." in last:
        return None
    return last if sig.plural_word((sig.word_list(last) or [""])[-1]) else None


_READ_VERBS = frozenset(
    {"get", "gets", "view", "views", "see", "retrieve", "retrieves", "fetch", "fetches",
     "return", "returns", "show", "shows", "search", "searches", "locate", "locates"}
)  # fmt: skip
_SEEK_VERBS = frozenset({"search", "searches"})  # "Search for places ...": what follows "for"
_PHRASE_ENDS = frozenset(
    {"of", "from", "for", "in", "on", "by", "as", "with", "to", "at", "that", "which", "who",
     "where", "when", "if", "per", "within", "under", "about", "between"}
)  # fmt: skip
_CLAUSE = re.compile(r"[,;:(]")
_WORD = re.compile(r"[A-Za-z][A-Za-z']*")


def _plural_object(ref: OperationRef, path: str) -> str | None:
    """What the summary's (else the description's) first sentence reads when it is plural: a read
    verb, then the words up to a preposition or a clause mark, the last of them a plural noun
    ("Get unpaid seller orders, newest first", "View upcoming and live Reverb official sales",
    "See previous orders from buyer", "Search for places that ...", "Locates places near ...";
    not "Get seller's feedback as a seller"): a schema-less
    GET that reads so most likely lists. Not at a path ending in a file name (``.../keys.json``,
    "Get keys for OIDC": one document), as :func:`_plural_tail`; ``path`` is the operation's
    less a format suffix (:func:`_resource_path`)."""
    if "." in path.rstrip("/").rsplit("/", 1)[-1]:
        return None
    op = ref.view
    text = next((t for t in (op.summary, op.description) if isinstance(t, str) and t.strip()), "")
    first = _CLAUSE.split(next(prose.sentences(text), ""), 1)[0]
    words = [w.lower() for w in _WORD.findall(first)]
    if not words or words[0] not in _READ_VERBS:
        return None
    if words[0] in _SEEK_VERBS and words[1:2] == ["for"]:
        words = words[1:]  # "Search for places that ..." reads places
    phrase: list[str] = []
    for word in words[1:]:
        if word in _PHRASE_ENDS:
            break
        phrase.append(word)
    return " ".join(phrase) if phrase and sig.plural_word(phrase[-1]) else None


def _no_array(body: Located, shape: Shape, walker: SchemaWalker) -> bool:
    """The response schema shows no array at all, at its top or one object down (GitHub's
    ``/feeds``, "Lists the feeds ...", holds arrays of URLs and of links: one object)."""
    if shape.items is not None or shape.containers or walker.is_array(*body):
        return False
    props = walker.properties(*walker.resolve(*body))
    for sub, sptr in props.values():
        if _holds_array(sub, sptr, walker):
            return False
        if any(_holds_array(*inner, walker) for inner in walker.properties(sub, sptr).values()):
            return False
    return True


def _holds_array(sub: Any, sptr: str, walker: SchemaWalker) -> bool:
    """An array, not any JSON value: Vercel's ``EdgeConfigItemValue`` (one of a string, number,
    boolean, object or array) is a value of one item, which may happen to be an array."""
    types = walker.types(sub, sptr)
    return "array" in types and not types & {"string", "number", "integer", "boolean"}


def _arrayless(
    body: Located | None, shape: Shape, walker: SchemaWalker, why: list[str], status: str | None
) -> str | None:
    """Why a finding may be no listing at all: no response schema shows an array (none at the
    top, in named parts or one object down), so only its name, prose, parameters or paging
    signals say it lists. A spec with no response schemas at all names single reads and lists
    alike (``getBoardsMembersByIdBoard`` beside ``getBoardsByIdBoard``): only a person can tell."""
    if body is not None and (
        shape.items is not None or shape.containers or body_paging.nested_arrays(body, walker)
    ):
        return None
    said = "; ".join(why)
    if body is None and status == DEFAULT_ONLY:
        return (
            "the operation declares no success response (only default), so nothing shows what it "
            f"answers ({said})"
        )
    if body is None:
        return f"the response declares no schema, so no schema shows an array of results ({said})"
    return f"the response schema holds no array of results ({said})"


def _prose_texts(ref: OperationRef) -> list[tuple[str, str]]:
    """(where, text) of the operation's summary and description and its query parameters'
    descriptions."""
    op = ref.view
    out = [(k, t) for k, t in (("summary", op.summary), ("description", op.description)) if t]
    for p in ref.parameters:
        if p.location == "query" and isinstance(p.get("description"), str):
            out.append((f"parameter {p.name}", p.get("description")))
    return out


def _map_doubt(why: list[str]) -> str:
    """Why a map found only by its prose may be no listing: its keys may name the parts of one
    object as well as records (asked, never settled)."""
    return (
        "the response is a map (an object of named entries), which may be one object whose "
        f"entries are its parts as well as records keyed by name ({'; '.join(why)})"
    )


def _nouns_said_plural(ref: OperationRef, nouns: frozenset[str]) -> frozenset[str]:
    """Those of ``nouns`` the first sentence of the operation's summary or description says in
    the plural (``config`` in "Returns all Edge Configs.")."""
    said: set[str] = set()
    for text in (ref.view.summary, ref.view.description):
        first = next(prose.sentences(text), "") if text else ""
        low = first.lower()  # a word is a run of its letters lower-cased (sig.has_word)
        named = [n for n in nouns if n + "s" in low]
        if named:
            words = sig.word_list(first)
            said |= {n for n in named if n + "s" in words}
    return frozenset(said)


def _response_texts(ref: OperationRef) -> list[tuple[str, str]]:
    """(where, text) of the success responses' descriptions (``"200"``: "A list of documents
    returned by the search")."""
    out: list[tuple[str, str]] = []
    for response in ref.view.responses:
        text = response.node.get("description") if isinstance(response.node, dict) else None
        if response.status[:1] == "2" and isinstance(text, str) and text.strip():
            out.append((f"{response.status} response's description", text))
    return out


def _described_link_header(ref: OperationRef, signals: list[Signal]) -> str | None:
    """Pagination through a ``Link`` header said only in prose (no response declares one):
    adds the signal, and returns the sentence (the draft asks to confirm it)."""
    if any(s.kind == "link_header" for s in signals):
        return None
    for where, text in _prose_texts(ref):
        said = prose.link_header_sentence([text])
        if said is not None:
            signals.append(Signal("link_header", "Link", "$response.link.next", ref.pointer))
            return f"no response declares a Link header, but the {where} says {said!r}"
    return None


def _without_bare_link(
    roles: dict[str, str], signals: list[Signal], walker: SchemaWalker
) -> list[Signal]:
    """The signals the walk is chosen from: all of them, less a declared ``Link`` header that
    nothing describes (no description or example on the header or its schema) when a described
    walk stands beside it: a page or offset parameter, or a next link in the body (Snyk's
    ``{paths, links: {next: "The URL of the next page ..."}}`` beside a bare ``Link: {schema:
    {type: string}}``). GitHub's Link header carries an example with ``rel="next"``: described."""
    link = next((s for s in signals if s.kind == "link_header"), None)
    if link is None or _described_header(link, walker):
        return signals
    body_link = any(
        s.kind == "next_link" and s.expression.startswith("$response.body#") for s in signals
    )
    if not (body_link or "page" in roles or "offset" in roles):
        return signals
    return [s for s in signals if s is not link]


def _described_header(link: Signal, walker: SchemaWalker) -> bool:
    header, at = walker.node_at(link.pointer)
    if not isinstance(header, dict):
        return False
    schema, _ = walker.resolve(header.get("schema"), pointer_join(at, "schema"))
    parts = [header] + ([schema] if isinstance(schema, dict) else [])
    return any(part.get(k) not in (None, "", {}) for part in parts for k in _SAYS)


_SAYS = ("description", "example", "examples")


def _bare_link_question(style: str, name: str, signals: list[Signal]) -> str:
    link = next(s for s in signals if s.kind == "link_header")
    return (
        f"the success response declares a {link.name} header that nothing describes (no "
        f"description or example at {link.pointer}), beside the {style} parameter {name}: the "
        f"draft walks by {name} (style {style}); if the API sends rel=next links in that header, "
        "style link-header walks as well (confirm which the API documents)"
    )


def _first_page(
    name: str, params: tuple[Parameter, ...], walker: SchemaWalker
) -> tuple[int, str | None, bool]:
    """Where the page parameter's numbering starts, why that is unsettled (else None), and
    whether nothing at all in the spec says it.

    0 when its schema (or a Swagger 2 parameter's own facets) says ``minimum: 0`` or
    ``default: 0`` or its description says it counts from 0 ("zero-based", "starts at 0"); 1
    when something says 1 (a minimum, default or example of 1 or more, a description).
    Signals that disagree (a ``minimum: 0`` with a ``default: 1``, a "zero-based" page with
    ``minimum: 1``), or an example 0 alone, leave 1 with the doubt named, for the draft's TODO.
    When the parameter itself says nothing, the query parameters of the same name elsewhere in
    the API speak for it (one API numbers its pages one way); when they say nothing either, 1
    is a guess: the draft asks (a walk from 1 over pages numbered from 0 skips the first page
    silently), unless ``x-completeness-defaults.drafts.first-page`` answers for the whole API.
    """
    for p in params:
        if p.name != name or p.location != "query":
            continue
        schema = p.schema.schema if p.schema is not None else None
        zero, one, example = _page_start_evidence(p.node, schema)
        if zero and one:
            return 1, _both_ways(name, zero, one), False
        if not zero and not one and example == 0:
            return 1, f"the parameter {name} may count pages from 0 (its example is 0)", False
        if zero or one:
            return (0 if zero else 1), None, False
        zero, one = walker.fact("page_starts", _page_starts).get(name, ((), ()))
        if zero and one:
            return 1, _both_ways(name, zero, one, "elsewhere in the API "), False
        if zero or one:
            return (0 if zero else 1), None, False
        return (
            1,
            f"nothing in the spec says whether the pages of {name} are numbered from 0 or 1 (no "
            "minimum, default, example or description says, here or on another operation)",
            True,
        )
    return 1, None, False


def _both_ways(name: str, zero: list[str], one: list[str], where: str = "") -> str:
    return (
        f"the parameter {name} {where}says both that pages start at 0 ({', '.join(zero)}) "
        f"and at 1 ({', '.join(one)})"
    )


def _page_start_evidence(node: Any, schema: Any) -> tuple[list[str], list[str], Any]:
    """(what says pages start at 0, what says 1, the example) of one parameter object."""
    facets = {k: v for k, v in node.items() if k in _PAGE_FACETS}  # Swagger 2
    if isinstance(schema, dict):
        facets.update((k, v) for k, v in schema.items() if k in _PAGE_FACETS)
    if node.get("example") is not None:
        facets["example"] = node.get("example")
    zero: list[str] = []
    one: list[str] = []
    for key in ("minimum", "default"):
        value = facets.get(key)
        if _is_number(value):
            (zero if value == 0 else one if value >= 1 else []).append(f"{key} {value}")
    example = facets.get("example")
    if _is_number(example) and example >= 1:
        one.append(f"example {example}")  # an example 0 alone is a doubt (below), not a start
    said = prose.zero_based_sentence(node.get("description"))
    if said is not None:
        zero.append(repr(said))
    said = prose.one_based_sentence(node.get("description"))
    if said is not None:
        one.append(repr(said))
    return zero, one, example if _is_number(example) else None


def _page_starts(document: Any) -> dict[str, tuple[list[str], list[str]]]:
    """Query parameter name -> (what says its pages start at 0, what says 1), over every
    operation of the document (parameters by ``$ref`` followed, one level)."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    walker = SchemaWalker(document)
    paths = document.get("paths") if isinstance(document, dict) else None
    for path, item in (paths or {}).items() if isinstance(paths, dict) else ():
        if not isinstance(item, dict):
            continue
        lists = [item.get("parameters")]
        lists += [op.get("parameters") for op in item.values() if isinstance(op, dict)]
        for plist in lists:
            for i, raw in enumerate(plist if isinstance(plist, list) else ()):
                node, _ = walker.resolve(raw, f"/paths/{path}/parameters/{i}")
                if not isinstance(node, dict) or node.get("in") != "query":
                    continue
                name = node.get("name")
                if not isinstance(name, str):
                    continue
                schema, _ = walker.resolve(node.get("schema"), "")
                zero, one, _ = _page_start_evidence(node, schema)
                if zero or one:
                    known = out.setdefault(name, ([], []))
                    known[0].extend(z for z in zero if z not in known[0])
                    known[1].extend(o for o in one if o not in known[1])
    return out


_PAGE_FACETS = ("default", "minimum", "example")


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _dropped(
    roles: dict[str, str], request: dict[str, str], walker: SchemaWalker, signals: list[Signal]
) -> tuple[str, ...]:
    """The offset or page parameters detect found that a next-url walk never sends, when the
    next link is not described as the next page's URL (said so, the link walks unasked)."""
    link = next((s for s in signals if s.kind == "next_link"), None)
    if link is None or not link.expression.startswith("$response.body#"):
        return ()
    node, _ = walker.node_at(link.pointer)
    if prose.says_url(node.get("description") if isinstance(node, dict) else None):
        return ()
    sent = set(request.values())
    return tuple(roles[r] for r in ("offset", "page") if r in roles and roles[r] not in sent)


def _style_doubt(
    style: str,
    doubt: str | None,
    fed: tuple[str, str] | None,
    request: dict[str, str],
    native: bool,
    signals: list[Signal],
    dropped: tuple[str, ...] = (),
) -> str | None:
    """Why the drafted style needs a person: a Link header said only in prose, a page number
    counted from 0, a cursor sent in the request body (drafted, to be confirmed), a next link
    inside a links object on an operation that takes no paging parameter, or a next link inside
    a links object on an operation that also takes a parameter reading like a page position no
    role maps (a walk that trusts a link the API leaves unfilled ends early and reads complete)."""
    if style in ("link-header", "page"):
        return doubt
    if style == "cursor" and fed is not None:
        return f"the next page is asked for with the request body field {fed[0]} (fed by {fed[1]})"
    link = next((s for s in signals if s.kind == "next_link"), None)
    if style == "next-url" and native and link is not None:
        # InfluxDB answers ``{labels: [...], links: {self, next, prev}}`` from one shared Links
        # schema on lists that take no paging parameter at all; a paging envelope's own top-level
        # ``next`` beside ``page``/``size`` (Bitbucket) pages whatever the parameters say
        inside = pointer_tokens(link.expression.partition("#")[2]) or ()
        if len(inside) > 1 and not request:
            return (
                f"the operation takes no paging parameter (not even a page size) and its next "
                f"link sits in the {inside[-2]!r} object, which may be a shared links schema "
                "this operation never fills"
            )
        if len(inside) > 1 and dropped:
            # OSIsoft's ``startIndex`` beside ``Links.Next``: the walk may be by the position,
            # the shared links object filled only sometimes
            return (
                f"the operation pages by {', '.join(dropped)} (a position the walk never sends) "
                f"and its undescribed next link sits in the {inside[-2]!r} object, which may be "
                "a shared links schema this operation fills only sometimes; if so, declare "
                "style offset or page with it as request.offset or request.page"
            )
    return None


def _kind_question(
    kind: str,
    ref: OperationRef,
    shape: Shape,
    paged: bool,
    query_text: bool,
    walker: SchemaWalker,
) -> tuple[str | None, str | None]:
    """(why the drafted kind may be another, that other kind), or (None, None).

    ``kind`` is stated without a question only on strong evidence: a search needs a search word
    in its path or a parameter taking query text (an operationId alone, FastAPI's
    ``query_registry_names_..._get``, names a handler, not a search); a collection needs paging
    or items that carry an identifier (an unpaged array of id-less rows, ``{period, equitypct}``,
    is as likely one computed series: a chart, a breakdown, a report). Items that are plain
    strings or integers (tag names, module names, category ids) are their own identity: a list
    of them is a collection, asked nothing (a series of fractional numbers still asks). A search
    word in the path that the API also addresses by an id (``/query/{pk}`` beside
    ``/query/related/{column}``) names a resource, not a search: asked unless a parameter takes
    a query text."""
    doubt = _kind_doubt(kind, ref)
    if doubt is not None:
        return doubt, "search"
    doubt = _aggregate_doubt(kind, shape, paged)
    if doubt is not None:
        return doubt, "collection"
    if kind == "search" and not query_text and not sig.is_search(ref.path, None):
        return (
            f"only the operationId {ref.view.operation_id!r} names a search or query; no "
            "parameter takes a query text and the path names none",
            "collection",
        )
    addressed = _addressed_search_word(ref.path, walker) if kind == "search" else None
    if addressed is not None and not query_text:
        return (
            f"the path's search word {addressed.rsplit('/', 1)[-1]!r} is also addressed by an id "
            f"elsewhere in the API ({addressed}/{{...}}), so it may name a resource (saved "
            "queries), not a search; no parameter takes a query text",
            "collection",
        )
    if (
        kind == "collection"
        and not paged
        and shape.items is not None
        and shape.id is None
        and not _plain_values(shape)
    ):
        return (
            "the operation takes no paging parameter and its items carry no identifier, so it "
            "may answer one computed series or summary (a chart, a breakdown, a report)",
            "aggregate",
        )
    tally = _tally_field(shape)
    if kind == "collection" and shape.items is not None and shape.id is None and tally:
        return (
            f"its items carry no identifier but a {tally!r} field, so each may be a count per "
            "distinct value (a breakdown), not a record",
            "aggregate",
        )
    return None, None


def _tally_field(shape: Shape) -> str | None:
    """The item field that counts something (``count``, ``total``...) on items without an id:
    Mist's ``{results: [{count}]}`` answers counts per distinct value, paged or not."""
    return next(
        (n for n in shape.item_fields if sig.SIGNAL_FIELDS.get(sig.fold(n)) == "total"), None
    )


def _plain_values(shape: Shape) -> bool:
    """The items are plain strings or integers (names, tags, ids): each is its own identity."""
    return bool(shape.item_types) and shape.item_types <= {"string", "integer"}


def _addressed_search_word(path: str, walker: SchemaWalker) -> str | None:
    """The path prefix ending in a search-word segment (``/query``) when some path of the API
    follows that prefix with a parameter (``/query/{pk}``): the word names an addressable
    resource there, not a search."""
    segments = path.split("/")
    addressed = walker.fact("addressed_prefixes", _addressed_prefixes)
    for i, segment in enumerate(segments):
        if "{" in segment or not segment:
            continue
        words = sig.word_list(segment)
        if words and words[0] in sig.SEARCH_WORDS:
            prefix = "/".join(segments[: i + 1])
            if prefix in addressed:
                return prefix
    return None


def _addressed_prefixes(document: Any) -> frozenset[str]:
    """Every path prefix some path of the document follows with a parameter segment."""
    paths = document.get("paths") if isinstance(document, dict) else None
    out: set[str] = set()
    for path in paths if isinstance(paths, dict) else ():
        if not isinstance(path, str):
            continue
        segments = path.split("/")
        for i, segment in enumerate(segments[1:], start=1):
            if segment.startswith("{"):
                out.add("/".join(segments[:i]))
    return frozenset(out)


def _alone_in_body(body: Located | None, shape: Shape, walker: SchemaWalker) -> bool:
    """The items are the body's only property (``{result: [...]}``): nothing beside the array
    makes the body an object of its own."""
    if body is None or shape.items is None:
        return False
    inside = pointer_tokens(shape.items.partition("#")[2]) or ()
    return len(inside) == 1 and list(walker.properties(*body)) == [inside[0]]


def _one_object(ref: OperationRef, path: str, shape: Shape, paged: bool, bare: bool) -> str | None:
    """Why an unpaged array may be one object typed as an array: a bare array answering a path
    that ends in a parameter (``/builder/rules/{ruleid}``: "Get strategy builder rules by ID"),
    an array that is the body or its only property (``bare``) answering a path that ends in a
    configuration noun (``.../notifications/settings/``: one settings entry per kind of thing
    configured, a fixed set; ``/parse/settings`` answering ``{result: [...]}``), a path whose
    last word is ``summary`` (Mist's ``impact-summary``: one summary holding arrays per field),
    or prose that reads one thing ("get next outgoing transaction", "a single", "by ID")."""
    if paged or ref.method != "get" or shape.items is None:
        return None
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if shape.items == "$response.body#" and last.startswith("{") and last.endswith("}"):
        return (
            f"an unpaged array answers a path that ends in the parameter {last}, which usually "
            "reads one object"
        )
    literal = last_literal(path)
    noun = sig.word_list(literal)[-1:]
    if bare and set(noun) & sig.SINGLE_OBJECT_NOUNS:
        return (
            f"an unpaged array answers a path that ends in {literal!r}: a configuration is one "
            "object, or a fixed set of entries (one per kind of thing it configures)"
        )
    if noun == ["summary"]:
        return (
            f"the path ends in {literal!r}: an unpaged summary reads one object (its arrays are "
            "parts of it), not a list"
        )
    for where, text in _prose_texts(ref)[:2]:
        said = prose.one_object_sentence(text)
        if said is not None:
            return f"the {where} says {said!r}, which reads one object"
    return None


def _parts_of_one(shape: Shape, paged: bool) -> str | None:
    """Why an unpaged array of plain numbers may be one value: its name is a singular noun
    (NamSor's ``{softwareNameAndVersion, softwareVersion: [2, 0, 26]}``: a version's numbers;
    a coordinate, a colour). Numbers under a plural or an items name (``ids``, ``values``) are a
    list of values; asked, not dropped."""
    if paged or shape.items is None or not shape.item_types <= {"integer", "number"}:
        return None
    name = last_token(shape.items.partition("#")[2])
    word = (sig.word_list(name) or [""])[-1]
    if not shape.item_types or not word or sig.plural_word(word) or word.endswith("ids"):
        return None  # ``ids``, ``uuids``: plural, though short
    if sig.fold(name) in sig.ITEM_NAMES or word in sig.ITEM_NAMES:
        return None
    return (
        f"its items are plain numbers under the singular name {name!r}, and nothing pages: most "
        "likely the parts of one value (a version's numbers, a coordinate), not a list"
    )


def _named_in_request(
    ref: OperationRef, walker: SchemaWalker, shape: Shape, pageable: bool
) -> str | None:
    """Why an unpaged read may answer only what its request names: a required query parameter
    that takes several values (an array) which each item echoes (a field of the item by the
    parameter's name, or its singular: ``ids`` -> ``id``). PI Web API's stream-set reads take
    ``webId`` ("Multiple streams may be specified with multiple instances of the parameter") and
    answer one ``{WebId, Value}`` per stream; its security reads take ``userIdentity`` and answer
    one ``{UserIdentity, CanRead, ...}`` per identity. The answer is then most likely one entry
    per value named, a batch read bounded by the request rather than every object of a resource
    in scope: asked whether it lists. A required array the items do not echo is a filter
    (``category``: every trait of the given categories), asked nothing; a listing whose request
    can page (a position or page-size parameter) is not bounded by its request, whatever it
    takes; a next link in a shared links object is no such sign."""
    if pageable or ref.method != "get" or not shape.item_fields:
        return None
    fields = {sig.fold(n) for n in shape.item_fields}
    for p in ref.parameters:
        if p.location != "query" or not p.required:
            continue
        key = sig.fold(p.name)
        if not ({key, key.removesuffix("s")} & fields):
            continue
        schema = p.schema.raw if p.schema is not None else p.node  # Swagger 2.0: on the parameter
        if "array" in walker.types(schema, p.pointer):
            return (
                f"the required parameter {p.name} takes several values (an array) and each item "
                f"carries its {p.name}, and nothing pages: the answer is most likely one entry per "
                "value the request names (a batch read, bounded by the request), not every object "
                "of a resource"
            )
    return None


def _aggregate_doubt(kind: str, shape: Shape, paged: bool) -> str | None:
    """An aggregate named so by its path or operationId (``stats``, ``facets``...) that pages an
    array of records like a list, or whose items carry an identifier (Snyk's ``POST
    .../aggregated-issues``: "List all project snapshot aggregated issues", each issue with its
    ``id``), may be a collection of those records."""
    if kind != "aggregate" or shape.aggregate or shape.items is None:
        return None
    if paged:
        return (
            "the path or operationId names a summary (stats, aggregates...) but the operation "
            "pages an array"
        )
    if shape.id is not None and sig.fold(last_token(shape.id)) == "id":
        # its own ``id``, not a reference to what a row summarises (ClickMeter's ``entityId``
        # on rows of statistics, Xero's ``ReportID`` on one report)
        return (
            "the path or operationId names a summary (aggregated, stats, a report...) but its "
            f"items carry their own identifier ({shape.id}), so each may be a record of a "
            "resource"
        )
    return None


def _kind_doubt(kind: str, ref: OperationRef) -> str | None:
    """Why a drafted collection may be a search: its prose (the operation's summary or
    description, a query parameter described as search text or as text to find, or its success
    response's description: "A list of documents returned by the search") says so while its
    path and operationId do not. Asked, never settled either way: a search drafted as a
    collection would lose its RESULT_LIMIT_REACHED question, the worst error of a draft."""
    if kind != "collection":
        return None
    for where, text in [*_prose_texts(ref), *_response_texts(ref)]:
        said = prose.search_sentence([text], parameter=where.startswith("parameter "))
        if said is not None:
            return f"the {where} says {said!r}"
    return None


def _import_fits(imported: Imported, body: Located | None, walker: SchemaWalker) -> bool:
    """Every body location the extension names exists in the success response schema (the items
    as an array). AutoRest's ``x-ms-pageable`` sits on some single reads whose body has neither
    ``value`` nor ``nextLink`` (Azure Intune's ``statuses/default``): drafting from it would be a
    wrong value, so the operation is judged by its shape alone."""
    wanted = [(imported.items, True)] + [(e, False) for e in (imported.next, imported.total)]
    for expr, array in wanted:
        if not isinstance(expr, str) or not expr.startswith("$response.body#"):
            continue
        if body is None:
            return False
        node, at = walker.resolve(*body)
        for name in pointer_tokens(expr.partition("#")[2]) or ():
            props = walker.properties(node, at)
            if name not in props:
                return False
            node, at = walker.resolve(*props[name])
        if array and not walker.is_array(node, at):
            return False
    return True
