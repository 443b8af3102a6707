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

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from xcompleteness.diagnostics import Diagnostic

__all__ = ["Forked", "Validation", "merge", "wanted"]


def wanted() -> bool:
    """Whether a second process can help here (fork exists, 2+ usable CPUs, not XC_JOBS=1)."""
    if os.environ.get("XC_JOBS", "").strip() == "1":
        return False
    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    others = [t for t in threading.enumerate() if t is not threading.main_thread()]
    if any(t.name != "xc-progress" for t in others):
        return False  # a threaded host (a server calling the library): never fork under it
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return cpus >= 2


def _child(conn: Any, job: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        # Our copies of the parent's stdout/stderr are never written or flushed (multiprocessing
        # flushes sys.stdout/sys.stderr on exit: they are /dev/null here).
        sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives with the process
        conn.send((True, job(*args)))
    except BaseException:  # noqa: BLE001 - the parent does the work again in-process
        conn.send((False, None))
    finally:
        conn.close()


class Forked:
    """``job(*args)`` in a forked child process; its (picklable) answer comes back over a pipe.

    The arguments are inherited through ``fork`` (never pickled, so the child works on the very
    objects the parent holds); only the answer crosses, and only from this parent's own child.
    :meth:`result` is ``(True, answer)`` or ``(False, None)`` when the child could not start,
    raised, died or sent nothing: the caller then does the work itself.
    """

    def __init__(self, job: Callable[..., Any], *args: Any, name: str) -> None:
        ctx = multiprocessing.get_context("fork")
        for stream in (sys.stdout, sys.stderr):  # nothing buffered is copied into the child
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass
        self._conn, child_end = ctx.Pipe(duplex=False)
        self._proc: Any = ctx.Process(
            target=_child, args=(child_end, job, args), name=name, daemon=True
        )
        try:
            self._proc.start()
        except OSError:
            self._proc = None
        finally:
            child_end.close()

    def result(self) -> tuple[bool, Any]:
        """``(True, answer)``, or ``(False, None)`` when the child failed."""
        if self._proc is None:
            return False, None
        try:
            ok, payload = self._conn.recv()
        except (EOFError, OSError, ValueError, TypeError, AttributeError, ImportError):
            ok, payload = False, None
        finally:
            self._conn.close()
            self._proc.join()
            self._proc = None
        return (True, payload) if ok is True else (False, None)

    def cancel(self) -> None:
        """Stop the child (the parent no longer needs its answer)."""
        if self._proc is not None:
            self._proc.terminate()
            self._proc.join()
            self._conn.close()
            self._proc = None


def _validated(doc: Any) -> list[Diagnostic]:
    from xcompleteness.check._validate import validate_openapi

    return list(validate_openapi(doc))


class Validation:
    """``validate_openapi(doc)`` in a forked child process (``doc``: the loaded SourceDoc)."""

    def __init__(self, doc: Any) -> None:
        self._job = Forked(_validated, doc, name="xc-validate")

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
