"""Which operations are listings: the list-likeness heuristic, its words, other tools' pagination.

May import: ``document``, ``load``, ``declare``, ``diagnostics``, ``resources``.
"""

from xcompleteness.detect._listlike import (
    Excluded,
    Finding,
    Signal,
    operation_ids,
    scan_all,
    scan_store,
    undeclared_listings,
)
from xcompleteness.detect._pagination_imports import supported_styles
from xcompleteness.detect._prose import shapes_response
from xcompleteness.detect._schema_patch import ROLE_TYPES, jsonpath, patch_action
from xcompleteness.detect._schema_walk import SchemaWalker
from xcompleteness.detect._words import (
    CREDENTIAL_PARAMS,
    ITEM_ID_CURSORS,
    PAGING_PARAMS,
    SHAPING_PARAMS,
    SIZE_PARAMS,
    fold,
    role_keys,
)

__all__ = [
    "CREDENTIAL_PARAMS",
    "Excluded",
    "Finding",
    "ITEM_ID_CURSORS",
    "PAGING_PARAMS",
    "ROLE_TYPES",
    "SHAPING_PARAMS",
    "SIZE_PARAMS",
    "SchemaWalker",
    "Signal",
    "fold",
    "jsonpath",
    "operation_ids",
    "patch_action",
    "role_keys",
    "scan_all",
    "scan_store",
    "shapes_response",
    "supported_styles",
    "undeclared_listings",
]
