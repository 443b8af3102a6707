"""Typed views of an OpenAPI document: operations, parameters, bodies, responses, media types.

The document is parsed once into frozen views (:func:`views`), each carrying the JSON pointer it
was read from, so a stage asks ``operation.request_body.json_schema()`` instead of walking dicts
and following ``$ref``s on its own. Every ``$ref`` on the way (path item parameters, parameters,
request bodies, responses, headers, schemas) is followed through the one resolver
(:func:`xcompleteness.document.deref`); a reference that does not resolve leaves its view empty
(``None`` schema, no content) rather than raising, since the rules read documents that have not
passed validation.

Schemas stay JSON Schema data: a :class:`SchemaRef` names where a schema was written, where its
``$ref`` chain led and the resolved node; the walkers over schemas read that node.

What most readers never look at is read on first use and kept: the media types of a response,
request body or parameter (``content``: Microsoft Graph's 11,422 operations each list two shared
error responses no check of a listing reads), a parameter's or media type's ``schema``, and
where a schema's ``$ref`` chain leads (``SchemaRef.schema``: the XC100 scan reads the schema as
written). Reading them later gives exactly what reading them at once gave: the document is not
changed under its views.

Views are built without judgement: a parameter without a text ``name`` and ``in`` or a
non-mapping media type is skipped (the OpenAPI validator reports it); a response whose ``$ref``
does not resolve is kept, empty, with ``resolved=False`` (it still occupies its status). Mapping
fields keep the document's order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from xcompleteness.diagnostics import pointer_join
from xcompleteness.document._operations import HTTP_METHODS, iter_path_items
from xcompleteness.document._refs import deref_at, is_mapping, ref_component, ref_pointer

__all__ = [
    "DECLARATION_KEY",
    "DEFAULTS_KEY",
    "DocumentViews",
    "MediaType",
    "Operation",
    "Parameter",
    "RequestBody",
    "Response",
    "SchemaRef",
    "views",
]

DECLARATION_KEY = "x-completeness"
"""The operation-level extension key (docs/vocabulary.md): the one copy in the generator."""
DEFAULTS_KEY = "x-completeness-defaults"
"""The document-root block merged into every listing declaration: the one copy."""

_V = TypeVar("_V")


def _made(cls: type[_V], **fields: Any) -> _V:
    """``cls(**fields)`` for a frozen view class given every one of its fields, without the
    frozen ``__init__``'s ``object.__setattr__`` per field (a third of the time building
    Microsoft Graph's 100,000 views took). Views have no ``__post_init__``; a test keeps each
    made view equal to the one ``__init__`` makes from its fields."""
    made = object.__new__(cls)
    object.__setattr__(made, "__dict__", fields)
    return made


class _Refs:
    """One document's local ``$ref`` chains, each followed once while its views are built.

    Microsoft Graph's 11,422 operations name the same few thousand ``$ref``s (shared
    parameters, two shared error responses per operation) about 60,000 times; each is followed
    once here (:func:`deref_at`, the one follower) and its answer kept, keyed by the ``$ref``
    text: a node holding a text ``$ref`` leads where that text leads whatever else it holds, so
    the answer is the follower's own. Valid while the document is not changed under its views
    (the module doc).
    """

    __slots__ = ("_chains", "data", "parameters", "responses")

    def __init__(self, data: Any) -> None:
        self.data = data
        self._chains: dict[str, tuple[Any, str] | None] = {}
        self.parameters: dict[str, Any] = {}
        """``$ref`` text -> what a parameter written as that reference reads (``_named``)."""
        self.responses: dict[str, Any] = {}
        """``$ref`` text -> what a response written as that reference reads (``_read_response``,
        whose answer for a text ``$ref`` depends on nothing else of the node or its place)."""

    def at(self, node: Any, pointer: str) -> tuple[Any, str] | None:
        """``deref_at(data, node, pointer)``."""
        if type(node) is dict:
            ref = node.get("$ref")
            if ref is None and "$ref" not in node:
                return node, pointer  # an inline node: nothing to follow
            if type(ref) is str:
                chains = self._chains
                if ref in chains:
                    return chains[ref]
                located = chains[ref] = deref_at(self.data, node, pointer)
                return located
        return deref_at(self.data, node, pointer)

    def node(self, node: Any) -> Any:
        """``deref(data, node)``."""
        if type(node) is dict and "$ref" not in node:
            return node
        located = self.at(node, "")
        return None if located is None else located[0]


def _refs_of(view: Any) -> _Refs:
    refs = view.refs
    return refs if refs is not None else _Refs(view.data)


_JSON_MEDIA = re.compile(r"^application/(?:[\w.+-]*\+)?json(?:;.*)?$|^\*/\*$", re.IGNORECASE)


@dataclass(frozen=True)
class SchemaRef:
    """A schema as written at ``pointer`` and what it resolves to.

    ``ref`` is the ``$ref`` text when the node is a reference; ``schema`` the node at the end of
    the chain (the node itself without a reference), ``None`` when the chain is external,
    dangling or a cycle, followed on first use. ``raw`` is the node as written.
    """

    pointer: str
    raw: Any
    ref: str | None
    refs: _Refs | None = field(default=None, repr=False, compare=False, kw_only=True)
    """The document's ``$ref`` chains (where ``raw`` resolves), shared by its views."""

    @cached_property
    def schema(self) -> Any:
        """The node at the end of ``raw``'s ``$ref`` chain, read on first use (the XC100 scan
        reads ``raw`` of most response schemas and never this)."""
        refs = self.refs
        return refs.node(self.raw) if refs is not None else _Refs(None).node(self.raw)

    @property
    def resolved(self) -> bool:
        return self.schema is not None

    @property
    def component(self) -> str | None:
        """The ``components/schemas`` name the first ``$ref`` names (decoded), or None."""
        return ref_component(self.ref) if self.ref is not None else None

    @property
    def target(self) -> str | None:
        """The JSON pointer the first ``$ref`` names (decoded), else where the schema is written."""
        return ref_pointer(self.ref) if self.ref is not None else self.pointer


