"""Helpers for the vocabulary tests: a SourceDoc-like wrapper and contract extraction."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xcompleteness.declare._contract import normalize, operation_ref
from xcompleteness.declare._vocabulary import load_registry, validate_declarations
from xcompleteness.load import load_spec

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GOLDEN = ROOT / "tests" / "vocab" / "golden"
EXAMPLE_NAMES = ("service_accounts", "link_header_search")


@dataclass(frozen=True)
class Doc:
    """The three SourceDoc fields the vocabulary reads."""

    data: Any
    lines: Mapping[str, int] = field(default_factory=dict)
    origin: str = "test.yaml"


def doc_with(decl: Any, *, registry: Any = None, extra_ops: Mapping[str, Any] | None = None) -> Doc:
    """A minimal document with ``decl`` as the x-completeness of GET /things."""
    paths: dict[str, Any] = {
        "/things": {"get": {"operationId": "listThings", "x-completeness": decl}}
    }
    paths.update(extra_ops or {})
    data: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": paths,
    }
    if registry is not None:
        data["x-completeness-registry"] = registry
    return Doc(data)


DECL = "/paths/~1things/get/x-completeness"


def codes_at(decl: Any, **kw: Any) -> set[tuple[str, str]]:
    """(code, pointer relative to the declaration) of every diagnostic for ``decl``."""
    out = set()
    for d in validate_declarations(doc_with(decl, **kw)):
        pointer = d.pointer[len(DECL) :] if d.pointer.startswith(DECL) else d.pointer
        out.add((d.code, pointer))
    return out


def contracts_of(path: Path) -> dict[str, dict[str, Any]]:
    """operationId -> canonical contract for every declaration of the spec at ``path``."""
    doc = load_spec(path)
    registry = load_registry(doc.data)
    out = {}
    for op in doc.views.operations:
        if op.declared:
            ref = operation_ref(op)
            contract = normalize(op.declaration, op=ref, registry=registry)
            out[str(ref.operation_id)] = contract.to_dict()
    return out


def every_field(value: Any) -> Any:
    """``value`` with every dataclass field spelt out, ``compare=False`` ones too (the parsed
    forms beside each expression), so two contracts compare equal only if all of it agrees."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (
            type(value).__name__,
            {f.name: every_field(getattr(value, f.name)) for f in dataclasses.fields(value)},
        )
    if isinstance(value, Mapping):
        return {k: every_field(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [every_field(v) for v in value]
    return value


def loads_back_equal(contract: Any) -> bool:
    """The runtime's one loader reads what the generator built back into the same object."""
    from xcompleteness.runtime.contract import Contract

    again = Contract.from_dict(json.loads(json.dumps(contract.to_dict())), strict=False)
    return every_field(again) == every_field(contract)
