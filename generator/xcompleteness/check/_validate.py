"""OpenAPI 3.0/3.1 structural validation through openapi-spec-validator, as diagnostics.

Every validator error becomes an ``XC030`` diagnostic whose pointer is built from the error's
path into the document (errors raised by the library's own keyword checks carry no path and
point at the document root). The validator resolves only local files. If the library itself
fails (it should not, after the loader's ``$ref`` checks) the failure is reported as ``XC031``
instead of a traceback.

The validator runs with verdict-preserving speed-ups: its keyword walk done over the plain
``dict`` when the document is the plain case (:mod:`xcompleteness.check._osv_walk`, which hands
anything else to the stock walk), and for the stock walk (:mod:`xcompleteness.check._osv_speedup`)
set-based visit registries, schema meta-checks asked of jsonschema-rs first (the stock check on
anything but a pass), and child lookups without a slow Protocol check for dict/list nodes.
``speedup=False`` runs the stock validator; tests compare the two on every fixture.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from typing import Any

from jsonschema_path import SchemaPath
from jsonschema_path.handlers.urllib import UrllibHandler
from openapi_spec_validator.settings import OpenAPISpecValidatorSettings
from openapi_spec_validator.validation.validators import (
    OpenAPIV30SpecValidator,
    OpenAPIV31SpecValidator,
    SpecValidator,
)

from xcompleteness.check._osv_speedup import (
    fast_child_lookups,
    with_fast_meta_check,
    with_set_registries,
)
from xcompleteness.check._osv_walk import Undecided, walk_errors
from xcompleteness.diagnostics import Diagnostic, Severity, pointer_join
from xcompleteness.load import DANGLING_REF, SourceDoc

__all__ = [
    "FAST_VALIDATORS",
    "FILE_ONLY_HANDLERS",
    "INVALID_OPENAPI",
    "MAX_ERRORS",
    "RESOLVED_CACHE_SIZE",
    "STOCK_VALIDATORS",
    "VALIDATOR_FAILED",
    "validate_openapi",
]

INVALID_OPENAPI = "XC030"
VALIDATOR_FAILED = "XC031"
MAX_ERRORS = 200
"""More validator errors than this are summarised in one extra diagnostic."""

# Only local files: the loader already refuses URL refs; this makes the network unreachable.
FILE_ONLY_HANDLERS = {"file": UrllibHandler("file")}


def _locating(base: type[Any]) -> type[Any]:
    """A keyword validator whose new errors carry the document path of the node it checked.

    Upstream keyword checks (schema meta-checks, "required list has not defined properties",
    parameter checks) report errors with a path relative to the node, or none at all; we
    prefix the node's path so every diagnostic points where the problem is. Errors passed up
    from nested calls are marked and left alone. The error messages are unchanged.
    """

    def __call__(self: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
        node = next((a for a in args if isinstance(a, SchemaPath)), None)
        prefix = tuple(node.parts) if isinstance(node, SchemaPath) else ()
        for err in base.__call__(self, *args, **kwargs):
            if not getattr(err, "_xc_located", False):
                if prefix and hasattr(err, "path"):
                    err.path = err.relative_path = deque((*prefix, *err.path))
                err._xc_located = True
            yield err

    return type(f"Locating{base.__name__}", (base,), {"__call__": __call__})


RESOLVED_CACHE_SIZE = 65_536
"""jsonschema-path's resolved-path cache. The library default is 128 entries, which a large
spec thrashes; this size is a documented setting of the library and does not change verdicts
(the data is static and only local files resolve). ``OPENAPI_SPEC_VALIDATOR_RESOLVED_CACHE_MAXSIZE``
still wins when set."""


def _cache_size() -> int:
    if os.environ.get("OPENAPI_SPEC_VALIDATOR_RESOLVED_CACHE_MAXSIZE"):
        return OpenAPISpecValidatorSettings().resolved_cache_maxsize
    return RESOLVED_CACHE_SIZE


def _validator(base: type[SpecValidator], *, speedup: bool) -> type[SpecValidator]:
    validators = {}
    for name, cls in base.keyword_validators.items():
        if name == "schema" and speedup:
            cls = with_fast_meta_check(with_set_registries(cls))
        validators[name] = cls if name == "__root__" else _locating(cls)
    return type(
        f"Local{'Fast' if speedup else ''}{base.__name__}",
        (base,),
        {"keyword_validators": validators, "resolver_handlers": FILE_ONLY_HANDLERS},
    )


FAST_VALIDATORS = {
    "3.0": _validator(OpenAPIV30SpecValidator, speedup=True),
    "3.1": _validator(OpenAPIV31SpecValidator, speedup=True),
}
"""What check uses: set-based visit registries, the compiled meta-check (stock on anything but
a pass), located errors, file-only ref handlers."""
STOCK_VALIDATORS = {
    "3.0": _validator(OpenAPIV30SpecValidator, speedup=False),
    "3.1": _validator(OpenAPIV31SpecValidator, speedup=False),
}
"""The same without the speed-up (the comparison test and the benchmark use it)."""


def validate_openapi(doc: SourceDoc, *, speedup: bool = True) -> list[Diagnostic]:
    """Validate ``doc.data`` as OpenAPI 3.0 or 3.1 (chosen by its ``openapi`` field)."""
    version = str(doc.data.get("openapi", ""))[:3]
    table = FAST_VALIDATORS if speedup else STOCK_VALIDATORS
    cls = table.get(version)
    if cls is None:  # the loader admits only 3.0 and 3.1; be safe anyway
        return [
            doc.diag(
                "/openapi",
                INVALID_OPENAPI,
                f"unsupported OpenAPI version {version!r}",
                severity=Severity.ERROR,
            )
        ]
    spec_path = SchemaPath.from_dict(
        doc.data,
        base_uri=doc.path.resolve().as_uri(),
        handlers=FILE_ONLY_HANDLERS,
        resolved_cache_maxsize=_cache_size(),
    )
    out: list[Diagnostic] = []
    dangling = any(d.code == DANGLING_REF for d in doc.diagnostics)
    try:
        if speedup:
            try:  # the keyword walk over the plain dict; the stock walk where it declines
                _collect(doc, walk_errors(doc.data, version, cls(spec_path), doc.refs), out)
                return out
            except Undecided:
                out.clear()
        with fast_child_lookups() if speedup else nullcontext():
            _collect(doc, cls(spec_path).iter_errors(), out)
    except RecursionError:
        out.append(
            doc.diag(
                "",
                VALIDATOR_FAILED,
                "the OpenAPI validator recursed too deeply",
                hint="look for deeply nested or self-referencing schemas",
                severity=Severity.ERROR,
            )
        )
    except Exception as exc:  # noqa: BLE001 - third-party failures become diagnostics
        if not dangling:  # a dangling $ref (XC014, already reported) stops the validator
            out.append(
                doc.diag(
                    "",
                    VALIDATOR_FAILED,
                    _capped(f"the OpenAPI validator failed: {type(exc).__name__}: {exc}"),
                    hint="usually an unresolvable $ref; fix it and run check again",
                    severity=Severity.ERROR,
                )
            )
    return out


def _collect(doc: SourceDoc, errors: Iterable[Any], out: list[Diagnostic]) -> None:
    """Append one diagnostic per distinct error to ``out`` (kept if the validator dies later)."""
    seen: set[tuple[str, str]] = set()
    extra = 0
    for err in errors:
        pointer = pointer_join("", *getattr(err, "absolute_path", ()))
        message = _message(err)
        if (pointer, message) in seen:
            continue
        seen.add((pointer, message))
        if len(seen) > MAX_ERRORS:
            extra += 1
            continue
        out.append(
            doc.diag(
                pointer,
                INVALID_OPENAPI,
                message,
                hint="see the OpenAPI specification for this object",
                severity=Severity.ERROR,
            )
        )
    if extra:
        out.append(
            doc.diag(
                "", INVALID_OPENAPI, f"... and {extra} more OpenAPI errors", severity=Severity.ERROR
            )
        )


def _message(err: Any) -> str:
    return _capped(str(getattr(err, "message", err)))


def _capped(message: str, limit: int = 300) -> str:
    """jsonschema and the validator quote whole instances; keep diagnostics readable."""
    return message if len(message) <= limit else message[: limit - 3] + "..."
