"""openapi-spec-validator itself, for what :mod:`xcompleteness.check._validate` cannot decide
without it: the validator classes (located errors, file-only ref handlers, the speed-ups of
:mod:`xcompleteness.check._osv_speedup`) and the stock run over ``jsonschema-path``.

Importing this module imports the validator stack (about 0.3 s): only a document the lean path
does not decide, a test or the benchmark does.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
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
from xcompleteness.check._validate import VALIDATOR_FAILED, capped
from xcompleteness.diagnostics import Diagnostic, Severity, exception_text, library_failure
from xcompleteness.load import DANGLING_REF, SourceDoc

__all__ = [
    "FAST_VALIDATORS",
    "FILE_ONLY_HANDLERS",
    "RESOLVED_CACHE_SIZE",
    "STOCK_VALIDATORS",
    "run_stock",
    "stock_validator",
]

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


def stock_validator(doc: SourceDoc, version: str, *, speedup: bool = True) -> Any:
    """The validator instance for ``doc`` (``version``: "3.0" or "3.1")."""
    table = FAST_VALIDATORS if speedup else STOCK_VALIDATORS
    spec_path = SchemaPath.from_dict(
        doc.data,
        base_uri=doc.path.resolve().as_uri(),
        handlers=FILE_ONLY_HANDLERS,
        resolved_cache_maxsize=_cache_size(),
    )
    return table[version](spec_path)


def run_stock(
    doc: SourceDoc,
    version: str,
    collect: Callable[[SourceDoc, Iterable[Any], list[Diagnostic]], None],
    *,
    speedup: bool = True,
) -> list[Diagnostic]:
    """The stock keyword walk through jsonschema-path (with the speed-ups unless ``speedup`` is
    False), its errors collected by ``collect``; failures of the library become ``XC031``."""
    out: list[Diagnostic] = []
    dangling = any(d.code == DANGLING_REF for d in doc.diagnostics)
    try:
        with fast_child_lookups() if speedup else nullcontext():
            collect(doc, stock_validator(doc, version, speedup=speedup).iter_errors(), out)
    except BaseException as exc:  # noqa: BLE001 - third-party failures become diagnostics
        if not library_failure(exc):
            raise
        if isinstance(exc, RecursionError) or "RecursionError" in exception_text(exc):
            # Python's own, or one a Rust extension's panic wraps (the same input, caught there)
            out.append(
                doc.diag(
                    "",
                    VALIDATOR_FAILED,
                    "the OpenAPI validator recursed too deeply",
                    hint="look for deeply nested or self-referencing schemas",
                    severity=Severity.ERROR,
                )
            )
        elif not dangling:  # a dangling $ref (XC014, already reported) stops the validator
            out.append(
                doc.diag(
                    "",
                    VALIDATOR_FAILED,
                    capped(
                        f"the OpenAPI validator failed: {type(exc).__name__}: "
                        + exception_text(exc)
                    ),
                    hint="usually an unresolvable $ref; fix it and run check again",
                    severity=Severity.ERROR,
                )
            )
    return out
