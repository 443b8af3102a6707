"""The library API: ``check``, ``audit``, ``generate``, ``verify`` and ``mock`` for programs.

Each function runs one command's pipeline and returns a frozen result carrying its
``diagnostics`` and the ``exit_code`` the command line would exit with (docs/cli.md). The
command line (:mod:`xcompleteness.cli`) only parses arguments, calls these functions and formats
their results, so a CI script gets exactly what ``xcompleteness check`` reports::

    from xcompleteness import api

    report = api.check("openapi.yaml", strict=True)
    for d in report.diagnostics:
        print(d.render())
    raise SystemExit(report.exit_code)

The functions never print, never call ``sys.exit`` and never touch stdout or stderr; progress
goes to the optional ``progress`` callback (one call per stage, with the stage's name). Bad
input never raises: an unusable spec (unreadable, too large, not OpenAPI, a broken overlay) is a
result with the ``XC0xx`` error diagnostics and ``exit_code`` 2, a spec with errors a result
with exit code 1. Only misuse of the API itself raises (``ValueError``/``TypeError``); any other
exception is a bug in xcompleteness (the command line reports it as ``XC000``).

Documented with a runnable example in docs/api.md.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from xcompleteness.diagnostics import Diagnostic, ExitCode, InputError, Severity, exit_code_for
from xcompleteness.progress import reporting

if TYPE_CHECKING:  # imported lazily at run time: a check never loads audit or generate modules
    from xcompleteness.audit import AuditReport
    from xcompleteness.check import CheckResult
    from xcompleteness.runtime.contract import Contract
    from xcompleteness.testkit import MockApi

__all__ = [
    "AuditResult",
    "CheckReport",
    "GenerateResult",
    "MockResult",
    "PathLike",
    "ProgressCallback",
    "VerifyResult",
    "audit",
    "check",
    "generate",
    "mock",
    "verify",
]

PathLike = str | os.PathLike[str]
ProgressCallback = Callable[[str], None]
"""Called with the name of each stage as it starts (``"loading the spec"``, ...)."""

_EMPTY: Mapping[Any, Any] = MappingProxyType({})


def _overlays(overlays: Sequence[PathLike] | PathLike) -> list[PathLike]:
    """The overlay list; a single path is accepted as a list of one (never iterated by letter)."""
    if isinstance(overlays, str | os.PathLike):
        return [overlays]
    return list(overlays)


def _count(diagnostics: Sequence[Diagnostic], severity: Severity) -> int:
    return sum(d.severity is severity for d in diagnostics)


@dataclass(frozen=True)
class _Outcome:
    """What every result has: the spec it is about, its findings and the command's exit code."""

    spec: str
    diagnostics: tuple[Diagnostic, ...]
    exit_code: ExitCode

    @property
    def ok(self) -> bool:
        """True when the command would exit 0."""
        return self.exit_code is ExitCode.OK

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity is Severity.WARNING)


# -- check -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckReport(_Outcome):
    """The result of :func:`check`.

    ``exit_code``: 0 clean (with ``strict``, no warnings either), 1 findings, 2 unusable input
    (then ``result`` is None) or an unknown ``show_effective`` operation (``XC150``).
    """

    summary: str = ""
    """The summary paragraph the command line prints last ("" for unusable input)."""
    effective: Mapping[str, Any] | None = None
    """With ``show_effective``: that operation's merged declaration (see docs/cli.md)."""
    result: CheckResult | None = None
    """The front pipeline's result (document, contracts, registry) to build on; None if unusable."""

    @property
    def contracts(self) -> Mapping[str, Contract]:
        """operationId -> typed :class:`Contract` (``to_dict()``: the canonical contract), for
        the declarations that validated."""
        return self.result.contracts if self.result is not None else _EMPTY


