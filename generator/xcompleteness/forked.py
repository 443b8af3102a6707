"""One job in a forked child process, its answer back over a pipe: two cores for one command.

Shared by ``generate``'s two overlaps (OpenAPI validation in ``check._prevalidate``, the side
emitters in ``emit._generate``). The child inherits its arguments through ``fork`` (never
re-read, never pickled) and sends back only its answer; any failure (it could not start,
raised, died, sent nothing) is ``(False, None)`` and the caller does the work in-process, so the
result never depends on whether a second process ran.

:func:`wanted` says when forking can help and is safe: ``fork`` exists, at least two CPUs are
usable, no thread other than the progress line runs (forking a threaded process can deadlock
the child), and ``XC_JOBS=1`` is not set.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable
from pickle import PickleError
from typing import Any

__all__ = ["Forked", "Waiting", "wanted"]


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


def _waiting_child(
    jobs: Any, conn: Any, prepare: Callable[[], object], job: Callable[..., Any]
) -> None:
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - as in _child
    try:
        prepare()
    except Exception:  # noqa: BLE001, S110 - preparing is an optimisation; the job redoes it
        pass
    try:
        args = jobs.recv()
    except (EOFError, OSError):
        return  # cancelled: the parent closed its end or is gone
    finally:
        jobs.close()
    if type(args) is tuple:
        _child(conn, job, args)
    else:
        conn.close()


class Forked:
    """``job(*args)`` in a forked child process; its (picklable) answer comes back over a pipe.

    The arguments are inherited through ``fork`` (never pickled, so the child works on the very
    objects the parent holds); only the answer crosses, and only from this parent's own child.
    :meth:`result` is ``(True, answer)`` or ``(False, None)`` when the child could not start,
    raised, died or sent nothing: the caller then does the work itself.
    """

    def __init__(self, job: Callable[..., Any], *args: Any, name: str) -> None:
        self._start(_child, (), (job, args), name)

    def _start(
        self, target: Callable[..., None], head: tuple[Any, ...], tail: tuple[Any, ...], name: str
    ) -> None:
        """Fork ``target(*head, answer_end, *tail)``; ``answer_end`` is the child's pipe end."""
        ctx = multiprocessing.get_context("fork")
        for stream in (sys.stdout, sys.stderr):  # nothing buffered is copied into the child
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass
        self._conn, child_end = ctx.Pipe(duplex=False)
        self._proc: Any = ctx.Process(
            target=target, args=(*head, child_end, *tail), name=name, daemon=True
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


class Waiting(Forked):
    """A forked child that runs ``prepare()`` now and ``job(*args)`` once :meth:`submit` sends
    ``args``: the preparation (importing a library) overlaps what the parent does until it knows
    the arguments. Only the arguments cross (pickled, to this parent's own child); the answer
    comes back as with :class:`Forked`. A child never submitted to is stopped by :meth:`cancel`.
    """

    def __init__(self, prepare: Callable[[], object], job: Callable[..., Any], *, name: str):
        ctx = multiprocessing.get_context("fork")
        jobs, self._jobs = ctx.Pipe(duplex=False)
        try:
            self._start(_waiting_child, (jobs,), (prepare, job), name)
        finally:
            jobs.close()

    def submit(self, *args: Any) -> bool:
        """Send the job's arguments; False (and the child stopped) when they cannot be sent."""
        if self._proc is None:
            return False
        try:
            self._jobs.send(args)
        except (OSError, ValueError, TypeError, AttributeError, RecursionError, PickleError):
            self.cancel()
            return False
        finally:
            self._jobs.close()
        return True

    def cancel(self) -> None:
        self._jobs.close()
        super().cancel()
