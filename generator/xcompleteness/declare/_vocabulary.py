"""Structural validation of ``x-completeness`` declarations, and the code registry.

Every operation-level ``x-completeness`` object and the document-level ``x-completeness-registry``
are checked against the JSON Schemas in ``spec_ext/`` (Draft 2020-12). Each schema error becomes
one :class:`Diagnostic` with a stable code (XC040-XC058), the JSON pointer of the offending node
(for an unknown key, the key itself), the source line where the loader knows it, and a hint. The
schemas carry an ``x-diagnostic`` annotation where a keyword alone would give a vague code, so the
mapping from error to code lives in the data, not in a ladder of special cases here.

Codes (docs/vocabulary.md lists them for users; ``CODES`` below is checked against it):

======  ==========================================================================================
XC040   a value has the wrong JSON type
XC041   unknown key in a closed object (``x-`` keys are always allowed)
XC042   a required key is missing
XC043   a value is not one of the allowed values
XC044   a malformed reason or warning code
XC045   a malformed runtime expression, JSON pointer or ``when`` condition
XC046   a malformed ISO 8601 duration
XC047   a key that does not fit the declaration's ``kind``
XC048   a destructive mutation without ``evidence`` or ``recheck``
XC049   a pagination key that does not fit the pagination ``style``
XC050   a ``when`` condition outside adapter mode
XC051   (warning) ``x-completeness`` in a place where it has no effect
XC052   a number, list or string out of its allowed range
XC053   declared details do not match the code's typed details
XC054   a custom registry code redefines a standard code
XC055   a custom code's ``details`` is not a valid JSON Schema
XC056   a ``review-by`` that is not a calendar date
XC057   a declaration or registry nested too deeply to validate
XC058   an adapter-only signal (``response.last``, ``pagination.end``, a size cap on style none) in
        native mode
======  ==========================================================================================

Whether a code is standard or registered, whether locations exist in the response schema and the
other cross-checks are semantic rules (``rules.py``, ``XC1xx``); they run on the canonical contract.

Reuse: an overlay edit changes one declaration and validates all of them again. Inside
:func:`declaration_store` (``generate``'s cache folder: :mod:`xcompleteness.emit._value_cache`)
the SHA-256 of every effective declaration that had **no** schema and no details error is kept,
together with the details schemas of the reason codes it gives (one entry per schema and code:
the key covers every file of ``spec_ext/``, this module's source, the versions of jsonschema,
the libraries it resolves with and the optional ones its format checks use, and Python's
version), and such a declaration is not checked again. Sound because both checks are pure
functions of the instance, those details schemas and the key's inputs, and the digest is of
them as canonical JSON (``sort_keys``: key order cannot make an instance valid or invalid;
``1``, ``1.0`` and ``true`` stay distinct). Only "no error at all" is kept, so no diagnostic text
is ever reused; deadlines, placement, the defaults block and the registry are checked every
time. jsonschema itself is imported only when something is checked.

A second core: inside :func:`declaration_checker` (``generate`` with a core idle, a child forked
before the spec is loaded, which imports jsonschema meanwhile), the declarations the store does
not know are asked of that child first, all at once. It runs the very schema and details checks
below and answers, per declaration, only whether they found nothing; such a declaration is clean
as if checked here, and any other (or any failure of the child) is checked here, so every
diagnostic is made in this process and the result never depends on whether the child ran.
"""

from __future__ import annotations

import datetime as _dt
import difflib
import hashlib
import json
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from xcompleteness.declare._defaults import document_defaults, effective_declaration
from xcompleteness.diagnostics import Diagnostic, Severity, pointer_join
from xcompleteness.document import (
    DECLARATION_KEY,
    DEFAULTS_KEY,
    iter_path_items,
    operation_nodes,
)
from xcompleteness.resources import load_json, spec_ext_dir
from xcompleteness.reuse import StoreSlot, ValueStore, file_sha256, keep, library_versions, recall
from xcompleteness.runtime.contract import CodeEntry, Registry

if TYPE_CHECKING:
    import jsonschema
    from jsonschema.exceptions import ValidationError

