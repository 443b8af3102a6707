"""``xcompleteness generate``: render, escape, format and write the generated package.

May import: every stage below it, ``runtime``, ``diagnostics``, ``resources``, ``progress``.
"""

from xcompleteness.emit._generate import GenerationRefused, generate, summary
from xcompleteness.emit._write import diff_tree, write_tree

__all__ = ["GenerationRefused", "diff_tree", "generate", "summary", "write_tree"]
