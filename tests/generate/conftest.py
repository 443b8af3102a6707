"""One generated service_accounts package per test session for this area (package ``gen_svc``)."""

from __future__ import annotations

from types import ModuleType

import pytest
from support.gen import generate_example, import_generated


@pytest.fixture(scope="session")
def svc_out(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("gen_svc")
    generate_example("service_accounts", out, package="gen_svc")
    return out


@pytest.fixture(scope="session")
def svc(svc_out) -> ModuleType:
    return import_generated(svc_out, "gen_svc")
