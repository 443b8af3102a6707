"""The Jinja2 environment every emitter renders with.

Why these settings: ``StrictUndefined`` makes a missing IR attribute an error instead of an empty
string in generated code; autoescape is off because the output is Python, not HTML — escaping of
spec text is done explicitly with the ``py_str`` / ``py_doc`` / ``py_docblock`` / ``py_comment``
/ ``py_ident`` filters from :mod:`xcompleteness.emit._escape`. Templates live in ``templates/`` and
mirror the output tree (``templates/package/models.py.jinja`` renders ``NAME/models.py``);
``_``-prefixed files are partials.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

from xcompleteness.emit._escape import py_comment, py_doc, py_docblock, py_ident, py_str
from xcompleteness.resources import templates_dir

__all__ = ["Renderer"]


class Renderer:
    """Render templates by path relative to ``templates/``."""

    def __init__(self, root: Path | None = None) -> None:
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(root or templates_dir())),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.filters.update(
            py_str=py_str,
            py_doc=py_doc,
            py_docblock=py_docblock,
            py_comment=py_comment,
            py_ident=py_ident,
        )

    def render(self, template: str, **ctx: Any) -> str:
        return self.env.get_template(template).render(**ctx)
