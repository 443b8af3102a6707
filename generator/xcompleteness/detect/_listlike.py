"""Find list, search and aggregate operations in a plain OpenAPI document and read their signals.

The one list-likeness heuristic: ``check`` (rule XC100) and ``audit`` both call it, and it
imports no ``audit*`` module (a test keeps check's import graph free of them). It works on the
parsed document (plain dicts), so it runs the same on a spec loaded by ``load_spec``, on one with
overlays applied, or on a test's literal dict. One :class:`Finding` per list-like operation says
why it looks list-like, where its items sit, how it paginates (``cursor``, ``link-header``,
``next-url``, ``offset``, ``page``, ``none`` or ``unknown``) and which native completeness
signals its response shows, each with the JSON pointer of the node that shows it.
``audit_overlay`` builds draft declarations from findings.

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
(``_single_read``). Streams (Kubernetes ``watch``, ``;stream=`` media, server-sent events) and
declarations ``{kind: none, why}`` are :class:`Excluded` with their reason, never findings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from xcompleteness.declare import not_a_listing
from xcompleteness.detect import _body_paging as body_paging
from xcompleteness.detect import _evidence as evidence
from xcompleteness.detect import _pagination_imports as pagination_imports
from xcompleteness.detect import _prose as prose
from xcompleteness.detect import _words as sig
from xcompleteness.detect._pagination_imports import Imported
from xcompleteness.detect._schema_walk import Located, SchemaWalker
from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import HTTP_METHODS, iter_path_items

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
    "undeclared_listings",
]


STYLES = ("cursor", "link-header", "next-url", "offset", "page", "none", "unknown")
_PAGING_KINDS = frozenset(
    {
        "has_more",
        "next_link",
        "next_token",
        "total_pages",
        "link_header",
        "incomplete_results",
        "truncated",
        "shards",
        "timed_out",
        "remaining",
    }
)
# Signals that make an operation list-like on their own; the others (a Link header, a total, a
# truncated flag) also appear on single resources (GitHub's gists carry ``truncated``).
_STRONG_KINDS = frozenset(
    {"has_more", "next_link", "next_token", "incomplete_results", "shards", "remaining"}
)
_FLAG_KINDS = frozenset({"has_more", "incomplete_results", "truncated", "next_token", "next_link"})
_BOOL_KINDS = frozenset({"has_more", "incomplete_results", "truncated", "timed_out"})


@dataclass(frozen=True)
class Signal:
    """A native completeness signal: what it is, how to read it at run time, where it is shown."""

    kind: str
    name: str
    expression: str
    pointer: str

    def to_json(self) -> dict[str, str]:
        return asdict(self)


@dataclass(frozen=True)
class Finding:
    """One list-like operation (declared or not) and everything audit could infer about it."""

    method: str
    path: str
    pointer: str
    operation_id: str | None
    kind: str
    why: tuple[str, ...]
    style: str
    request: dict[str, str] = field(default_factory=dict)
    items: str | None = None
    items_pointer: str | None = None
    id: str | None = None
    signals: tuple[Signal, ...] = ()
    status: str | None = None
    declared: bool = False
    item_fields: tuple[str, ...] = ()
    imported: Imported | None = None
    """Pagination read from another tool's extension (``x-ms-pageable``...), if any."""
    items_doubt: str | None = None
    """Why the items location may not be an array (an example shows an object there...)."""
    id_alternatives: tuple[str, ...] = ()
    """Other item fields ranked as high as ``id`` (the draft asks which one)."""
    cursor_end: str | None = None
    """How the last page shows the next token: ``absent``, ``empty`` or ``either``."""
    caps: tuple[tuple[int, str, str], ...] = ()
    """Documented caps on the listing's reach: (N, where, sentence)."""
    style_doubt: str | None = None
    """Why the drafted pagination style needs confirming (it is said only in prose)."""
    kind_doubt: str | None = None
    """Why the drafted kind may be another (a collection whose prose says "search")."""

    def signal(self, *kinds: str) -> Signal | None:
        """The first signal of one of ``kinds`` (in the order given)."""
        for kind in kinds:
            for s in self.signals:
                if s.kind == kind:
                    return s
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "path": self.path,
            "pointer": self.pointer,
            "operation_id": self.operation_id,
            "kind": self.kind,
            "why": list(self.why),
            "style": self.style,
            "request": dict(self.request),
            "items": self.items,
            "items_pointer": self.items_pointer,
            "id": self.id,
            "signals": [s.to_json() for s in self.signals],
            "status": self.status,
            "declared": self.declared,
            "imported": self.imported.to_json() if self.imported else None,
            "items_doubt": self.items_doubt,
            "id_alternatives": list(self.id_alternatives),
            "cursor_end": self.cursor_end,
            "caps": [{"limit": n, "where": w, "text": t} for n, w, t in self.caps],
            "style_doubt": self.style_doubt,
            "kind_doubt": self.kind_doubt,
        }


@dataclass(frozen=True)
class OperationRef:
    method: str
    path: str
    pointer: str
    operation: dict[str, Any]
    parameters: tuple[Located, ...]


def iter_operations(document: Any, walker: SchemaWalker) -> Iterator[OperationRef]:
    """Every operation of ``paths`` with its merged (path-level + operation-level) parameters.

    Built on :func:`xcompleteness.document.iter_path_items` (``$ref`` path items followed
    through ``walker``), so the audit visits the operations check does, in the same order, and
    those of ``$ref`` path items besides (the operation views of ``document`` leave those out).
    """
    if not isinstance(document, dict):
        return
    for path, item, item_ptr in iter_path_items(document, walker.deref):
        shared = _parameters(item.get("parameters"), pointer_join(item_ptr, "parameters"), walker)
        for method in HTTP_METHODS:
            op = item.get(method)
            if not isinstance(op, dict):
                continue
            op_ptr = pointer_join(item_ptr, method)
            own = _parameters(op.get("parameters"), pointer_join(op_ptr, "parameters"), walker)
            merged = {(p["name"], _location(p)): (p, ptr) for p, ptr in shared + own}
            yield OperationRef(method, path, op_ptr, op, tuple(merged.values()))


