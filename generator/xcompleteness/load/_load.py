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
from xcompleteness.load._limits import Limits
from xcompleteness.load._overlay import apply_overlays
from xcompleteness.load._parse import walk_document
from xcompleteness.load._source import SourceDoc, read_spec, require_openapi, with_ref_policy


def load_document(
    spec: str | os.PathLike[str],
    overlays: Sequence[str | os.PathLike[str]] = (),
    *,
    allow_external_refs: bool = False,
    limits: Limits | None = None,
) -> SourceDoc:
    """The spec with its overlays applied, checked as a whole (raises :class:`InputError`)."""
    limits = limits or Limits.from_env()
    doc, refs = read_spec(spec, limits)
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
        refs = walk_document(doc.data, doc.origin, limits)  # the depth cap and every ref, again
    return with_ref_policy(doc, refs, allow_external_refs=allow_external_refs, limits=limits)
