"""``xcompleteness generate``: checked spec -> IR -> emitters -> ruff -> writer (or ``--check``).

Every stage before the writer is pure and works on an in-memory ``dict[PurePosixPath, str]``
(like sqlc), so ``--check`` is a comparison with the disk, not a second code path. Generation is
refused (exit 1, with the check diagnostics) when the spec has errors; every declared operation
is either generated or reported (``XC605``) — nothing is dropped silently.

A run on unchanged inputs reuses the previous result from the cache (:mod:`gencache`, keyed by a
hash of every input), a run whose item schemas are unchanged reuses the item models
(:mod:`xcompleteness.emit._model_cache`), and every module whose unformatted text is unchanged
reuses its formatted text (:mod:`xcompleteness.emit._format_cache`), and a document that differs
from an earlier clean one only in ``x-completeness`` values reuses its OpenAPI validation verdict
(:mod:`xcompleteness.emit._verdict_cache`, :mod:`xcompleteness.check._verdict`); ``cache=False``
(``--no-cache``, or ``XC_NO_CACHE=1`` in the environment) always runs the whole pipeline. The
heavy stages (IR, Jinja2, ruff) are imported only when the pipeline runs, so a cache hit stays
fast.

The command is :func:`xcompleteness.api.generate` (this pipeline, then :mod:`write`) and its
formatting in :mod:`xcompleteness.cli`; this module prints nothing.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from xcompleteness.diagnostics import (
    Diagnostic,
    InputError,
    Severity,
    has_errors,
    render_text,
)
from xcompleteness.emit.emitters import EmitError
from xcompleteness.ir import check_package_name, default_package_name, snake
from xcompleteness.progress import stage

if TYPE_CHECKING:
    from xcompleteness.ir import SpecIR

__all__ = [
    "Generation",
    "GenerationRefused",
    "generate",
    "generate_files",
    "generate_from_check",
    "summary",
]


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
    """None when the result came from the cache (``cached``)."""
    package: str = ""
    cached: bool = False
    """True when this result was read from the generate cache instead of being computed."""
    summary_text: str = ""
    """:func:`summary` of the run that computed a cached result."""
    sources: tuple[Path, ...] = ()
    """Other files the spec's (and overlays') refs pulled in (``allow_external_refs``)."""
    views: Any = None
    """The checked document's typed views (``SourceDoc.views``), kept so :func:`summary` does
    not parse the operations again."""
    stored: Any = None
    """With ``generate(store_later=True)``: call it to wait until the cache entry is written."""
    encoded: dict[str, bytes] | None = None
    """``files`` as UTF-8 by ``str(path)``, when the cache entry was made from them (the writer
    then encodes nothing again)."""


def _package_for(result: Any, package: str | None, notes: list[Diagnostic] | None = None) -> str:
    if package is None:
        info = result.doc.data.get("info") or {}
        title = str(info.get("title") or "api")
        package = default_package_name(title)
        bare = snake(title).rstrip("_")
        if notes is not None and bare and bare != package:
            notes.append(
                result.doc.diag(
                    "/info/title",
                    "XC608",
                    f"the title's package name {bare!r} would shadow a module of that name "
                    f"(standard library, a dependency, or a keyword); using {package!r}",
                    hint="pass --package to choose another name",
                    severity=Severity.WARNING,
                )
            )
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


def _emittable(files: dict[PurePosixPath, str]) -> dict[PurePosixPath, str]:
    """Every path is one the writer, ``--check`` and the cache accept (one rule: safety.py)."""
    from xcompleteness.safety import emittable

    for rel in files:
        if not emittable(rel):
            raise RuntimeError(f"the generator produced {rel}, a name outside its own rule")
    return files


def generate_from_check(
    result: Any,
    package: str | None = None,
    *,
    only: Collection[str] | None = None,
    tests: bool = False,
    tools: Sequence[str] = (),
) -> Generation:
    """Run IR, emitters (all, or ``only`` those named) and formatting on a ``CheckResult``.

    ``tests``: also write the contract test suite ``tests/`` beside the package (docs/testing.md).
    ``tools``: selectors of the operations that get agent tools (``generate --tools``;
    docs/agents.md "Tool subsets"); empty: every declared operation.
    """
    from xcompleteness.emit._render import Renderer
    from xcompleteness.emit.emitters.registry import selected  # every emitter: imported when run
    from xcompleteness.ir import IRParts, build_ir, models_pending

    diagnostics = list(result.diagnostics)
    if has_errors(diagnostics):
        raise GenerationRefused([d for d in diagnostics if d.severity is Severity.ERROR])
    name = _package_for(result, package, diagnostics)
    renderer = Renderer()
    emitters = selected(only)
    stage("building the IR")
    early: dict[str, dict[Any, str]] = {}
    ready: dict[PurePosixPath, tuple[str, str]] = {}
    if models_pending():  # a second process runs datamodel-code-generator (_two_processes)
        parts = IRParts(result, name)
        if not has_errors(parts.first.diagnostics):
            early = _rendered_early(emitters, _selecting(parts.first, tools), renderer)
            ready = _formatted_early(emitters, early, name)
            parts.look_up_lines()
        stage("building the IR (item models)")
        ir = parts.finish()
    else:
        ir = build_ir(result, name)
    ir = _selecting(ir, tools)
    diagnostics.extend(ir.diagnostics)
    if has_errors(ir.diagnostics):
        raise GenerationRefused([d for d in ir.diagnostics if d.severity is Severity.ERROR])
    files: dict[PurePosixPath, str] = {}
    owner: dict[PurePosixPath, str] = {}
    for emitter, emitted in zip(emitters, _rendered(emitters, ir, renderer, early), strict=True):
        for path, text in _placed(emitter, emitted, name):
            if path in files:
                raise RuntimeError(f"emitters {owner[path]} and {emitter.name} both produce {path}")
            files[path] = text
            owner[path] = emitter.name
    if tests:
        from xcompleteness.emit.emitters.contract_tests import emit_tests

        for rel, text in emit_tests(ir, renderer).items():
            files[_safe_rel("contract_tests", PurePosixPath(rel))] = text
    stage("formatting")
    return Generation(
        files=_emittable(_formatted(files, ready)),
        diagnostics=diagnostics,
        ir=ir,
        package=name,
        sources=tuple(getattr(result.doc, "sources", ())),
        views=result.doc.views if result.doc.data is ir.document else None,
    )


def _placed(emitter: Any, emitted: dict[Any, str], package: str) -> list[tuple[PurePosixPath, str]]:
    """An emitter's files at their paths relative to OUT (in the package folder unless the
    emitter writes beside it)."""
    base = PurePosixPath() if emitter.out_relative else PurePosixPath(package)
    return [
        (base / _safe_rel(emitter.name, PurePosixPath(rel)), text) for rel, text in emitted.items()
    ]


def _formatted_early(
    emitters: Sequence[Any], early: dict[str, dict[Any, str]], package: str
) -> dict[PurePosixPath, tuple[str, str]]:
    """The early emitters' files formatted while the item models are made: path -> (text,
    formatted text). Each module is formatted alone (:func:`xcompleteness.emit._format.format_key`
    names all its bytes depend on), so formatting them apart gives the bytes formatting the
    whole tree gives; :func:`_formatted` uses an entry only for the very text it was made from.
    """
    from xcompleteness.emit._format import format_files

    placed: dict[PurePosixPath, str] = {}
    try:
        for emitter in emitters:
            if emitter.name in early:
                placed.update(_placed(emitter, early[emitter.name], package))
    except RuntimeError:
        return {}  # an unsafe path: the pipeline reports it once the IR is whole
    stage("formatting")
    done = format_files(placed)
    return {path: (text, done[path]) for path, text in placed.items()}


def _formatted(
    files: dict[PurePosixPath, str], ready: dict[PurePosixPath, tuple[str, str]]
) -> dict[PurePosixPath, str]:
    """``format_files(files)``, taking the modules formatted early (:func:`_formatted_early`)."""
    from xcompleteness.emit._format import format_files

    rest = {p: t for p, t in files.items() if p not in ready or ready[p][0] is not t}
    done = format_files(rest)
    return {p: done[p] if p in done else ready[p][1] for p in sorted(files)}


def _selecting(ir: SpecIR, tools: Sequence[str]) -> SpecIR:
    return dataclasses.replace(ir, tool_selection=tuple(tools)) if tools else ir


MODEL_EMITTERS = frozenset({"models"})
"""The emitters that read the item models (``SpecIR.item_models``): rendered once the
datamodel-code-generator child is joined; every other one renders while it runs."""


def _rendered_early(emitters: Sequence[Any], first: SpecIR, renderer: Any) -> dict[str, Any]:
    """The files of the emitters that need no item models, rendered from the IR without them
    (:class:`xcompleteness.ir.IRParts`) while a second process models the items.

    An emitter that reads the models anyway (``ModelsPending``) is left for later; any other
    failure drops every early result, so all emitters render again in order once the IR is
    whole, and the error (or the IR's own refusal, which comes first) is the one-process one.
    """
    from xcompleteness.ir import ModelsPending

    done: dict[str, Any] = {}
    for emitter in emitters:
        if emitter.name in MODEL_EMITTERS:
            continue
        stage(f"rendering {emitter.name}")
        try:
            done[emitter.name] = emitter.emit(first, renderer)
        except ModelsPending:
            continue
        except Exception:  # noqa: BLE001 - rendered again after the join, in order
            return {}
    return done


SIDE_EMITTERS = frozenset({"client", "tools"})
"""The emitters a second process renders while this one renders the rest (about half the
rendering of a large description each: GitHub's client and agent tools, 0.35 s of CPU, against
its models and augmented spec). Not the augmented spec: it reads the whole document, and every
page a forked child reads is copied (reference counts), which cost more than it saved."""
SIDE_MIN_OPERATIONS = 64
"""Fewer generated operations than this: everything is rendered here (a fork costs more)."""


def _idle_core() -> bool:
    """A core is likely free: the 1-minute load average is under the usable CPUs minus one
    (this run counts as one). On a busy machine a second process only adds the fork's cost
    (pages copied on write, the child's own template compiling) to CPU the machine lacks."""
    try:
        cpus = len(os.sched_getaffinity(0))
        return os.getloadavg()[0] < cpus - 0.5
    except (AttributeError, OSError):
        return False


def _emit(emitter: Any, ir: SpecIR, renderer: Any) -> dict[Any, str]:
    try:
        return emitter.emit(ir, renderer)
    except EmitError as exc:
        raise GenerationRefused(exc.diagnostics) from None


def _emit_side(emitters: Sequence[Any], ir: SpecIR) -> list[dict[str, str]]:
    """The forked child's work: each emitter's files as plain ``{str: str}`` (pickled back)."""
    from xcompleteness.emit._render import Renderer

    renderer = Renderer()
    return [
        {str(rel): text for rel, text in emitter.emit(ir, renderer).items()} for emitter in emitters
    ]


def _side_answer(answer: Any, count: int) -> list[dict[PurePosixPath, str]] | None:
    if not isinstance(answer, list) or len(answer) != count:
        return None
    out = []
    for emitted in answer:
        if not isinstance(emitted, dict) or not all(
            type(k) is str and type(v) is str for k, v in emitted.items()
        ):
            return None
        out.append({PurePosixPath(k): v for k, v in emitted.items()})
    return out


def _rendered(
    emitters: Sequence[Any],
    ir: SpecIR,
    renderer: Any,
    early: dict[str, dict[Any, str]] | None = None,
) -> list[dict[Any, str]]:
    """Each emitter's files, in order (``early``: those already rendered, by name). With two
    usable cores, one of them idle, and a large package (see :data:`SIDE_EMITTERS`), a forked
    child renders the side emitters from the same IR (inherited, never re-read) while this
    process renders the others; every emitter is a pure function of the IR, so the files are the
    ones one process renders. If the child fails in any way (an emitter raised, it died, its
    answer is not a list of text files) the side emitters are rendered here, so errors and
    refusals are the one-process ones.
    """
    from xcompleteness import forked

    done: dict[str, dict[Any, str]] = dict(early or {})
    side = [e for e in emitters if e.name in SIDE_EMITTERS and e.name not in done]
    job = None
    big = len(ir.operations) >= SIDE_MIN_OPERATIONS
    if side and big and forked.wanted() and _idle_core():
        job = forked.Forked(_emit_side, side, ir, name="xc-render")
    try:
        for emitter in emitters:
            if emitter.name in done:
                continue
            if job is None or emitter not in side:
                stage(f"rendering {emitter.name}")
                done[emitter.name] = _emit(emitter, ir, renderer)
    except BaseException:
        if job is not None:
            job.cancel()
        raise
    if job is not None:
        stage("rendering " + ", ".join(e.name for e in side))
        ok, answer = job.result()
        got = _side_answer(answer, len(side)) if ok else None
        if got is not None:
            done.update((e.name, files) for e, files in zip(side, got, strict=True))
    for emitter in emitters:
        if emitter.name not in done:
            stage(f"rendering {emitter.name}")
            done[emitter.name] = _emit(emitter, ir, renderer)
    return [done[e.name] for e in emitters]


def generate(
    spec: str | Path,
    overlays: Sequence[str | Path] = (),
    package: str | None = None,
    *,
    allow_external_refs: bool = False,
    tests: bool = False,
    cache: bool = True,
    tools: Sequence[str] = (),
    store_later: bool = False,
) -> Generation:
    """The whole pipeline from a spec path (raises InputError / GenerationRefused).

    With ``cache`` (the default) an identical earlier run's result is reused and a fresh result
    is stored (docs/generate.md, "Cache"); with ``allow_external_refs`` the files the refs pull in
    are recorded in the entry and must be unchanged for a hit. A cache folder or entry someone
    else could have written is not used (a diagnostic says so: :mod:`xcompleteness.safety`).
    ``store_later``: the fresh entry is packed and written on a thread while the caller goes on
    (writing OUT); the caller must then call ``Generation.stored()`` (the diagnostics are
    complete either way).
    """
    from xcompleteness.emit import _cache as gencache

    key = None
    notes: list[Diagnostic] = []
    if cache and not gencache.disabled():
        try:
            key = gencache.input_key(
                spec,
                overlays,
                package=package,
                tests=tests,
                external_refs=allow_external_refs,
                tools=tools,
            )
        except OSError:
            key = None  # an unreadable input: the pipeline reports it properly
    if key is not None:
        stage("reading the cache")
        entry = gencache.load(key, notes)
        if entry is not None:
            hit = _from_cache(entry)
            hit.diagnostics.extend(notes)
            return hit
    reuse = key is not None
    try:
        gen = _pipeline(spec, overlays, package, allow_external_refs, tests, tools, reuse=reuse)
    except (InputError, GenerationRefused):
        raise
    except Exception:
        if not reuse:
            raise
        # A fact or value the cache gave (a clean verdict, a parse within the depth cap, the
        # declarations found clean, a walk, a split) led a stage where a checked input never
        # goes. The cache may only ever change speed: the run is made again without it, and
        # its result (a refusal with the one-process diagnostics, or the files) stands.
        gen = _pipeline(spec, overlays, package, allow_external_refs, tests, tools, reuse=False)
        notes.append(_misled())
    if key is not None and not any(n.severity is Severity.WARNING for n in notes):
        stage("writing the cache")
        try:
            sources = gencache.source_digests(gen.sources)
        except OSError:
            sources = None
        if sources is not None:
            gen.encoded = {str(rel): text.encode("utf-8") for rel, text in gen.files.items()}
            entry = gencache.Entry(
                files=gen.files,
                diagnostics=[d.to_json() for d in gen.diagnostics],
                package=gen.package,
                summary=gen.summary_text,
                sources=sources,
                encoded=gen.encoded,
            )
            if store_later:
                gen.stored = gencache.store_later(key, entry, notes)
            else:
                gencache.store(key, entry, notes)
    gen.diagnostics.extend(notes)
    return gen


def _pipeline(
    spec: str | Path,
    overlays: Sequence[str | Path],
    package: str | None,
    allow_external_refs: bool,
    tests: bool,
    tools: Sequence[str],
    *,
    reuse: bool,
) -> Generation:
    """The pipeline of :func:`generate` after a whole-run miss; ``reuse``: with the per-stage
    stores of the cache folder (none without)."""
    from xcompleteness.check import check_spec, prevalidate, verdict_store
    from xcompleteness.declare import declaration_store
    from xcompleteness.detect import scan_store
    from xcompleteness.emit._format import format_store
    from xcompleteness.emit._format_cache import FormatCache
    from xcompleteness.emit._model_cache import ModelCache
    from xcompleteness.emit._value_cache import (
        DeclarationCache,
        LineCache,
        ScanCache,
        SplitCache,
        WalkCache,
    )
    from xcompleteness.emit._verdict_cache import ParseCache, PatternCache, VerdictCache
    from xcompleteness.ir import model_store, pattern_store, split_store
    from xcompleteness.load import LineMemo, line_store, parse_store, walk_store

    # Item models are reused across runs whose item schemas are unchanged (an overlay edit of
    # reasons or pagination), and formatted modules across runs where a module's text is
    # unchanged, and a clean OpenAPI verdict across runs whose documents differ only in
    # x-completeness values, and the spec text's parse facts (no duplicate keys, depth cap):
    # same cache folder and rules, same opt-out (``cache=False``).
    # ... and what the list-likeness scan found for a document
    # that differs only in x-completeness values, the declarations the vocabulary schema found
    # clean and the reading of the item-model module (:mod:`~xcompleteness.emit._value_cache`).
    memo = LineMemo(LineCache()) if reuse else None
    with (
        parse_store(ParseCache() if reuse else None),
        walk_store(WalkCache() if reuse else None),
        line_store(memo),
        scan_store(ScanCache() if reuse else None),
        declaration_store(DeclarationCache() if reuse else None),
        model_store(ModelCache() if reuse else None),
        split_store(SplitCache() if reuse else None),
        pattern_store(PatternCache() if reuse else None),
        format_store(FormatCache() if reuse else None),
        verdict_store(VerdictCache() if reuse else None),
    ):
        if prevalidate.wanted():
            cold = not reuse or not ModelCache.holds_any()
            gen = _two_processes(
                spec, overlays, package, allow_external_refs, tests, tools, models_cold=cold
            )
        else:
            result = check_spec(spec, overlays, allow_external_refs=allow_external_refs)
            gen = generate_from_check(result, package, tests=tests, tools=tools)
        gen.summary_text = summary(gen)
    if memo is not None:
        memo.save()  # the lines this run's diagnostics asked for, for the next edit
    return gen


def _misled() -> Diagnostic:
    """The note of a run made again without the cache (:func:`generate`)."""
    from xcompleteness.emit._cache import cache_dir
    from xcompleteness.safety import CACHE_UNTRUSTED

    return Diagnostic(
        str(cache_dir()),
        "",
        CACHE_UNTRUSTED,
        Severity.WARNING,
        "a cache entry led this run astray (the pipeline failed with what the cache gave); "
        "made again without the cache",
        "remove the cache folder, or pass --no-cache; if it happens again, please report it",
    )


def _two_processes(
    spec: str | Path,
    overlays: Sequence[str | Path],
    package: str | None,
    allow_external_refs: bool,
    tests: bool,
    tools: Sequence[str] = (),
    *,
    models_cold: bool = False,
) -> Generation:
    """:func:`generate_from_check` with OpenAPI validation running in a second process, and
    datamodel-code-generator in another (:func:`_models_early`).

    Same result, diagnostics (and order) and refusals as the one-process pipeline: the rest is
    computed speculatively and dropped when the merged diagnostics hold an error
    (:mod:`xcompleteness.check._prevalidate`). ``models_cold``: no item-model cache entry
    exists, so on a large spec the models' child is forked before loading and imports the
    library meanwhile (:func:`xcompleteness.ir.models_ahead`).
    """
    from xcompleteness import forked
    from xcompleteness.check import check_spec, prevalidate, verdicts
    from xcompleteness.declare import declaration_checker
    from xcompleteness.ir import models_ahead

    background: prevalidate.Validation | None = None
    reused = False
    key: str | None = None
    # The models' child only with a core idle: on a busy machine it adds the speculation, the
    # split formatting and the fork to CPU the machine lacks, and saves no time.
    ahead = _idle_core()
    # Declarations on the other core while this one loads, unless the item models are made
    # there (a cold run: that child is the long pole, and every declaration is new anyway).
    checker = _Checker() if ahead and not models_cold and forked.wanted() else None

    def start(doc: Any) -> None:
        nonlocal background, reused, key
        if ahead and models_cold:  # no cached models at all: the library runs, start it first
            _models_early(doc, package)
        reused, key = verdicts.known_clean(doc)
        if not reused:  # a clean verdict of this document (up to x-completeness) is stored
            background = prevalidate.Validation(doc)
            if ahead and not models_cold:  # (a reused one is an overlay edit: the cache likely
                _models_early(doc, package)  # has its models; a hit is known from the schemas)

    failure: Exception | None = None
    gen: Generation | None = None
    try:
        with (
            models_ahead(prepare=ahead and models_cold and _large(spec)),
            declaration_checker(checker),
        ):
            partial = check_spec(
                spec,
                overlays,
                allow_external_refs=allow_external_refs,
                validate=False,
                on_loaded=start,
            )
            if checker is not None:
                checker.close()
            try:
                gen = generate_from_check(partial, package, tests=tests, tools=tools)
            except Exception as exc:  # noqa: BLE001 - decided once validation is known
                failure = exc
    except BaseException:
        if background is not None:
            background.cancel()
        if checker is not None:
            checker.close()
        raise
    stage("validating the OpenAPI document")
    if reused:
        validation: list[Diagnostic] | None = []
    else:
        validation = background.result() if background is not None else None
        if validation is None:  # the child failed: validate here
            from xcompleteness.check import validate_openapi

            validation = list(validate_openapi(partial.doc))
        verdicts.record(key, validation)
    full = prevalidate.merge(partial, validation)
    if has_errors(full):
        raise GenerationRefused([d for d in full if d.severity is Severity.ERROR])
    if failure is not None:
        raise failure
    assert gen is not None
    gen.diagnostics = full + gen.diagnostics[len(partial.diagnostics) :]
    return gen


class _Checker:
    """The :class:`xcompleteness.declare._vocabulary.DeclarationChecker` of ``generate``: a child
    forked before the spec is loaded imports jsonschema while this process loads, then answers
    one question (``forked.Waiting``); no answer means every declaration is checked here."""

    def __init__(self) -> None:
        from xcompleteness import forked
        from xcompleteness.declare import found_nothing, prepare_checks

        self._job = forked.Waiting(prepare_checks, found_nothing, name="xc-declarations")
        self._asked = False

    def clean(self, items: list[tuple[Any, Any, str, dict[str, Any]]]) -> list[bool] | None:
        if self._asked:
            return None
        self._asked = True
        if not self._job.submit(items):
            return None
        ok, answer = self._job.result()
        return answer if ok else None

    def close(self) -> None:
        """Stop the child if it was never asked (nothing unknown to check)."""
        if not self._asked:
            self._asked = True
            self._job.cancel()


PREPARE_MIN_BYTES = 1 << 20
"""A spec file at least this large forks the models' child before it is loaded (its import
of the library overlaps the loading); a smaller one forks it after, if it has enough schemas."""


def _large(spec: str | Path) -> bool:
    try:
        return os.stat(spec).st_size >= PREPARE_MIN_BYTES
    except (OSError, TypeError, ValueError):
        return False


def _models_early(doc: Any, package: str | None) -> None:
    """Start datamodel-code-generator in another process on the item schemas the IR will ask
    for (:func:`xcompleteness.ir.models_ahead`), as soon as the spec is loaded: it then runs
    while this process checks the declarations, runs the rules, the IR, every emitter but the
    models and formats their files. The schemas come from the contracts the declarations give
    when they hold no error (:func:`xcompleteness.check.expected_contracts`; with one, generation
    is refused and the child stopped). Speculative: anything that fails here is left to the
    one-process path (the IR runs the library itself and reports what went wrong), and the IR
    uses the child's models only for exactly the sub-document it asks for."""
    from types import SimpleNamespace

    from xcompleteness.check import expected_contracts
    from xcompleteness.ir import item_schemas, start_models

    try:
        name = _package_for(SimpleNamespace(doc=doc), package)
        contracts, registry = expected_contracts(doc)
        schemas, openapi = item_schemas(doc, contracts, registry, name)
    except Exception:  # noqa: BLE001 - the IR meets (and reports) the same problem later
        return
    start_models(schemas, openapi)


def _from_cache(entry: Any) -> Generation:
    diagnostics = [
        Diagnostic(**{**d, "severity": Severity(d["severity"])}) for d in entry.diagnostics
    ]
    return Generation(
        files=entry.files,
        diagnostics=diagnostics,
        package=entry.package,
        cached=True,
        summary_text=entry.summary,
    )


def generate_files(
    spec: str | Path,
    overlays: Sequence[str | Path] = (),
    package: str | None = None,
    *,
    allow_external_refs: bool = False,
) -> dict[PurePosixPath, str]:
    """Files (relative to OUT) generated from ``spec``; pure, nothing touches the disk."""
    return generate(
        spec, overlays, package, allow_external_refs=allow_external_refs, cache=False
    ).files


def summary(gen: Generation) -> str:
    """What was generated and what was skipped, and why (one paragraph)."""
    if gen.ir is None:
        cached = "; reused the result of an identical earlier run (cache; --no-cache regenerates)"
        return gen.summary_text + (cached if gen.cached else "")
    if gen.summary_text:  # computed once by generate(); the IR and diagnostics do not change
        return gen.summary_text
    from collections import Counter

    from xcompleteness.declare import not_a_listing
    from xcompleteness.document import views

    kinds = Counter(str(op.kind) for op in gen.ir.operations)
    made = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "none"
    total = skipped_none = undeclared = 0
    names: list[str] = []
    for op in (gen.views or views(gen.ir.document)).operations:
        total += 1
        if not_a_listing(op.declaration):
            skipped_none += 1
            names.append(op.operation_id or "(no operationId)")
        elif op.declaration is None:
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
