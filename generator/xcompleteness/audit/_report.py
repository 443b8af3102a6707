"""``xcompleteness audit``: list-like operations without a declaration, and a draft overlay.

The command loads the spec (and any ``--overlay`` files) through the same front pipeline as
``check``, runs the analysis of :mod:`xcompleteness.detect` on the resulting document, prints
one entry per undeclared list, search or aggregate operation (why it looks list-like, its
pagination style, the native completeness signals it shows with their JSON pointers, and the TODOs
its draft leaves), and with ``--emit-overlay FILE`` writes the draft Overlay 1.0 file of
:mod:`xcompleteness.audit._draft`.

Exit codes follow the other commands: 0 when every list-like operation is declared, 1 when some
are not (audit is a lint: CI can require a declaration for every listing), 2 for unusable input.
Audit does not validate the OpenAPI document (that is ``check``'s job): it reports on whatever
it can read, so it also helps with specs that do not validate yet.

The command is :func:`xcompleteness.api.audit` (load, overlays, this module's analysis, the
draft) and its formatting in :mod:`xcompleteness.cli`; this module prints nothing.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from xcompleteness.audit._draft import TODO_KEY, draft_declaration, draft_overlay
from xcompleteness.audit._patches import declared_locations, schema_patches
from xcompleteness.audit._responses import EVIDENCE_KEY, assign
from xcompleteness.declare import defaults_diagnostics, document_defaults
from xcompleteness.detect import (
    Excluded,
    Finding,
    jsonpath,
    operation_ids,
    patch_action,
    scan_all,
)
from xcompleteness.diagnostics import Diagnostic, InputError, Severity, pointer_join
from xcompleteness.document import DocumentViews, Operation, deref_at, pointer_tokens, views
from xcompleteness.load import RecordedPage

__all__ = ["DEFAULTS_DOC", "SHARED_TODO", "AuditReport", "audit_document", "write_draft"]

SHARED_TODO = 3
"""A TODO asked word for word of this many drafts is printed once (text output)."""
DEFAULTS_DOC = "docs/adopting.md, 'Answer the common questions once'"


class AuditReport:
    """What one audit found: every list-like operation, and the drafts for the undeclared ones."""

    def __init__(
        self,
        origin: str,
        title: str,
        operation_ids: list[str],
        findings: list[Finding],
        excluded: list[Excluded] | None = None,
        defaults: Mapping[str, Any] | None = None,
        patches: list[dict[str, Any]] | None = None,
        recorded: Mapping[str, list[RecordedPage]] | None = None,
        targets: Mapping[str, str] | None = None,
        defaults_errors: Sequence[Diagnostic] = (),
    ):
        self.origin = origin
        self.defaults_errors = tuple(defaults_errors)
        """What makes ``x-completeness-defaults`` invalid; then ``defaults`` is None (unused)."""
        self.targets = dict(targets or {})
        """Finding pointer -> Overlay target, for listings behind a ``$ref`` path item."""
        self.recorded = dict(recorded or {})
        """Operation pointer -> its recorded responses (``audit --responses``)."""
        self.patches = list(patches or [])
        """Overlay actions adding properties declarations read but the schema lacks (§3)."""
        self.excluded = list(excluded or [])
        self.defaults = defaults
        self.title = title
        self.operation_ids = operation_ids
        self.operations = len(operation_ids)
        self.findings = findings
        self.undeclared = [f for f in findings if not f.declared]
        self.overlay: str | None = None

    def draft(self, f: Finding) -> dict[str, Any]:
        """The finding's draft declaration, cross-checked against its recorded responses."""
        return draft_declaration(f, self.defaults, self.recorded.get(f.pointer))

    def todos(self, f: Finding) -> list[str]:
        return list(self.draft(f)[TODO_KEY])

    def draft_overlay(self) -> dict[str, Any] | None:
        """The draft Overlay 1.0 document ``--emit-overlay`` writes (None: nothing to draft): a
        declaration per undeclared listing, then the schema patches. Take the draft from here:
        a declaration may read a location only its patch adds (a Link header or an items array
        said in prose or shown by an example), so a draft without them fails ``check``."""
        if not (self.undeclared or self.patches):
            return None
        return draft_overlay(
            self.findings,
            self.title,
            self.operation_ids,
            self.defaults,
            self.patches,
            self.recorded,
            self.targets,
        )

    def todo_pointers(self) -> list[str]:
        """JSON pointers (in the spec with the draft applied) of the TODOs of every drafted
        declaration: what ``check`` on spec + :meth:`draft_overlay` reports as XC900."""
        return [
            pointer_join(f.pointer, "x-completeness", TODO_KEY, i)
            for f in self.undeclared
            for i in range(len(self.todos(f)))
        ]

    def evidence(self, f: Finding) -> list[str]:
        return list(self.draft(f).get(EVIDENCE_KEY, []))

    def summary(self) -> str:
        """One paragraph: what was found, drafted, left open, excluded or imported, and why."""
        todos = sum(len(self.todos(f)) for f in self.undeclared)
        per = f"{todos / len(self.undeclared):.2f}" if self.undeclared else "0"
        parts = [
            f"summary: {self.operations} operation(s), {len(self.findings)} list-like "
            f"({len(self.findings) - len(self.undeclared)} declared, "
            f"{len(self.undeclared)} drafted with {todos} TODO(s), {per} per draft)"
        ]
        imported = Counter(f.imported.source for f in self.undeclared if f.imported)
        if imported:
            parts.append(
                "pagination imported from "
                + ", ".join(f"{src} ({n})" for src, n in sorted(imported.items()))
            )
        if self.defaults is not None:
            parts.append("x-completeness-defaults answered what it covers (not asked again)")
        elif self.defaults_errors:
            parts.append(
                f"x-completeness-defaults is not valid ({len(self.defaults_errors)} error(s), "
                "listed above; check reports them too), so none of its answers were used: "
                "every draft asks again"
            )
        asked = sum(
            any(t.startswith("visibility:") for t in self.todos(f)) for f in self.undeclared
        )
        if asked >= 2:
            parts.append(
                f"{asked} drafts ask the same visibility question: answer it once for every "
                f"listing in an x-completeness-defaults overlay ({DEFAULTS_DOC})"
            )
        adds = sum("x-drafted-from" in json.dumps(p) for p in self.patches)
        if adds:
            parts.append(f"drafted {adds} schema patch(es) for locations the schema lacks")
        streams = sum(e.source == "stream" for e in self.excluded)
        ignored = sum(e.source == "declared" for e in self.excluded)
        shared = sum(e.source == "shared" for e in self.excluded)
        files = sum(e.source == "file" for e in self.excluded)
        if streams:
            parts.append(f"excluded {streams} stream(s) (a stream never ends)")
        if files:
            parts.append(f"excluded {files} file response(s) (an export or a download)")
        if shared:
            parts.append(
                f"excluded {shared} listing view(s) of operations reached through several paths "
                "(not declarable: the operationId would repeat)"
            )
        if ignored:
            parts.append(f"excluded {ignored} operation(s) declared kind: none")
        if self.recorded:
            checked = [f for f in self.undeclared if f.pointer in self.recorded]
            notes = sum(len(self.evidence(f)) for f in checked)
            parts.append(
                f"cross-checked {len(checked)} draft(s) against recorded responses "
                f"({notes} finding(s) with evidence)"
            )
        if self.overlay:
            parts.append(f"draft written to {self.overlay}")
        elif self.undeclared:
            parts.append("no draft written (use --emit-overlay FILE)")
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        entries = []
        for f in self.undeclared:
            entry = f.to_json()
            entry["todos"] = self.todos(f)
            entry["evidence"] = self.evidence(f)
            entries.append(entry)
        return {
            "spec": self.origin,
            "operations": self.operations,
            "list_like": len(self.findings),
            "declared": len(self.findings) - len(self.undeclared),
            "undeclared": entries,
            "todos": sum(len(e["todos"]) for e in entries),
            "overlay": self.overlay,
            "excluded": [e.to_json() for e in self.excluded],
            "schema_patches": self.patches,
            "summary": self.summary(),
        }

    def shared_todos(self) -> dict[str, int]:
        """TODO texts asked word for word of ``SHARED_TODO`` or more drafts, with their count:
        the text output prints each once, below the listings, instead of once per listing."""
        counts = Counter(t for f in self.undeclared for t in dict.fromkeys(self.todos(f)))
        return {t: n for t, n in counts.items() if n >= SHARED_TODO}

    def to_text(self) -> str:
        lines = [
            f"{self.origin}: {self.operations} operations, {len(self.findings)} list-like "
            f"({len(self.findings) - len(self.undeclared)} declared, "
            f"{len(self.undeclared)} without a declaration)"
        ]
        shared = self.shared_todos()
        for f in self.undeclared:
            label = f.operation_id or "(no operationId)"
            lines.append(f"{f.method.upper()} {f.path}  {label}  kind={f.kind} style={f.style}")
            lines.append(f"    why: {'; '.join(f.why)}")
            drafted_id = self.draft(f).get("id")  # defaults or recorded responses may answer it
            lines.append(f"    items: {f.items or '?'}  id: {drafted_id or '?'}")
            for s in f.signals:
                lines.append(f"    signal {s.kind}: {s.expression}  (#{s.pointer})")
            for todo in self.todos(f):
                if todo in shared:
                    topic = todo.split(":", 1)[0]
                    n = shared[todo]
                    lines.append(f"    TODO {topic}: the question {n} drafts ask (below)")
                else:
                    lines.append(f"    TODO {todo}")
            for note in self.evidence(f):
                lines.append(f"    evidence {note}")
        for p in self.patches:
            if "x-drafted-from" in json.dumps(p):
                lines.append(f"schema patch {p['target']}: {p['description']}")
                lines.extend(f"    TODO {t}" for t in p.get("x-todo", []))
        for e in self.excluded:
            label = e.operation_id or "(no operationId)"
            lines.append(f"excluded {e.method.upper()} {e.path}  {label}  ({e.source}: {e.why})")
        for todo, n in shared.items():
            lines.append(f"asked of {n} drafts:")
            lines.append(f"    TODO {todo}")
        if self.overlay:
            total = sum(len(self.todos(f)) for f in self.undeclared)
            lines.append(
                f"wrote {self.overlay}: {len(self.undeclared)} draft declarations, {total} TODOs"
            )
        elif not self.undeclared and not self.patches:
            lines.append("nothing to draft: every list-like operation is declared")
        return "\n".join(lines)


