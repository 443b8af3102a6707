"""A one-line progress indicator for ``check``, ``audit`` and ``generate`` on a terminal.

Nothing is printed for runs that end within ``XC_PROGRESS_AFTER`` seconds (default 2), when
stderr is not a terminal, when the ``CI`` environment variable is set (to anything but ``""``,
``0`` or ``false``), when ``TERM=dumb``, or with ``--quiet``. Otherwise a background thread
rewrites one line on stderr (``check: validating OpenAPI... 3 s``) until the run ends, then erases
it, so the command's own output is the same with or without it. The stage text comes from
:func:`stage`, which the pipelines call at each step; it is a no-op when no indicator runs.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from types import TracebackType
from typing import TextIO

_ACTIVE: list[Progress] = []
_INTERVAL_S = 0.25


def stage(text: str) -> None:
    """Name the step now running (shown by the active indicator, if any)."""
    if _ACTIVE:
        _ACTIVE[-1].stage = text


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

    def __enter__(self) -> Progress:
        _ACTIVE.append(self)
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
        if self in _ACTIVE:
            _ACTIVE.remove(self)
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