__all__ = [
    "CODES",
    "CODES_FILE",
    "DECLARATION_SCHEMA",
    "MAX_DEPTH",
    "REGISTRY_KEY",
    "REGISTRY_SCHEMA",
    "declaration_checker",
    "found_nothing",
    "line_for",
    "load_registry",
    "prepare_checks",
    "standard_registry",
    "validate_declarations",
]

REGISTRY_KEY = "x-completeness-registry"
DECLARATION_SCHEMA = "x-completeness.schema.json"
REGISTRY_SCHEMA = "x-completeness-registry.schema.json"
CODES_FILE = "codes.json"
MAX_DEPTH = 80
"""Declarations nesting deeper than this are refused before JSON Schema validation, which
recurses per level; real declarations stay below 10 and conditions below 2 * 32 + 4."""
MAX_CODES = 256
"""At most this many reasons or warnings in one list (also ``maxItems`` in the schema): a
longer list is reported once and not validated item by item, so the check stays linear."""

CODES: dict[str, str] = {
    "XC040": "a value has the wrong JSON type",
    "XC041": "unknown key in a closed object",
    "XC042": "a required key is missing",
    "XC043": "a value is not one of the allowed values",
    "XC044": "a malformed reason or warning code",
    "XC045": "a malformed runtime expression, JSON pointer or when condition",
    "XC046": "a malformed ISO 8601 duration",
    "XC047": "a key that does not fit the declaration's kind",
    "XC048": "a destructive mutation without evidence or recheck",
    "XC049": "a pagination key that does not fit the pagination style",
    "XC050": "a when condition outside adapter mode",
    "XC051": "x-completeness in a place where it has no effect",
    "XC052": "a number, list or string out of its allowed range",
    "XC053": "declared details do not match the code's typed details",
    "XC054": "a custom registry code redefines a standard code",
    "XC055": "a custom code's details is not a valid JSON Schema",
    "XC056": "a review-by that is not a calendar date",
    "XC057": "a declaration or registry nested too deeply to validate",
    "XC058": (
        "an adapter-only signal (response.last, pagination.end, request.size on style none) "
        "in native mode"
    ),
}
"""Every diagnostic code this module emits, with its one-line meaning."""

_KEYWORD_CODES: dict[str, tuple[str, str]] = {
    "type": ("XC040", "check the value's type against docs/vocabulary.md"),
    "additionalProperties": ("XC041", "remove the key, fix its spelling, or prefix it with x-"),
    "propertyNames": ("XC041", "use one of the documented keys"),
    "required": ("XC042", "add the missing key"),
    "enum": ("XC043", "use one of the allowed values"),
    "const": ("XC043", "use the allowed value"),
    "pattern": ("XC045", "see docs/vocabulary.md for the expected form"),
    "format": ("XC043", "see docs/vocabulary.md for the expected form"),
}
_RANGE_KEYWORDS = {
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
    "uniqueItems",
}
_REASON_KEYS = frozenset({"code", "when", "continuation"})


class _SourceLike(Protocol):
    """What this module reads of ``load.SourceDoc`` (duck-typed so either stage can land first)."""

    data: Any
    lines: Mapping[str, int]
    origin: str


# ---------------------------------------------------------------------------------------------
# The registry


@cache
def standard_registry() -> Registry:
    """The standard codes of DESIGN.md section 3.4, read from ``spec_ext/codes.json``."""
    data = load_json(CODES_FILE)
    reasons = {
        code: CodeEntry(
            code=code,
            description=entry["description"],
            details=entry["details"],
            continuation=entry["continuation"],
            origin=entry["origin"],
        )
        for code, entry in data["reasons"].items()
    }
    warnings = {
        code: CodeEntry(
            code=code,
            description=entry["description"],
            details=entry["details"],
            origin=entry.get("origin", "server"),
        )
        for code, entry in data["warnings"].items()
    }
    return Registry(
        reasons=reasons,
        warnings=warnings,
        field_omissions=tuple(data["field_omissions"]),
        continuations=tuple(data["continuations"]),
    )