def _location(parameter: dict[str, Any]) -> str | None:
    """The parameter's ``in``; None when a malformed spec puts something other than text there."""
    where = parameter.get("in")
    return where if isinstance(where, str) else None


def _parameters(raw: Any, pointer: str, walker: SchemaWalker) -> list[Located]:
    out: list[Located] = []
    if isinstance(raw, list):
        for i, p in enumerate(raw):
            node, ptr = walker.deref(p, pointer_join(pointer, i))
            if isinstance(node, dict) and isinstance(node.get("name"), str):
                out.append((node, ptr))
    return out


def operation_ids(document: Any) -> list[str]:
    """One entry per operation: its operationId, or "" when it has none."""
    out = []
    for ref in iter_operations(document, SchemaWalker(document)):
        op_id = ref.operation.get("operationId")
        out.append(op_id if isinstance(op_id, str) else "")
    return out


def scan(document: Any) -> list[Finding]:
    """All list-like operations of ``document``, in document order (declared ones included)."""
    return scan_all(document)[0]


@dataclass(frozen=True)
class Excluded:
    """An operation the heuristic leaves out on purpose, and why (reported, never drafted).

    ``source`` is ``declared`` (its ``x-completeness`` says ``kind: none`` with a ``why``) or
    ``stream`` (its success response is a stream: Kubernetes ``watch``, server-sent events).
    """

    method: str
    path: str
    pointer: str
    operation_id: str | None
    source: str
    why: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def scan_all(document: Any) -> tuple[list[Finding], list[Excluded]]:
    """List-like operations and the operations excluded with a reason, in document order."""
    walker = SchemaWalker(document)
    found: list[Finding] = []
    excluded: list[Excluded] = []
    for ref in iter_operations(document, walker):
        result = scan_operation(ref, walker)
        if isinstance(result, Finding):
            found.append(result)
        elif isinstance(result, Excluded):
            excluded.append(result)
    return found, excluded


def undeclared_listings(document: Any) -> dict[str, str]:
    """Operation pointer -> why it looks list-like, for every undeclared list-like operation.

    The one heuristic ``check``'s "listing without a declaration" rule can share with audit, so
    that check on a spec plus audit's draft reports exactly the draft's TODOs.
    """
    return {f.pointer: "; ".join(f.why) for f in scan(document) if not f.declared}


def _declared_none(op: dict[str, Any]) -> str | None:
    """The recorded reason of ``x-completeness: {kind: none, why: ...}``, else None."""
    decl = op.get("x-completeness")
    if isinstance(decl, dict) and not_a_listing(decl):
        why = decl.get("why")
        return why if isinstance(why, str) and why.strip() else "(no reason given)"
    return None


def _stream_media(op: dict[str, Any], walker: SchemaWalker, pointer: str) -> str | None:
    """The first streaming media type among the success responses, if any."""
    responses = op.get("responses")
    if not isinstance(responses, dict):
        return None
    for code, resp in responses.items():
        if str(code)[:1] != "2":
            continue
        resp, _ = walker.deref(resp, pointer_join(pointer, "responses", str(code)))
        content = resp.get("content") if isinstance(resp, dict) else None
        names = list(content) if isinstance(content, dict) else []
        produces = op.get("produces")  # Swagger 2.0
        names += [n for n in produces if isinstance(n, str)] if isinstance(produces, list) else []
        for name in names:
            if not isinstance(name, str):
                continue
            base, _, params = name.partition(";")
            if base.strip().lower() in sig.STREAM_MEDIA or "stream=" in params.replace(" ", ""):
                return name
    return None


