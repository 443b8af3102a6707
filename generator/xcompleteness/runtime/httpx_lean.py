"""``httpx``, imported without its command-line client.

Why: ``import httpx`` also imports ``httpx._main`` (the ``httpx`` command: click, rich and
pygments) whenever those happen to be installed, about 40 ms of CPU, a sixth of a generated
package's first call, for a command a client never runs. Importing httpx while ``httpx._main`` is
marked unavailable makes httpx take its own branch for a missing command-line client; the mark
is removed straight after, and ``httpx.main`` is pointed at a function that imports the real
command when it is called, so ``httpx.main()`` and ``import httpx._main`` behave as before.
When httpx is already imported, it is used as it is. (While that one import runs, another
thread importing ``httpx._main`` itself would find it missing.)
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["httpx"]


def _main(*args: Any, **kwargs: Any) -> Any:
    """``httpx.main``: the httpx command, imported on first use."""
    from httpx._main import main

    return main(*args, **kwargs)


def _import_without_command() -> None:
    if "httpx" in sys.modules or "httpx._main" in sys.modules:
        return
    sys.modules["httpx._main"] = None  # type: ignore[assignment]  # "not installed" to httpx
    try:
        import httpx
    finally:
        if sys.modules.get("httpx._main", 0) is None:
            del sys.modules["httpx._main"]
    setattr(httpx, "main", _main)  # noqa: B010


_import_without_command()

import httpx  # noqa: E402  (imported just above, without its command-line client)
