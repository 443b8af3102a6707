"""Generated packages for the test kit tests (mock, verify, generate --tests)."""

from __future__ import annotations

import pytest
from support.gen import generate_example, import_generated


@pytest.fixture(scope="session")
def svc(tmp_path_factory):
    """The generated package of examples/service_accounts (native), imported."""
    out = generate_example("service_accounts", tmp_path_factory.mktemp("tk"), package="tk_svc")
    return import_generated(out, "tk_svc")


@pytest.fixture(scope="session")
def gh(tmp_path_factory):
    """The generated package of examples/link_header_search (adapter), imported."""
    out = generate_example("link_header_search", tmp_path_factory.mktemp("tkgh"), package="tk_gh")
    return import_generated(out, "tk_gh")