class _Unlocated(NamedTuple):
    """The document as the vocabulary's checks read it, without line numbers (the command line
    reports the same diagnostics with them, from the loaded file)."""

    data: Any
    origin: str
    lines: Mapping[str, int] = MappingProxyType({})


def audit_document(
    data: Any, *, origin: str = "", responses: list[RecordedPage] | None = None
) -> AuditReport:
    """Audit a parsed document (no I/O): the core of ``api.audit``, used by tests and the corpus.

    ``responses`` are recorded pages (``load_recorded``) to cross-check the drafts against."""
    info = data.get("info") if isinstance(data, dict) else None
    title = info.get("title") if isinstance(info, dict) else None
    parsed = views(data)
    errors = [
        d for d in defaults_diagnostics(_Unlocated(data, origin)) if d.severity is Severity.ERROR
    ]
    findings, excluded = scan_all(parsed)
    findings, shared, targets = _written_locations(data, parsed, findings)
    excluded += shared
    recorded: dict[str, list[RecordedPage]] = {}
    if responses:
        ops = [(op.method, op.path, op.pointer, op.operation_id) for op in parsed.operations]
        recorded = assign(data, responses, ops)
    report = AuditReport(
        origin,
        title if isinstance(title, str) and title else "this API",
        operation_ids(parsed),
        findings,
        excluded,
        None if errors else document_defaults(data),  # an invalid block answers nothing
        schema_patches(data, parsed),
        recorded,
        targets,
        errors,
    )
    ops = {op.pointer: op for op in parsed.operations}
    report.patches[:0] = _evidence_patches(data, report, ops)
    return report