def scan_operation(ref: OperationRef, walker: SchemaWalker) -> Finding | Excluded | None:
    """The finding for one operation, an exclusion with its reason, or None (not list-like)."""
    op = ref.operation
    op_id = op.get("operationId") if isinstance(op.get("operationId"), str) else None
    declared_none = _declared_none(op)
    if declared_none is not None:
        return Excluded(ref.method, ref.path, ref.pointer, op_id, "declared", declared_none)
    roles = _param_roles(ref.parameters, walker)
    status, body, headers, examples = _success_response(op, ref.pointer, walker)
    positioned = any(r in roles for r in ("cursor", "offset", "page", "page_token"))
    # An operation named ``list...`` (``apps_list_instanceSizes``) says it lists: its only array
    # is the items even with one field beside it (``{discount_percent, instance_sizes}``).
    # ... and so does one whose summary or description opens "Gets a list of ...".
    listy = ref.method == "get" and (
        "list" in sig.words(op_id or "")
        or prose.first_sentence_lists(op[k] for k in ("summary", "description") if _text(op, k))
    )
    cursor_keys = {sig.fold(roles[r]) for r in ("cursor", "page_token") if r in roles}
    shape = (
        _body_shape(body, walker, ref.path, positioned, listy, cursor_keys, examples)
        if body is not None
        else _Shape()
    )
    signals = list(shape.signals) + _header_signals(headers, walker)
    style_doubt = _described_link_header(op, ref, signals)
    tokens = [(s.name, s.expression) for s in signals if s.kind == "next_token"]
    fed = None  # a read by POST that pages its array through a cursor in the request body
    if ref.method == "post" and shape.items is not None:
        fed = body_paging.body_cursor(op, ref.pointer, walker, tokens)
    words = sig.words(ref.path) | sig.words(op_id or "")
    searchy = sig.is_search(ref.path, op_id)
    why: list[str] = []
    if shape.items is not None:
        why.append(shape.why)
    for role in ("cursor", "offset", "page", "page_token"):
        if role in roles:
            why.append(f"{role.replace('_', ' ')} parameter {roles[role]}")
    paging = [s for s in signals if s.kind in _PAGING_KINDS]
    strong = [s for s in paging if shape.items is not None or s.kind in _STRONG_KINDS]
    why.extend(f"signal {s.name}" for s in strong[:3])
    if shape.aggregate:
        why.append("aggregation fields")
    if not why and shape.containers and "list" in sig.words(op_id or ""):
        why.append("operation named list with " + shape.containers)
    if not why and shape.containers and ref.method == "get":
        named = body_paging.arrays_named(body, walker, sig.fold(_last_literal(ref.path)))
        if len(named) > 2:  # GET .../tabs answers {signTabs: [...], dateTabs: [...], ...}
            why.append(f"arrays named after the path ({', '.join(named[:3])}...)")
    if not why and searchy and "query" in roles:
        nested = shape.containers or ", ".join(body_paging.nested_arrays(body, walker))
        if nested:  # a search that requires its query text answers its matches, however nested
            why.append(f"search with a required query and arrays in its response ({nested})")
    if not why and body is None and status is not None and listy:
        why.append("described as a list; the response declares no schema")
    if fed is not None:
        why.append(f"request body cursor {fed[0]} fed by {fed[1]}")
    queries = {p["name"] for p, _ in ref.parameters if p.get("in") == "query"}
    imported = pagination_imports.read(op, queries)
    if imported is not None and not _import_fits(imported, body, walker):
        imported = None  # it names body fields the response schema lacks: not trusted
    if imported is not None:  # the spec says so itself: a listing, whatever its shape
        why.insert(0, f"{imported.source} extension")
    if not why:
        return None
    stream = _stream(op, walker, ref.pointer, shape)
    if stream is not None:
        return Excluded(ref.method, ref.path, ref.pointer, op_id, "stream", stream)
    if (
        imported is None
        and fed is None
        and _not_a_listing(ref, shape, strong, positioned, searchy, signals)
    ):
        return None
    paged = positioned or any(s.kind in _PAGING_KINDS or s.kind == "total" for s in signals)
    if imported is None and not paged and _single_object(ref, shape, op_id):
        return None
    searchy = searchy or "query" in roles  # a listing that needs a query text is a search
    kind = "search" if searchy else "collection"
    if shape.aggregate or any(w.startswith(sig.AGGREGATE_PREFIXES) for w in words):
        kind = "aggregate" if not searchy else kind
    if not paged and not searchy and _named_report(ref.path):
        kind = "aggregate"  # one computed report, not pages of records
    _cursor_fed_by_token(roles, signals, ref.parameters)
    style, request = _style(roles, signals)
    if body is None and style == "none":
        style = "unknown"  # no response schema: nothing shows whether or how it pages
    if style == "page":
        style_doubt = _zero_based(request["page"], ref.parameters)
    if imported is not None:
        style, request = imported.style, dict(imported.request)
        if imported.items is not None and imported.items != shape.items:
            shape.items, shape.id, shape.item_fields = imported.items, None, ()
            shape.items_pointer = None
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
        declared="x-completeness" in op,
        item_fields=shape.item_fields,
        imported=imported,
        items_doubt=shape.items_doubt,
        id_alternatives=shape.id_alternatives,
        cursor_end=shape.cursor_end,
        caps=tuple(
            evidence.documented_caps(_cap_texts(op, ref.parameters, roles), unpaged=not paged)
        ),
        style_doubt=_style_doubt(style, style_doubt, fed),
        kind_doubt=_kind_doubt(kind, op, ref.parameters) or _aggregate_doubt(kind, shape, paged),
    )


def _text(op: dict[str, Any], key: str) -> bool:
    return isinstance(op.get(key), str)


def _zero_based(name: str, params: tuple[Located, ...]) -> str | None:
    """Why a page walk would skip the first page: the page parameter counts from 0."""
    for p, _ in params:
        if p["name"] == name and p.get("in") == "query":
            said = prose.zero_based_sentence(p.get("description"))
            if said is not None:
                return f"the parameter {name} counts pages from 0 ({said!r})"
    return None


def _style_doubt(style: str, doubt: str | None, fed: tuple[str, str] | None) -> str | None:
    """Why the drafted style needs a person: a Link header said only in prose, a page number
    counted from 0, or a cursor sent in the request body (neither declarable yet)."""
    if style in ("link-header", "page"):
        return doubt
    if style == "unknown" and fed is not None:
        return f"the next page is asked for with the request body field {fed[0]} (fed by {fed[1]})"
    return None


def _prose_texts(op: dict[str, Any], params: tuple[Located, ...]) -> list[tuple[str, str]]:
    """(where, text) of the operation's summary and description and its query parameters'
    descriptions."""
    out = [(k, op[k]) for k in ("summary", "description") if isinstance(op.get(k), str)]
    for p, _ in params:
        if p.get("in") == "query" and isinstance(p.get("description"), str):
            out.append((f"parameter {p['name']}", p["description"]))
    return out


def _described_link_header(
    op: dict[str, Any], ref: OperationRef, signals: list[Signal]
) -> str | None:
    """Pagination through a ``Link`` header said only in prose (no response declares one):
    adds the signal, and returns the sentence (the draft asks to confirm it)."""
    if any(s.kind == "link_header" for s in signals):
        return None
    for where, text in _prose_texts(op, ref.parameters):
        said = prose.link_header_sentence([text])
        if said is not None:
            signals.append(Signal("link_header", "Link", "$response.link.next", ref.pointer))
            return f"no response declares a Link header, but the {where} says {said!r}"
    return None


