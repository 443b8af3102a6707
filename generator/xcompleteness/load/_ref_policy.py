"""The ``$ref`` policy applied while loading.

Local refs must not form a ref-to-ref cycle (tools would spin: ``XC010``) and should point at
something (``XC014``, a finding, not fatal); URLs are always refused (no network: ``XC009``);
other files are refused (``XC008``) unless ``allow_external_refs``, and then only inside the
spec's folder (``XC011``), with the refs inside those files checked the same way.
"""

from __future__ import annotations

import re
from itertools import compress
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

from xcompleteness.diagnostics import Diagnostic, InputError, Severity, pointer_join, shown
from xcompleteness.document import iter_refs, ref_pointer, resolve_pointer, resolve_ref
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


Node = tuple[Path, str]
"""A ``$ref`` object: the file it is in and its JSON pointer there."""


def check_refs(
    doc: SourceDoc,
    *,
    allow_external_refs: bool = False,
    limits: Limits | None = None,
    refs: list[tuple[str, str]] | None = None,
    files_out: list[Path] | None = None,
) -> list[Diagnostic]:
    """Apply the ``$ref`` policy; raises :class:`InputError` for refused or cyclic refs.

    ``files_out`` receives every other file the refs pull in (resolved paths, sorted): inputs
    of the run as much as the spec (the generate cache keys on them).

    This is the one policy for every reference of the document as it will be used: the loader
    runs it after the overlays are applied, so a ``$ref`` an overlay writes is judged like one in
    the spec. Messages never quote the contents of a referenced file.
    """
    limits = limits or Limits.from_env()
    refs = list(iter_refs(doc.data)) if refs is None else refs
    local = _all_local(doc.data, refs)
    if local is not None:  # the common case: every ref local and resolvable (no note, no file)
        cycles = _local_cycles(doc, local)
        if cycles:
            raise InputError(cycles)
        return []
    fatal: list[Diagnostic] = []
    notes: list[Diagnostic] = []
    spec = doc.path.resolve()
    base = spec.parent
    edges: dict[Node, Node] = {}
    checked: dict[Path, object] = {}
    resolvable: dict[str, bool] = {}
    targets: dict[str, Node] = {}  # a local ref -> its target node (a spec repeats its refs)
    for pointer, ref in refs:
        if ref.startswith("#"):
            target = targets.get(ref)
            if target is None:
                target = targets[ref] = (spec, ref_pointer(ref) or "")
                resolvable[ref] = resolve_ref(doc.data, ref)[0]
            edges[(spec, pointer)] = target
            if not resolvable[ref]:
                notes.append(
                    doc.diag(
                        pointer_join(pointer, "$ref"),
                        DANGLING_REF,
                        f"$ref {shown(ref)} points at nothing",
                        hint="fix the pointer or add the target",
                        severity=Severity.ERROR,
                    )
                )
            continue
        at = pointer_join(pointer, "$ref")
        if _URL.match(ref) or ref.startswith("//"):
            fatal.append(
                doc.diag(
                    at,
                    URL_REF,
                    f"$ref {shown(ref)} is a URL; the network is never used",
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
                    f"$ref {shown(ref)} points at another file",
                    hint="bundle the spec, or pass --allow-external-refs",
                    severity=Severity.ERROR,
                )
            )
            continue
        problem = _check_external(base, spec, pointer, ref, limits, checked, edges)
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
    if not fatal:
        fatal.extend(_ref_cycles(doc, spec, edges))
    if fatal:
        raise InputError(fatal)
    if files_out is not None:
        files_out.extend(sorted(checked))
    return notes


def _all_local(data: object, refs: list[tuple[str, str]]) -> dict[str, str] | None:
    """Every ref's pointer -> the pointer its target is at, when every ref is a local one that
    resolves (the policy then has nothing to say but cycles); None otherwise.

    Each distinct ref is read once (GitHub: 1,764 texts for 10,460 refs), the rest is done in C:
    the same edges as the loop below builds, keyed by pointer alone as they are all in the spec.
    """
    to: dict[str, str] = {}
    for ref in set(map(itemgetter(1), refs)):
        pointer = ref_pointer(ref)
        if pointer is None or not resolve_pointer(data, pointer)[0]:
            return None  # another file, a URL or a dangling ref: the loop below says which
        to[ref] = pointer
    pointers, texts = map(itemgetter(0), refs), map(itemgetter(1), refs)
    return dict(zip(pointers, map(to.__getitem__, texts), strict=True))


