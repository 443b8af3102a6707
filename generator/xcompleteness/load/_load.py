"""Load a spec and its overlays as one document, then apply the limits and the ``$ref`` policy.

The order is the safety property: the overlays are applied first (under the size budget of
:mod:`~xcompleteness.load._overlay`), and only then are the depth cap, the OpenAPI root check
and the one ``$ref`` policy (:mod:`~xcompleteness.load._ref_policy`) applied to the document as
it will be used. A ``$ref`` an overlay writes is therefore judged exactly like one in the spec,
and an overlay that removes what makes the document OpenAPI is named in the diagnostic.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace

from xcompleteness.diagnostics import InputError
from xcompleteness.load._limits import MIXED_ENUM, Limits
from xcompleteness.load._overlay import apply_overlays
from xcompleteness.load._parse import mixed_enum_notes, walk_document
from xcompleteness.load._source import SourceDoc, read_spec, require_openapi, with_ref_policy

__all__ = ["load_document"]


def load_document(
    spec: str | os.PathLike[str],
    overlays: Sequence[str | os.PathLike[str]] = (),
    *,
    allow_external_refs: bool = False,
    limits: Limits | None = None,
) -> SourceDoc:
    """The spec with its overlays applied, checked as a whole (raises :class:`InputError`)."""
    limits = limits or Limits.from_env()
    doc, refs = read_spec(spec, limits, walk_later=bool(overlays))
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
        refs = walk_document(doc.data, doc.origin, limits, enums)
        kept = tuple(d for d in doc.diagnostics if d.code != MIXED_ENUM or d.file != doc.origin)
        fresh = tuple(
            doc.diag(d.pointer, MIXED_ENUM, d.message, hint=d.hint, severity=d.severity)
            for d in mixed_enum_notes(doc.origin, enums, None)
        )
        doc = replace(doc, diagnostics=kept + fresh, refs=tuple(refs))
    return with_ref_policy(doc, refs, allow_external_refs=allow_external_refs, limits=limits)