def _written_locations(
    data: Any, parsed: DocumentViews, findings: list[Finding]
) -> tuple[list[Finding], list[Excluded], dict[str, str]]:
    """Where each listing's operation is written, for the draft's Overlay target.

    The views keep a ``$ref`` path item's ``/paths`` pointer, which an Overlay cannot select
    (XC021: the path item holds only the ``$ref``): such a listing is drafted where its chain of
    references leads (``targets``: finding pointer -> JSONPath). An operation written once and
    reached through several paths cannot be declared: a declaration needs an operationId, and
    one operation under two paths repeats it (XC030, XC102). It is excluded (``shared``), with
    the way out in its reason, instead of drafted."""
    paths: dict[str, list[str]] = {}
    written: dict[str, str] = {}
    for op in parsed.operations:
        written[op.pointer] = where = _written_pointer(data, op.pointer)
        paths.setdefault(where, []).append(op.path)
    kept: list[Finding] = []
    shared: list[Excluded] = []
    targets: dict[str, str] = {}
    for f in findings:
        where = written.get(f.pointer, f.pointer)
        reached = paths.get(where, [])
        if len(reached) > 1 and not f.declared:
            why = (
                f"the operation at {where} is reached through {len(reached)} paths "
                f"({', '.join(reached)}); a declaration needs an operationId, which one operation "
                "under several paths repeats: give each path its own path item to declare it"
            )
            shared.append(Excluded(f.method, f.path, f.pointer, f.operation_id, "shared", why))
            continue
        if where != f.pointer:
            targets[f.pointer] = jsonpath(data, f.pointer)
        kept.append(f)
    return kept, shared, targets


