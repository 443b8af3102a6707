"""One generated service_accounts package per test session for this area (package ``gen_svc``),
and the inputs of the cache tests."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from support.cache_inputs import cache_inputs
from support.gen import generate_example, import_generated


@pytest.fixture(scope="session")
def svc_out(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("gen_svc")
    generate_example("service_accounts", out, package="gen_svc")
    return out


@pytest.fixture(scope="session")
def svc(svc_out) -> ModuleType:
    return import_generated(svc_out, "gen_svc")


@pytest.fixture
def inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A private cache folder and a copy of the example (base spec + overlay) we may edit."""
    return cache_inputs(tmp_path, monkeypatch)
