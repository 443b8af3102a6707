"""The ``$ref`` policy applied while loading.

Local refs must not form a ref-to-ref cycle (tools would spin: ``XC010``) and should point at
something (``XC014``, a finding, not fatal); URLs are always refused (no network: ``XC009``);
other files are refused (``XC008``) unless ``allow_external_refs``, and then only inside the
spec's folder (``XC011``), with the refs inside those files checked the same way.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

from xcompleteness.diagnostics import Diagnostic, InputError, Severity, pointer_join
from xcompleteness.document import iter_refs, ref_pointer, resolve_ref
from xcompleteness.load._limits import (
    DANGLING_REF,
    EXTERNAL_REF,
    REF_CYCLE,
    REF_OUTSIDE,
    URL_REF,
    Limits,
)
from xcompleteness.load._parse import load_data

if TYPE_CHECKING:
    from xcompleteness.load._source import SourceDoc

__all__ = ["check_refs"]

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def check_refs(
    doc: SourceDoc,
    *,
    allow_external_refs: bool = False,
    limits: Limits | None = None,
    refs: list[tuple[str, str]] | None = None,
) -> list[Diagnostic]:
    """Apply the ``$ref`` policy; raises :class:`InputError` for refused or cyclic refs."""
    limits = limits or Limits.from_env()
    fatal: list[Diagnostic] = []
    notes: list[Diagnostic] = []
    local: dict[str, str] = {}
    checked_files: set[Path] = set()
    base = doc.path.resolve().parent
    resolvable: dict[str, bool] = {}
    for pointer, ref in refs if refs is not None else iter_refs(doc.data):
        at = pointer_join(pointer, "$ref")
        if ref.startswith("#"):
            local[pointer] = ref
            if ref not in resolvable:
                resolvable[ref] = resolve_ref(doc.data, ref)[0]
            if not resolvable[ref]:
                notes.append(
                    doc.diag(
                        at,
                        DANGLING_REF,
                        f"$ref {ref!r} points at nothing",
                        hint="fix the pointer or add the target",
                        severity=Severity.ERROR,
                    )
                )
            continue
        if _URL.match(ref) or ref.startswith("//"):
            fatal.append(
                doc.diag(
                    at,
                    URL_REF,
                    f"$ref {ref!r} is a URL; the network is never used",
                    hint="download the file next to the spec and refer to it relatively",
                    severity=Severity.ERROR,
                )
            )
            continue
        if not allow_external_refs:
            fatal.append(
                doc.diag(
                    at,
                    EXTERNAL_REF,
                    f"$ref {ref!r} points at another file",
                    hint="bundle the spec, or pass --allow-external-refs",
                    severity=Severity.ERROR,
                )
            )
            continue
        problem = _check_external(base, doc.path, ref, limits, checked_files)
        if problem:
            fatal.append(
                doc.diag(
                    at,
                    REF_OUTSIDE,
                    problem,
                    hint="external refs must stay inside the spec's folder",
                    severity=Severity.ERROR,
                )
            )
    fatal.extend(_ref_cycles(doc, local))
    if fatal:
        raise InputError(fatal)
    return notes


def _check_external(
    base: Path, source: Path, ref: str, limits: Limits, seen: set[Path]
) -> str | None:
    """Check one relative file ref (and, once per file, the refs inside that file)."""
    file_part, _, fragment = ref.partition("#")
    target = (source.resolve().parent / unquote(file_part)).resolve()
    if not target.is_relative_to(base):
        return f"$ref {ref!r} leaves the spec's folder"
    if not target.is_file():
        return f"$ref {ref!r} names a file that does not exist"
    if target not in seen:
        seen.add(target)
        try:
            data, _, _ = load_data(target, str(target), limits)
        except InputError as exc:
            return f"$ref {ref!r}: {exc.diagnostics[0].message}"
        for _, inner in iter_refs(data):
            if inner.startswith("#"):
                continue
            if _URL.match(inner) or inner.startswith("//"):
                return f"$ref {ref!r}: the file refers to a URL ({inner!r})"
            problem = _check_external(base, target, inner, limits, seen)
            if problem:
                return problem
        seen_data = data
    else:
        seen_data = None
    if fragment and seen_data is not None and not resolve_ref(seen_data, "#" + fragment)[0]:
        return f"$ref {ref!r} points at nothing inside that file"
    return None


def _ref_cycles(doc: SourceDoc, local: dict[str, str]) -> list[Diagnostic]:
    """Find chains of local refs that only lead to more refs and come back (never a schema)."""
    out: list[Diagnostic] = []
    done: set[str] = set()
    for start in sorted(local):
        if start in done:
            continue
        chain: list[str] = []
        node = start
        while node in local and node not in chain and node not in done:
            chain.append(node)
            node = ref_pointer(local[node]) or ""
        if node in chain:
            cycle = chain[chain.index(node) :]
            out.append(
                doc.diag(
                    pointer_join(node, "$ref"),
                    REF_CYCLE,
                    "$ref cycle with no schema in between: " + " -> ".join(cycle + [node]),
                    hint="one of these refs must point at a real object",
                    severity=Severity.ERROR,
                )
            )
            done.update(cycle)
        done.update(chain)
    return out
