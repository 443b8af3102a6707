"""The front pipeline shared by ``check``, ``audit`` and ``generate``.

``load -> overlays -> OpenAPI validation -> vocabulary (JSON Schema) -> normalize -> rules``.
Unusable input stops at the first two stages with :class:`InputError` (exit 2); everything
after that collects diagnostics, so one run reports every finding. Diagnostics about nodes an
overlay wrote are re-pointed at the overlay file and its line.

The ``check`` command itself is :func:`xcompleteness.api.check` (results and exit code) and its
formatting in :mod:`xcompleteness.cli`; this module prints nothing.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from xcompleteness.diagnostics import Diagnostic, Severity
from xcompleteness.document import DEFAULTS_KEY
from xcompleteness.load import SourceDoc, load_document
from xcompleteness.progress import stage
from xcompleteness.runtime.contract import Contract, Registry

__all__ = ["CheckResult", "check_spec", "show_effective", "summary", "validated"]


def _standard_registry() -> Registry:
    from xcompleteness.declare import standard_registry

    return standard_registry()


@dataclass
class CheckResult:
    """What the front pipeline learned: the final document, findings and validated contracts."""

    doc: SourceDoc
    diagnostics: list[Diagnostic] = field(default_factory=list)
    contracts: dict[str, Contract] = field(default_factory=dict)
    """operationId -> canonical contract, only for declarations without schema errors."""
    registry: Registry = field(default_factory=_standard_registry)
    """The codes the document may use (the standard set plus its ``x-completeness-registry``)."""

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.diagnostics)


def check_spec(
    spec: str | os.PathLike[str],
    overlays: Sequence[str | os.PathLike[str]] = (),
    *,
    allow_external_refs: bool = False,
    today: _dt.date | None = None,
    validate: bool = True,
    on_loaded: Callable[[SourceDoc], object] | None = None,
) -> CheckResult:
    """Run the whole front pipeline on ``spec`` (raises InputError for unusable input).

    ``validate=False`` leaves out the OpenAPI validation stage (``generate`` runs it in a second
    process at the same time and merges its diagnostics: :mod:`xcompleteness.check._prevalidate`);
    ``on_loaded`` is called with the document once it is loaded and the overlays are applied
    (where ``generate`` starts that process)."""
    stage("loading the spec")
    doc = load_document(spec, list(overlays), allow_external_refs=allow_external_refs)
    if on_loaded is not None:
        on_loaded(doc)
    from xcompleteness.declare import load_registry, validate_declarations
    from xcompleteness.rules import run_rules

    diagnostics: list[Diagnostic] = list(doc.diagnostics)
    if validate:
        stage("validating the OpenAPI document")
        diagnostics.extend(validated(doc))
    stage("validating declarations")
    vocab = validate_declarations(doc)
    diagnostics.extend(vocab)
    registry = load_registry(doc.data)
    contracts = _contracts(doc, vocab, registry)
    stage("running rules")
    diagnostics.extend(run_rules(doc, contracts, registry, today=today))
    diagnostics.extend(_todo_diagnostics(doc))
    return CheckResult(
        doc=doc,
        diagnostics=relocated(doc, diagnostics),
        contracts=contracts,
        registry=registry,
    )


def validated(doc: SourceDoc) -> list[Diagnostic]:
    """``validate_openapi(doc)``, or ``[]`` when a store holds a clean verdict for a document that
    differs from ``doc`` at most in ``x-completeness`` values (:mod:`xcompleteness.check._verdict`);
    a fresh clean verdict is recorded there."""
    from xcompleteness.check import _verdict

    clean, key = _verdict.known_clean(doc)
    if clean:
        return []
    # Imported here: unusable input (and a reused verdict) never loads the validator stack.
    from xcompleteness.check._validate import validate_openapi

    found = validate_openapi(doc)
    _verdict.record(key, found)
    return found


def expected_contracts(doc: SourceDoc) -> tuple[dict[str, Contract], Registry]:
    """The contracts and registry :func:`check_spec` gives ``doc`` when its vocabulary stage
    finds no error, computed before that stage runs (``generate`` starts the item models from
    them on another core; a declaration with an error refuses generation anyway). Declarations
    are not checked here: anything may raise on malformed ones."""
    from xcompleteness.declare import load_registry

    registry = load_registry(doc.data)
    return _contracts(doc, (), registry), registry


def _contracts(
    doc: SourceDoc, vocab: Sequence[Diagnostic], registry: Registry
) -> dict[str, Contract]:
    """The typed contract of every declaration the vocabulary stage found no error in (none
    for ``kind: none``)."""
    from xcompleteness.declare import document_defaults, normalize, operation_ref

    bad = [d.pointer for d in vocab if d.severity is Severity.ERROR]
    if any(p.startswith("/" + DEFAULTS_KEY) for p in bad):
        return {}  # a broken defaults block would change every listing: nothing is trusted
    defaults = document_defaults(doc.data)
    contracts: dict[str, Contract] = {}
    for op in doc.views.operations:
        decl, op_id = op.declaration, op.operation_id
        if not isinstance(decl, dict) or op_id is None or op_id in contracts:
            continue  # missing and duplicate operationIds are rule findings (XC101/XC102)
        at = op.declaration_pointer
        if any(p == at or p.startswith(at + "/") for p in bad):
            continue
        contract = normalize(decl, op=operation_ref(op), registry=registry, defaults=defaults)
        if not contract.not_a_listing:  # recorded as not a listing: nothing generated
            contracts[op_id] = contract
    return contracts


def _todo_diagnostics(doc: SourceDoc) -> list[Diagnostic]:
    """XC900 warnings for drafts left by ``audit`` (the module belongs to the audit stage)."""
    try:
        from xcompleteness.rules import todo_diagnostics
    except ImportError:  # pragma: no cover - the audit stage is optional
        return []
    return todo_diagnostics(doc)


def relocated(doc: SourceDoc, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Point diagnostics about overlay-written nodes at the overlay file; fill missing lines."""
    out: list[Diagnostic] = []
    seen: set[Diagnostic] = set()
    for d in diagnostics:
        if d.file == doc.origin:
            file, line = doc.locate(d.pointer)
            if file != d.file or d.line is None:
                d = replace(d, file=file, line=line)
        if d not in seen:
            seen.add(d)
            out.append(d)
    return out


