"""x-completeness: make "is this answer complete?" a typed, enforced part of an API contract."""

from xcompleteness._version import __version__
from xcompleteness.diagnostics import Diagnostic, ExitCode, InputError, Severity

__all__ = ["Diagnostic", "ExitCode", "InputError", "Severity", "__version__"]
