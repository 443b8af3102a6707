"""A one-line progress indicator for ``check``, ``audit`` and ``generate`` on a terminal.

Nothing is printed for runs that end within ``XC_PROGRESS_AFTER`` seconds (default 2), when
stderr is not a terminal, when the ``CI`` environment variable is set (to anything but ``""``,
``0`` or ``false``), when ``TERM=dumb``, or with ``--quiet``. Otherwise a background thread
rewrites one line on stderr (``check: validating OpenAPI... 3 s``) until the run ends, then erases
it, so the command's own output is the same with or without it. The stage text comes from
:func:`stage`, which the pipelines call at each step; it is a no-op when no indicator runs.

Library callers (:mod:`xcompleteness.api`) get the stages through :func:`reporting` instead: a
callback, or nowhere at all; nothing is ever drawn for them. Listeners are per thread, so two
runs in two threads never see each other's stages.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any, TextIO

__all__ = ["Progress", "enabled", "reporting", "stage"]

_LOCAL = threading.local()
_INTERVAL_S = 0.25


def _listeners() -> list[Any]:
    """This thread's stack of listeners: objects with a writable ``stage`` attribute."""
    stack: list[Any] | None = getattr(_LOCAL, "stack", None)
    if stack is None:
        stack = _LOCAL.stack = []
    return stack


def stage(text: str) -> None:
    """Name the step now running (shown by the innermost indicator or callback, if any)."""
    stack = _listeners()
    if stack:
        stack[-1].stage = text


class _Callback:
    def __init__(self, callback: Callable[[str], None] | None) -> None:
        self._callback = callback

    @property
    def stage(self) -> str:
        return ""

    @stage.setter
    def stage(self, text: str) -> None:
        if self._callback is not None:
            self._callback(text)


@contextmanager
def reporting(callback: Callable[[str], None] | None) -> Iterator[None]:
    """Send this thread's :func:`stage` texts to ``callback`` (``None``: nowhere) in the block."""
    listener = _Callback(callback)
    stack = _listeners()
    stack.append(listener)
    try:
        yield
    finally:
        stack.remove(listener)


def enabled(stream: TextIO, *, quiet: bool = False) -> bool:
    """Whether an indicator may draw on ``stream``."""
    if quiet or os.environ.get("TERM") == "dumb":
        return False
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _delay() -> float:
    try:
        return max(0.0, float(os.environ.get("XC_PROGRESS_AFTER", "2")))
    except ValueError:
        return 2.0


class Progress:
    """Context manager: draw ``COMMAND: STAGE... N s`` after the delay, erase it on exit."""

    def __init__(self, command: str, *, quiet: bool = False, stream: TextIO | None = None):
        self.command = command
        self.stream = stream if stream is not None else sys.stderr
        self.stage = "working"
        self.active = enabled(self.stream, quiet=quiet)
        self.drawn = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start = 0.0
        self._owner: list[Any] = []

    def update(self, text: str) -> None:
        """Show ``text`` as the current stage (a callback for :func:`reporting`)."""
        self.stage = text

    def __enter__(self) -> Progress:
        self._owner = _listeners()
        self._owner.append(self)
        if self.active:
            self._start = time.monotonic()
            self._thread = threading.Thread(target=self._run, name="xc-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self in self._owner:
            self._owner.remove(self)
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.drawn:
            self._write("\r\x1b[K")

    def _run(self) -> None:
        if self._stop.wait(_delay()):
            return
        while not self._stop.is_set():
            elapsed = time.monotonic() - self._start
            self._write(f"\r\x1b[K{self.command}: {self.stage}... {elapsed:.0f} s")
            self.drawn = True
            self._stop.wait(_INTERVAL_S)

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed terminal must not break the run
            self._stop.set()