def _aggregate_doubt(kind: str, shape: _Shape, paged: bool) -> str | None:
    """An aggregate named so by its path or operationId (``stats``, ``facets``...) that pages an
    array of records like a list may be a collection of those records."""
    if kind != "aggregate" or shape.aggregate or not paged or shape.items is None:
        return None
    return (
        "the path or operationId names a summary (stats, aggregates...) but the operation "
        "pages an array"
    )


def _kind_doubt(kind: str, op: dict[str, Any], params: tuple[Located, ...]) -> str | None:
    """Why a drafted collection may be a search: its prose (the operation's or a query
    parameter's description) says "search" while its path and operationId do not."""
    if kind != "collection":
        return None
    for where, text in _prose_texts(op, params):
        said = prose.search_sentence([text], parameter=where.startswith("parameter "))
        if said is not None:
            return f"the {where} says {said!r}"
    return None


def _cap_texts(
    op: dict[str, Any], params: tuple[Located, ...], roles: dict[str, str]
) -> list[tuple[str, str]]:
    """The descriptions a documented cap may sit in: the operation's, its position parameters'."""
    out = [(k, op[k]) for k in ("summary", "description") if isinstance(op.get(k), str)]
    positions = {roles[r] for r in ("offset", "page", "cursor", "page_token") if r in roles}
    for p, _ in params:
        if p["name"] in positions and isinstance(p.get("description"), str):
            out.append((f"parameter {p['name']}", p["description"]))
    return out


def _cursor_fed_by_token(
    roles: dict[str, str], signals: list[Signal], params: tuple[Located, ...]
) -> None:
    """The cursor parameter the response's next token names (``next_page_token`` feeds
    ``page_token`` or ``next_page_token``) wins over other cursor-like parameters."""
    token = next((s for s in signals if s.kind == "next_token"), None)
    if token is None or "cursor" not in roles:
        return
    key = sig.fold(token.name)
    wanted = {key, key.removeprefix("next")}
    for p, _ in params:
        if p.get("in") == "query" and sig.fold(p["name"]) in wanted:
            roles["cursor"] = p["name"]
            return


def _named_report(path: str) -> bool:
    """``/Reports/BalanceSheet``: a literal segment under a ``reports`` segment names one
    report (``/Reports`` itself lists them)."""
    literal = [s for s in path.split("/") if s and "{" not in s]
    return any(sig.fold(s) in sig.REPORT_WORDS for s in literal[:-1])


def _single_object(ref: OperationRef, shape: _Shape, op_id: str | None) -> bool:
    """An unpaged operation that reads, checks or computes one object (issue 19's false listings).

    * an example shows an object where the schema's items array would be (Slack's ``*.info``
      types the object as ``{items: ...}``);
    * the operation is named for a single-object verb (``parse``, ``sanitise``, ``validate``,
      ``identity``, ``info``, ``lookupBy...``, ``license``);
    * the path names one thing and the body wraps it in the plural (``/Organisation`` answered
      as ``{Organisations: [...]}``).
    """
    if shape.items_contradicted:
        return True
    op_words = sig.word_list(op_id or "")
    if op_words and op_words[0] in ("get", "post", "put"):
        op_words = op_words[1:]
    last = ref.path.rstrip("/").rsplit("/", 1)[-1]
    path_words = sig.word_list(last) if "{" not in last else []
    ends = set(op_words[:1] + op_words[-1:] + path_words[-1:])
    if ends & sig.SINGLE_OBJECT_WORDS:
        return True
    if "lookup" in op_words + path_words and "by" in op_words + path_words:
        return True
    if shape.items and shape.items != "$response.body#" and path_words:
        array = shape.items.rsplit("/", 1)[-1]
        noun = sig.fold(last)
        if sig.fold(array) in (noun + "s", noun + "es") and not noun.endswith("s"):
            return True
    return False


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
        node, at = walker.deref(*body)
        for token in expr.partition("#")[2].split("/")[1:]:
            props = walker.properties(node, at)
            name = token.replace("~1", "/").replace("~0", "~")
            if name not in props:
                return False
            node, at = walker.deref(*props[name])
        if array and not walker.is_array(node, at):
            return False
    return True


def _not_a_listing(
    ref: OperationRef,
    shape: _Shape,
    strong: list[Signal],
    positioned: bool,
    searchy: bool,
    signals: list[Signal],
) -> bool:
    """List-shaped, but not a listing: a mutation not named like one, or a single read."""
    op_id = ref.operation.get("operationId")
    op_id = op_id if isinstance(op_id, str) else None
    if ref.method != "get" and not (searchy or _listy_name(op_id, ref.path)):
        return True
    if ref.method != "get" and shape.items is None and not strong and not positioned:
        return True
    return _single_read(ref.path, shape, signals, positioned)


def _single_read(path: str, shape: _Shape, signals: list[Signal], positioned: bool) -> bool:
    """A path ending in ``{param}`` reads one object unless its own top level pages an array.

    Stripe's ``/v1/files/{file}`` nests a list object (``links.has_more``) inside the file,
    Kubernetes' ``roles/{name}`` carries a ``rules`` array, DigitalOcean's
    ``/v2/volumes/{volume_id}/actions/{action_id}`` takes stray ``page`` parameters: all single
    reads. An array body, an array with paging beside it (a position parameter, a paging signal
    or a total, as on GitHub's git trees with ``truncated``), or an object with several arrays
    and a position parameter (GitHub's commit with paged ``files``) still makes a listing.
    """
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if not (last.startswith("{") and last.endswith("}")) or shape.items == "$response.body#":
        return False  # a bare array body is a list wherever it sits
    if shape.items is None:  # paged parts of one object (GitHub's commit files) stay, with TODOs
        return not (positioned and shape.containers)
    paged = any(s.kind in _PAGING_KINDS or s.kind == "total" for s in signals)
    top = shape.items.count("/") <= 1  # a position pages the body's own array, not a nested one
    return not ((positioned and top) or paged)


