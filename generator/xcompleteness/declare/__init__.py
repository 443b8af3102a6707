"""The ``x-completeness`` vocabulary: structural validation, the code registry, canonical contracts.

May import: ``document``, ``load``, ``runtime``, ``diagnostics``, ``resources``.
"""

from xcompleteness.declare._contract import (
    HTTP_METHODS,
    NOT_A_LISTING,
    defaulted_keys,
    document_defaults,
    effective_declaration,
    iter_operations,
    iter_path_items,
    normalize,
    operation_ref,
)
from xcompleteness.declare._vocabulary import CODES as VOCABULARY_CODES
from xcompleteness.declare._vocabulary import load_registry, validate_declarations

__all__ = [
    "HTTP_METHODS",
    "NOT_A_LISTING",
    "VOCABULARY_CODES",
    "defaulted_keys",
    "document_defaults",
    "effective_declaration",
    "iter_operations",
    "iter_path_items",
    "load_registry",
    "normalize",
    "operation_ref",
    "validate_declarations",
]
