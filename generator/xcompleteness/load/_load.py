"""Load a spec and its overlays as one document, then apply the limits and the ``$ref`` policy.

The order is the safety property: the overlays are applied first (under the size budget of
:mod:`~xcompleteness.load._overlay`), and only then are the depth cap, the OpenAPI root check
and the one ``$ref`` policy (:mod:`~xcompleteness.load._ref_policy`) applied to the document as
it will be used. A ``$ref`` an overlay writes is therefore judged exactly like one in the spec,
and an overlay that removes what makes the document OpenAPI is named in the diagnostic.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import replace

from xcompleteness import collector
from xcompleteness.diagnostics import InputError
from xcompleteness.load._limits import MIXED_ENUM, Limits
from xcompleteness.load._overlay import apply_overlays
from xcompleteness.load._parse import BaseWalk, mixed_enum_notes, walk_document, walk_since
from xcompleteness.load._source import SourceDoc, read_spec, require_openapi, with_ref_policy

__all__ = ["documents_live_with_the_process", "load_document"]


@contextmanager
def documents_live_with_the_process(*, pause_collector: bool = False) -> Iterator[None]:
    """Declare that a document loaded in this block lives until the process ends (a command-line
    run: one document, then exit). It is then loaded with the cyclic garbage collector paused
    (parsing JSON makes no cycles, only work for it) and frozen once loaded (``gc.freeze``), so
    the collections that follow no longer traverse its million objects: about 0.15 s of CPU
    on GitHub's description. So are its typed views and what the XC100 scan builds, each when
    its block ends (:func:`collector.objects_live_with_the_process`). A library caller (a server
    loading many documents) never gets this: a frozen document would never be collected.

    ``pause_collector``: for a command whose work after loading is reading that document
    (``check``), full collections are also put off for the whole block (restored after it).
    What such a run builds (typed views, the scan's shared answers, diagnostics) lives until it
    ends too, and after the freeze the collector schedules a full collection whenever the
    objects made since the last one grow by a quarter, each traversing all of them again: on
    Microsoft Graph four full collections cost about 0.5 s of CPU and freed nothing (the peak
    memory is the same without them). Young collections still run, so cycles that die young
    (exceptions and their tracebacks) are still freed; a full one comes after
    :data:`collector.FULL_COLLECTION_PUT_OFF` times the usual number of young ones."""
    with collector.objects_live_with_the_process():
        with collector.full_collections_put_off() if pause_collector else nullcontext():
            yield


def load_document(
    spec: str | os.PathLike[str],
    overlays: Sequence[str | os.PathLike[str]] = (),
    *,
    allow_external_refs: bool = False,
    limits: Limits | None = None,
) -> SourceDoc:
    """The spec with its overlays applied, checked as a whole (raises :class:`InputError`)."""
    if not collector.for_the_process():
        return _load(spec, overlays, allow_external_refs, limits)
    with collector.paused():  # and frozen at its end, before the collector runs again
        return _load(spec, overlays, allow_external_refs, limits)


def _load(
    spec: str | os.PathLike[str],
    overlays: Sequence[str | os.PathLike[str]],
    allow_external_refs: bool,
    limits: Limits | None,
) -> SourceDoc:
    limits = limits or Limits.from_env()
    base: list[BaseWalk] = []  # what a walk of the spec's text finds, when a store knows it
    doc, refs = read_spec(spec, limits, walk_later=bool(overlays), walk_out=base)
    if overlays:
        doc = apply_overlays(doc, list(overlays), limits=limits)
        named = ", ".join(os.fspath(o) for o in overlays)
        try:
            require_openapi(doc.data, doc.origin, doc.lines)
        except InputError as exc:
            raise InputError(
                replace(
                    d,
                    file=os.fspath(overlays[-1]),
                    message=f"after the overlays ({named}): " + d.message,
                    line=None,
                )
                for d in exc.diagnostics
            ) from None
        enums: list[str] = []  # the depth cap, every ref and mixed enums, again
        if base:  # only what the overlays copied or wrote (load._parse.walk_since)
            refs = walk_since(doc.data, base[0], doc.origin, limits, enums)
        else:
            refs = walk_document(doc.data, doc.origin, limits, enums)
        kept = tuple(d for d in doc.diagnostics if d.code != MIXED_ENUM or d.file != doc.origin)
        fresh = tuple(
            doc.diag(d.pointer, MIXED_ENUM, d.message, hint=d.hint, severity=d.severity)
            for d in mixed_enum_notes(doc.origin, enums, None)
        )
        doc = replace(doc, diagnostics=kept + fresh, refs=tuple(refs))
    return with_ref_policy(doc, refs, allow_external_refs=allow_external_refs, limits=limits)
