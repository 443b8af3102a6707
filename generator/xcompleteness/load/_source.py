"""Load an OpenAPI document safely: YAML or JSON, with limits, a line map and a ``$ref`` policy.

The spec is someone else's file, so loading is defensive. This module is the entry point
(:func:`load_spec`, :class:`SourceDoc`); the work is done by small single-purpose modules:

* :mod:`~xcompleteness.load._limits`: the caps (``XC_MAX_SPEC_BYTES``, default 64 MiB, checked
  before reading; ``XC_MAX_DEPTH``; ``XC_MAX_ALIAS_NODES``) and the input-class codes;
* :mod:`~xcompleteness.load._parse`: read under the size cap, parse JSON (``json.loads``, fast on
  10 MB documents) or YAML, enforce the depth cap and collect every ``$ref`` in one pass;
* :mod:`~xcompleteness.load._yaml`: the iterative YAML builder over libyaml events (depth cap
  without recursion, alias-bomb and recursive-alias refusal, JSON-shaped values, the line of
  every key recorded as it goes);
* :mod:`~xcompleteness.load._lines`: the JSON line map, computed lazily by a small tokenizer only
  when a diagnostic asks for a line;
* :mod:`~xcompleteness.load._ref_policy`: the ``$ref`` policy: local refs must not form a ref-to-ref
  cycle (tools would spin), URLs are always refused (no network), other files are refused unless
  ``allow_external_refs`` and then only inside the spec's folder;
* :mod:`~xcompleteness.document._refs`: the one ``$ref``/JSON-pointer resolver (re-exported here).

Unusable input raises :class:`~xcompleteness.diagnostics.InputError` (exit code 2); findings that
still leave a usable document (duplicate keys, dangling local refs) travel in
``SourceDoc.diagnostics``.
"""

from __future__ import annotations

import itertools
import os
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from xcompleteness import collector
from xcompleteness.diagnostics import Diagnostic, InputError, Severity, pointer_join
from xcompleteness.document import (
    DECLARATION_KEY,
    DocumentViews,
    declaration_free_digest,
    iter_operations,
    views,
)
from xcompleteness.load._limits import (
    NOT_MAPPING,
    NOT_OPENAPI,
    TOO_MANY_DECLARATIONS,
    Limits,
    input_error,
)
from xcompleteness.load._parse import load_data
from xcompleteness.load._ref_policy import check_refs

__all__ = ["SourceDoc", "load_spec", "read_spec", "require_openapi", "with_ref_policy"]


@dataclass(frozen=True)
class SourceDoc:
    """A loaded document: plain JSON-shaped ``data`` plus where each key came from.

    ``lines`` maps a JSON pointer to the 1-based line of its key (or array item) in ``origin``;
    ``origins`` maps pointers of nodes written by an overlay to that overlay's file name (their
    ``lines`` then refer to the overlay file). Use :meth:`locate` rather than reading both.
    """

    path: Path
    data: Any
    lines: Mapping[str, int]
    origin: str
    origins: Mapping[str, str] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()
    sources: tuple[Path, ...] = ()
    """Other files the document's refs pull in (``--allow-external-refs``), resolved."""
    refs: tuple[tuple[str, str], ...] | None = field(default=None, compare=False, repr=False)
    """Every string ``$ref`` of ``data`` as ``(pointer of its object, value)``, as the loader's one
    walk found them (saves check another walk of a large document); None when not collected.
    A document with other ``data`` must not carry them over."""
    unplain: frozenset[int] | None = field(default=None, compare=False, repr=False)
    """For ``data`` read from a JSON text, the ``id`` of every container of it that holds, at
    some depth, a float or an integer beyond 64 bits (what ``check._lean.plain_json`` looks
    for: a JSON text gives string keys and no other type): any other container of ``data``
    needs no such walk. None when not known (YAML, overlays). A document with other ``data``
    must not carry it over."""

    @cached_property
    def views(self) -> DocumentViews:
        """The typed views of ``data``, parsed on first use and kept (``data`` is not changed
        after loading: overlays make a new ``SourceDoc``). Built with the cyclic collector
        paused (views hold no reference cycles: Microsoft Graph's 100,000 views cost ~300
        collections that free nothing)."""
        with collector.paused():
            return views(self.data)

    @cached_property
    def declaration_free_digest(self) -> bytes | None:
        """SHA-256 of ``data`` without ``x-completeness*`` values at the root and in operations
        (:func:`xcompleteness.document.declaration_free_digest`), computed once; None when a
        removed value could be read or the refs pull in other files."""
        if self.sources:
            return None
        return declaration_free_digest(self.data, self.refs)

    def locate(self, pointer: str) -> tuple[str, int | None]:
        """File name and line for ``pointer``, falling back to the nearest ancestor we know."""
        probe = pointer
        while True:
            line = self.lines.get(probe)
            if line is not None:
                return self.origins.get(probe, self.origin), line
            if not probe:
                return self.origin, None
            probe = probe.rsplit("/", 1)[0]

    def diag(
        self, pointer: str, code: str, message: str, *, hint: str = "", severity: Severity
    ) -> Diagnostic:
        """Build a diagnostic about ``pointer`` with the right file and line filled in."""
        file, line = self.locate(pointer)
        return Diagnostic(file, pointer, code, severity, message, hint, line)


