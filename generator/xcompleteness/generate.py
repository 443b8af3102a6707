"""``xcompleteness generate``: checked spec -> IR -> emitters -> ruff -> writer (or ``--check``).

Every stage before the writer is pure and works on an in-memory ``dict[PurePosixPath, str]``
(like sqlc), so ``--check`` is a comparison with the disk, not a second code path. Generation is
refused (exit 1, with the check diagnostics) when the spec has errors; every declared operation
is either generated or reported (``XC605``) — nothing is dropped silently.

The command is :func:`xcompleteness.api.generate` (this pipeline, then :mod:`write`) and its
formatting in :mod:`xcompleteness.cli`; this module prints nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from xcompleteness.diagnostics import (
    Diagnostic,
    InputError,
    Severity,
    has_errors,
    render_text,
)
from xcompleteness.emitters import EmitError
from xcompleteness.format import format_files
from xcompleteness.ir import SpecIR, build_ir
from xcompleteness.naming import check_package_name, default_package_name
from xcompleteness.progress import stage
from xcompleteness.render import Renderer


class GenerationRefused(Exception):
    """The spec has errors (or a declared operation cannot be generated); carries diagnostics."""

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics = tuple(diagnostics)
        super().__init__(render_text(self.diagnostics))


@dataclass
class Generation:
    """The result of the pure pipeline: files relative to OUT, and the non-error diagnostics."""

    files: dict[PurePosixPath, str]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    ir: SpecIR | None = None


def _package_for(result: Any, package: str | None) -> str:
    if package is None:
        info = result.doc.data.get("info") or {}
        package = default_package_name(str(info.get("title") or "api"))
    problem = check_package_name(package)
    if problem:
        raise InputError(
            [
                Diagnostic(
                    file="--package",
                    pointer="",
                    code="XC601",
                    severity=Severity.ERROR,
                    message=f"{problem}: {package!r}",
                    hint="pass --package with a lower-case Python identifier such as my_api",
                )
            ]
        )
    return package


def _safe_rel(name: str, rel: PurePosixPath) -> PurePosixPath:
    if rel.is_absolute() or ".." in rel.parts or not rel.parts:
        raise RuntimeError(f"emitter {name} produced an unsafe path {rel}")
    return rel


def generate_from_check(
    result: Any,
    package: str | None = None,
    *,
    only: Collection[str] | None = None,
    tests: bool = False,
) -> Generation:
    """Run IR, emitters (all, or ``only`` those named) and formatting on a ``CheckResult``.

    ``tests``: also write the contract test suite ``tests/`` beside the package (docs/testing.md).
    """
    diagnostics = list(result.diagnostics)
    if has_errors(diagnostics):
        raise GenerationRefused([d for d in diagnostics if d.severity is Severity.ERROR])
    name = _package_for(result, package)
    stage("building the IR")
    ir = build_ir(result, name)
    diagnostics.extend(ir.diagnostics)
    if has_errors(ir.diagnostics):
        raise GenerationRefused([d for d in ir.diagnostics if d.severity is Severity.ERROR])
    from xcompleteness.emitters.registry import selected  # every emitter: imported when run

    renderer = Renderer()
    files: dict[PurePosixPath, str] = {}
    owner: dict[PurePosixPath, str] = {}
    for emitter in selected(only):
        stage(f"rendering {emitter.name}")
        try:
            emitted = emitter.emit(ir, renderer)
        except EmitError as exc:
            raise GenerationRefused(exc.diagnostics) from None
        base = PurePosixPath() if emitter.out_relative else PurePosixPath(name)
        for rel, text in emitted.items():
            path = base / _safe_rel(emitter.name, PurePosixPath(rel))
            if path in files:
                raise RuntimeError(f"emitters {owner[path]} and {emitter.name} both produce {path}")
            files[path] = text
            owner[path] = emitter.name
    if tests:
        from xcompleteness.emitters.contract_tests import emit_tests

        for rel, text in emit_tests(ir, renderer).items():
            files[_safe_rel("contract_tests", PurePosixPath(rel))] = text
    stage("formatting")
    return Generation(files=format_files(files), diagnostics=diagnostics, ir=ir)


def generate(
    spec: str | Path,
    overlays: Sequence[str | Path] = (),
    package: str | None = None,
    *,
    allow_external_refs: bool = False,
    tests: bool = False,
) -> Generation:
    """The whole pure pipeline from a spec path (raises InputError / GenerationRefused)."""
    from xcompleteness.check import check_spec

    result = check_spec(spec, overlays, allow_external_refs=allow_external_refs)
    return generate_from_check(result, package, tests=tests)


def generate_files(
    spec: str | Path,
    overlays: Sequence[str | Path] = (),
    package: str | None = None,
    *,
    allow_external_refs: bool = False,
) -> dict[PurePosixPath, str]:
    """Files (relative to OUT) generated from ``spec``; pure, nothing touches the disk."""
    return generate(spec, overlays, package, allow_external_refs=allow_external_refs).files


def summary(gen: Generation) -> str:
    """What was generated and what was skipped, and why (one paragraph)."""
    from collections import Counter

    from xcompleteness.contract import NOT_A_LISTING, iter_operations

    kinds = Counter(str(op.kind) for op in gen.ir.operations)
    made = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "none"
    total = skipped_none = undeclared = 0
    names: list[str] = []
    for _path, _method, operation, _pointer in iter_operations(gen.ir.document):
        total += 1
        decl = operation.get("x-completeness")
        if isinstance(decl, dict) and decl.get("kind") == NOT_A_LISTING:
            skipped_none += 1
            op_id = operation.get("operationId")
            names.append(op_id if isinstance(op_id, str) else "(no operationId)")
        elif decl is None:
            undeclared += 1
    listings = sum(d.code == "XC100" for d in gen.diagnostics)
    parts = [f"summary: {len(gen.ir.operations)} of {total} operation(s) generated ({made})"]
    if undeclared:
        why = (
            f"; {listings} look like listings (XC100): run xcompleteness audit" if listings else ""
        )
        parts.append(
            f"{undeclared} without a declaration skipped (only declared operations are "
            f"generated{why})"
        )
    if skipped_none:
        shown = ", ".join(sorted(names)[:5]) + (", ..." if len(names) > 5 else "")
        parts.append(
            f"skipped {skipped_none} operation(s) declared kind: none (not listings: {shown})"
        )
    return "; ".join(parts)