def check(
    spec: PathLike,
    overlays: Sequence[PathLike] | PathLike = (),
    *,
    strict: bool = False,
    allow_external_refs: bool = False,
    today: _dt.date | None = None,
    show_effective: str | None = None,
    progress: ProgressCallback | None = None,
) -> CheckReport:
    """Validate ``spec`` and its x-completeness declarations (``xcompleteness check``).

    ``overlays`` are OpenAPI Overlay 1.0 files applied first, in order. ``strict`` makes
    warnings fail (exit code 1). ``today`` is the date for review-by checks (default: today).
    ``show_effective`` names an operationId whose merged declaration goes to ``effective``.
    """
    from xcompleteness.check import check_spec
    from xcompleteness.check import show_effective as effective_of
    from xcompleteness.check import summary as check_summary

    origin = os.fspath(spec)
    try:
        with reporting(progress):
            result = check_spec(
                spec, _overlays(overlays), allow_external_refs=allow_external_refs, today=today
            )
    except InputError as exc:
        return CheckReport(origin, exc.diagnostics, ExitCode.UNUSABLE)
    effective: Mapping[str, Any] | None = None
    if show_effective is not None:
        found = effective_of(result, show_effective)
        if isinstance(found, Diagnostic):
            return CheckReport(origin, (found,), ExitCode.UNUSABLE, result=result)
        effective = found
    diagnostics = tuple(result.diagnostics)
    return CheckReport(
        origin,
        diagnostics,
        exit_code_for(diagnostics, strict=strict),
        summary=check_summary(result),
        effective=effective,
        result=result,
    )


# -- audit -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AuditResult(_Outcome):
    """The result of :func:`audit`.

    ``exit_code``: 0 when every list-like operation is declared, 1 when some are not (or the
    ``x-completeness-defaults`` block is invalid: its answers are then not used), 2 for
    unusable input (then ``report`` is None and ``diagnostics`` says why).
    """

    report: AuditReport | None = None
    """Every list-like operation, declared or not, with why and its native signals."""
    overlay: str | None = None
    """Where the draft overlay was written (``emit_overlay``), if it was."""
    findings: tuple[Diagnostic, ...] = ()
    """One located ``XC100`` warning per undeclared listing (what ``--format sarif`` reports)."""

    @property
    def summary(self) -> str:
        """The summary paragraph the command line prints last ("" for unusable input)."""
        return self.report.summary() if self.report is not None else ""

    @cached_property
    def drafts(self) -> Mapping[str, Any] | None:
        """The draft Overlay 1.0 document declaring every undeclared listing (None: nothing to
        draft). Its declarations carry ``x-completeness-todo`` lists of what is left to decide."""
        return None if self.report is None else self.report.draft_overlay()

    @property
    def drafts_yaml(self) -> str | None:
        """:attr:`drafts` as the YAML text ``--emit-overlay`` writes."""
        if self.drafts is None:
            return None
        from xcompleteness.audit import dump_overlay

        return dump_overlay(dict(self.drafts))


def _defaults_errors(doc: Any) -> tuple[Diagnostic, ...]:
    """The errors of ``x-completeness-defaults`` (audit then uses none of it), each at its file
    and line: the overlay that wrote the block, as ``check`` reports it."""
    from dataclasses import replace

    from xcompleteness.declare import defaults_diagnostics

    errors = (d for d in defaults_diagnostics(doc) if d.severity is Severity.ERROR)
    return tuple(replace(d, file=f, line=n) for d in errors for f, n in [doc.locate(d.pointer)])


