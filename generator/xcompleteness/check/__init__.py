"""The front pipeline of ``check``, ``audit`` and ``generate``: load, overlay, validate, rules.

May import: the stages below it (``document`` to ``rules``), ``runtime``, ``diagnostics``,
``progress``.
"""

from typing import Any

from xcompleteness.check import _verdict as verdicts
from xcompleteness.check._pipeline import (
    CheckResult,
    check_spec,
    expected_contracts,
    show_effective,
    summary,
)
from xcompleteness.check._verdict import verdict_store

__all__ = [
    "CheckResult",
    "check_spec",
    "expected_contracts",
    "prevalidate",
    "show_effective",
    "summary",
    "validate_openapi",
    "verdict_store",
    "verdicts",
]


def __getattr__(name: str) -> Any:
    # The validator stack (openapi-spec-validator, jsonschema-path, ...) costs about half a
    # second to import: only a run that validates loads it (a reused verdict never does).
    if name == "prevalidate":  # multiprocessing: generate's second process, never check's
        from xcompleteness.check import _prevalidate

        return _prevalidate
    if name == "validate_openapi":
        from xcompleteness.check._validate import validate_openapi

        return validate_openapi
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