def _local_cycles(doc: SourceDoc, edges: dict[str, str]) -> list[Diagnostic]:
    """:func:`_ref_cycles` for refs that are all in the spec (nodes are their pointers)."""
    out: list[Diagnostic] = []
    done: set[str] = set()
    for start in sorted(compress(edges, map(edges.__contains__, edges.values()))):
        if start in done:
            continue
        chain: list[str] = []
        node = start
        while node in edges and node not in chain and node not in done:
            chain.append(node)
            node = edges[node]
        if node in chain:
            cycle = chain[chain.index(node) :] + [node]
            out.append(_cycle_error(doc, cycle[0], cycle))
        done.update(chain)
    return out


def _cycle_error(doc: SourceDoc, at: str, cycle: list[str]) -> Diagnostic:
    return doc.diag(
        pointer_join(at, "$ref"),
        REF_CYCLE,
        "$ref cycle with no schema in between: " + " -> ".join(cycle),
        hint="one of these refs must point at a real object",
        severity=Severity.ERROR,
    )


def _check_external(
    base: Path,
    source: Path,
    pointer: str,
    ref: str,
    limits: Limits,
    checked: dict[Path, object],
    edges: dict[Node, Node],
) -> str | None:
    """Check one relative file ref (and, once per file, the refs inside that file).

    Records the ref-to-ref edges on the way (``edges``) for the cycle check. A problem is
    described by the ref and the file's name only, never by what the file holds.
    """
    file_part, _, fragment = ref.partition("#")
    try:  # a name the system refuses (too long, a NUL byte) names no file we can use
        target = (source.parent / unquote(file_part)).resolve()
        inside = target.is_relative_to(base)
        exists = inside and target.is_file()
    except (OSError, ValueError) as exc:
        return f"$ref {shown(ref)} names no file that can be opened ({type(exc).__name__})"
    if not inside:
        return f"$ref {shown(ref)} leaves the spec's folder"
    if not exists:
        return f"$ref {shown(ref)} names a file that does not exist"
    edges[(source, pointer)] = (target, ref_pointer("#" + fragment) or "")
    if target not in checked:
        checked[target] = None
        try:
            data, _, _ = load_data(target, str(target), limits)
        except InputError as exc:
            return f"$ref {shown(ref)}: that file cannot be used ({exc.diagnostics[0].code})"
        checked[target] = data
        for inner_pointer, inner in iter_refs(data):
            if inner.startswith("#"):
                edges[(target, inner_pointer)] = (target, ref_pointer(inner) or "")
                continue
            if _URL.match(inner) or inner.startswith("//"):
                return f"$ref {shown(ref)}: the file refers to a URL ({shown(inner)})"
            problem = _check_external(base, target, inner_pointer, inner, limits, checked, edges)
            if problem:
                return problem
    data = checked[target]
    if fragment and data is not None and not resolve_ref(data, "#" + fragment)[0]:
        return f"$ref {shown(ref)} points at nothing inside that file"
    return None


def _ref_cycles(doc: SourceDoc, spec: Path, edges: dict[Node, Node]) -> list[Diagnostic]:
    """Find chains of refs that only lead to more refs and come back (never a schema), within
    the spec or through other files (``XC010``); reported at the spec's ref that starts it."""
    out: list[Diagnostic] = []
    done: set[Node] = set()
    # Only a ref whose target is itself a ref can be on a cycle; the others (nearly all) end
    # their chain at once and are left out (the cycles found, and where, are the same).
    # (``is`` first: every local ref's node holds ``spec`` itself; Path equality is slow)
    starts = (
        n for n, target in edges.items() if (n[0] is spec or n[0] == spec) and target in edges
    )
    for start in sorted(starts, key=lambda n: n[1]):
        if start in done:
            continue
        chain: list[Node] = []
        node = start
        while node in edges and node not in chain and node not in done:
            chain.append(node)
            node = edges[node]
        if node in chain:
            cycle = chain[chain.index(node) :] + [node]
            in_spec = [n for n in cycle if n[0] == spec]
            at = in_spec[0][1] if in_spec else start[1]
            out.append(_cycle_error(doc, at, [_name(n, spec) for n in cycle]))
        done.update(chain)
    return out


def _name(node: Node, spec: Path) -> str:
    return node[1] if node[0] == spec else f"{node[0].name}#{node[1]}"