def audit(
    spec: PathLike,
    overlays: Sequence[PathLike] | PathLike = (),
    *,
    allow_external_refs: bool = False,
    emit_overlay: PathLike | None = None,
    force: bool = False,
    responses: PathLike | None = None,
    progress: ProgressCallback | None = None,
) -> AuditResult:
    """Find list, search and aggregate operations without a declaration (``xcompleteness audit``).

    With ``emit_overlay``, the draft overlay is also written there (atomically; only when there
    is something to draft; never over the spec or an overlay, never through a symbolic link, and
    over an existing file only with ``force``: ``XC901``). With ``responses`` (a HAR file or a
    folder of saved JSON pages), the drafts are cross-checked against them (docs/audit.md). Audit
    does not validate the OpenAPI document: that is :func:`check`.
    """
    from xcompleteness.audit import audit_document, unmatched_recorded, write_draft
    from xcompleteness.load import load_document, load_recorded
    from xcompleteness.progress import stage

    origin = os.fspath(spec)
    try:
        with reporting(progress):
            stage("loading the spec")
            doc = load_document(spec, _overlays(overlays), allow_external_refs=allow_external_refs)
            pages = None
            if responses is not None:
                stage("reading recorded responses")
                pages = load_recorded(Path(responses))
            notes = pages.warnings if pages is not None else ()  # XC018: entries not read
            stage("scanning operations")
            report = audit_document(doc.data, origin=doc.origin, responses=pages)
            if pages is not None:
                notes = (*notes, *unmatched_recorded(pages, report.recorded, os.fspath(responses)))
            if report.defaults_errors:  # the same diagnostics, located in the loaded file
                notes = (*notes, *_defaults_errors(doc))
            findings = tuple(_audit_finding(doc, f) for f in report.undeclared)
            found = report.undeclared or report.patches or report.defaults_errors
            code = ExitCode.FINDINGS if found else ExitCode.OK
            result = AuditResult(origin, notes, code, report, findings=findings)
            if emit_overlay is not None and result.drafts_yaml is not None:
                stage("writing the draft")  # an overlay needs at least one action (Overlay 1.0)
                inputs = [spec, *_overlays(overlays)]
                write_draft(Path(emit_overlay), result.drafts_yaml, force=force, inputs=inputs)
                report.overlay = os.fspath(emit_overlay)
                result = AuditResult(origin, notes, code, report, report.overlay, findings)
    except InputError as exc:
        return AuditResult(origin, exc.diagnostics, ExitCode.UNUSABLE)
    return result


def _audit_finding(doc: Any, finding: Any) -> Diagnostic:
    """An undeclared listing as the located ``XC100`` warning check reports for it."""
    label = finding.operation_id or "(no operationId)"
    return doc.diag(
        finding.pointer,
        "XC100",
        f"{finding.method.upper()} {finding.path} ({label}) looks like a {finding.kind} "
        f"but declares no x-completeness: {'; '.join(finding.why)}",
        hint="declare it (audit --emit-overlay FILE drafts the declaration), "
        "or mark it x-completeness: {kind: none, why: ...}",
        severity=Severity.WARNING,
    )


# -- generate --------------------------------------------------------------------------------


@dataclass(frozen=True)
class GenerateResult(_Outcome):
    """The result of :func:`generate`.

    ``exit_code``: 0 generated (and written, or in sync with ``check``), 1 the spec has errors
    (nothing generated; ``diagnostics`` are the errors) or, with ``check``, the files on disk
    drifted, 2 unusable input or an output folder that cannot be written safely (``XC604``).
    """

    files: Mapping[PurePosixPath, str] = field(default_factory=lambda: _EMPTY)
    """Every generated file, relative to OUT, in memory (also without ``out``)."""
    package: str | None = None
    summary: str = ""
    """What was generated and what was skipped, and why (one paragraph)."""
    out: Path | None = None
    written: tuple[str, ...] = ()
    """Files written to OUT because they were new or changed."""
    unchanged: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    """Files an earlier run generated that are no longer generated (and were not edited)."""
    kept: tuple[str, ...] = ()
    """Files an earlier run generated, edited by hand since: left in place."""
    diff: str = ""
    """With ``check``: a unified diff from the files on disk to ``files`` ("" when in sync)."""
    cached: bool = False
    """The result of an identical earlier run, read from the generate cache (docs/generate.md)."""
    write_diagnostics: tuple[Diagnostic, ...] = ()
    """Why OUT could not be written (``XC604``); also the last entries of ``diagnostics``."""

    @property
    def drifted(self) -> bool:
        """With ``check``: the files on disk differ from what would be generated."""
        return bool(self.diff)


