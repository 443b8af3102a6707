"""The front pipeline of ``check``, ``audit`` and ``generate``: load, overlay, validate, rules.

May import: the stages below it (``document`` to ``rules``), ``runtime``, ``diagnostics``,
``progress``.
"""

from xcompleteness.check import _prevalidate as prevalidate
from xcompleteness.check._pipeline import CheckResult, check_spec, show_effective, summary
from xcompleteness.check._validate import validate_openapi

__all__ = [
    "CheckResult",
    "check_spec",
    "prevalidate",
    "show_effective",
    "summary",
    "validate_openapi",
]