def load_registry(document: Any) -> Registry:
    """Standard codes plus the document's custom codes (``x-completeness-registry``).

    ``document`` is the parsed OpenAPI document (or anything with a ``.data`` holding it).
    Malformed custom entries are skipped here (``validate_declarations`` reports them); a custom
    code never replaces a standard one.
    """
    data = getattr(document, "data", document)
    std = standard_registry()
    raw = data.get(REGISTRY_KEY) if isinstance(data, Mapping) else None
    if not isinstance(raw, Mapping):
        return std
    reasons = dict(std.reasons)
    warnings = dict(std.warnings)
    for section, target, is_reason in (("reasons", reasons, True), ("warnings", warnings, False)):
        entries = raw.get(section)
        if not isinstance(entries, Mapping):
            continue
        for code, entry in entries.items():
            if not isinstance(code, str) or code in target or not isinstance(entry, Mapping):
                continue
            description = entry.get("description")
            if not isinstance(description, str):
                continue
            target[code] = CodeEntry(
                code=code,
                description=description,
                details=_plain(_details_schema(entry.get("details"))),
                continuation=_str_or(entry.get("continuation"), "none") if is_reason else None,
                origin=_str_or(entry.get("origin"), "server") if is_reason else "server",
                standard=False,
                owner=entry.get("owner") if isinstance(entry.get("owner"), str) else None,
                review_by=_as_date(entry.get("review-by")),
            )
    return replace(std, reasons=reasons, warnings=warnings)


def _details_schema(value: Any) -> Mapping[str, Any]:
    if isinstance(value, Mapping) and not _too_deep(value) and _schema_is_valid(value):
        return value
    return {"type": "object"}


def _str_or(value: Any, default: str) -> str:
    return value if isinstance(value, str) else default


def _as_date(value: Any) -> _dt.date | None:
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    if isinstance(value, str):
        try:
            return _dt.date.fromisoformat(value)
        except ValueError:
            return None
    return None


# ---------------------------------------------------------------------------------------------
# Validation


_SLOT: StoreSlot[ValueStore] = StoreSlot("xc_declaration_store")
declaration_store = _SLOT.using
"""``with declaration_store(store):`` lets :func:`validate_declarations` skip the schema check of
declarations it found clean before (module doc)."""
MAX_CLEAN = 20_000
"""How many clean-declaration digests one entry keeps (the newest)."""


class DeclarationChecker(Protocol):
    """Answers, for each ``(instance, declaration, pointer, codes)``, whether the schema and
    details checks find nothing (:func:`found_nothing`, in another process); None: no answer."""

    def clean(self, items: list[tuple[Any, Any, str, dict[str, Any]]]) -> list[bool] | None: ...


_CHECKER: StoreSlot[DeclarationChecker] = StoreSlot("xc_declaration_checker")
declaration_checker = _CHECKER.using
"""``with declaration_checker(checker):`` lets :func:`validate_declarations` ask ``checker``
about the declarations the store does not know (module doc)."""
_LIBRARIES = (
    "jsonschema",
    "jsonschema-specifications",
    "referencing",
    "rpds-py",
    "fqdn",
    "idna",
    "isoduration",
    "jsonpointer",
    "rfc3339-validator",
    "rfc3986-validator",
    "rfc3987",
    "uri-template",
    "webcolors",
)
"""jsonschema, what it resolves with, and every optional library its format checks use."""


def _jsonschema() -> Any:
    """jsonschema, imported when a schema is first checked: a run whose declarations are all
    known clean (and that has no defaults block or registry) never loads it."""
    import jsonschema
    import jsonschema.validators

    return jsonschema


@cache
def _clean_key() -> str:
    # the format checkers jsonschema has are those of the optional libraries installed: their
    # versions ("-" when absent) are in the key
    h = hashlib.sha256(f"xc-declarations 2\npython {sys.version}\n".encode())
    h.update(library_versions(_LIBRARIES))
    h.update(file_sha256(Path(__file__)))
    folder = spec_ext_dir()
    for path in sorted(folder.glob("*.json")):
        h.update(path.name.encode() + b"\0" + file_sha256(path))
    return h.hexdigest()


