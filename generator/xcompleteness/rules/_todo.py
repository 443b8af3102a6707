"""Rule XC900: TODO markers left in ``x-completeness`` declarations (drafts written by ``audit``).

``xcompleteness audit --emit-overlay`` writes draft declarations whose open questions sit in an
``x-todo`` list (the vocabulary allows ``x-`` keys, so a draft validates). Until a person settles
them, each entry is one warning, so ``check --strict`` fails on an unreviewed draft and ``check``
on spec plus draft lists exactly the work left. A string value that starts with ``TODO`` anywhere
inside a declaration is reported the same way (people write those by hand); only upper-case
``TODO`` as a word counts, so a resource called ``todo`` is not one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from xcompleteness.diagnostics import Diagnostic, Severity, pointer_join
from xcompleteness.document import DECLARATION_KEY, operation_nodes
from xcompleteness.rules._catalog import TODO_KEY

__all__ = ["TODO_CODE", "TODO_KEY", "todo_diagnostics"]

TODO_CODE = "XC900"
# Upper-case TODO as a word: a resource named "todo" (a to-do app's listing) is not a marker.
_TODO_TEXT = re.compile(r"\s*TODO\b")
_HINT = "settle it and delete the entry (x-todo lists what a draft could not infer)"


def todo_diagnostics(doc: Any) -> list[Diagnostic]:
    """One XC900 warning per TODO in the document's declarations (``doc`` is a SourceDoc)."""
    out: list[Diagnostic] = []
    for pointer, decl in _declarations(doc):
        for ptr, message in _todos(decl, pointer):
            file, line = _locate(doc, ptr)
            out.append(
                Diagnostic(
                    file=file,
                    pointer=ptr,
                    code=TODO_CODE,
                    severity=Severity.WARNING,
                    message=f"TODO left in a declaration: {message}",
                    hint=_HINT,
                    line=line,
                )
            )
    return out


def _locate(doc: Any, pointer: str) -> tuple[str, int | None]:
    """File and line of ``pointer``: the overlay's own line for a TODO an overlay wrote."""
    locate = getattr(doc, "locate", None)
    if callable(locate):
        return locate(pointer)
    lines: Mapping[str, int] = getattr(doc, "lines", {}) or {}
    return str(getattr(doc, "origin", "")), lines.get(pointer)


def _declarations(doc: Any) -> Iterator[tuple[str, Any]]:
    for op, pointer in operation_nodes(doc):
        if DECLARATION_KEY in op:
            yield pointer_join(pointer, DECLARATION_KEY), op[DECLARATION_KEY]


def _todos(node: Any, pointer: str, depth: int = 0) -> Iterator[tuple[str, str]]:
    if depth > 32:
        return
    if isinstance(node, str):
        if _TODO_TEXT.match(node):
            yield pointer, node
    elif isinstance(node, dict):
        for key, value in node.items():
            child = pointer_join(pointer, key)
            if key == TODO_KEY:
                entries = value if isinstance(value, list) else [value]
                for i, entry in enumerate(entries):
                    ptr = pointer_join(child, i) if isinstance(value, list) else child
                    yield ptr, entry if isinstance(entry, str) else repr(entry)
            else:
                yield from _todos(value, child, depth + 1)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _todos(value, pointer_join(pointer, i), depth + 1)