@dataclass(frozen=True)
class MediaType:
    """One ``content`` entry: its media type name, its schema (if any, read on first use) and
    the object itself (``node``: its ``example`` and ``examples``)."""

    name: str
    pointer: str
    node: Mapping[str, Any] = field(default_factory=dict)
    refs: _Refs | None = field(default=None, repr=False, compare=False, kw_only=True)
    """The document's ``$ref`` chains, shared by its views."""

    @cached_property
    def schema(self) -> SchemaRef | None:
        """The :class:`SchemaRef` of ``node["schema"]``, None without one."""
        refs = self.refs
        return _schema(refs if refs is not None else _Refs(None), self.node, self.pointer)

    @property
    def is_json(self) -> bool:
        """``application/json``, ``application/*+json`` (parameters allowed) or ``*/*``."""
        return bool(_JSON_MEDIA.match(self.name))


def _content(refs: _Refs, node: Mapping[str, Any], pointer: str) -> tuple[MediaType, ...]:
    content = node.get("content")
    if not is_mapping(content):
        return ()
    out = []
    for name, entry in content.items():
        if not is_mapping(entry):
            continue
        where = pointer_join(pointer, "content", name)
        out.append(_made(MediaType, name=str(name), pointer=where, node=entry, refs=refs))
    return tuple(out)


def _schema(refs: _Refs, holder: Mapping[str, Any], pointer: str) -> SchemaRef | None:
    """The :class:`SchemaRef` of ``holder["schema"]``, None when there is no ``schema`` key."""
    if "schema" not in holder:
        return None
    raw = holder["schema"]
    ref = raw.get("$ref") if is_mapping(raw) else None
    return _made(
        SchemaRef,
        pointer=pointer + "/schema",
        raw=raw,
        ref=ref if isinstance(ref, str) else None,
        refs=refs,
    )


def _preferred_json(content: tuple[MediaType, ...]) -> MediaType | None:
    """An entry with a ``schema`` first (Zuora writes ``application/json`` with examples only
    and the schema under ``application/json; charset=utf-8``), then ``application/json``, then
    any name containing ``json`` (sorted by name)."""
    candidates = [m for m in content if "json" in m.name]
    candidates.sort(key=lambda m: ("schema" not in m.node, m.name != "application/json", m.name))
    return candidates[0] if candidates else None