def _stream(op: dict[str, Any], walker: SchemaWalker, pointer: str, shape: _Shape) -> str | None:
    """Why the operation is a stream (excluded), or None.

    Kubernetes marks watches with ``x-kubernetes-action: watch|watchlist``; elsewhere a success
    response whose media types include a stream (``;stream=watch``, ``text/event-stream``...)
    and whose JSON body has no items array is a stream. A list whose media types *also* offer a
    stream (Kubernetes lists take ``?watch=true``) stays a listing.
    """
    action = op.get("x-kubernetes-action")
    media = _stream_media(op, walker, pointer)
    if isinstance(action, str) and action in sig.STREAM_ACTIONS:
        return (
            f"streaming response (x-kubernetes-action: {action}"
            + (f", {media}" if media else "")
            + "): a watch never ends, so completeness does not apply"
        )
    if media is not None and shape.items is None:
        return f"streaming response ({media}): a stream never ends, so completeness does not apply"
    return None


def _listy_name(op_id: str | None, path: str) -> bool:
    last = path.rstrip("/").rsplit("/", 1)[-1].lower()
    return last in ("list", "_list", "batch_get") or (op_id or "").lower().startswith("list")


# -- parameters ---------------------------------------------------------------------------------


def _param_roles(params: tuple[Located, ...], walker: SchemaWalker) -> dict[str, str]:
    """Pagination role -> query parameter name (first match wins; size by preference order).

    An offset or page parameter must be a number: a text ``page`` is a token (Stripe's search
    ``page`` is the ``next_page`` of the previous response; role ``page_token``), and a time
    (``start`` described as a timestamp, or formatted as a date) is a filter, not a position.
    """
    roles: dict[str, str] = {}
    sizes: list[str] = []
    cursors: list[str] = []
    for p, ptr in params:
        if p.get("in") != "query" or prose.reserved(p.get("description")):
            continue  # a parameter the API keeps for itself is never a position the walk sets
        name = p["name"]
        key = sig.fold(name)
        if key in sig.CURSOR_PARAMS:
            cursors.append(name)
        elif key not in sig.PAGING_PARAMS and prose.describes_cursor(p.get("description")):
            cursors.append(name)  # "a pagination cursor" whatever its name (``batch_token``)
        elif key in sig.OFFSET_PARAMS or key in sig.PAGE_PARAMS:
            role = "offset" if key in sig.OFFSET_PARAMS else "page"
            kind = _position_kind(p, ptr, walker, role)
            if kind == "number":
                roles.setdefault(role, name)
            elif kind == "text" and role == "page":
                roles.setdefault("page_token", name)
            elif kind == "text" and not _numeric_text(p):
                cursors.append(name)  # a text offset is an opaque token (Asana's ``offset``)
            elif kind == "text":
                roles.setdefault(role, name)  # a string offset described as a number
        elif key in sig.SIZE_PARAMS:
            sizes.append(name)
    if cursors:  # forward cursors first: ``after`` over ``before``
        roles["cursor"] = min(cursors, key=lambda n: sig.fold(n) in sig.BACKWARD_CURSORS)
    queries = [(p, sig.fold(p["name"])) for p, _ in params if p.get("in") == "query"]
    if any(p.get("required") is True and key in sig.QUERY_PARAMS for p, key in queries):
        roles["query"] = next(p["name"] for p, key in queries if key in sig.QUERY_PARAMS)
    if sizes:
        order = {k: i for i, k in enumerate(sig.SIZE_ORDER)}
        roles["size"] = min(sizes, key=lambda n: order.get(sig.fold(n), len(order)))
    return roles


def _numeric_text(p: dict[str, Any]) -> bool:
    """A string-typed offset is a position unless its description says it is a token the API
    returns (Asana's "offset token"): a string ``start_position`` still counts items."""
    text = p.get("description") if isinstance(p.get("description"), str) else ""
    return not (sig.words(text) & {"token", "opaque"})


def _position_kind(p: dict[str, Any], ptr: str, walker: SchemaWalker, role: str) -> str:
    """``number`` (a position), ``text`` (a token, or unknown) or ``time`` (a window)."""
    schema = p.get("schema", p)  # Swagger 2.0 puts type and format on the parameter itself
    node, _ = walker.deref(schema, ptr)
    fmt = node.get("format") if isinstance(node, dict) else None
    text = p.get("description") if isinstance(p.get("description"), str) else ""
    timed = role == "offset" and bool(sig.words(text) & sig.TIME_WORDS)
    if fmt in ("date", "date-time", "time") or timed:
        return "time"
    types = walker.types(schema, ptr)
    if not types or types & {"integer", "number"}:
        return "number"
    return "text"


# -- responses ----------------------------------------------------------------------------------


def _success_response(
    op: dict[str, Any], pointer: str, walker: SchemaWalker
) -> tuple[str | None, Located | None, dict[str, Any], list[Any]]:
    """(status, body schema, headers, examples) of the operation's first 2xx response with a
    body."""
    responses = op.get("responses")
    if not isinstance(responses, dict):
        return None, None, {}, []
    codes = sorted((str(c) for c in responses if str(c)[:1] == "2"), key=lambda c: (c != "200", c))
    first: tuple[str | None, Located | None, dict[str, Any], list[Any]] = (None, None, {}, [])
    for code in codes:
        resp, rptr = walker.deref(
            responses.get(code, responses.get(_int(code))), pointer_join(pointer, "responses", code)
        )
        if not isinstance(resp, dict):
            continue
        headers = resp.get("headers") if isinstance(resp.get("headers"), dict) else {}
        headers = {k: (v, pointer_join(rptr, "headers", k)) for k, v in headers.items()}
        schema = _media_schema(resp, rptr)
        if schema is not None:
            return code, schema, headers, _examples(resp, schema, walker)
        if first[0] is None:
            first = (code, None, headers, [])
    return first