def generate(
    spec: PathLike,
    out: PathLike | None = None,
    overlays: Sequence[PathLike] | PathLike = (),
    *,
    package: str | None = None,
    tests: bool = False,
    check: bool = False,
    allow_external_refs: bool = False,
    cache: bool = True,
    progress: ProgressCallback | None = None,
    tools: Sequence[str] = (),
) -> GenerateResult:
    """Generate the package for ``spec`` (``xcompleteness generate``).

    Without ``out`` nothing touches the disk: the files are in ``files``. With ``out`` they are
    written there under the safety rules of docs/generate.md (a folder we do not own is refused
    with ``XC604``); with ``out`` and ``check`` nothing is written and ``diff`` shows the drift.
    ``package`` is the package name (default: from the spec's title); ``tests`` adds the
    contract test suite ``tests/`` (docs/testing.md). ``cache`` (default on, like the command)
    reuses the result of an identical earlier run and stores fresh results in the user's cache
    folder; ``cache=False`` (``--no-cache``) neither reads nor writes it. ``tools``
    (``--tools``) selects the operations that get agent tools by operationId, tool name, OpenAPI
    tag or glob, closed under listing <-> mutation evidence (docs/agents.md); a selector that
    matches nothing refuses the run with ``XC609``.
    """
    if check and out is None:
        raise ValueError("generate(check=True) compares with a folder: pass out")
    from xcompleteness.emit import GenerationRefused
    from xcompleteness.emit import generate as run_pipeline

    origin = os.fspath(spec)
    try:
        with reporting(progress):
            gen = run_pipeline(
                spec,
                _overlays(overlays),
                package,
                allow_external_refs=allow_external_refs,
                tests=tests,
                cache=cache,
                tools=tuple(tools),
                store_later=out is not None,  # the cache entry is written while OUT is
            )
    except InputError as exc:
        return GenerateResult(origin, exc.diagnostics, ExitCode.UNUSABLE)
    except GenerationRefused as exc:
        return GenerateResult(origin, exc.diagnostics, ExitCode.FINDINGS)
    try:
        return _generated(gen, origin, out, package, check=check, progress=progress)
    finally:
        if gen.stored is not None:
            gen.stored()


def _generated(
    gen: Any,
    origin: str,
    out: PathLike | None,
    package: str | None,
    *,
    check: bool,
    progress: ProgressCallback | None,
) -> GenerateResult:
    from xcompleteness.emit import summary as generate_summary

    done = GenerateResult(
        origin,
        tuple(gen.diagnostics),
        ExitCode.OK,
        files=MappingProxyType(dict(gen.files)),
        package=gen.package or package,
        summary=generate_summary(gen),
        cached=gen.cached,
    )
    if out is None:
        return done
    return _to_disk(done, Path(out), check=check, progress=progress, encoded=gen.encoded)


def _write_hint(exc: OSError) -> str:
    """What to do about a write the disk refused (the writer has undone everything)."""
    import errno

    return {
        errno.ENOTDIR: "a file is where the output needs a folder: move it away",
        errno.EISDIR: "a folder is where the output needs a file: move it away",
        errno.EEXIST: "a file appeared while writing (or two names differ only in case on "
        "this file system): run again, or choose another -o",
        errno.EACCES: "a file or folder in the way is not writable by you (chmod u+w), "
        "or choose another -o",
        errno.EPERM: "a file or folder in the way may not be changed (immutable, or not "
        "yours), or choose another -o",
        errno.EROFS: "the file system is read-only: choose another -o",
        errno.ENOSPC: "the disk is full: free some space",
        errno.ELOOP: "a symbolic link appeared on the way while writing: remove it",
    }.get(exc.errno or 0, "choose a writable -o folder")


