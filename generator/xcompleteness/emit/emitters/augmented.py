"""``NAME/openapi.augmented.json``: the input spec with the completeness envelopes written in.

Why: docs tools and API testers (schemathesis) should see what a service built on the generated
models really returns. Rules:

- native listings: the success response's JSON schema becomes ``<Op>Page`` (items typed by the
  spec's own item schema, plus the §4 envelope fields); declared cursor errors get 400/410 bodies;
- adapter listings: the API is not ours, so its responses stay untouched; the envelope the client
  computes is added to ``components`` and named by the operation's ``x-completeness-envelope``;
- resources: the success schema gains ``omitted_fields`` (via ``allOf``, the spec's own component
  is never edited in place); mutations with evidence gain the 409 ``EVIDENCE_REJECTED`` body.

Added component names are unique against the spec's own (``Xc`` prefix for shared shapes). JSON
is written with sorted keys, so the file is byte-identical between runs (by orjson when it writes
exactly what ``json.dumps`` would, :mod:`xcompleteness.emit._json`). Only the parts it edits are
copied from the input. OpenAPI 3.0 documents get
``nullable: true``, 3.1 documents ``type: [T, "null"]``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from xcompleteness.document import deref_mapping, pointer_tokens
from xcompleteness.emit._json import dumps_indented
from xcompleteness.emit._render import Renderer
from xcompleteness.ir import NameRegistry, OperationIR, SpecIR

__all__ = ["CURSOR_ERRORS", "REF", "augment", "emit"]

REF = "#/components/schemas/"
CURSOR_ERRORS = {"400": "CURSOR_INVALID", "410": "CURSOR_EXPIRED"}


class _Schemas:
    """Builds wire schemas and registers them as uniquely named components."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.v31 = str(doc.get("openapi", "3.0")).startswith("3.1")
        self.components: dict[str, Any] = doc.setdefault("components", {}).setdefault("schemas", {})
        self.names = NameRegistry("components/schemas")
        self.names.reserve(*self.components)
        self.by_key: dict[str, str] = {}

    def nullable(self, schema: dict[str, Any]) -> dict[str, Any]:
        if ("$ref" in schema or "type" not in schema) and self.v31:
            return {"anyOf": [schema, {"type": "null"}]}
        if "$ref" in schema:
            return {"allOf": [schema], "nullable": True}
        if "type" not in schema:
            return {**schema, "nullable": True}
        if self.v31:
            return {**schema, "type": [schema["type"], "null"]}
        return {**schema, "nullable": True}

    def add(self, key: str, wanted: str, schema: dict[str, Any]) -> dict[str, str]:
        if key not in self.by_key:
            name = self.names.claim(wanted, origin=key, style="pascal")
            self.by_key[key] = name
            self.components[name] = schema
        return {"$ref": REF + self.by_key[key]}

    def portable(self, schema: Any) -> Any:
        """A 2020-12 details schema in the spec's dialect (``type: [T, null]`` for 3.0)."""
        if isinstance(schema, Mapping):
            out = {k: self.portable(v) for k, v in schema.items() if k != "const"}
            if "const" in schema:
                out["enum"] = [schema["const"]]
            t = schema.get("type")
            if isinstance(t, list) and not self.v31:
                rest = [x for x in t if x != "null"]
                out["type"] = rest[0] if len(rest) == 1 else "string"
                if "null" in t:
                    out["nullable"] = True
            return out
        if isinstance(schema, list):
            return [self.portable(v) for v in schema]
        return schema

    def obj(self, required: list[str], props: dict[str, Any]) -> dict[str, Any]:
        fixed = {k: (v if k in required else self.nullable(v)) for k, v in props.items()}
        out: dict[str, Any] = {"type": "object", "properties": fixed}
        if required:
            out["required"] = required
        return out

    def code(self, kind: str, code: Any) -> dict[str, str]:
        details = self.portable(copy.deepcopy(dict(code.details)))
        props: dict[str, Any] = {
            "code": {"type": "string", "enum": [code.code]},
            "message": {"type": "string"},
        }
        if kind == "reason":
            props["origin"] = {"type": "string", "enum": ["server", "client"]}
        props.update(details.get("properties") or {})
        required = ["code", *[r for r in details.get("required") or [] if r in props]]
        return self.add(f"{kind}:{code.code}", "Xc" + code.class_name, self.obj(required, props))

    def union(self, kind: str, codes: tuple[Any, ...]) -> dict[str, Any]:
        refs = [self.code(kind, c) for c in codes]
        if not refs:  # an operation that declares no code of this kind: the array stays empty
            return {"type": "object", "properties": {"code": {"type": "string"}}}
        mapping = {c.code: r["$ref"] for c, r in zip(codes, refs, strict=True)}
        return {"oneOf": refs, "discriminator": {"propertyName": "code", "mapping": mapping}}

    def shared(self) -> dict[str, dict[str, str]]:
        s = {"type": "string"}
        i = {"type": "integer", "minimum": 0}
        return {
            "scope": self.add(
                "scope",
                "XcScope",
                self.obj(
                    ["resource"], {"resource": s, "visibility": s, "snapshot": s, "covers": s}
                ),
            ),
            "page": self.add(
                "page",
                "XcPage",
                self.obj([], {"returned": i, "requested_size": i, "ordering": s}),
            ),
            "work": self.add(
                "work",
                "XcWork",
                self.obj([], {"sources_planned": i, "sources_completed": i, "elapsed_ms": i}),
            ),
            "error": self.add(
                "error",
                "XcError",
                self.obj(
                    ["error"],
                    {
                        "error": self.obj(
                            ["code", "message"], {"code": s, "message": s, "reason": s}
                        )
                    },
                ),
            ),
        }

    def envelope(self, op: OperationIR, item_schema: Any) -> dict[str, str]:
        shared = self.shared()
        reasons = {"type": "array", "items": self.union("reason", op.reasons)}
        warnings = {"type": "array", "items": self.union("warning", op.warnings)}
        # every array keeps its items (other tools, Prism and openapi-python-client among them,
        # reject or drop an array without one); an undeclared kind of code is an empty array
        if not op.reasons:
            reasons["maxItems"] = 0
        if not op.warnings:
            warnings["maxItems"] = 0
        props = {
            "items": {"type": "array", "items": item_schema if item_schema is not None else {}},
            "complete": {"type": "boolean"},
            "incomplete_reasons": reasons,
            "warnings": warnings,
            "next_cursor": {"type": "string"},
            "scope": shared["scope"],
            "page": shared["page"],
            "work": shared["work"],
            "evidence": {"type": "string"},
        }
        schema = self.obj(["items", "complete", "incomplete_reasons"], props)
        return self.add(f"page:{op.operation_id}", op.envelope_model or "Page", schema)