class _Clean:
    """Digests of the declarations known to pass the schema, read once and saved when grown."""

    def __init__(self) -> None:
        self.store = _SLOT.current()
        self.key = _clean_key() if self.store is not None else None
        value = recall(self.store, self.key)
        known = value.get("clean") if isinstance(value, dict) else None
        ok = isinstance(known, list) and all(isinstance(d, str) and len(d) == 64 for d in known)
        self.digests: dict[str, None] = dict.fromkeys(known) if ok else {}  # type: ignore[arg-type]
        self.grown = False

    def digest(self, instance: Any, details: Any) -> str | None:
        """The digest of a declaration and the details schemas of the codes it gives."""
        if self.store is None:
            return None
        try:
            text = json.dumps(
                [instance, details],
                sort_keys=True,
                ensure_ascii=True,
                separators=(",", ":"),
                allow_nan=False,
            )
        except (TypeError, ValueError, RecursionError):
            return None
        return hashlib.sha256(text.encode("ascii")).hexdigest()

    def add(self, digest: str) -> None:
        self.digests[digest] = None
        self.grown = True

    def save(self) -> None:
        if self.grown:
            keep(self.store, self.key, {"clean": list(self.digests)[-MAX_CLEAN:]})


def validate_declarations(doc: _SourceLike) -> list[Diagnostic]:
    """Validate every ``x-completeness`` and the ``x-completeness-registry`` of ``doc``."""
    data = doc.data
    if not isinstance(data, Mapping):
        return []
    out: list[Diagnostic] = []
    registry = load_registry(data)
    decl_validator: jsonschema.Draft202012Validator | None = None
    clean = _Clean()
    defaults = _defaults_block(doc, out)
    unknown: list[tuple[list[Diagnostic], Any, Any, str, str | None]] = []
    for operation, op_pointer in operation_nodes(doc):
        if DECLARATION_KEY not in operation:
            continue
        pointer = pointer_join(op_pointer, DECLARATION_KEY)
        decl = operation[DECLARATION_KEY]
        if _too_deep(decl):
            out.append(_depth_diag(doc, pointer))
            continue
        over = _over_count(doc, decl, pointer)
        if over is not None:
            out.append(over)
            continue
        decl = effective_declaration(decl, defaults)  # what check and generate will read
        instance = _plain(decl)
        digest = clean.digest(instance, _details_schemas(decl, registry))
        if digest not in clean.digests:
            found: list[Diagnostic] = []  # filled below, in this place of ``out``
            unknown.append((found, instance, decl, pointer, digest))
            out.append(found)  # type: ignore[arg-type]
        out.extend(_deadline_diagnostics(doc, decl, pointer))
    answers = _asked(unknown, registry)
    for (found, instance, decl, pointer, digest), nothing in zip(unknown, answers, strict=True):
        if not nothing:
            if decl_validator is None:
                decl_validator = _validator(DECLARATION_SCHEMA)
            found.extend(_schema_diagnostics(doc, decl_validator, instance, pointer))
            found.extend(_details_diagnostics(doc, decl, pointer, registry))
        if digest is not None and not found:
            clean.add(digest)
    out = [d for item in out for d in (item if isinstance(item, list) else (item,))]
    out.extend(_misplaced(doc))
    if REGISTRY_KEY in data:
        if _too_deep(data[REGISTRY_KEY]):
            out.append(_depth_diag(doc, pointer_join("", REGISTRY_KEY)))
        else:
            out.extend(_registry_diagnostics(doc, data[REGISTRY_KEY]))
    clean.save()
    return out


def _asked(
    unknown: list[tuple[list[Diagnostic], Any, Any, str, str | None]], registry: Registry
) -> list[bool]:
    """Per unknown declaration, True when a :func:`declaration_checker` says its checks find
    nothing; False where it says otherwise or gives no answer (checked here then)."""
    checker = _CHECKER.current()
    if checker is None or not unknown:
        return [False] * len(unknown)
    items = []
    for _found, instance, decl, pointer, _digest in unknown:
        codes = {}
        reasons = decl.get("reasons") if isinstance(decl, Mapping) else None
        for reason in reasons if isinstance(reasons, list) else ():  # else the schema says so
            code = reason.get("code") if isinstance(reason, Mapping) else None
            if isinstance(code, str) and code not in codes:
                codes[code] = registry.reason(code)
        items.append((instance, decl, pointer, codes))
    try:
        answer = checker.clean(items)
    except Exception:  # noqa: BLE001 - no answer: every declaration is checked here
        answer = None
    if not isinstance(answer, list) or len(answer) != len(unknown):
        return [False] * len(unknown)
    return [a is True for a in answer]


