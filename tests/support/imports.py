"""What a module's source imports, read with ``ast`` (the import-layering tests share it)."""

from __future__ import annotations

import ast
from pathlib import Path


def imports_in(source: str | Path) -> list[tuple[str, int]]:
    """``(module, level)`` of every import in ``source`` (a path or Python text), in any scope.

    ``import a.b`` gives ``("a.b", 0)``; ``from ..x import y`` gives ``("x", 2)``.
    """
    text = source.read_text(encoding="utf-8") if isinstance(source, Path) else source
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found.extend((alias.name, 0) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module or "", node.level))
    return found
