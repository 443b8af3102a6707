"""Where the shipped data lives: ``spec_ext/`` and ``templates/``.

In a wheel both are inside the package (``xcompleteness/spec_ext``); in a source checkout
(editable install, tests) they sit at the repository root beside ``generator/``.
"""

from __future__ import annotations

import ast
import json
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["load_json", "runtime_constant", "runtime_dir", "spec_ext_dir", "templates_dir"]

_PKG = Path(__file__).resolve().parent


def _find(name: str) -> Path:
    for candidate in (_PKG / name, _PKG.parent.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"x-completeness data folder {name!r} is missing from the install")


def spec_ext_dir() -> Path:
    return _find("spec_ext")


def templates_dir() -> Path:
    return _find("templates")


def runtime_dir() -> Path:
    return _PKG / "runtime"


@cache
def load_json(name: str) -> Any:
    """Load a JSON file from ``spec_ext/`` (cached; treat the result as read-only)."""
    with (spec_ext_dir() / name).open(encoding="utf-8") as fh:
        return json.load(fh)


@cache
def runtime_constant(module: str, name: str) -> Any:
    """The literal value of ``NAME = <literal>`` in the runtime's ``module``, read from its
    source without importing it: a runtime module may import httpx (the tool results), which
    the generator itself never needs (tests check these equal the imported values)."""
    tree = ast.parse((runtime_dir() / f"{module}.py").read_text("utf-8"))
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name) and target.id == name:
                return ast.literal_eval(stmt.value)
    raise LookupError(f"runtime/{module}.py assigns no literal {name}")