class _Detached:
    """A document stand-in for checks whose findings are only counted (no file, no lines)."""

    data: Any = None
    lines: Mapping[str, int] = {}  # noqa: RUF012 - read only
    origin = ""


class _Codes:
    """The registry as the details check reads it: the entries of the codes it asks about."""

    def __init__(self, codes: Mapping[str, Any]) -> None:
        self._codes = codes

    def reason(self, code: str) -> Any:
        return self._codes.get(code)


def prepare_checks() -> None:
    """Import jsonschema and build the declaration schema's validator (a checker's first step)."""
    _validator(DECLARATION_SCHEMA)


def found_nothing(items: list[tuple[Any, Any, str, Mapping[str, Any]]]) -> list[bool]:
    """For each ``(instance, declaration, pointer, codes)``: the schema and details checks of
    :func:`validate_declarations` find nothing (the same functions; the codes are the registry
    entries of the reason codes it gives). A :class:`DeclarationChecker`'s job."""
    validator = _validator(DECLARATION_SCHEMA)
    detached = _Detached()
    out = []
    for instance, decl, pointer, codes in items:
        found = next(iter(_schema_diagnostics(detached, validator, instance, pointer)), None)
        if found is None:
            registry: Any = _Codes(codes)
            found = next(iter(_details_diagnostics(detached, decl, pointer, registry)), None)
        out.append(found is None)
    return out


def defaults_diagnostics(doc: _SourceLike) -> list[Diagnostic]:
    """What ``check`` reports of ``x-completeness-defaults`` alone (``[]``: valid or absent).

    audit asks it before reading the block's answers: an invalid block answers nothing."""
    out: list[Diagnostic] = []
    if isinstance(doc.data, Mapping):
        _defaults_block(doc, out)
    return out


def _defaults_block(doc: _SourceLike, out: list[Diagnostic]) -> Mapping[str, Any] | None:
    """Validate ``x-completeness-defaults`` into ``out``; return the block to merge (or None)."""
    if DEFAULTS_KEY not in doc.data:
        return None
    raw = doc.data[DEFAULTS_KEY]
    pointer = pointer_join("", DEFAULTS_KEY)
    if raw is None:
        out.append(
            _diag(
                doc,
                pointer,
                "XC040",
                "x-completeness-defaults is null; it must be a mapping",
                "remove the key, or give it the defaults to merge",
            )
        )
        return None
    if _too_deep(raw):
        out.append(_depth_diag(doc, pointer))
        return None
    over = _over_count(doc, raw, pointer)
    if over is not None:
        out.append(over)
        return None
    out.extend(_schema_diagnostics(doc, _defaults_validator(), _plain(raw), pointer))
    # Merged even when invalid (best effort, like normalize): leaving it out would report every
    # listing that relies on it as well; check builds no contract until the block is fixed.
    return document_defaults(doc.data)


@cache
def _defaults_validator() -> jsonschema.Draft202012Validator:
    """The ``documentDefaults`` definition of the declaration schema, as a root schema."""
    schema = load_json(DECLARATION_SCHEMA)
    root = {"$ref": "#/$defs/documentDefaults", "$defs": schema["$defs"]}
    return _linear()(root, format_checker=_jsonschema().Draft202012Validator.FORMAT_CHECKER)


def _too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests deeper than ``limit`` (iterative: deep input must not recurse)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(node, Mapping):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, (list, tuple)):
            stack.extend((v, depth + 1) for v in node)
    return False


