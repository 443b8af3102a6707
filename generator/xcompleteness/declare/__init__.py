"""The ``x-completeness`` vocabulary: structural validation, the code registry, canonical contracts.

May import: ``document``, ``load``, ``runtime``, ``diagnostics``, ``resources``.
"""

from xcompleteness.declare._contract import (
    normalize,
    not_a_listing,
    operation_ref,
)
from xcompleteness.declare._defaults import (
    defaulted_keys,
    document_defaults,
    effective_declaration,
)
from xcompleteness.declare._vocabulary import CODES as VOCABULARY_CODES
from xcompleteness.declare._vocabulary import (
    declaration_checker,
    declaration_store,
    defaults_diagnostics,
    found_nothing,
    load_registry,
    prepare_checks,
    standard_registry,
    validate_declarations,
)

__all__ = [
    "VOCABULARY_CODES",
    "declaration_checker",
    "declaration_store",
    "defaulted_keys",
    "defaults_diagnostics",
    "document_defaults",
    "effective_declaration",
    "found_nothing",
    "load_registry",
    "normalize",
    "not_a_listing",
    "operation_ref",
    "prepare_checks",
    "standard_registry",
    "validate_declarations",
]
