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

from support.gen import generate_example
from support.paths import EXAMPLES


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
    """Generate ``examples/<name>`` as ``package`` into ``dest``."""
    if importlib.util.find_spec("xcompleteness.check") is not None:
        return generate_example(name, dest, package=package)
    return generate_spec(EXAMPLES / name / "openapi.yaml", dest, package)


def generation_files(spec: Path, package: str) -> dict:
    """The generated files (relative to OUT) of ``spec``, without touching the disk."""
    from xcompleteness.generate import generate, generate_from_check

    if importlib.util.find_spec("xcompleteness.check") is not None:
        return generate(spec, (), package).files
    return generate_from_check(_fallback_check(spec), package).files


def generate_spec(spec: Path, dest: Path, package: str) -> Path:
    """Generate any spec file as ``package`` into ``dest``; returns ``dest``."""
    from xcompleteness.write import write_tree

    write_tree(Path(dest), generation_files(spec, package))
    return Path(dest)


TOOLS_SPECS = Path(__file__).resolve().parents[1] / "tools" / "specs"
TOOLS_PACKAGES: dict[str, Path | None] = {
    "xct_items": TOOLS_SPECS / "items.yaml",
    "xct_hostile": TOOLS_SPECS / "hostile.yaml",
    "xct_svc": None,  # examples/service_accounts
}


def load_tools_json(folder: Path, name: str) -> Any:
    """``NAME/tools/<name>`` parsed."""
    import json

    return json.loads((folder / "tools" / name).read_text(encoding="utf-8"))