def _json_media(doc: Any, response: dict[str, Any]) -> dict[str, Any]:
    content = response.setdefault("content", {})
    for media in sorted(content):
        if "json" in media:
            return content[media]
    return content.setdefault("application/json", {})


def _item_schema(doc: Any, op: OperationIR, schema: Any) -> Any:
    pointer = op.contract.items_body_pointer
    node = deref_mapping(doc, schema)
    for token in pointer_tokens(pointer) or ():
        props = node.get("properties", {})
        if token not in props:
            return node.get("items") if node.get("type") == "array" else None
        node = deref_mapping(doc, props[token])
    return node.get("items") if node.get("type") == "array" else None


def _declares(doc: Any, schema: Any, pointer: str) -> bool:
    """True when ``schema`` (or one of its ``allOf`` parts) has the property at ``pointer``."""
    node = deref_mapping(doc, schema)
    token = (pointer_tokens("/" + pointer.strip("/")) or ("",))[0]
    if token in (node.get("properties") or {}):
        return True
    return any(_declares(doc, part, pointer) for part in node.get("allOf") or [])


def _error(schemas: _Schemas, op_obj: dict[str, Any], status: str, code: str) -> None:
    responses = op_obj.setdefault("responses", {})
    existing = responses.get(status)
    if isinstance(existing, dict) and "$ref" in existing:
        existing = copy.deepcopy(dict(deref_mapping(schemas.doc, existing)))
        responses[status] = existing
    if isinstance(existing, dict) and existing:
        response = existing
    else:
        response = {"description": f"{code}: see the x-completeness error body"}
        responses[status] = response
    _json_media(schemas.doc, response)["schema"] = schemas.shared()["error"]


