"""Placeholder: the augmented emitter lands in a following commit."""

from __future__ import annotations

from pathlib import PurePosixPath

from xcompleteness.ir import SpecIR
from xcompleteness.render import Renderer


def emit(spec: SpecIR, renderer: Renderer) -> dict[PurePosixPath, str]:
    return {}