def _written_pointer(data: Any, pointer: str) -> str:
    """``pointer`` (an operation under ``/paths``) where it is written: through a ``$ref`` path
    item to the node its chain leads to."""
    tokens = pointer_tokens(pointer) or ()
    paths = data.get("paths") if isinstance(data, dict) else None
    if len(tokens) < 2 or tokens[0] != "paths" or not isinstance(paths, dict):
        return pointer
    item = pointer_join("", "paths", tokens[1])
    located = deref_at(data, paths.get(tokens[1]), item)
    return pointer if located is None else pointer_join(located[1], *tokens[2:])


def _evidence_patches(
    data: Any, report: AuditReport, ops: Mapping[str, Operation]
) -> list[dict[str, Any]]:
    """Schema patches for locations recorded responses showed, or the prose states (a Link
    header said only in a description), and the schema lacks."""
    out: list[dict[str, Any]] = []
    for f in report.undeclared:
        if f.pointer not in report.recorded and not (f.style_doubt or f.items_doubt):
            continue  # patch_action drafts only what the schema lacks
        decl = report.draft(f)
        at = pointer_join(f.pointer, "x-completeness")
        for expr, role, where in declared_locations(decl, at):
            action = patch_action(data, ops.get(f.pointer), expr, role, where)
            if action is not None and action["target"] not in {a["target"] for a in out}:
                out.append(action)
    return out


def _draft_error(path: Path, message: str, hint: str) -> InputError:
    return InputError([Diagnostic(str(path), "", "XC901", Severity.ERROR, message, hint=hint)])


def write_draft(
    path: Path, text: str, *, force: bool = False, inputs: Sequence[str | os.PathLike[str]] = ()
) -> None:
    """Write the draft overlay atomically (temp file + rename) so a failed run never leaves half
    an overlay. Refused (``XC901``): one of the ``inputs`` (the spec, an overlay), a symbolic
    link (its target would be replaced silently), and an existing file unless ``force``."""
    try:
        if path.is_symlink():
            raise _draft_error(
                path,
                "the draft path is a symbolic link; writing would replace what it points at",
                "pass the real path of the file to write",
            )
        for given in inputs:
            same = os.path.samefile(path, given) if path.exists() else False
            if same or path.resolve() == Path(given).resolve():
                raise _draft_error(
                    path,
                    "the draft path is an input of this run (the spec or an overlay)",
                    "write the draft to a new file and review it before using it",
                )
        if path.exists() and not force:
            raise _draft_error(
                path, "the draft path exists", "choose a new file, or pass --force to replace it"
            )
        if path.exists() and not path.is_file():
            raise _draft_error(path, "the draft path is not a regular file", "choose a new file")
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise _draft_error(
            path,
            f"cannot write the draft overlay: {exc.strerror or exc}",
            "choose a writable --emit-overlay path",
        ) from None