def load_spec(
    path: str | os.PathLike[str],
    *,
    allow_external_refs: bool = False,
    limits: Limits | None = None,
) -> SourceDoc:
    """Load an OpenAPI 3.0/3.1 document; raises :class:`InputError` when it cannot be used."""
    limits = limits or Limits.from_env()
    doc, refs = read_spec(path, limits)
    return with_ref_policy(doc, refs, allow_external_refs=allow_external_refs, limits=limits)


def read_spec(
    path: str | os.PathLike[str],
    limits: Limits,
    *,
    walk_later: bool = False,
    walk_out: list[Any] | None = None,
) -> tuple[SourceDoc, list[tuple[str, str]]]:
    """Read and parse an OpenAPI document under the caps, and list its refs (no policy yet).

    ``walk_later``: overlays follow and the result is walked again (:func:`load_data`); the refs
    and mixed-enum notes may then be left out, and ``walk_out`` may get what a walk of the text
    finds (``load._parse.BaseWalk``)."""
    p = Path(path)
    origin = str(path)
    refs: list[tuple[str, str]] = []
    unplain: list[frozenset[int]] = []
    data, lines, notes = load_data(
        p,
        origin,
        limits,
        refs_out=refs,
        walk_later=walk_later,
        walk_out=walk_out,
        unplain_out=unplain,
    )
    require_openapi(data, origin, lines)
    doc = SourceDoc(
        path=p,
        data=data,
        lines=lines,
        origin=origin,
        diagnostics=tuple(notes),
        refs=tuple(refs),
        unplain=unplain[0] if unplain else None,
    )
    return doc, refs


def with_ref_policy(
    doc: SourceDoc,
    refs: list[tuple[str, str]],
    *,
    allow_external_refs: bool,
    limits: Limits,
) -> SourceDoc:
    """``doc`` once it is within the declarations cap and every ref in ``refs`` passed the one
    ``$ref`` policy (raises InputError): the checks on the document as it will be used."""
    declared = (at for *_, op, at in iter_operations(doc.data) if DECLARATION_KEY in op)
    past = next(itertools.islice(declared, limits.max_declarations, None), None)
    if past is not None:  # before any stage spends time on each declaration (no views built)
        raise InputError(
            [
                doc.diag(
                    pointer_join(past, DECLARATION_KEY),
                    TOO_MANY_DECLARATIONS,
                    f"the document holds more than {limits.max_declarations:,} x-completeness "
                    "declarations; this is the first one past the cap",
                    hint="split the document, or raise XC_MAX_DECLARATIONS if it really "
                    "declares this many operations",
                    severity=Severity.ERROR,
                )
            ]
        )
    files: list[Path] = []
    ref_notes = check_refs(
        doc, allow_external_refs=allow_external_refs, limits=limits, refs=refs, files_out=files
    )
    if not ref_notes and not files:
        return doc
    return SourceDoc(
        doc.path,
        doc.data,
        doc.lines,
        doc.origin,
        doc.origins,
        doc.diagnostics + tuple(ref_notes),
        tuple(files),
        doc.refs,
        doc.unplain,
    )


def _swagger_hint(origin: str) -> str:
    """The command that converts this Swagger 2.0 file, with its own name (what a user runs)."""
    path = Path(origin)
    suffix = path.suffix if path.suffix.lower() in (".yaml", ".yml", ".json") else ".yaml"
    target = path.with_name(f"{path.stem}.openapi{suffix}")
    return (
        f"convert it to OpenAPI 3.0 first: npx swagger2openapi --patch {shlex.quote(origin)} "
        f"-o {shlex.quote(str(target))} (the output's extension picks YAML or JSON), then run "
        "xcompleteness on the converted file"
    )


def require_openapi(data: Any, origin: str, lines: Mapping[str, int]) -> None:
    """Raise the ``XC006``/``XC007`` InputError unless ``data`` is an OpenAPI 3.0/3.1 root."""
    if not isinstance(data, dict):
        kind = type(data).__name__ if data is not None else "empty"
        raise input_error(
            origin,
            NOT_MAPPING,
            f"the document root is {kind}, not a mapping",
            hint="an OpenAPI document is a mapping with an 'openapi' key",
        )
    if "swagger" in data and "openapi" not in data:
        raise input_error(
            origin,
            NOT_OPENAPI,
            f"this is Swagger {data.get('swagger')}, not OpenAPI 3.x",
            pointer="/swagger",
            line=lines.get("/swagger"),
            hint=_swagger_hint(origin),
        )
    version = data.get("openapi")
    if version is None:
        raise input_error(
            origin,
            NOT_OPENAPI,
            "no 'openapi' key: this is not an OpenAPI document",
            hint="add 'openapi: 3.1.0' (or 3.0.x) at the top level",
        )
    if not isinstance(version, str) or not re.fullmatch(r"3\.[01]\.\d+(-.+)?", version):
        raise input_error(
            origin,
            NOT_OPENAPI,
            f"unsupported 'openapi' version {version!r}",
            pointer="/openapi",
            line=lines.get("/openapi"),
            hint="use a quoted string such as '3.1.0' or '3.0.3'",
        )
