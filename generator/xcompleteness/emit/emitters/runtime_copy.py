"""Copy the shared runtime (``generator/xcompleteness/runtime/*.py``) into ``NAME/_runtime/``.

Why verbatim: the runtime is ordinary, directly tested code; the generated package must behave
exactly like the tested modules, so they are copied byte for byte (and not reformatted).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from xcompleteness.emit._render import Renderer
from xcompleteness.ir import SpecIR
from xcompleteness.resources import runtime_dir

__all__ = ["emit"]

_INIT = '"""Shared x-completeness runtime, copied verbatim by the generator."""\n'


def emit(spec: SpecIR, renderer: Renderer) -> dict[PurePosixPath, str]:
    out: dict[PurePosixPath, str] = {}
    for path in sorted(runtime_dir().glob("*.py")):
        out[PurePosixPath("_runtime", path.name)] = path.read_bytes().decode("utf-8")
    out.setdefault(PurePosixPath("_runtime", "__init__.py"), _INIT)
    return out
