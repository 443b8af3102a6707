"""x-completeness: make "is this answer complete?" a typed, enforced part of an API contract.

The library API is :mod:`xcompleteness.api` (``from xcompleteness import api``;
``api.check(...)``, ``api.audit(...)``, ``api.generate(...)``, docs/api.md). Its result types are
also importable from here, loaded on first use. The functions themselves are not re-exported:
``xcompleteness.check``, ``.audit``, ``.emit`` and ``.testkit`` name the stage packages.
"""

from typing import Any

from xcompleteness._version import __version__
from xcompleteness.diagnostics import Diagnostic, ExitCode, InputError, Severity

_FROM_API = frozenset(
    {"AuditResult", "CheckReport", "GenerateResult", "MockResult", "VerifyResult"}
)

__all__ = [
    "AuditResult",
    "CheckReport",
    "Diagnostic",
    "ExitCode",
    "GenerateResult",
    "InputError",
    "MockResult",
    "Severity",
    "VerifyResult",
    "__version__",
]


def __getattr__(name: str) -> Any:
    """The api's result types, imported on first use (``import xcompleteness`` stays cheap)."""
    if name in _FROM_API:
        from xcompleteness import api

        return getattr(api, name)
    raise AttributeError(f"module 'xcompleteness' has no attribute {name!r}")
