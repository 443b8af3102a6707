"""Set-based visit registries for openapi-spec-validator 0.9's ``SchemaValidator``.

Why this module exists: ``openapi_spec_validator.validation.keywords.SchemaValidator`` keeps the
ids of visited (and meta-checked) schemas in *lists* and tests ``schema_id in list`` on every
visit, so validation is quadratic in the number of schemas. On GitHub's REST description that
is most of the validator's run time. Sets give the same answers (membership of ints; the order
of the registries is never read) in constant time.

The fix is isolated here instead of monkeypatching the library globally: we subclass the two
spec validators we use and swap in a ``SchemaValidator`` subclass whose registries are sets with
an ``append`` alias, so the upstream ``__call__`` runs unchanged. Verdicts are identical; a test
compares the errors with and without this module. The upstream-ready patch is written up in
docs/upstream/openapi-spec-validator-visited-sets.md.
"""

from __future__ import annotations

from typing import Any

from jsonschema_path.handlers.urllib import UrllibHandler
from openapi_spec_validator.validation import keywords
from openapi_spec_validator.validation.validators import (
    OpenAPIV30SpecValidator,
    OpenAPIV31SpecValidator,
    SpecValidator,
)

# Only local files: the loader already refuses URL refs, this makes the network unreachable.
FILE_ONLY_HANDLERS = {"file": UrllibHandler("file")}


class _IdSet(set[int]):
    """A set that also answers the list method the upstream code calls."""

    def append(self, item: int) -> None:
        self.add(item)


def _with_sets(base: type[keywords.SchemaValidator]) -> type[keywords.SchemaValidator]:
    class SetSchemaValidator(base):  # type: ignore[misc, valid-type]
        def __init__(self, registry: Any):
            super().__init__(registry)
            self.visited_schema_ids = _IdSet()  # type: ignore[assignment]
            self.meta_checked_schema_ids = _IdSet()  # type: ignore[assignment]

    SetSchemaValidator.__name__ = SetSchemaValidator.__qualname__ = f"Set{base.__name__}"
    return SetSchemaValidator


def _fast(base: type[SpecValidator], *, speedup: bool) -> type[SpecValidator]:
    validators = dict(base.keyword_validators)
    if speedup:
        validators["schema"] = _with_sets(validators["schema"])  # type: ignore[arg-type]
    return type(
        f"Local{'Fast' if speedup else ''}{base.__name__}",
        (base,),
        {"keyword_validators": validators, "resolver_handlers": FILE_ONLY_HANDLERS},
    )


FAST_VALIDATORS: dict[str, type[SpecValidator]] = {
    "3.0": _fast(OpenAPIV30SpecValidator, speedup=True),
    "3.1": _fast(OpenAPIV31SpecValidator, speedup=True),
}
"""Our validators: set-based registries, file-only ref handlers."""

STOCK_VALIDATORS: dict[str, type[SpecValidator]] = {
    "3.0": _fast(OpenAPIV30SpecValidator, speedup=False),
    "3.1": _fast(OpenAPIV31SpecValidator, speedup=False),
}
"""The upstream validators with only the ref handlers narrowed (for comparison tests)."""
