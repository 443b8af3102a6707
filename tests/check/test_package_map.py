"""The package map of docs/internals.md, pinned: who may import whom, and what crosses a package.

The generator reads in pipeline order. Each stage package may import the shared base modules, the
runtime, and the stages before it, never one after it (lazy imports inside functions count too: an
import that runs back up is still a climb). Across packages only a package's public surface is
imported: no private module, no private name. Every package names its surface with ``__all__``.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from support.paths import ROOT

PACKAGE = ROOT / "generator" / "xcompleteness"

BASE = (
    "_version",
    "collector",
    "diagnostics",
    "forked",
    "resources",
    "progress",
    "reuse",
    "safety",
    "sarif",
)
"""Shared modules every stage may import; they import nothing of the generator but each other."""

STAGES = (
    "document",
    "load",
    "declare",
    "detect",
    "rules",
    "check",
    "audit",
    "ir",
    "testkit",
    "emit",
    "api",
    "cli",
)
"""The pipeline order: a stage imports only stages to its left (and BASE and ``runtime``)."""


def _owner(module: str) -> str:
    """The top-level unit of ``xcompleteness.a.b``: ``a`` (a package or a top-level module)."""
    return module.split(".")[1] if module.count(".") else ""


def _modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        out.append((".".join(("xcompleteness", *parts)), path))
    return out


def _imports(path: Path) -> list[tuple[str, list[str], int]]:
    """(module, imported names, line) for every absolute import of the generator in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "xcompleteness":
                for alias in node.names:
                    found.append((f"xcompleteness.{alias.name}", [], node.lineno))
            elif node.module.startswith("xcompleteness."):
                found.append((node.module, [a.name for a in node.names], node.lineno))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("xcompleteness."):
                    found.append((alias.name, [], node.lineno))
    return found


def _rank(unit: str) -> int:
    if unit in BASE or unit in ("", "runtime", "__init__", "__main__"):
        return -1
    return STAGES.index(unit)


def test_every_top_level_unit_is_on_the_map() -> None:
    units = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir()}
    units = {u for u in units if not u.startswith("__") or u in ("__init__", "__main__")}
    units.discard("__pycache__")
    assert units <= set(BASE) | set(STAGES) | {"runtime", "__init__", "__main__", "_lazy"}
    assert set(STAGES) <= units


def test_no_stage_imports_one_after_it() -> None:
    climbs = []
    for module, path in _modules():
        me = _owner(module)
        if me in ("runtime", "__init__", "__main__", ""):
            continue
        for target, _, line in _imports(path):
            them = _owner(target)
            if them == me or them == "runtime":
                continue
            if me in BASE and them not in BASE:
                climbs.append(f"{module}:{line} -> {target}")
            elif me not in BASE and _rank(them) > _rank(me):
                climbs.append(f"{module}:{line} -> {target}")
    assert climbs == []


def test_the_runtime_imports_nothing_of_the_generator() -> None:
    leaks = [
        f"{module}:{line} -> {target}"
        for module, path in _modules()
        if _owner(module) == "runtime"
        for target, _, line in _imports(path)
        if _owner(target) != "runtime"
    ]
    assert leaks == []


def test_only_public_names_cross_a_package() -> None:
    private = []
    for module, path in _modules():
        me = _owner(module)
        for target, names, line in _imports(path):
            if _owner(target) == me:
                continue
            crossing = target.split(".")[1:]
            if target != "xcompleteness._version" and any(p.startswith("_") for p in crossing):
                private.append(f"{module}:{line} -> {target}")
            private += [
                f"{module}:{line} -> {target}.{n}"
                for n in names
                if n.startswith("_") and n != "__version__"
            ]
    assert private == []


@pytest.mark.parametrize("stage", [s for s in STAGES if (PACKAGE / s).is_dir()])
def test_each_package_names_its_surface(stage: str) -> None:
    package = importlib.import_module(f"xcompleteness.{stage}")
    surface = package.__all__
    assert surface == sorted(surface)
    assert all(hasattr(package, name) for name in surface)
    private_modules = [p.stem for p in (PACKAGE / stage).glob("*.py") if p.stem != "__init__"]
    assert all(m.startswith("_") for m in private_modules), private_modules


def test_the_map_catches_a_climb(tmp_path: Path) -> None:
    """Not vacuous: a lazy import of ``emit`` from ``load`` is a climb by these rules."""
    bad = tmp_path / "x.py"
    bad.write_text("def f():\n    from xcompleteness.emit import generate\n")
    ((target, _, line),) = _imports(bad)
    assert _rank(_owner(target)) > _rank("load") and line == 2


def test_every_generator_module_names_its_surface() -> None:
    """Every module of the generator (the runtime keeps its own rule) declares ``__all__``, and
    each name it lists exists: a module's public surface is written down, not guessed."""
    missing, dangling = [], []
    for module, path in _modules():
        rel = path.relative_to(PACKAGE).as_posix()
        if _owner(module) == "runtime" or rel == "__main__.py":
            continue
        found = importlib.import_module(module)
        surface = getattr(found, "__all__", None)
        if surface is None:
            missing.append(rel)
            continue
        dangling += [f"{rel}: {n}" for n in surface if not hasattr(found, n)]
    assert missing == [] and dangling == []
