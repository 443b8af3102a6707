"""``generate`` on two cores: OpenAPI validation in a second process while the rest runs.

Why: OpenAPI validation (openapi-spec-validator) is the largest stage of ``generate`` on a big
description, and nothing after it reads its result except the final "are there errors?" test. So
once the parent has loaded the spec and applied the overlays, ``generate`` forks a child that
validates that same in-memory document (inherited through ``fork``: never read again from disk,
never pickled, so it is the document the parent goes on with), while the parent runs the rest of
the check (vocabulary, rules) and, speculatively, the IR, emitters and ruff. The parent then waits
for the child and merges its diagnostics into the exact place the one-process pipeline puts them
(:func:`merge`): the result, the diagnostics and their order are the same; when the merged
diagnostics hold an error, the speculative output is dropped and generation is refused with the
same errors as before.

The child is data-only: it sends back a list of :class:`Diagnostic` (pickled over a pipe it
shares only with its parent); its stdout and stderr go to ``/dev/null`` (the parent flushes its
own before forking, so nothing buffered is written twice). If it cannot start, dies or
sends nothing usable, the parent validates in-process (same result, one core).

Used when ``fork`` is available, at least two CPUs are usable and no thread other than ours (the
progress line) runs, since forking a threaded process can deadlock the child; ``XC_JOBS=1``
turns it off.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xcompleteness import forked
from xcompleteness.diagnostics import Diagnostic
from xcompleteness.forked import wanted

__all__ = ["Validation", "merge", "wanted"]


def _validated(doc: Any) -> list[Diagnostic]:
    from xcompleteness.check._validate import validate_openapi

    return list(validate_openapi(doc))


class Validation:
    """``validate_openapi(doc)`` in a forked child process (``doc``: the loaded SourceDoc)."""

    def __init__(self, doc: Any) -> None:
        self._job = forked.Forked(_validated, doc, name="xc-validate")

    def result(self) -> list[Diagnostic] | None:
        """The child's diagnostics, or None when it failed (validate in-process then)."""
        ok, payload = self._job.result()
        if not ok or not isinstance(payload, list):
            return None
        if not all(isinstance(d, Diagnostic) for d in payload):
            return None
        return payload

    def cancel(self) -> None:
        """Stop the child (the parent no longer needs its answer)."""
        self._job.cancel()


def merge(result: Any, validation: Sequence[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics ``check_spec`` gives with validation, from its result without it.

    ``check_spec`` relocates ``doc.diagnostics + validation + the rest`` and drops repeats (first
    one wins); ``result.diagnostics`` is the same without ``validation``, so the merged list is
    its head (the document's own notes), then the validation diagnostics not already there, then
    its tail without the ones validation already gave.
    """
    from xcompleteness.check._pipeline import relocated

    doc = result.doc
    own = list(doc.diagnostics)
    head = relocated(doc, own)
    if list(result.diagnostics[: len(head)]) != head:
        raise RuntimeError("check_spec's diagnostics do not start with the document's notes")
    added = relocated(doc, own + list(validation))[len(head) :]
    seen = set(added)
    return head + added + [d for d in result.diagnostics[len(head) :] if d not in seen]