def _depth_diag(doc: _SourceLike, pointer: str) -> Diagnostic:
    return _diag(
        doc,
        pointer,
        "XC057",
        f"nested deeper than {MAX_DEPTH} levels; not validated",
        "flatten the declaration: conditions nest at most 32 levels (runtime/expressions.py)",
    )


def _registry_diagnostics(doc: _SourceLike, raw: Any) -> Iterator[Diagnostic]:
    pointer = pointer_join("", REGISTRY_KEY)
    yield from _schema_diagnostics(doc, _validator(REGISTRY_SCHEMA), _plain(raw), pointer)
    if not isinstance(raw, Mapping):
        return
    std = standard_registry()
    for section in ("reasons", "warnings"):
        entries = raw.get(section)
        if not isinstance(entries, Mapping):
            continue
        for code, entry in entries.items():
            at = pointer_join(pointer, section, code)
            if code in std.reasons or code in std.warnings:
                yield _diag(
                    doc,
                    at,
                    "XC054",
                    f"{code} is a standard code; a registry may not redefine it",
                    "use the standard code as it is, or register a differently named code",
                )
            details = entry.get("details") if isinstance(entry, Mapping) else None
            if isinstance(details, Mapping) and not _schema_is_valid(details):
                yield _diag(
                    doc,
                    pointer_join(at, "details"),
                    "XC055",
                    f"the details of {code} are not a valid JSON Schema (2020-12)",
                    "write details as a JSON Schema, e.g. {type: object, properties: {...}}",
                )


def _misplaced(doc: _SourceLike) -> Iterator[Diagnostic]:
    """``x-completeness`` on the document or on a path item is ignored: say so, once each."""
    data = doc.data
    hint = "move the declaration into the operation (e.g. paths./items.get.x-completeness)"
    if DECLARATION_KEY in data:
        yield _diag(
            doc,
            pointer_join("", DECLARATION_KEY),
            "XC051",
            "x-completeness at the document root has no effect",
            hint,
            Severity.WARNING,
        )
    for _path, item, item_pointer in iter_path_items(data):
        if DECLARATION_KEY in item:
            yield _diag(
                doc,
                pointer_join(item_pointer, DECLARATION_KEY),
                "XC051",
                "x-completeness on a path item has no effect; it belongs to an operation",
                hint,
                Severity.WARNING,
            )


def _details_schemas(decl: Any, registry: Registry) -> list[Any]:
    """The details schema of each reason code ``decl`` gives (what the details check reads
    beside the declaration), in order."""
    reasons = decl.get("reasons") if isinstance(decl, Mapping) else None
    out: list[Any] = []
    for reason in reasons if isinstance(reasons, list) else ():
        code = reason.get("code") if isinstance(reason, Mapping) else None
        info = registry.reason(code) if isinstance(code, str) else None
        out.append(None if info is None else _plain(info.details))
    return out


def _details_diagnostics(
    doc: _SourceLike, decl: Any, pointer: str, registry: Registry
) -> Iterator[Diagnostic]:
    """Static details written beside a reason code must fit that code's typed details.

    Declarations give only the details known at design time (``limit: 1000``), so the
    ``required`` list of the details schema is not enforced here; unknown keys and wrong types are.
    Unknown codes are left to the rules (they report them once, with the registry in mind).
    """
    if not isinstance(decl, Mapping) or not isinstance(decl.get("reasons"), list):
        return
    for index, reason in enumerate(decl["reasons"]):
        if not isinstance(reason, Mapping) or not isinstance(reason.get("code"), str):
            continue
        info = registry.reason(reason["code"])
        if info is None:
            continue
        details = {
            k: _plain(v)
            for k, v in reason.items()
            if k not in _REASON_KEYS and not str(k).startswith("x-")
        }
        schema = {k: v for k, v in info.details.items() if k != "required"}
        at = pointer_join(pointer, "reasons", index)
        validator = _jsonschema().Draft202012Validator(schema)
        for error in sorted(validator.iter_errors(details), key=lambda e: list(e.path)):
            if error.validator == "additionalProperties":
                for key in _extra_keys(error):
                    close = difflib.get_close_matches(
                        key, list(info.details.get("properties", {})), n=1
                    )
                    yield _diag(
                        doc,
                        pointer_join(at, key),
                        "XC053",
                        f"{reason['code']} has no detail {key!r}",
                        f"did you mean {close[0]!r}?" if close else _known_details_hint(info),
                    )
                continue
            yield _diag(
                doc,
                pointer_join(at, *error.absolute_path),
                "XC053",
                f"detail of {reason['code']}: {error.message}",
                _known_details_hint(info),
            )


