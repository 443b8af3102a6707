"""Set-based visit registries for openapi-spec-validator 0.9's ``SchemaValidator``.

Why this module exists: ``openapi_spec_validator.validation.keywords.SchemaValidator`` keeps the
ids of visited (and meta-checked) schemas in *lists* and tests ``schema_id in list`` on every
visit, so validation is quadratic in the number of schemas. On GitHub's REST description that
is most of the validator's run time. Sets give the same answers (membership of ints; the order
of the registries is never read) in constant time.

The fix is isolated here instead of monkeypatching the library globally: validate.py swaps in a
``SchemaValidator`` subclass whose registries are sets with an ``append`` alias, so the upstream
``__call__`` runs unchanged. Verdicts are identical; a test
compares the errors with and without this module. The upstream-ready patch is written up in
docs/upstream/openapi-spec-validator-visited-sets.md.
"""

from __future__ import annotations

from typing import Any

from openapi_spec_validator.validation import keywords


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


def with_set_registries(
    base: type[keywords.SchemaValidator],
) -> type[keywords.SchemaValidator]:
    """``base`` with set-based visit registries (public name for validate.py)."""
    return _with_sets(base)
