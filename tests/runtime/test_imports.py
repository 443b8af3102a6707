"""runtime/ is copied verbatim into generated packages, so it may import only stdlib, pydantic,
httpx and its own siblings (relatively); never ``xcompleteness``."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import xcompleteness.runtime
from support.imports import imports_in

RUNTIME = Path(xcompleteness.runtime.__file__).parent
ALLOWED_THIRD_PARTY = {"pydantic", "pydantic_core", "httpx", "typing_extensions"}
# The MCP server module of a generated package may use the mcp SDK; nothing in runtime/ does yet.
# Optional clients a runtime module may import lazily (inside a function, never at module level),
# used only when configured: the Redis token store.
OPTIONAL_LAZY = {("store.py", "redis")}


def test_runtime_modules_exist() -> None:
    names = {p.name for p in RUNTIME.glob("*.py")}
    assert {"__init__.py", "expressions.py"} <= names


def test_runtime_imports_only_stdlib_pydantic_httpx_and_siblings() -> None:
    bad: list[str] = []
    for path in sorted(RUNTIME.glob("*.py")):
        for module, level in imports_in(path):
            if level > 1:
                bad.append(f"{path.name}: reaches above the package ({'.' * level}{module})")
                continue
            if level == 1:
                continue  # a sibling inside _runtime/
            top = module.split(".")[0]
            if top in sys.stdlib_module_names or top in ALLOWED_THIRD_PARTY:
                continue
            if (path.name, top) in OPTIONAL_LAZY:
                continue
            bad.append(f"{path.name}: imports {module}")
    assert bad == []


def test_optional_clients_are_imported_only_inside_functions() -> None:
    for name, module in OPTIONAL_LAZY:
        tree = ast.parse((RUNTIME / name).read_text(encoding="utf-8"))
        direct = [
            n.names[0].name if isinstance(n, ast.Import) else n.module
            for n in tree.body
            if isinstance(n, (ast.Import, ast.ImportFrom))
        ]
        assert module not in [str(d).split(".")[0] for d in direct], name