def _to_disk(
    done: GenerateResult,
    out: Path,
    *,
    check: bool,
    progress: ProgressCallback | None,
    encoded: Any = None,
) -> GenerateResult:
    """Write ``done.files`` to ``out`` (or compare with it); the result says what happened."""
    from dataclasses import replace

    from xcompleteness.emit import diff_tree, write_tree
    from xcompleteness.progress import stage

    with reporting(progress):
        try:
            if check:
                stage("comparing with the disk")
                diff = diff_tree(out, done.files)
                return replace(
                    done, out=out, diff=diff, exit_code=ExitCode.FINDINGS if diff else ExitCode.OK
                )
            stage("writing")
            report = write_tree(out, done.files, utf8=encoded)
        except InputError as exc:
            problems = exc.diagnostics
        except OSError as exc:  # a disk that refuses (full, read-only, a file in the way)
            problems = (
                Diagnostic(
                    str(out),
                    "",
                    "XC604",
                    Severity.ERROR,
                    f"cannot write the output: {exc.strerror or exc}"
                    + (f" ({exc.filename})" if exc.filename else "")
                    + "; nothing was changed",
                    _write_hint(exc),
                ),
            )
        else:
            return replace(
                done,
                out=out,
                written=tuple(report.written),
                unchanged=tuple(report.unchanged),
                removed=tuple(report.removed),
                kept=tuple(report.kept),
            )
    return replace(
        done,
        out=out,
        diagnostics=done.diagnostics + problems,
        write_diagnostics=problems,
        exit_code=ExitCode.UNUSABLE,
    )


# -- verify ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class VerifyResult(_Outcome):
    """The result of :func:`verify`.

    ``exit_code``: 0 no violations, 1 violations (``XC710``-``XC718`` errors), 2 unusable input
    (a spec with errors, a bad ``base_url``, an API that cannot be reached: ``XC721``/``XC722``).
    """

    summary: tuple[str, ...] = ()
    """One line per listing walked: pages, items and how the walk ended."""
    operations: tuple[Mapping[str, Any], ...] = ()
    """One record per declared listing (``operation_id``, ``state``: ok, violations or skipped,
    ``why`` it was skipped, the ``findings`` codes, and per walk its ``page_size``, ``pages``,
    ``items``, ``complete``, ``finished``, ``truncated``)."""


_RECORDED = "https://recorded.invalid"


def _server_url(data: Any) -> str | None:
    servers = data.get("servers") if isinstance(data, dict) else None
    first = servers[0] if isinstance(servers, list) and servers else None
    url = first.get("url") if isinstance(first, dict) else None
    return url if isinstance(url, str) and url.startswith(("http://", "https://")) else None


