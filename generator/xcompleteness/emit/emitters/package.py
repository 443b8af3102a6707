"""The package shell: ``NAME/__init__.py`` and ``NAME/_contracts.json``.

``_contracts.json`` is data, never code: the canonical contracts of every generated operation and
the registry entries the package uses (plus the client codes), written with sorted keys so the
output is byte-identical between runs. The runtime reads it; templates never inline it.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from xcompleteness.emit._json import dumps_indented
from xcompleteness.emit._render import Renderer
from xcompleteness.ir import SpecIR

__all__ = ["contracts_document", "emit"]


def contracts_document(spec: SpecIR) -> dict[str, Any]:
    used = [c.code for c in (*spec.reason_codes, *spec.warning_codes)]
    return {
        "contracts": {
            op.operation_id: spec.contracts[op.operation_id].to_dict() for op in spec.operations
        },
        "package": spec.package,
        "registry": spec.registry.to_dict(used),
        "title": spec.title,
        "version": spec.version,
    }


def emit(spec: SpecIR, renderer: Renderer) -> dict[PurePosixPath, str]:
    init = renderer.render(
        "package/__init__.py.jinja",
        spec=spec,
        has_client=True,  # the client emitter is always registered (emitters/registry.py)
    )
    data = dumps_indented(contracts_document(spec), default=None) + "\n"
    return {PurePosixPath("__init__.py"): init, PurePosixPath("_contracts.json"): data}
