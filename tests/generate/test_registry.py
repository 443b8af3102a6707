"""The emitter registry: every emitter imported explicitly, in order, no lookup by name."""

from __future__ import annotations

import ast
from pathlib import PurePosixPath

import pytest
from support.paths import EXAMPLES, ROOT
from xcompleteness.check._pipeline import check_spec
from xcompleteness.emit._generate import generate_from_check
from xcompleteness.emit.emitters import registry

EMITTERS_DIR = ROOT / "generator" / "xcompleteness" / "emit" / "emitters"
HELPERS = {"__init__", "registry", "items", "tool_schemas", "tool_dynamic", "contract_tests"}
"""Modules in emitters/ that are not run by the registry: shared helpers, and ``--tests``."""


def test_every_emitter_module_is_registered_once_in_order() -> None:
    modules = {p.stem for p in EMITTERS_DIR.glob("*.py")} - HELPERS
    assert sorted(registry.NAMES) == sorted(modules)
    assert len(set(registry.NAMES)) == len(registry.NAMES)
    assert registry.NAMES[:2] == ("package", "project")  # the package skeleton first
    for emitter in registry.EMITTERS:  # the registered function is the module's own emit
        module = __import__(f"xcompleteness.emit.emitters.{emitter.name}", fromlist=["emit"])
        assert emitter.emit is module.emit
    assert [e.name for e in registry.EMITTERS if e.out_relative] == ["project"]


def test_no_emitter_is_looked_up_by_name() -> None:
    for path in [*EMITTERS_DIR.glob("*.py"), EMITTERS_DIR.parent / "_generate.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in node.names
        } | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert not {"importlib", "importlib.util"} & imported, path.name


def test_only_selects_by_registered_name_and_a_typo_is_an_error() -> None:
    assert [e.name for e in registry.selected(("models", "package"))] == ["package", "models"]
    assert registry.selected(None) == registry.EMITTERS
    with pytest.raises(ValueError, match="modles"):
        registry.selected(("modles",))


def test_the_registry_produces_every_artifact_of_the_package() -> None:
    gen = generate_from_check(check_spec(EXAMPLES / "service_accounts" / "openapi.yaml"), "svc")
    names = {str(p) for p in gen.files}
    for expected in (
        "pyproject.toml",  # project: relative to OUT
        "svc/__init__.py",  # package
        "svc/_runtime/tokens.py",  # runtime_copy
        "svc/models.py",  # models
        "svc/server.py",  # server
        "svc/openapi.augmented.json",  # augmented
        "svc/client.py",  # client
        "svc/tools/mcp.json",  # tools
    ):
        assert expected in names, expected
    assert not any(c.code == "XC606" for c in gen.diagnostics)  # nothing is ever skipped
    assert all(isinstance(p, PurePosixPath) for p in gen.files)