def _examples(resp: dict[str, Any], schema: Located, walker: SchemaWalker) -> list[Any]:
    """The response's example bodies: the media object's, else the schema's own ``example``."""
    content = resp.get("content")
    out: list[Any] = []
    if isinstance(content, dict):
        for media in content.values():
            out.extend(evidence.example_values(media))
    out.extend(evidence.example_values(resp.get("examples")) if "examples" in resp else [])
    if not out:
        node, _ = walker.deref(*schema)
        out.extend(evidence.example_values(node if isinstance(node, dict) else None))
    return out


def _int(code: str) -> int | str:
    return int(code) if code.isdigit() else code


def _media_schema(resp: dict[str, Any], rptr: str) -> Located | None:
    content = resp.get("content")
    if isinstance(content, dict) and content:
        names = [n for n in content if isinstance(n, str)]
        chosen = next((n for n in names if n.split(";")[0].strip() == "application/json"), None)
        chosen = (
            chosen or next((n for n in names if "json" in n), None) or (names[0] if names else None)
        )
        media = content.get(chosen) if chosen else None
        if isinstance(media, dict) and "schema" in media:
            return media["schema"], pointer_join(rptr, "content", chosen, "schema")
        return None
    if "schema" in resp:  # Swagger 2.0 shape, harmless to understand
        return resp["schema"], pointer_join(rptr, "schema")
    return None


def _header_signals(headers: dict[str, Any], walker: SchemaWalker) -> list[Signal]:
    out: list[Signal] = []
    for name, (_, ptr) in headers.items():
        if not isinstance(name, str):
            continue
        kind = sig.SIGNAL_HEADERS.get(sig.fold(name))
        if kind == "link_header":
            out.append(Signal(kind, name, "$response.link.next", ptr))
        elif kind is not None:
            out.append(Signal(kind, name, f"$response.header.{name}", ptr))
    return out


# -- body shape ---------------------------------------------------------------------------------


@dataclass
class _Shape:
    items: str | None = None
    items_pointer: str | None = None
    id: str | None = None
    why: str = ""
    signals: list[Signal] = field(default_factory=list)
    aggregate: bool = False
    containers: str = ""  # "several arrays" / "a map": list-shaped but no single items location
    item_fields: tuple[str, ...] = ()  # property names of one item
    items_contradicted: bool = False  # an example shows a non-array at the items location
    items_doubt: str | None = None
    id_alternatives: tuple[str, ...] = ()
    cursor_end: str | None = None


def _body_expr(pointer: str) -> str:
    return f"$response.body#{pointer}"


def _body_shape(
    body: Located,
    walker: SchemaWalker,
    path: str,
    positioned: bool,
    listy: bool = False,
    cursor_keys: set[str] | frozenset[str] = frozenset(),
    examples: list[Any] | None = None,
) -> _Shape:
    schema, ptr = walker.deref(*body)
    shape = _Shape()
    examples = examples or []
    if walker.is_array(schema, ptr) and not walker.properties(schema, ptr):
        shape.items, shape.why = "$response.body#", "array response"
        item = walker.array_items(schema, ptr)
        shape.items_pointer = item[1] if item else None
        _item_facts(shape, item, walker, [_last_word(path)])
        _check_items(shape, (schema, ptr), "", walker, examples)
        return shape
    props = walker.properties(schema, ptr)
    if not props:
        node, _ = walker.deref(schema, ptr)
        if isinstance(node, dict) and isinstance(node.get("additionalProperties"), dict):
            shape.containers = "a map response"
        return shape
    if sum(1 for s, p in props.values() if walker.is_array(s, p)) > 1:
        shape.containers = "several arrays in the response"
    resource_like = "id" in props and path.rstrip("/").endswith("}")
    found = _wrapped_array(
        props,
        walker,
        "",
        strict_meta=False,
        resource_like=resource_like,
        positioned=positioned,
        listy=listy,
        noun=sig.fold(_last_literal(path)),
    )
    if found is None and not resource_like:
        for name, (sub, sptr) in props.items():
            if sig.fold(name) in sig.CONTAINERS and "object" in walker.types(sub, sptr):
                inner = walker.properties(sub, sptr)
                found = _wrapped_array(
                    inner,
                    walker,
                    pointer_join("", name),
                    strict_meta=True,
                    resource_like=False,
                    positioned=positioned,
                )
                if found is not None:
                    break
    skip = None
    if found is not None:
        rel, item = found
        shape.items, shape.why = _body_expr(rel), f"object wrapping an array at {rel}"
        shape.items_pointer = item[1] if item else None
        _item_facts(shape, item, walker, [rel.rsplit("/", 1)[-1], _last_word(path)])
        at = _located_at(schema, ptr, rel, walker)
        if at is not None:
            _check_items(shape, at, rel, walker, examples)
        skip = rel
    elif listy and not shape.containers:
        shown = body_paging.example_arrays(examples, props, walker)
        if len(shown) == 1:  # the schema under-describes; its own example shows the list
            rel = pointer_join("", shown[0])
            shape.items, shape.why = _body_expr(rel), f"an example shows an array at {rel}"
            shape.items_doubt = (
                f"only an example shows an array at {rel}; the response schema does not declare "
                "it (this overlay's schema patch adds it)"
            )
    shape.signals = _body_signals(props, walker, "", skip, depth=0, cursor_keys=cursor_keys)
    token = next((s for s in shape.signals if s.kind == "next_token"), None)
    if token is not None:
        shape.cursor_end = _token_end(schema, ptr, token, walker, examples)
    shape.aggregate = any(sig.fold(n) in sig.AGGREGATE_FIELDS for n in props)
    return shape


