"""Generate an example's package for a test (real pipeline: check -> IR -> emit -> ruff -> write).

``generate_example("service_accounts", tmp)`` writes ``examples/service_accounts/openapi.yaml``
(the inline form; the examples' ``base.yaml`` + ``overlay.yaml`` give the same document) into
``tmp`` and returns ``tmp``: put it
on ``sys.path`` (or use :func:`import_generated`) and ``import <package>``. The package name
defaults to the example folder name.

Generating takes about a second (ruff runs once per module), so share one tree per session and
give each test area its own package name to avoid module-cache clashes::

    # tests/<area>/conftest.py
    import pytest
    from support.gen import generate_example, import_generated

    @pytest.fixture(scope="session")
    def svc_pkg(tmp_path_factory):
        out = tmp_path_factory.mktemp("gen")
        generate_example("service_accounts", out, package="svc_area")
        return import_generated(out, "svc_area")  # the imported package module

Submodules then import as usual: ``importlib.import_module("svc_area.models")``.
For a fresh-process check, run ``python -c "import svc_area"`` with ``cwd=out`` or ``PYTHONPATH``.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

from support.paths import EXAMPLES


def generate_example(name: str, dest: Path, *, package: str | None = None) -> Path:
    """Generate examples/<name> into ``dest`` (new or generator-owned); returns ``dest``."""
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    gen = generate(EXAMPLES / name / "openapi.yaml", (), package or name)
    write_tree(Path(dest), gen.files)
    return Path(dest)


def import_generated(out: Path, package: str) -> ModuleType:
    """Put ``out`` on sys.path (once) and import ``package`` from it."""
    entry = str(Path(out).resolve())
    if entry not in sys.path:
        sys.path.insert(0, entry)
    importlib.invalidate_caches()
    return importlib.import_module(package)


def generate_and_import(spec: Path, dest: Path, package: str) -> ModuleType:
    """Generate any spec file as ``package`` into ``dest`` and import it (a test area's
    module-scoped package fixture: ``generate_and_import(SPEC, tmp_path_factory.mktemp(...),
    PACKAGE)``)."""
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    write_tree(Path(dest), generate(spec, (), package).files)
    return import_generated(dest, package)
