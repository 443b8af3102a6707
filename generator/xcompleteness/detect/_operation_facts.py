"""What an operation says beyond its body's shape, read from the typed document views: the
operations the scan visits (``$ref`` path items followed), a ``kind: none`` declaration, streams,
the success response (status, body schema, headers, examples) and the texts a cap may sit in."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from xcompleteness.declare import not_a_listing
from xcompleteness.detect import _evidence as evidence
from xcompleteness.detect import _words as sig
from xcompleteness.detect._schema_walk import Located, SchemaWalker
from xcompleteness.detect._shape import Shape
from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import DocumentViews, Operation, Parameter, Response, views

__all__ = [
    "DEFAULT_ONLY",
    "OperationRef",
    "cap_texts",
    "declared_none_reason",
    "document_views",
    "file_exclusion",
    "iter_operations",
    "operation_ids",
    "stream_exclusion",
    "success_response",
]


@dataclass(frozen=True)
class OperationRef:
    """One operation view as the heuristic reads it (``view.parameters`` merged path-level and
    operation-level, ``view.node`` the operation object)."""

    view: Operation

    @property
    def method(self) -> str:
        return self.view.method

    @property
    def path(self) -> str:
        return self.view.path

    @property
    def pointer(self) -> str:
        return self.view.pointer

    @property
    def operation(self) -> Mapping[str, Any]:
        return self.view.node

    @property
    def parameters(self) -> tuple[Parameter, ...]:
        return self.view.parameters


def document_views(document: Any) -> DocumentViews:
    """The typed views of ``document``: a loaded ``SourceDoc``'s own, else parsed from the data."""
    if isinstance(document, DocumentViews):
        return document
    kept = getattr(document, "views", None)
    return kept if isinstance(kept, DocumentViews) else views(document)


def iter_operations(document: Any) -> Iterator[OperationRef]:
    """Every operation of the document's views (:func:`xcompleteness.document.views`: ``$ref``
    path items followed), so the audit visits the operations check does, in the same order."""
    for op in document_views(document).operations:
        yield OperationRef(op)


def operation_ids(document: Any) -> list[str]:
    """One entry per operation: its operationId, or "" when it has none."""
    return [op.operation_id or "" for op in document_views(document).operations]


def declared_none_reason(op: Operation) -> str | None:
    """The recorded reason of ``x-completeness: {kind: none, why: ...}``, else None."""
    decl = op.declaration
    if isinstance(decl, dict) and not_a_listing(decl):
        why = decl.get("why")
        return why if isinstance(why, str) and why.strip() else "(no reason given)"
    return None


def _stream_media(op: Operation) -> str | None:
    """The first streaming media type among the success responses, if any."""
    produces = op.node.get("produces")  # Swagger 2.0
    produced = [n for n in produces if isinstance(n, str)] if isinstance(produces, list) else []
    for response in op.responses:
        if response.status[:1] != "2":
            continue
        for name in [m.name for m in response.content] + produced:
            base, _, params = name.partition(";")
            if base.strip().lower() in sig.STREAM_MEDIA or "stream=" in params.replace(" ", ""):
                return name
    return None


def stream_exclusion(op: Operation, shape: Shape) -> str | None:
    """Why the operation is a stream (excluded), or None.

    Kubernetes marks watches with ``x-kubernetes-action: watch|watchlist``; elsewhere a success
    response whose media types include a stream (``;stream=watch``, ``text/event-stream``...)
    and whose JSON body has no items array is a stream. A list whose media types *also* offer a
    stream (Kubernetes lists take ``?watch=true``) stays a listing.
    """
    action = op.node.get("x-kubernetes-action")
    media = _stream_media(op)
    if isinstance(action, str) and action in sig.STREAM_ACTIONS:
        return (
            f"streaming response (x-kubernetes-action: {action}"
            + (f", {media}" if media else "")
            + "): a watch never ends, so completeness does not apply"
        )
    if media is not None and shape.items is None:
        return f"streaming response ({media}): a stream never ends, so completeness does not apply"
    return None


def file_exclusion(op: Operation, body: Located | None, walker: SchemaWalker) -> str | None:
    """Why the operation answers a file (excluded), or None.

    A success body typed as one string (``{type: string, format: binary}`` under ``text/csv``,
    ``application/zip``, even ``application/json``) or Swagger 2's ``type: file`` is one document:
    an export or a download (Opendatasoft's ``.../exports/csv`` takes ``offset`` and ``limit`` over
    the records it writes into the file). Nothing in it is a JSON array a declaration could point
    ``items`` at, so completeness as the vocabulary states it does not apply; the operation is
    reported as excluded (a reviewer sees it), never drafted. A response that offers JSON beside
    the file is read through its JSON (:func:`success_response` picks JSON first); an operation
    described as a list is not asked here (the scan keeps it, under its listing question)."""
    if body is None:
        return None
    node, at = walker.resolve(*body)
    if not isinstance(node, dict):
        return None
    declared = node.get("type")
    types = {"file"} if declared == "file" else walker.types(node, at)
    if types not in ({"string"}, {"file"}) or walker.properties(node, at):
        return None
    media = ", ".join(m.name for r in op.responses if r.status[:1] == "2" for m in r.content)
    what = f"string ({node['format']})" if isinstance(node.get("format"), str) else "string"
    return (
        f"the success response is a file ({media + ': ' if media else ''}{what}), one document, "
        "not a JSON array of items: completeness does not apply (an export or a download)"
    )


# -- responses ----------------------------------------------------------------------------------


NO_CONTENT = frozenset({"204", "205"})  # RFC 9110 §15.3.5, §15.3.6: no content


# The status :func:`success_response` answers for an operation whose only response that could
# be a success is ``default``.
DEFAULT_ONLY = "default"


