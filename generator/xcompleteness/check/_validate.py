"""OpenAPI 3.0/3.1 structural validation with openapi-spec-validator's verdicts, as diagnostics.

Every validator error becomes an ``XC030`` diagnostic whose pointer is built from the error's
path into the document (errors raised by the library's own keyword checks carry no path and
point at the document root). The validator resolves only local files. If the library itself
fails (it should not, after the loader's ``$ref`` checks) the failure is reported as ``XC031``
instead of a traceback.

The verdict is the stock validator's, reached the cheapest way that keeps it:

1. the plain case (every ``$ref`` a local pointer, the document structurally valid) is decided
   by the keyword walk over the parsed ``dict`` (:mod:`xcompleteness.check._osv_walk`), whose
   structural check, schema meta-checks and plain default values need no import of the
   validator stack (:mod:`xcompleteness.check._lean`); what they cannot decide is asked of the
   stock code, imported then;
2. anything else runs the stock walk through jsonschema-path (:mod:`xcompleteness.check._osv_stock`)
   with verdict-keeping speed-ups (set-based visit registries, meta-checks asked of jsonschema-rs
   first, child lookups without a slow Protocol check).

``speedup=False`` runs the stock validator alone; tests compare the two on every fixture.
This module imports nothing of the validator stack.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any

from xcompleteness.diagnostics import Diagnostic, Severity, pointer_join
from xcompleteness.load import SourceDoc

__all__ = [
    "INVALID_OPENAPI",
    "MAX_ERRORS",
    "VALIDATOR_FAILED",
    "capped",
    "request_body_schemas",
    "validate_openapi",
]

INVALID_OPENAPI = "XC030"
VALIDATOR_FAILED = "XC031"
MAX_ERRORS = 200
"""More validator errors than this are summarised in one extra diagnostic."""


def validate_openapi(doc: SourceDoc, *, speedup: bool = True) -> list[Diagnostic]:
    """Validate ``doc.data`` as OpenAPI 3.0 or 3.1 (chosen by its ``openapi`` field).

    The ``regex`` format check compiles the spec's patterns, and ``re`` remarks on some of them
    with a FutureWarning (``[[a]``: "Possible nested set"), printed on stderr under the name of
    whichever file compiled it. That is a remark on the spec's text, not on our code or the
    user's, and it changes no verdict: one guard here silences exactly those remarks for the
    stock and the lean checks alike.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Possible (nested )?set", category=FutureWarning)
        return _validate(doc, speedup)


def _validate(doc: SourceDoc, speedup: bool) -> list[Diagnostic]:
    version = str(doc.data.get("openapi", ""))[:3]
    if version not in ("3.0", "3.1"):  # the loader admits only 3.0 and 3.1; be safe anyway
        return [
            doc.diag(
                "/openapi",
                INVALID_OPENAPI,
                f"unsupported OpenAPI version {version!r}",
                severity=Severity.ERROR,
            )
        ]
    from xcompleteness.check._self_applied import self_applied

    cycles = self_applied(doc, version)
    if cycles:  # no validator can finish such a schema (it recursed, or a Rust map panicked)
        return cycles + request_body_schemas(doc, version)
    if speedup:
        from xcompleteness.check._osv_walk import Undecided, walk_errors

        def stock() -> Any:
            from xcompleteness.check._osv_stock import stock_validator

            return stock_validator(doc, version)

        try:  # the keyword walk over the plain dict; the stock walk where it declines
            found = walk_errors(doc.data, version, stock, doc.refs, doc.unplain)
        except Undecided:
            pass
        else:
            out: list[Diagnostic] = []
            _collect(doc, found, out)
            return out + request_body_schemas(doc, version)
    from xcompleteness.check._osv_stock import run_stock

    return run_stock(doc, version, _collect, speedup=speedup) + request_body_schemas(doc, version)


def request_body_schemas(doc: SourceDoc, version: str) -> list[Diagnostic]:
    """``XC030`` for each request body schema of an OpenAPI 3.1 operation that is not a valid
    schema of the OpenAPI 3.1 dialect (``required: 5``, ``properties: 5``, ``type: foo``).

    The stock validator meta-checks the schemas of components, parameters and responses, but
    its walk of an operation never reads ``requestBody``; in 3.0 the document's own meta-schema
    checks them, in 3.1 it takes any object there. The generator reads these schemas (a
    mutation's fields, the body of a body-paged listing, tool input schemas), so they are
    checked here with the meta-check the validator gives a response schema (a schema a ``$ref``
    names is checked and reported where it is written) against the OAS 3.1 dialect,
    jsonschema-rs first when it says yes, the stock checker for the error.
    """
    if version != "3.1":
        return []
    from xcompleteness.document import deref_at, operation_nodes

    data, out, seen = doc.data, [], set()
    for operation, op_pointer in operation_nodes(doc):
        located = deref_at(data, operation.get("requestBody"), op_pointer + "/requestBody")
        body, at = located if located is not None else (None, "")
        content = body.get("content") if isinstance(body, dict) else None
        for mime, media in content.items() if isinstance(content, dict) else ():
            media_at = deref_at(data, media, pointer_join(at, "content", mime))
            if media_at is None or not isinstance(media_at[0], dict):
                continue
            schema_at = deref_at(
                data, media_at[0].get("schema"), pointer_join(media_at[1], "schema")
            )
            if schema_at is None:
                continue  # a dangling or cyclic $ref: reported as such
            schema, where = schema_at
            if type(schema) is not dict or id(schema) in seen or where.startswith(_COMPONENTS):
                continue  # a boolean schema is valid; the validator meta-checks components
            seen.add(id(schema))
            error = _schema_error(schema)
            if error is not None:
                path, message = error
                out.append(
                    doc.diag(
                        pointer_join(where, *path),
                        INVALID_OPENAPI,
                        capped(message),
                        hint="a request body schema must be a JSON Schema of the OpenAPI 3.1 "
                        "dialect (openapi-spec-validator does not check these; the generator "
                        "reads them)",
                        severity=Severity.ERROR,
                    )
                )
    return out


_COMPONENTS = "/components/schemas/"


def _schema_error(schema: dict[str, Any]) -> tuple[tuple[Any, ...], str] | None:
    """Where and why ``schema`` fails the OAS 3.1 dialect's meta-schema; None when it passes."""
    from xcompleteness.check._lean import fast_meta_valid
    from xcompleteness.check._osv_speedup import compiled_meta_check

    if "$schema" not in schema and fast_meta_valid(compiled_meta_check("3.1"), schema):
        return None
    from jsonschema.exceptions import SchemaError
    from openapi_schema_validator import OAS31Validator

    try:
        OAS31Validator.check_schema(schema)
    except SchemaError as err:
        return tuple(err.path), str(err.message)
    except Exception as exc:  # noqa: BLE001 - a schema the checker cannot read is not valid
        return (), f"the schema cannot be checked: {type(exc).__name__}"
    return None


def _collect(doc: SourceDoc, errors: Iterable[Any], out: list[Diagnostic]) -> None:
    """Append one diagnostic per distinct error to ``out`` (kept if the validator dies later)."""
    seen: set[tuple[str, str]] = set()
    extra = 0
    for err in errors:
        pointer = _written_at(doc.data, pointer_join("", *getattr(err, "absolute_path", ())))
        message = _message(err)
        if (pointer, message) in seen:
            continue
        seen.add((pointer, message))
        if len(seen) > MAX_ERRORS:
            extra += 1
            continue
        pointer, hint = _default_error(doc, pointer, message) or (pointer, GENERIC_HINT)
        out.append(doc.diag(pointer, INVALID_OPENAPI, message, hint=hint, severity=Severity.ERROR))
    if extra:
        out.append(
            doc.diag(
                "", INVALID_OPENAPI, f"... and {extra} more OpenAPI errors", severity=Severity.ERROR
            )
        )


def _written_at(data: Any, pointer: str) -> str:
    """Where the node the validator names is written: its path runs through ``$ref``s (Zuora's
    ``/paths/~1v1~1action~1amend/post/parameters/3/schema`` is a parameter ``$ref``), which
    points at nothing in the file; this is the pointer inside the referenced component
    (``/components/parameters/GLOBAL_HEADER_X_Zuora_WSDL_Version/schema``), where the line is
    and where an overlay can fix it. ``pointer`` itself when no ``$ref`` is on the way or the
    path cannot be followed."""
    from xcompleteness.document import deref_at, pointer_tokens, resolve_pointer

    if resolve_pointer(data, pointer)[0]:
        return pointer
    tokens = pointer_tokens(pointer)
    node, at = data, ""
    for token in tokens or ():
        located = deref_at(data, node, at)
        if located is None:
            return pointer
        node, at = located
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return pointer
        at = pointer_join(at, token)
    return at


GENERIC_HINT = "see the OpenAPI specification for this object"
DEFAULT_HINT = (
    "the schema's own default does not validate against the schema: fix the default or the "
    "schema. In a spec you do not edit, an overlay does it: target {default} with remove: true"
)
NULL_DEFAULT_HINT = (
    "the schema's default is null (None) but the schema does not take null: fix the default or "
    "the schema. In a spec you do not edit, an overlay does it: target {schema} with "
    "update: {{nullable: true}} (OpenAPI 3.0; in 3.1 add 'null' to its type), or target "
    "{default} with remove: true"
)


def _default_error(doc: SourceDoc, pointer: str, message: str) -> tuple[str, str] | None:
    """(pointer at ``default``, a hint that says so) when the error at ``pointer`` is the
    validator's check of the schema's own ``default`` value (``None for not nullable``, ``'x'
    is not of type 'array'``), which the validator reports at the schema itself; else None.

    The validator's messages start with the checked value's ``repr``: a default's error does
    and a meta-schema error of the schema does not (its pointer names the keyword)."""
    from xcompleteness.document import overlay_target, resolve_pointer

    found, node = resolve_pointer(doc.data, pointer)
    if not found or not isinstance(node, dict) or "default" not in node:
        return None
    try:
        shown = repr(node["default"])
    except Exception:  # noqa: BLE001 - a value without a repr is no default error we can name
        return None
    if not message.startswith(shown[:HEAD] + (" " if len(shown) <= HEAD else "")):
        return None
    at = pointer_join(pointer, "default")
    targets = {"schema": overlay_target(pointer, doc.data), "default": overlay_target(at, doc.data)}
    hint = NULL_DEFAULT_HINT if node["default"] is None else DEFAULT_HINT
    return at, hint.format(**targets)


def _message(err: Any) -> str:
    return capped(str(getattr(err, "message", err)))


HEAD = 200
"""How much of a long message's start :func:`capped` keeps (the rest of the room is its end)."""


def capped(message: str, limit: int = 300) -> str:
    """jsonschema and the validator quote whole instances; keep diagnostics readable. The
    verdict comes after the quoted instance (``[...] has non-unique elements``, ``... is not of
    type 'array'``), so a long message keeps its start and its end and elides the middle."""
    if len(message) <= limit:
        return message
    tail = limit - HEAD - 5
    return message[:HEAD] + " ... " + message[-tail:]