@dataclass(frozen=True)
class _Bodied:
    """A view with media types: ``content`` is read from ``node`` (written at ``pointer``) on
    first use."""

    data: Any = field(default=None, repr=False, compare=False, kw_only=True)
    """The document the view was read from (where ``$ref``s resolve)."""
    refs: _Refs | None = field(default=None, repr=False, compare=False, kw_only=True)
    """Its ``$ref`` chains as followed so far (shared by the views of one document)."""

    @cached_property
    def content(self) -> tuple[MediaType, ...]:
        return _content(_refs_of(self), self.node, self.pointer)  # type: ignore[attr-defined]

    def media(self, name: str) -> MediaType | None:
        return next((m for m in self.content if m.name == name), None)

    def json_media(self) -> tuple[MediaType, ...]:
        """The JSON entries (:attr:`MediaType.is_json`), in document order."""
        return tuple(m for m in self.content if m.is_json)

    def json_schema(self) -> SchemaRef | None:
        """The schema of the preferred JSON entry (``application/json`` first), as written."""
        preferred = _preferred_json(self.content)
        return preferred.schema if preferred is not None else None


@dataclass(frozen=True)
class Parameter(_Bodied):
    """One parameter (path-level or operation-level), its ``$ref`` followed.

    ``pointer`` is where it is listed (``.../parameters/0``); ``node`` the resolved object.
    """

    name: str
    location: str
    pointer: str
    node: Mapping[str, Any]

    @cached_property
    def schema(self) -> SchemaRef | None:
        """The parameter's ``schema`` (None without one), read on first use."""
        return _schema(_refs_of(self), self.node, self.pointer)

    @property
    def required(self) -> bool:
        return bool(self.node.get("required")) or self.location == "path"

    def get(self, key: str, default: Any = None) -> Any:
        """A field of the parameter object as written (``style``, ``explode``, ``description``)."""
        return self.node.get(key, default)


@dataclass(frozen=True)
class RequestBody(_Bodied):
    pointer: str
    node: Mapping[str, Any]

    @property
    def required(self) -> bool:
        return bool(self.node.get("required"))


@dataclass(frozen=True)
class Response(_Bodied):
    """One response, its ``$ref`` followed; ``status`` is the key as text (``200``, ``2XX``)."""

    status: str
    pointer: str
    node: Mapping[str, Any]
    headers: tuple[str, ...]
    resolved: bool = True
    """False when the response is a ``$ref`` that does not resolve (then ``node`` is empty)."""
    ref: str | None = None
    """The ``$ref`` text when the response is written as a reference."""
    target: str = ""
    """The JSON pointer of ``node``: where the ``$ref`` chain led, else ``pointer``."""

    @property
    def success(self) -> bool:
        return self.status.startswith("2") or self.status.upper() == "2XX"