def _wrapped_array(
    props: dict[str, Located],
    walker: SchemaWalker,
    base: str,
    *,
    strict_meta: bool,
    resource_like: bool,
    positioned: bool,
    listy: bool = False,
    noun: str = "",
) -> tuple[str, Located | None] | None:
    """(relative body pointer, item schema) of the array this object wraps, if it is a wrapper.

    A request that takes a page position (``positioned``) pages *something*: then the object's only
    array is the items whatever else sits beside it (GitHub's ``{total_seats, seats}``).
    """
    # ``errors``, ``warnings``, ``links``... are arrays about the response, never its items.
    arrays = [
        n
        for n, (s, p) in props.items()
        if walker.is_array(s, p)
        and sig.fold(n) not in sig.META_NAMES
        and not sig.is_meta_array(sig.fold(n))
    ]
    if not arrays and len(props) == 1:  # ``{errors: [...]}`` alone *is* the result
        arrays = [n for n, (s, p) in props.items() if walker.is_array(s, p)]
    if not arrays:
        return None
    named = [n for n in arrays if sig.fold(n) in sig.ITEM_NAMES]
    # A completeness flag beside the only array says the array is a (possibly cut) result set:
    # GitHub's git trees carry ``truncated`` beside ``tree``.
    # So does a total beside it (``{group_name, total_count, group_members}``); a bare ``count``
    # is too often a figure of its own (GitHub's traffic ``{count, uniques, views}``).
    flagged = any(
        sig.SIGNAL_FIELDS.get(sig.fold(n)) in _FLAG_KINDS
        or (sig.SIGNAL_FIELDS.get(sig.fold(n)) == "total" and sig.fold(n) != "count")
        for n in props
    )
    others = [
        n
        for n in props
        if n not in arrays
        and sig.fold(n) not in sig.META_NAMES
        and not sig.is_meta_array(sig.fold(n))
        and sig.fold(n) not in sig.OFFSET_PARAMS | sig.SIZE_PARAMS
    ]
    chosen: str | None = None
    loose = len(others) <= 1 or positioned  # a wrapper, not a resource with one list field
    if len(named) == 1 and not resource_like and (not others if strict_meta else loose):
        chosen = named[0]
    elif len(arrays) == 1 and (not others or positioned or flagged):
        chosen = arrays[0]
    elif len(arrays) == 1 and listy and len(others) == 1 and not resource_like:
        chosen = arrays[0]
    elif len(arrays) == 1 and listy and _named_alike(sig.fold(arrays[0]), noun):
        chosen = arrays[0]  # "Gets a list of brands": GET /brands answers {brands: [...], ...}
    if chosen is None:
        return None
    sub, sptr = props[chosen]
    return pointer_join(base, chosen), walker.array_items(sub, sptr)


def _named_alike(array: str, noun: str) -> bool:
    """The array is named after the path's noun (``envelopeDocuments`` under ``/documents``,
    ``cards`` under ``/skillCards``)."""
    if len(array) < 4 or len(noun) < 4:
        return False
    return array.endswith(noun) or noun.endswith(array)


def _field_names(item: Located | None, walker: SchemaWalker) -> tuple[str, ...]:
    return tuple(n for n in walker.properties(*item) if isinstance(n, str)) if item else ()


def _last_literal(path: str) -> str:
    """The last path segment that is no parameter, less a file suffix (``Messages.json``)."""
    literal = [s for s in path.split("/") if s and "{" not in s]
    return literal[-1].rsplit(".", 1)[0] if literal else ""


def _last_word(path: str) -> str:
    literal = [s for s in path.split("/") if s and "{" not in s]
    words = sig.word_list(literal[-1]) if literal else []
    return words[-1] if words else ""


def _item_facts(
    shape: _Shape, item: Located | None, walker: SchemaWalker, names: list[str]
) -> None:
    shape.item_fields = _field_names(item, walker)
    if item is None:
        return
    props = walker.properties(*item)
    chosen, others = evidence.item_id(props, walker, [sig.word_list(n)[-1] for n in names if n])
    if chosen is not None:
        shape.id, shape.id_alternatives = pointer_join("", chosen), others
        return
    meta = props.get("metadata")
    if meta is not None and "uid" in walker.properties(*meta):  # Kubernetes objects
        shape.id = "/metadata/uid"


def _located_at(schema: Any, ptr: str, rel: str, walker: SchemaWalker) -> Located | None:
    node: Located = (schema, ptr)
    for token in rel.split("/")[1:]:
        props = walker.properties(*node)
        if token not in props:
            return None
        node = walker.deref(*props[token])
    return node


def _check_items(
    shape: _Shape, at: Located, rel: str, walker: SchemaWalker, examples: list[Any]
) -> None:
    """Is the items location an array? An example showing something else settles "no"; a schema
    that only implies it (``items`` with no ``type: array``) and no example showing an array
    leaves a doubt for the draft to ask about."""
    where = rel or "the body"
    if evidence.example_contradicts_array(examples, rel):
        shape.items_contradicted = True
        shape.items_doubt = f"an example shows an object, not an array, at {where}"
        return
    node, _ = walker.deref(*at)
    declared = node.get("type") if isinstance(node, dict) else None
    explicit = declared == "array" or (isinstance(declared, list) and "array" in declared)
    if not explicit and not evidence.example_shows_array(examples, rel):
        shape.items_doubt = (
            f"the schema at {where} has 'items' but no 'type: array' and no example shows an array"
        )


def _token_end(
    schema: Any, ptr: str, token: Signal, walker: SchemaWalker, examples: list[Any]
) -> str | None:
    rel = token.expression.partition("#")[2]
    parts = rel.split("/")[1:]
    container: Located | None = (schema, ptr)
    for name in parts[:-1]:
        props = walker.properties(*container)
        if name not in props:
            return None
        container = walker.deref(*props[name])
    props = walker.properties(*container)
    if parts[-1] not in props:
        return None
    return evidence.cursor_end(container, parts[-1], props[parts[-1]], walker, examples, rel)