def _deadline_diagnostics(doc: _SourceLike, decl: Any, pointer: str) -> Iterator[Diagnostic]:
    """A default time budget above the declared maximum is refused (the schema cannot say it)."""
    deadline = decl.get("deadline") if isinstance(decl, Mapping) else None
    if not isinstance(deadline, Mapping):
        return
    default, maximum = deadline.get("default"), deadline.get("max")
    numbers = all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in (default, maximum)
    )
    if numbers and default > maximum:
        yield _diag(
            doc,
            pointer_join(pointer, "deadline", "default"),
            "XC052",
            f"the default budget {default} is above the maximum {maximum}",
            "lower default or raise max",
        )


def _known_details_hint(info: CodeEntry) -> str:
    props = info.details.get("properties")
    names = sorted(props) if isinstance(props, Mapping) else []
    if not names:
        return f"{info.code} carries no details; write it as a bare code"
    return f"{info.code} details are: {', '.join(names)}"


def _schema_diagnostics(
    doc: _SourceLike, validator: jsonschema.Draft202012Validator, instance: Any, base: str
) -> Iterator[Diagnostic]:
    errors = sorted(
        validator.iter_errors(instance), key=lambda e: ([str(p) for p in e.path], e.validator)
    )
    seen: set[tuple[str, str, str]] = set()
    for error in errors:
        for diag in _to_diagnostics(doc, error, base):
            key = (diag.pointer, diag.code, diag.message)
            if key not in seen:  # if/then branches can report the same finding twice
                seen.add(key)
                yield diag


def _to_diagnostics(doc: _SourceLike, error: ValidationError, base: str) -> Iterator[Diagnostic]:
    at = pointer_join(base, *error.absolute_path)
    if "propertyNames" in error.absolute_schema_path and isinstance(error.instance, str):
        at = pointer_join(at, error.instance)  # point at the offending key, not its object
    annotation = error.schema.get("x-diagnostic") if isinstance(error.schema, Mapping) else None
    keyword = str(error.validator)
    if error.validator == "additionalProperties" and annotation is None:
        for key in _extra_keys(error):
            yield _diag(
                doc,
                pointer_join(at, key),
                "XC041",
                f"unknown key {key!r}",
                _closest_hint(key, error),
            )
        return
    if error.validator == "required" and annotation is None:
        missing = _missing_key(error)
        yield _diag(
            doc,
            at,
            "XC042",
            f"missing required key {missing!r}" if missing else error.message,
            f"add {missing}" if missing else "add the missing key",
        )
        return
    if annotation is not None:
        code = annotation["code"]
        message = annotation.get("message") or _message(error, annotation.get("what"))
        hint = annotation.get("hint", "")
    elif keyword in _RANGE_KEYWORDS:
        code, message, hint = "XC052", _message(error), "see docs/vocabulary.md for the limits"
    else:
        code, hint = _KEYWORD_CODES.get(keyword, ("XC040", "see docs/vocabulary.md"))
        message = _message(error)
    yield _diag(doc, at, code, message, hint)


def _message(error: ValidationError, what: str | None = None) -> str:
    """jsonschema's message, shortened; ``what`` names the expected form of a string."""
    if what and error.validator in ("pattern", "format", "anyOf"):
        return f"{_short(error.instance)} is not {what}"
    if error.validator in ("enum", "const"):
        allowed = error.validator_value
        options = allowed if isinstance(allowed, list) else [allowed]
        return f"{_short(error.instance)} is not allowed here; allowed: " + ", ".join(
            str(o) for o in options
        )
    if error.validator == "not":
        return "this key is not allowed here"
    if error.validator == "pattern":
        return f"{_short(error.instance)} is not of the expected form"
    return error.message if len(error.message) <= 200 else error.message[:197] + "..."


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _extra_keys(error: ValidationError) -> list[str]:
    instance = error.instance if isinstance(error.instance, Mapping) else {}
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    known = set(schema.get("properties", {}))
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    return sorted(
        str(k) for k in instance if k not in known and not any(p.search(str(k)) for p in patterns)
    )


