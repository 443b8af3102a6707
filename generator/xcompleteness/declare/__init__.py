"""The ``x-completeness`` vocabulary: structural validation, the code registry, canonical contracts.

May import: ``document``, ``load``, ``runtime``, ``diagnostics``, ``resources``.
"""

from xcompleteness.declare._contract import (
    NOT_A_LISTING,
    defaulted_keys,
    document_defaults,
    effective_declaration,
    normalize,
    not_a_listing,
    operation_ref,
)
from xcompleteness.declare._vocabulary import Registry, load_registry, validate_declarations

__all__ = [
    "NOT_A_LISTING",
    "Registry",
    "defaulted_keys",
    "document_defaults",
    "effective_declaration",
    "load_registry",
    "normalize",
    "not_a_listing",
    "operation_ref",
    "validate_declarations",
]
