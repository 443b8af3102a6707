"""A JSON ``number`` keeps the value the API sent: ``1001`` stays ``1001``, never ``1001.0``.

Why: datamodel-code-generator types a schema ``type: number`` as ``float``, and pydantic turns
the integer ``1001`` an API sends into ``1001.0``. Every later reader then saw a value the API
never sent: a tool answer showed the model ``"TemplateId": 1001.0`` (which it may send back as a
path parameter, ``/templates/1001.0``), a client caller formatting the id did the same, and an
integer past 2**53 lost digits. So the library's item module is rewritten once, here: every
``float`` it names in a type becomes ``JsonNumber`` (``_base.py``), ``int | float`` for type
checkers, validated by one core schema: an exact JSON integer stays that ``int``, anything else
takes pydantic's ``float`` path as before (``1001.0`` stays ``1001.0``, ``"12"`` is 12.0, a
string that is no number fails with pydantic's one ``float_type`` error).

The rewrite is a token edit at the positions ``ast`` reports for each ``float`` name that is
read (``Load``), so nothing else in the text changes; a module that does not parse is left as
it is (the split reports it).
"""

from __future__ import annotations

import ast

__all__ = ["NUMBER_TYPE", "keep_json_numbers"]

NUMBER_TYPE = "JsonNumber"
"""The name ``_base.py`` defines and the item modules import (reserved: no class takes it)."""


def keep_json_numbers(source: str, base_module: str) -> str:
    """``source`` with every ``float`` type replaced by :data:`NUMBER_TYPE`, imported from
    ``.<base_module>`` beside the models' base class."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    spots = sorted(
        (node.lineno, node.col_offset, node.end_col_offset or node.col_offset)
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and node.id == "float" and isinstance(node.ctx, ast.Load)
    )
    if not spots:
        return source
    lines = source.splitlines(keepends=True)
    for lineno, start, end in reversed(spots):  # right to left: earlier columns stay valid
        line = lines[lineno - 1]
        lines[lineno - 1] = line[:start] + NUMBER_TYPE + line[end:]
    anchor = _base_import(tree)
    line = f"from .{base_module} import {NUMBER_TYPE}\n"
    if anchor is None:
        lines.insert(0, line)
    else:
        lines.insert(anchor, line)
    return "".join(lines)


def _base_import(tree: ast.Module) -> int | None:
    """The line after the last top-level import (where the new import goes), None if none."""
    last = None
    for stmt in tree.body:
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            last = stmt.end_lineno or stmt.lineno
    return last
