"""The emitters, in the order they run; each turns the IR into files.

Contract for every emitter module ``xcompleteness.emitters.<name>``::

    def emit(spec: SpecIR, renderer: Renderer) -> dict[PurePosixPath, str]

Paths are RELATIVE TO THE PACKAGE FOLDER (``models.py``, ``tools/mcp.json``); the pipeline
prefixes ``NAME/`` and refuses absolute paths, ``..`` and two emitters claiming one path. An
emitter whose module sets ``OUT_RELATIVE = True`` (``project``: ``pyproject.toml``,
``README.md``) gives paths relative to OUT instead.
Emitters are pure (no disk writes, no network); formatting happens later in :mod:`format`.

``client`` and ``tools`` are built by other modules; while such a module does not exist the
pipeline skips it and reports ``XC606`` (info) — any other import error is raised, never hidden.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Collection, Sequence
from types import ModuleType

from xcompleteness.diagnostics import Diagnostic


class EmitError(Exception):
    """An emitter cannot model part of the spec; carries the diagnostics (generation is refused)."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        super().__init__("; ".join(d.message for d in self.diagnostics))


ORDER: tuple[str, ...] = (
    "package",
    "project",
    "runtime_copy",
    "models",
    "server",
    "augmented",
    "client",
    "tools",
)
OPTIONAL: frozenset[str] = frozenset({"client", "tools"})


def module_name(name: str) -> str:
    return f"{__name__}.{name}"


def available(name: str) -> bool:
    """True when the emitter module ``name`` is installed (used to wire optional re-exports)."""
    return importlib.util.find_spec(module_name(name)) is not None


def load(only: Collection[str] | None = None) -> tuple[list[tuple[str, ModuleType]], list[str]]:
    """Import the emitters in order (or just ``only``); returns (loaded, skipped optional names)."""
    loaded: list[tuple[str, ModuleType]] = []
    skipped: list[str] = []
    for name in ORDER:
        if only is not None and name not in only:
            continue
        try:
            loaded.append((name, importlib.import_module(module_name(name))))
        except ModuleNotFoundError as exc:
            if name in OPTIONAL and exc.name == module_name(name):
                skipped.append(name)
                continue
            raise
    return loaded, skipped