@dataclass(frozen=True)
class Operation:
    """One operation under ``paths`` with everything a stage reads of it.

    ``parameters`` merges the path item's with the operation's (the operation's win on the same
    ``(in, name)``), in the order first seen. ``declaration`` is the raw ``x-completeness`` value
    (None when absent). ``parameters``, ``request_body`` and ``responses`` are read on first use
    (check reads none of them for most of Microsoft Graph's 5,598 non-GET operations).
    """

    path: str
    method: str
    pointer: str
    node: Mapping[str, Any]
    path_item: Mapping[str, Any]
    operation_id: str | None
    declaration: Any = field(default=None)
    refs: _Refs | None = field(default=None, repr=False, compare=False, kw_only=True)
    """The document's ``$ref`` chains, shared by its views."""

    @cached_property
    def parameters(self) -> tuple[Parameter, ...]:
        item_ptr = self.pointer[: -len(self.method) - 1]  # the pointer is ITEM + "/" + method
        return _parameters(self._refs(), self.path_item, self.node, item_ptr, self.pointer)

    @cached_property
    def request_body(self) -> RequestBody | None:
        return _request_body(self._refs(), self.node, self.pointer)

    @cached_property
    def responses(self) -> tuple[Response, ...]:
        return _responses(self._refs(), self.node, self.pointer)

    def _refs(self) -> _Refs:
        refs = self.refs
        return refs if refs is not None else _Refs(None)

    @property
    def declared(self) -> bool:
        """The operation carries an ``x-completeness`` key (perhaps an invalid one)."""
        return DECLARATION_KEY in self.node

    @property
    def declaration_pointer(self) -> str:
        return pointer_join(self.pointer, DECLARATION_KEY)

    @property
    def summary(self) -> str:
        return str(self.node.get("summary") or "")

    @property
    def description(self) -> str:
        return str(self.node.get("description") or "")

    def parameter(self, location: str, name: str) -> Parameter | None:
        return next((p for p in self.parameters if p.location == location and p.name == name), None)

    def success_responses(self) -> tuple[Response, ...]:
        return tuple(r for r in self.responses if r.success)

    def first_success(self) -> Response | None:
        """The 2xx response with the smallest status text (``200`` before ``201``)."""
        found = sorted((r for r in self.responses if r.status.startswith("2")), key=_status)
        return found[0] if found else None

    def response_schemas(self, *, success_only: bool) -> tuple[SchemaRef, ...]:
        """Schemas of the JSON bodies of the responses (2xx only when ``success_only``)."""
        return tuple(
            m.schema
            for r in self.responses
            if r.success or not success_only
            for m in r.json_media()
            if m.schema is not None
        )

    def response_headers(self, *, success_only: bool) -> frozenset[str]:
        """Lower-cased names of the headers the responses declare."""
        return frozenset(
            h.lower() for r in self.responses if r.success or not success_only for h in r.headers
        )

    def request_schemas(self) -> tuple[SchemaRef, ...]:
        """Schemas of the JSON entries of the request body."""
        body = self.request_body
        if body is None:
            return ()
        return tuple(m.schema for m in body.json_media() if m.schema is not None)


def _status(response: Response) -> str:
    return response.status


def _token(part: str) -> str:
    """One RFC 6901 reference token (:func:`pointer_join`'s escaping)."""
    if "~" in part or "/" in part:
        return part.replace("~", "~0").replace("/", "~1")
    return part


def _named(refs: _Refs, raw: Any) -> tuple[Mapping[str, Any], str, str] | None:
    """The parameter ``raw`` (as listed) stands for, with its ``name`` and ``in``; None when it
    is skipped (not a mapping, or no text ``name`` and ``in``)."""
    node = refs.node(raw)
    if not is_mapping(node):
        return None
    name, location = node.get("name"), node.get("in")
    if not isinstance(name, str) or not isinstance(location, str):
        return None
    return node, name, location


def _parameters(
    refs: _Refs, path_item: Mapping[str, Any], op: Mapping[str, Any], item_ptr: str, op_ptr: str
) -> tuple[Parameter, ...]:
    merged: dict[tuple[str, str], Parameter] = {}
    data = refs.data
    shared = refs.parameters
    for source, where in ((path_item, item_ptr), (op, op_ptr)):
        raws = source.get("parameters")
        if not isinstance(raws, list):
            continue
        listed = where + "/parameters/"
        for index, raw in enumerate(raws):
            ref = raw.get("$ref") if type(raw) is dict else None
            if type(ref) is str:  # what a $ref'd parameter stands for is its text's (_Refs)
                if ref in shared:
                    named = shared[ref]
                else:
                    named = shared[ref] = _named(refs, raw)
            else:
                named = _named(refs, raw)
            if named is None:
                continue
            node, name, location = named
            merged[(location, name)] = _made(
                Parameter,
                name=name,
                location=location,
                pointer=listed + str(index),
                node=node,
                data=data,
                refs=refs,
            )
    return tuple(merged.values())


def _read_response(refs: _Refs, raw: Any, pointer: str) -> tuple[Any, ...]:
    """``(node, target, resolved, headers, ref)`` of the response ``raw`` written at ``pointer``;
    ``target`` is None when the chain does not resolve (then it is ``pointer``)."""
    located = refs.at(raw, pointer)
    node, target = located if located is not None else (None, None)
    resolved = is_mapping(node)
    headers = node.get("headers") if resolved else None
    ref = raw.get("$ref") if is_mapping(raw) else None
    return (
        node if resolved else None,
        target,
        resolved,
        tuple(str(h) for h in headers) if is_mapping(headers) else (),
        ref if isinstance(ref, str) else None,
    )