def _body_signals(
    props: dict[str, Located],
    walker: SchemaWalker,
    base: str,
    skip: str | None,
    depth: int,
    cursor_keys: set[str] | frozenset[str] = frozenset(),
) -> list[Signal]:
    out: list[Signal] = []
    for name, (sub, sptr) in props.items():
        rel = pointer_join(base, name)
        if rel == skip:
            continue
        key = sig.fold(name)
        kind = sig.SIGNAL_FIELDS.get(key)
        if kind is None and any(key == "next" + c for c in cursor_keys):
            kind = "next_token"  # ``next_stream_position`` for ``stream_position``
        if kind is None and sig.is_next_link_name(key):
            kind = "next_link"  # ``next_page_uri``, ``nextUri``, ``next_page_link``
        if key == sig.AMBIGUOUS_NEXT:
            kind = (
                "next_link"
                if _is_url(sub, sptr, walker) or "link" in base.lower()
                else "next_token"
            )
        elif kind == "next_token" and key.startswith("next") and _is_url(sub, sptr, walker, True):
            kind = "next_link"  # Jira's ``nextPage``: a URI, not a token
        if kind is not None:
            signal = _typed_signal(kind, name, rel, sub, sptr, walker)
            if signal is not None:
                out.append(signal)
                continue
        if depth < 2 and key in sig.CONTAINERS and "object" in walker.types(sub, sptr):
            inner = walker.properties(sub, sptr)
            out.extend(_body_signals(inner, walker, rel, skip, depth + 1, cursor_keys))
    return out


def _typed_signal(
    kind: str, name: str, rel: str, sub: Any, sptr: str, walker: SchemaWalker
) -> Signal | None:
    """A signal when the field's type fits its kind (a ``total`` object reads its ``value``).

    A count whose description says it counts one page ("the number of results in this
    response") or only estimates ("approximate") is no total: an offset walk ending on it would
    stop early and call the result complete."""
    types = walker.types(sub, sptr)
    if kind == "total" and prose.not_a_total(_description(sub, sptr, walker)):
        return None
    if kind in _BOOL_KINDS and types and "boolean" not in types:
        return None
    if kind == "shards":
        failed = walker.properties(sub, sptr).get("failed")
        return Signal(kind, name, _body_expr(rel + "/failed"), failed[1]) if failed else None
    if (
        kind in ("total", "total_pages", "remaining")
        and types
        and not types & {"integer", "number"}
    ):
        value = walker.properties(sub, sptr).get("value")  # Elasticsearch {value, relation}
        if kind == "total" and value is not None:
            return Signal(kind, name, _body_expr(rel + "/value"), value[1])
        return None
    if kind in ("next_token", "next_link") and types and not types & {"string", "integer"}:
        return None
    if kind == "next_link" and types and "string" not in types:
        return None  # a next URL is a string; a number there is a page number, not a link
    return Signal(kind, name, _body_expr(rel), sptr)


def _description(sub: Any, sptr: str, walker: SchemaWalker) -> str | None:
    node, _ = walker.deref(sub, sptr)
    text = node.get("description") if isinstance(node, dict) else None
    return text if isinstance(text, str) else None


def _is_url(sub: Any, sptr: str, walker: SchemaWalker, strict: bool = False) -> bool:
    """A URL by its format, by an example that is one, or by a description that says so
    (Spotify's ``next``: "URL to the next page of items"); ``strict``: format or example only."""
    node, _ = walker.deref(sub, sptr)
    if not isinstance(node, dict):
        return False
    if node.get("format") in ("uri", "url", "uri-reference"):
        return True
    example = node.get("example")
    if isinstance(example, str) and example.startswith(("http://", "https://", "/")):
        return True
    if strict:
        return False
    description = node.get("description")
    return isinstance(description, str) and bool(_URL_WORDS.search(description))


_URL_WORDS = re.compile(r"\b(?:url|uri|link)\b", re.IGNORECASE)


# -- pagination style ---------------------------------------------------------------------------


def _style(roles: dict[str, str], signals: list[Signal]) -> tuple[str, dict[str, str]]:
    kinds = {s.kind for s in signals}
    request = {k: v for k, v in roles.items() if k == "size"}
    if "link_header" in kinds:
        request.update({k: roles[k] for k in ("page",) if k in roles})
        return "link-header", request
    token_walk = "next_token" in kinds and "cursor" in roles  # a token and where to send it
    if not token_walk and any(
        s.kind == "next_link" and s.expression.startswith("$response.body#") for s in signals
    ):
        # Azure nextLink, OData @odata.nextLink, Spotify next: the URL already carries the
        # position ($skiptoken, $skip, page), so following it beats rebuilding it; an OData
        # total (@odata.count) is only sent on request, so an offset walk could not see its end
        return "next-url", request
    fed = "next_token" in kinds or (
        "has_more" in kinds and sig.fold(roles.get("cursor", "")) in sig.ITEM_ID_CURSORS
    )
    if "cursor" in roles and not (not fed and ("offset" in roles or "page" in roles)):
        # a cursor nothing feeds (no next token; not an item id beside a 'more' flag) loses to
        # a numeric offset or page (Box's marker beside offset+total, Mastodon's max_id
        # beside the search's offset)
        request["cursor"] = roles["cursor"]
        return "cursor", request
    if "page_token" in roles and "next_token" in kinds:  # a text page fed from a next token
        request["cursor"] = roles["page_token"]
        return "cursor", request
    if "offset" in roles:
        request["offset"] = roles["offset"]
        return "offset", request
    if "page" in roles:
        request["page"] = roles["page"]
        return "page", request
    if "page_token" in roles or kinds & {"next_link", "next_token", "has_more", "total_pages"}:
        return "unknown", request
    return "none", request
