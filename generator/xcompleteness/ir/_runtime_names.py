"""What the IR needs from pydantic and from the runtime's model classes, as plain data: building
the IR of an overlay edit then imports neither pydantic nor ``runtime.envelope`` (about 0.15 s of
an edit's start-up on GitHub's description).

* :func:`model_attributes`: the attribute names of pydantic's ``BaseModel`` (a generated field
  may never shadow one). The table is ``dir(BaseModel)`` of the pydantic version it names; with
  any other version installed, the names are read from pydantic itself (the same answer the
  table would give for its own version), so the output never depends on which path ran.
* :data:`STANDARD_REASON_CLASSES` / :data:`STANDARD_WARNING_CLASSES`: code -> class name of the
  runtime's typed models (``runtime.envelope.STANDARD_REASON_MODELS`` / ``..._WARNING_MODELS``),
  which models.py imports instead of defining.

``tests/generate/test_runtime_names.py`` checks both tables against pydantic and the runtime.
"""

from __future__ import annotations

from functools import cache

from xcompleteness.reuse import library_versions

__all__ = [
    "MODEL_ATTRIBUTES",
    "PYDANTIC_VERSION",
    "STANDARD_REASON_CLASSES",
    "STANDARD_WARNING_CLASSES",
    "model_attributes",
]

PYDANTIC_VERSION = "2.14.4"
MODEL_ATTRIBUTES = frozenset(
    (
        "_abc_impl",
        "_calculate_keys",
        "_copy_and_set_values",
        "_get_value",
        "_iter",
        "_setattr_handler",
        "construct",
        "copy",
        "dict",
        "from_orm",
        "json",
        "model_computed_fields",
        "model_config",
        "model_construct",
        "model_copy",
        "model_dump",
        "model_dump_json",
        "model_extra",
        "model_fields",
        "model_fields_set",
        "model_json_schema",
        "model_parametrized_name",
        "model_post_init",
        "model_rebuild",
        "model_validate",
        "model_validate_json",
        "model_validate_strings",
        "parse_file",
        "parse_obj",
        "parse_raw",
        "schema",
        "schema_json",
        "update_forward_refs",
        "validate",
    )
)
"""``dir(BaseModel)`` without dunder names, pydantic :data:`PYDANTIC_VERSION`."""

STANDARD_REASON_CLASSES = {
    "MORE_PAGES_AVAILABLE": "MorePagesAvailable",
    "RESULT_LIMIT_REACHED": "ResultLimitReached",
    "TIME_BUDGET_EXCEEDED": "TimeBudgetExceeded",
    "SOURCE_UNAVAILABLE": "SourceUnavailable",
    "VISIBILITY_RESTRICTED": "VisibilityRestricted",
    "RATE_LIMITED": "RateLimited",
    "CURSOR_EXPIRED": "CursorExpired",
    "SNAPSHOT_CHANGED": "SnapshotChanged",
    "CLIENT_PAGE_LIMIT": "ClientPageLimit",
    "CLIENT_ITEM_LIMIT": "ClientItemLimit",
    "CLIENT_DEADLINE_EXCEEDED": "ClientDeadlineExceeded",
    "CONTRACT_VIOLATION": "ContractViolation",
    "HTTP_ERROR": "HttpError",
    "DUPLICATE_ITEMS": "DuplicateItems",
    "DUPLICATES_UNCHECKED": "DuplicatesUnchecked",
    "CLIENT_ANSWER_LIMIT": "ClientAnswerLimit",
}
STANDARD_WARNING_CLASSES = {
    "STALE_INDEX": "StaleIndex",
    "PARTIAL_FIELD_SET": "PartialFieldSet",
    "DEFAULT_SCOPE_APPLIED": "DefaultScopeApplied",
    "ITEM_SCHEMA_MISMATCH": "ItemSchemaMismatch",
    "END_INFERRED": "EndInferred",
    "ITEMS_SEEN_TWICE": "ItemsSeenTwice",
    "EVIDENCE_WITHHELD": "EvidenceWithheld",
    "DUPLICATE_CHECK_STOPPED": "DuplicateCheckStopped",
}


@cache
def model_attributes() -> frozenset[str]:
    """The attribute names of the installed pydantic's ``BaseModel`` (dunders left out)."""
    if library_versions(("pydantic",)) == f"pydantic {PYDANTIC_VERSION}\n".encode():
        return MODEL_ATTRIBUTES
    from pydantic import BaseModel

    return frozenset(n for n in dir(BaseModel) if not n.startswith("__"))
