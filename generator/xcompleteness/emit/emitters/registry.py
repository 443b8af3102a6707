"""The emitters that ``generate`` runs, in order, each imported explicitly.

A tuple of imported modules' ``emit`` functions instead of ``importlib`` lookups by name: a typo
or a missing emitter fails at import time, and a type checker checks every ``emit`` against
:data:`EmitFn`. To add an emitter, import its module here and append an :class:`Emitter`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import PurePosixPath

from xcompleteness.emit._render import Renderer
from xcompleteness.emit.emitters import (
    augmented,
    client,
    models,
    package,
    project,
    runtime_copy,
    server,
    tools,
)
from xcompleteness.ir import SpecIR

__all__ = ["EMITTERS", "EmitFn", "Emitter", "NAMES", "selected"]

EmitFn = Callable[[SpecIR, Renderer], dict[PurePosixPath, str]]
"""``emit(spec, renderer) -> {relative path: text}``: every emitter's one entry point."""


@dataclass(frozen=True)
class Emitter:
    """One registered emitter: its name (diagnostics, ``only=``) and its ``emit`` function."""

    name: str
    emit: EmitFn
    out_relative: bool = False
    """Paths are relative to OUT (``pyproject.toml``), not to the package folder."""


EMITTERS: tuple[Emitter, ...] = (
    Emitter("package", package.emit),
    Emitter("project", project.emit, out_relative=project.OUT_RELATIVE),
    Emitter("runtime_copy", runtime_copy.emit),
    Emitter("models", models.emit),
    Emitter("server", server.emit),
    Emitter("augmented", augmented.emit),
    Emitter("client", client.emit),
    Emitter("tools", tools.emit),
)

NAMES: tuple[str, ...] = tuple(e.name for e in EMITTERS)


def selected(only: Collection[str] | None = None) -> tuple[Emitter, ...]:
    """All emitters in order, or just those named in ``only`` (an unknown name is a ValueError)."""
    if only is None:
        return EMITTERS
    unknown = sorted(set(only) - set(NAMES))
    if unknown:
        raise ValueError(f"no emitter named {', '.join(map(repr, unknown))}; known: {NAMES}")
    return tuple(e for e in EMITTERS if e.name in only)
