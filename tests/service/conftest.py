"""Fixtures for the example service: a real SQLite store in a temporary folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "service_accounts"
if str(_EXAMPLE) not in sys.path:
    sys.path.insert(0, str(_EXAMPLE))

from service.config import ServiceConfig, demo_tokens  # noqa: E402
from service.scan import Scanner  # noqa: E402
from service.seed import seed  # noqa: E402
from service.store import Store  # noqa: E402


@pytest.fixture
def config(tmp_path: Path) -> ServiceConfig:
    return ServiceConfig(data_dir=tmp_path / "data", tokens=demo_tokens())


@pytest.fixture
def store(config: ServiceConfig) -> Store:
    s = Store(config).open()
    seed(s, 200)
    return s


@pytest.fixture
def scanner(store: Store):
    s = Scanner(store)
    yield s
    s.close()