def show_effective(result: CheckResult, operation_id: str) -> dict[str, Any] | Diagnostic:
    """The merged declaration of one operation, what the defaults added, and its contract."""
    from xcompleteness.declare import defaulted_keys, document_defaults, effective_declaration

    for op in result.doc.views.operations:
        if op.operation_id != operation_id:
            continue
        decl = op.declaration
        merged = effective_declaration(decl, document_defaults(result.doc.data))
        return {
            "operation_id": operation_id,
            "pointer": op.declaration_pointer,
            "declared": decl is not None,
            "effective": merged,
            "from_defaults": defaulted_keys(decl, merged),
            "contract": _contract_dict(result.contracts.get(operation_id)),
        }
    return Diagnostic(
        file=result.doc.origin,
        pointer="",
        code="XC150",
        severity=Severity.ERROR,
        message=f"--show-effective: no operation has operationId {operation_id!r}",
        hint="give the operationId exactly as the spec spells it",
    )


def summary(result: CheckResult) -> str:
    """One paragraph: the counts, and what was skipped or defaulted and why."""
    from xcompleteness.declare import document_defaults, not_a_listing

    errors = sum(d.severity is Severity.ERROR for d in result.diagnostics)
    warnings = sum(d.severity is Severity.WARNING for d in result.diagnostics)
    declared = len(result.contracts)
    ignored = sum(not_a_listing(op.declaration) for op in result.doc.views.operations)
    undeclared = sum(d.code == "XC100" for d in result.diagnostics)
    todos = sum(d.code == "XC900" for d in result.diagnostics)
    parts = [
        f"{result.doc.origin}: {errors} error(s), {warnings} warning(s); "
        f"{declared} declaration(s) checked"
    ]
    if document_defaults(result.doc.data) is not None:
        listings = sum(1 for c in result.contracts.values() if c.is_listing)
        parts.append(f"x-completeness-defaults merged into {listings} listing(s)")
    if ignored:
        parts.append(f"{ignored} operation(s) declared kind: none (not listings, not checked)")
    if undeclared:
        parts.append(f"{undeclared} listing(s) without a declaration (XC100)")
    if todos:
        parts.append(f"{todos} TODO(s) left in drafts (XC900)")
    return "; ".join(parts)


def _contract_dict(contract: Contract | None) -> dict[str, Any] | None:
    return None if contract is None else contract.to_dict()