def _responses(refs: _Refs, op: Mapping[str, Any], op_ptr: str) -> tuple[Response, ...]:
    raws = op.get("responses")
    if not is_mapping(raws):
        return ()
    out = []
    listed = op_ptr + "/responses/"
    data = refs.data
    shared = refs.responses
    for status, raw in raws.items():
        pointer = listed + _token(status if type(status) is str else str(status))
        ref = raw.get("$ref") if type(raw) is dict else None
        if type(ref) is str:  # what a $ref'd response reads is its text's (_Refs)
            if ref in shared:
                read = shared[ref]
            else:
                read = shared[ref] = _read_response(refs, raw, pointer)
        else:
            read = _read_response(refs, raw, pointer)
        node, target, resolved, headers, ref = read
        out.append(
            _made(
                Response,
                data=data,
                refs=refs,
                status=str(status),
                pointer=pointer,
                node=node if resolved else {},
                headers=headers,
                resolved=resolved,
                ref=ref,
                target=pointer if target is None else target,
            )
        )
    return tuple(out)


def _request_body(refs: _Refs, op: Mapping[str, Any], op_ptr: str) -> RequestBody | None:
    node = refs.node(op.get("requestBody"))
    if not is_mapping(node):
        return None
    pointer = op_ptr + "/requestBody"
    return _made(RequestBody, pointer=pointer, node=node, data=refs.data, refs=refs)


def _operation(
    refs: _Refs,
    path: str,
    method: str,
    op: Mapping[str, Any],
    path_item: Mapping[str, Any],
    item_ptr: str,
) -> Operation:
    op_ptr = item_ptr + "/" + method
    op_id = op.get("operationId")
    return _made(
        Operation,
        path=path,
        method=method,
        pointer=op_ptr,
        node=op,
        path_item=path_item,
        operation_id=op_id if isinstance(op_id, str) else None,
        declaration=op.get(DECLARATION_KEY),
        refs=refs,
    )


@dataclass(frozen=True)
class DocumentViews:
    """Every operation of one document, in the order of :func:`iter_operations` (``$ref`` path
    items followed)."""

    data: Any
    operations: tuple[Operation, ...]
    by_id: Mapping[str, Operation]

    def operation(self, operation_id: str) -> Operation | None:
        """The first operation with this ``operationId`` (later duplicates are XC102's)."""
        return self.by_id.get(operation_id)

    def at(self, path: str, method: str) -> Operation | None:
        """The first operation at ``path`` and ``method`` (an index built on first use: the IR
        asks once per generated operation)."""
        return self._by_place.get((path, method.lower()))

    @cached_property
    def _by_place(self) -> Mapping[tuple[str, str], Operation]:
        places: dict[tuple[str, str], Operation] = {}
        for op in self.operations:
            places.setdefault((op.path, op.method), op)
        return places

    @property
    def openapi(self) -> str:
        version = self.data.get("openapi") if isinstance(self.data, Mapping) else None
        return str(version or "")

    @property
    def info(self) -> Mapping[str, Any]:
        info = self.data.get("info") if isinstance(self.data, Mapping) else None
        return info if is_mapping(info) else {}

    @property
    def schemas(self) -> Mapping[str, Any]:
        """``components/schemas`` (empty when absent or not a mapping)."""
        components = self.data.get("components") if isinstance(self.data, Mapping) else None
        schemas = components.get("schemas") if is_mapping(components) else None
        return schemas if is_mapping(schemas) else {}


def views(document: Any) -> DocumentViews:
    """Parse ``document`` (a loaded ``SourceDoc`` or its data) into :class:`DocumentViews`.

    A ``SourceDoc`` keeps the views it was parsed into (``SourceDoc.views``); call this only on
    plain data.
    """
    data = getattr(document, "data", document)
    refs = _Refs(data)
    operations = tuple(
        _operation(refs, path, method, item[method], item, item_ptr)
        for path, item, item_ptr in iter_path_items(data)
        for method in HTTP_METHODS
        if isinstance(item.get(method), dict)
    )
    by_id: dict[str, Operation] = {}
    for op in operations:
        if op.operation_id is not None:
            by_id.setdefault(op.operation_id, op)
    return DocumentViews(data=data, operations=operations, by_id=by_id)
