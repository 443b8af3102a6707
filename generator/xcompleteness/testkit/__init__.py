"""Testing a contract against a server: the mock server and ``verify``.

May import: every stage up to ``ir``, ``runtime``, ``diagnostics``, ``resources``.
"""

from xcompleteness.testkit._mock import (
    MockApi,
    listen,
    make_app,
    mock_from_check,
    representable,
    require_server,
    serve,
)
from xcompleteness.testkit._replay import Replay
from xcompleteness.testkit._verify import VIOLATION_CODES, Verifier, redact_url

__all__ = [
    "MockApi",
    "Replay",
    "VIOLATION_CODES",
    "Verifier",
    "listen",
    "make_app",
    "mock_from_check",
    "redact_url",
    "representable",
    "require_server",
    "serve",
]
