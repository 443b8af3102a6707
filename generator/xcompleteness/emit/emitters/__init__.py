"""The emitters; each turns the IR into files. The ones that run, in order: :mod:`.registry`.

Contract for every emitter module ``xcompleteness.emit.emitters.<name>``::

    def emit(spec: SpecIR, renderer: Renderer) -> dict[PurePosixPath, str]

Paths are RELATIVE TO THE PACKAGE FOLDER (``models.py``, ``tools/mcp.json``); the pipeline
prefixes ``NAME/`` and refuses absolute paths, ``..`` and two emitters claiming one path. An
emitter registered with ``out_relative=True`` (``project``: ``pyproject.toml``, ``README.md``)
gives paths relative to OUT instead.
Emitters are pure (no disk writes, no network); formatting happens later in :mod:`format`.

Every emitter is imported explicitly by :mod:`.registry` (no lookup by name): a misspelt or
missing emitter is an ImportError when the generator is imported, and type checkers see each one.
This package's ``__init__`` imports no emitter, so emitters can import :class:`EmitError` from it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xcompleteness.diagnostics import Diagnostic

__all__ = ["EmitError"]


class EmitError(Exception):
    """An emitter cannot model part of the spec; carries the diagnostics (generation is refused)."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        super().__init__("; ".join(d.message for d in self.diagnostics))
