"""Generate a package for the tools tests, with or without ``xcompleteness.check`` available.

Uses the real pipeline (``support.gen.generate_example``) when the check stage exists; before it
lands, it builds the CheckResult from the real loader, vocabulary registry and contract
normaliser, then runs the real ``generate_from_check`` (IR -> emitters -> ruff).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from support.gen import example_inputs, generate_example


@dataclass
class _Check:
    doc: Any
    contracts: dict[str, dict]
    registry: Any
    diagnostics: list = field(default_factory=list)


def _fallback_check(spec: Path) -> _Check:
    from xcompleteness.contract import iter_operations, normalize, operation_ref
    from xcompleteness.load import load_spec
    from xcompleteness.vocabulary import load_registry

    doc = load_spec(spec)
    registry = load_registry(doc.data)
    contracts = {}
    for path, method, op, pointer in iter_operations(doc):
        decl = op.get("x-completeness")
        if isinstance(decl, dict) and isinstance(op.get("operationId"), str):
            ref = operation_ref(path, method, op, pointer)
            contracts[op["operationId"]] = normalize(decl, op=ref, registry=registry)
    return _Check(doc, contracts, registry.to_canonical())


def generate_for_tools(name: str, dest: Path, package: str) -> Path:
    if importlib.util.find_spec("xcompleteness.check") is not None:
        return generate_example(name, dest, package=package)
    from xcompleteness.generate import generate_from_check
    from xcompleteness.write import write_tree

    spec, _overlays = example_inputs(name)
    gen = generate_from_check(_fallback_check(spec), package)
    write_tree(Path(dest), gen.files)
    return Path(dest)