def _copy_for_edit(document: Mapping[str, Any], operations: Any) -> dict[str, Any]:
    """A copy of ``document`` that :func:`augment` may edit, sharing what it never touches.

    augment writes only into the generated operations (their objects are deep-copied), the
    ``paths`` map and their path items (copied one level), and ``components``/``schemas``
    (copied one level, new components added there). Everything else is the input's own
    objects, read only: no multi-megabyte deep copy of a large spec.
    """
    doc = dict(document)
    if isinstance(doc.get("components"), dict):  # _Schemas adds "schemas" and components
        components = doc["components"] = dict(doc["components"])
        if isinstance(components.get("schemas"), dict):
            components["schemas"] = dict(components["schemas"])
    if operations:
        paths = doc["paths"] = dict(doc["paths"])
        copied: set[str] = set()
        for op in operations:
            if op.path not in copied:
                paths[op.path] = dict(paths[op.path])
                copied.add(op.path)
            paths[op.path][op.method] = copy.deepcopy(paths[op.path][op.method])
    return doc


def augment(spec: SpecIR) -> dict[str, Any]:
    doc: dict[str, Any] = _copy_for_edit(spec.document, spec.operations)
    schemas = _Schemas(doc)
    omissions = sorted(spec.registry.field_omissions)
    for op in spec.operations:
        op_obj = doc["paths"][op.path][op.method]
        status = op.success_status
        response = None
        if status is not None:
            raw = op_obj["responses"].get(status)
            if isinstance(raw, dict) and "$ref" in raw:
                raw = copy.deepcopy(dict(deref_mapping(doc, raw)))
                op_obj["responses"][status] = raw
            response = raw
        if op.is_listing:
            media = _json_media(doc, response) if response is not None else {}
            envelope = schemas.envelope(op, _item_schema(doc, op, media.get("schema")))
            if op.mode == "native" and response is not None:
                media["schema"] = envelope
                pagination = op.contract.pagination
                cursor = pagination.cursor if pagination else None
                if pagination is not None and pagination.request.cursor:
                    _error(schemas, op_obj, "400", CURSOR_ERRORS["400"])
                    if cursor is not None and cursor.on_expiry == "error":
                        _error(schemas, op_obj, "410", CURSOR_ERRORS["410"])
            else:
                op_obj["x-completeness-envelope"] = envelope
        elif op.kind == "resource" and response is not None:
            media = _json_media(doc, response)
            omitted = {
                "type": "object",
                "additionalProperties": {"type": "string", "enum": omissions},
            }
            extra = {"type": "object", "properties": {"omitted_fields": omitted}}
            base = media.get("schema")
            pointer = str(op.contract.omitted_fields or "").partition("#")[2]
            if base and pointer and _declares(doc, base, pointer):
                continue  # the spec already describes its omission map
            wanted = op.envelope_model or "Result"
            media["schema"] = schemas.add(
                f"result:{op.operation_id}", wanted, {"allOf": [base, extra]} if base else extra
            )
        elif op.is_mutation and op.contract.mutation and op.contract.mutation.token:
            _error(schemas, op_obj, "409", "EVIDENCE_REJECTED")
    return doc


def emit(spec: SpecIR, renderer: Renderer) -> dict[PurePosixPath, str]:
    text = dumps_indented(augment(spec), end="\n")
    return {PurePosixPath("openapi.augmented.json"): text}