def verify(
    spec: PathLike,
    base_url: str,
    overlays: Sequence[PathLike] | PathLike = (),
    *,
    headers: Mapping[str, str] | None = None,
    params: Mapping[str, str] | None = None,
    max_pages: int = 20,
    time_limit: float = 60.0,
    allow_external_refs: bool = False,
    transport: Any = None,
    recorded: PathLike | None = None,
) -> VerifyResult:
    """Walk every declared GET listing of a live API read-only (``xcompleteness verify``).

    ``headers`` go with every request (credentials); ``params`` give values for required
    parameters. ``transport`` is an optional ``httpx`` transport (e.g. ``httpx.MockTransport``
    or an ASGI app's) used instead of the network. ``recorded`` (a HAR file or a folder of
    saved JSON pages) answers the walk from recorded traffic, offline; ``base_url`` may then be
    empty (the recording's origin, else the spec's first server, is used).
    """
    import math
    from urllib.parse import urlsplit

    from xcompleteness.check import check_spec
    from xcompleteness.load import load_recorded
    from xcompleteness.testkit import Replay, Verifier, redact_url

    origin = os.fspath(spec)
    pages = None
    if recorded is not None:
        try:
            pages = load_recorded(Path(recorded))
        except InputError as exc:
            return VerifyResult(origin, exc.diagnostics, ExitCode.UNUSABLE)
        base_url = base_url or next((p.origin for p in pages if p.origin), "") or _RECORDED
    try:
        parts = urlsplit(base_url or "")
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError:
        parts = urlsplit("")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        bad = Diagnostic(
            redact_url(str(base_url)) if parts.hostname else "--base-url",
            "",
            "XC721",
            Severity.ERROR,
            "--base-url must be an http(s) URL with a host",
            "for example --base-url http://127.0.0.1:8080",
        )
        return VerifyResult(origin, (bad,), ExitCode.UNUSABLE)
    for name, value in {**(headers or {}), **(params or {})}.items():
        if any(ord(c) < 0x20 or ord(c) == 0x7F for c in f"{name}{value}"):
            bad = Diagnostic(
                "",
                "",
                "XC721",
                Severity.ERROR,
                f"a header or parameter ({name[:40]!r}) holds a line break or control character",
                "pass each header as one 'Name: value' without CR/LF",
            )
            return VerifyResult(origin, (bad,), ExitCode.UNUSABLE)
    if max_pages < 1 or not math.isfinite(time_limit) or time_limit <= 0:
        bad = Diagnostic(
            "", "", "XC721", Severity.ERROR, "--max-pages and --time-limit must be positive", ""
        )
        return VerifyResult(origin, (bad,), ExitCode.UNUSABLE)
    try:
        with reporting(None):
            result = check_spec(spec, _overlays(overlays), allow_external_refs=allow_external_refs)
            errors = tuple(d for d in result.diagnostics if d.severity is Severity.ERROR)
            if errors:
                return VerifyResult(origin, errors, ExitCode.UNUSABLE)
            notes: tuple[Diagnostic, ...] = ()
            if pages is not None:
                replay = Replay(pages, result)
                transport = replay.transport()
                notes = (*pages.warnings, *replay.unmatched(os.fspath(recorded)))
                if base_url == _RECORDED:  # a folder: the spec's server, where next URLs point
                    base_url = _server_url(result.doc.data) or base_url
            verifier = Verifier(
                result,
                base_url,
                dict(headers or {}),
                dict(params or {}),
                max_pages=max_pages,
                time_limit=time_limit,
                transport=transport,
            )
            try:
                diagnostics = (*notes, *verifier.run())  # XC018/XC019: answers not read or used
            finally:
                verifier.client.close()
    except InputError as exc:
        return VerifyResult(origin, exc.diagnostics, ExitCode.UNUSABLE)
    return VerifyResult(
        origin,
        diagnostics,
        exit_code_for(diagnostics),
        summary=tuple(verifier.summary),
        operations=tuple(verifier.operations),
    )


# -- mock ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MockResult(_Outcome):
    """The result of :func:`mock`: the transport-free mock API, or why there is none.

    ``exit_code``: 0 built, 2 unusable input (a spec with errors, a bad fault plan ``XC70x``,
    no declared listing ``XC707``).
    """

    api: MockApi | None = None
    """Answers ``api.handle(method, path, query, body, base_url)`` without any network."""

    def app(self) -> Any:
        """A Starlette app serving :attr:`api` (needs the ``mock`` extra: starlette, uvicorn)."""
        if self.api is None:
            raise ValueError("this mock was not built; see its diagnostics")
        from xcompleteness.testkit import make_app

        return make_app(self.api)


def mock(
    spec: PathLike,
    overlays: Sequence[PathLike] | PathLike = (),
    *,
    faults: PathLike | None = None,
    allow_external_refs: bool = False,
) -> MockResult:
    """Build the mock of ``spec``'s listings with the fault plan ``faults`` (``xcompleteness
    mock`` serves it; docs/testing.md)."""
    from xcompleteness.check import check_spec
    from xcompleteness.testkit import mock_from_check

    origin = os.fspath(spec)
    try:
        with reporting(None):
            result = check_spec(spec, _overlays(overlays), allow_external_refs=allow_external_refs)
            errors = tuple(d for d in result.diagnostics if d.severity is Severity.ERROR)
            if errors:
                return MockResult(origin, errors, ExitCode.UNUSABLE)
            built = mock_from_check(result, os.fspath(faults) if faults is not None else None)
    except InputError as exc:
        return MockResult(origin, exc.diagnostics, ExitCode.UNUSABLE)
    return MockResult(origin, (), ExitCode.OK, api=built)