def _missing_key(error: ValidationError) -> str | None:
    match = re.match(r"^'([^']*)' is a required property$", error.message)
    return match.group(1) if match else None


def _closest_hint(key: str, error: ValidationError) -> str:
    known = sorted(error.schema.get("properties", {})) if isinstance(error.schema, Mapping) else []
    close = difflib.get_close_matches(key, known, n=1)
    if close:
        return f"did you mean {close[0]!r}? (user extensions start with x-)"
    hint = "known keys: " + ", ".join(known) + " (user extensions start with x-)"
    if " " in key.strip():
        # prose as a key: the tail of a value a comma cut off inside a YAML {flow mapping}
        hint = (
            "a key of several words is usually the rest of a value: inside {...} a comma ends "
            'the value, so quote a value that holds one (visibility: "a, b"); ' + hint
        )
    return hint


def _diag(
    doc: _SourceLike,
    pointer: str,
    code: str,
    message: str,
    hint: str,
    severity: Severity = Severity.ERROR,
) -> Diagnostic:
    return Diagnostic(
        file=doc.origin,
        pointer=pointer,
        code=code,
        severity=severity,
        message=message,
        hint=hint,
        line=line_for(doc.lines, pointer),
    )


def line_for(lines: Mapping[str, int], pointer: str) -> int | None:
    """The line of ``pointer``, or of its nearest ancestor the loader knows."""
    current = pointer
    while True:
        line = lines.get(current)
        if line is not None:
            return line
        if not current:
            return None
        current = current.rsplit("/", 1)[0]


@cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    schema = load_json(name)
    return _linear()(schema, format_checker=_jsonschema().Draft202012Validator.FORMAT_CHECKER)


def _canonical(value: Any) -> str:
    """A text equal for JSON-equal values (1 == 1.0, key order ignored; true != 1)."""

    def norm(v: Any) -> Any:
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, Mapping):
            return {k: norm(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [norm(x) for x in v]
        return v

    return json.dumps(norm(value), sort_keys=True, default=str)


def _unique_items(validator: Any, unique: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """``uniqueItems`` in linear time (jsonschema's compares every pair of objects)."""
    if not (unique and validator.is_type(instance, "array")):
        return
    seen: set[str] = set()
    for item in instance:
        key = _canonical(item)
        if key in seen:
            yield _jsonschema().ValidationError(f"{instance!r} has non-unique elements")
            return
        seen.add(key)


@cache
def _linear() -> Any:
    """Draft 2020-12 with the linear ``uniqueItems``."""
    jsonschema = _jsonschema()
    return jsonschema.validators.extend(
        jsonschema.Draft202012Validator, {"uniqueItems": _unique_items}
    )


def _over_count(doc: _SourceLike, value: Any, pointer: str) -> Diagnostic | None:
    """``XC052`` when a ``reasons``/``warnings`` list is longer than the vocabulary allows; the
    block is then not validated item by item (the count bounds the work, not only the result)."""
    if not isinstance(value, Mapping):
        return None
    for key in ("reasons", "warnings"):
        items = value.get(key)
        if isinstance(items, list) and len(items) > MAX_CODES:
            return _diag(
                doc,
                pointer_join(pointer, key),
                "XC052",
                f"{len(items)} {key}: at most {MAX_CODES} are allowed; not validated further",
                "list each code once",
            )
    return None


def _schema_is_valid(schema: Mapping[str, Any]) -> bool:
    jsonschema = _jsonschema()
    try:
        jsonschema.Draft202012Validator.check_schema(_plain(schema))
    except jsonschema.SchemaError:
        return False
    return True


def _plain(value: Any) -> Any:
    """A JSON-only copy: YAML dates become ISO strings, mappings dicts, sequences lists."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()
    return value
