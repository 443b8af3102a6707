"""Fixtures for the example service: a real SQLite store in a temporary folder."""

from __future__ import annotations

import shutil
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


@pytest.fixture(scope="session")
def seeded_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """200 seeded accounts, written once per session and copied for each test (fast setup)."""
    folder = tmp_path_factory.mktemp("seeded") / "data"
    seed(Store(ServiceConfig(data_dir=folder)).open(), 200)
    return folder


@pytest.fixture
def config(tmp_path: Path) -> ServiceConfig:
    return ServiceConfig(data_dir=tmp_path / "data", tokens=demo_tokens())


@pytest.fixture
def store(config: ServiceConfig, seeded_dir: Path) -> Store:
    shutil.copytree(seeded_dir, config.data_dir)
    return Store(config).open()


@pytest.fixture
def scanner(store: Store):
    s = Scanner(store)
    yield s
    s.close()


GEN_PACKAGE = "svc_service_area"  # this area's own generated package name (module-cache safe)


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory):
    """The generated package of examples/service_accounts/openapi.yaml, imported."""
    from support.gen import generate_example, import_generated

    out = generate_example("service_accounts", tmp_path_factory.mktemp("gen"), package=GEN_PACKAGE)
    return import_generated(out, GEN_PACKAGE)


@pytest.fixture
def service(config: ServiceConfig, store: Store, generated):
    """The example service on real uvicorn (127.0.0.1, free port), sharing ``config``."""
    from service.app import create_app
    from service.runner import start_in_thread
    from service.wire import Wire

    config.admin_token = "admin-secret"  # the fault-injection hook (tests/service/test_http.py)
    app = create_app(config, Wire.from_package(GEN_PACKAGE, config.secret))
    running = start_in_thread(app)
    yield running
    running.stop()