def success_response(
    op: Operation, walker: SchemaWalker
) -> tuple[str | None, Located | None, list[tuple[str, str]], list[Any]]:
    """(status, body schema, headers (name, pointer), examples) of the operation's first 2xx
    response with a body.

    A 204 or 205 carries no body by HTTP's own definition, whatever the spec writes beside it:
    it is never the response read, so an operation whose every success is one of them has no
    status here (nothing it answers can be a list)."""
    codes = sorted(
        (r for r in op.responses if r.status[:1] == "2" and r.status not in NO_CONTENT),
        key=lambda r: (r.status != "200", r.status),
    )
    first: tuple[str | None, Located | None, list[tuple[str, str]], list[Any]] = (
        None,
        None,
        [],
        [],
    )
    for resp in codes:
        if not resp.resolved and resp.ref is None:
            continue  # not a response object (the validator reports it)
        headers = [(h, pointer_join(resp.target, "headers", h)) for h in resp.headers]
        schema = _media_schema(resp)
        if schema is not None:
            return resp.status, schema, headers, _examples(resp, schema, walker)
        if first[0] is None:  # no schema: its examples are all that shows the body
            first = (resp.status, None, headers, _media_examples(resp))
    if first[0] is None and not any(r.status[:1] == "2" for r in op.responses):
        return _default_response(op, walker)
    return first


def _default_response(
    op: Operation, walker: SchemaWalker
) -> tuple[str | None, Located | None, list[tuple[str, str]], list[Any]]:
    """What stands for the success response of an operation that declares no 2xx response at
    all, only ``default`` (Reverb's 163 operations answer ``default: Unexpected error`` and
    nothing else): status ``default``, with the default's body when it is not an error's (then
    it is the one body the spec shows), else none. Nothing then shows what a success answers, so
    whatever is found from the path, name or parameters is asked, never settled (the finding's
    listing question: :func:`xcompleteness.detect._listlike._arrayless`)."""
    default = next((r for r in op.responses if r.status.lower() == "default"), None)
    if default is None or (not default.resolved and default.ref is None):
        return None, None, [], []
    headers = [(h, pointer_join(default.target, "headers", h)) for h in default.headers]
    schema = _media_schema(default)
    if schema is None or _error_response(default, schema, walker):
        return DEFAULT_ONLY, None, headers, []
    return DEFAULT_ONLY, schema, headers, _examples(default, schema, walker)


_ERROR_WORDS = frozenset({"error", "errors", "fail", "failed", "failure", "problem", "exception"})
_ERROR_FIELDS = frozenset(
    {"code", "message", "error", "errors", "status", "detail", "details", "title", "type",
     "fields", "reason", "description", "error_code", "error_message", "trace", "request_id",
     "instance"}
)  # fmt: skip


def _error_response(resp: Response, schema: Located, walker: SchemaWalker) -> bool:
    """A default response that reads as an error's: its description says error (``Unexpected
    error``, ``Failed``), its schema's name does (``#/components/schemas/Error``), or every
    property of its object is an error field (``{code, message}``)."""
    description = resp.node.get("description")
    if isinstance(description, str) and set(sig.word_list(description)) & _ERROR_WORDS:
        return True
    raw = schema[0]
    ref = raw.get("$ref") if isinstance(raw, dict) else None
    if isinstance(ref, str) and set(sig.word_list(ref.rsplit("/", 1)[-1])) & _ERROR_WORDS:
        return True
    node, _ = walker.resolve(*schema)
    props = node.get("properties") if isinstance(node, dict) else None
    if isinstance(props, dict) and props:
        return {sig.fold(k) for k in props} <= {sig.fold(k) for k in _ERROR_FIELDS}
    return False


def _media_examples(resp: Response) -> list[Any]:
    """The example bodies the response's media objects (or Swagger 2's ``examples``) show."""
    out: list[Any] = []
    for media in resp.content:
        out.extend(evidence.example_values(media.node))
    if "examples" in resp.node:
        out.extend(evidence.example_values(resp.node["examples"]))
    return out


def _examples(resp: Response, schema: Located, walker: SchemaWalker) -> list[Any]:
    """The response's example bodies: the media object's, else the schema's own ``example``."""
    out = _media_examples(resp)
    if not out:
        node, _ = walker.resolve(*schema)
        out.extend(evidence.example_values(node if isinstance(node, dict) else None))
    return out


def _media_schema(resp: Response) -> Located | None:
    """The body schema: a JSON entry with a schema first (``application/json``, then any JSON:
    Zuora's ``application/json`` holds examples only, its ``; charset=utf-8`` twin the schema),
    then the first media type."""
    if resp.content:
        jsons = sorted(
            (m for m in resp.content if "json" in m.name),
            key=lambda m: (m.schema is None, m.name.split(";")[0].strip() != "application/json"),
        )
        chosen = jsons[0] if jsons else resp.content[0]
        if chosen.schema is None:
            return None
        return chosen.schema.raw, pointer_join(resp.target, "content", chosen.name, "schema")
    if "schema" in resp.node:  # Swagger 2.0 shape, harmless to understand
        return resp.node["schema"], pointer_join(resp.target, "schema")
    return None


def cap_texts(op: Operation, roles: dict[str, str]) -> list[tuple[str, str]]:
    """The descriptions a documented cap may sit in: the operation's, its position parameters'."""
    out = [(k, op.node[k]) for k in ("summary", "description") if isinstance(op.node.get(k), str)]
    positions = {roles[r] for r in ("offset", "page", "cursor", "page_token") if r in roles}
    for p in op.parameters:
        text = p.get("description")
        if p.name in positions and isinstance(text, str):
            out.append((f"parameter {p.name}", text))
    return out
