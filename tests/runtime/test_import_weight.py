"""What importing the runtime leaves out (issue 21, first call): asyncio is not imported by a
synchronous client, and the envelope models are built on first use. httpx is imported as httpx
imports itself: the runtime never stubs or rebinds httpx's own modules in a user's process (what
``import httpx`` costs is the floor every httpx client pays).

Each check runs in a fresh interpreter, so modules other tests imported do not count.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

_FRESH = """
import sys
import xcompleteness.runtime.operations
import xcompleteness.runtime.tool_result
from xcompleteness.runtime.envelope import Envelope, Reason
print(sorted(m for m in ("asyncio",) if m in sys.modules))
print(Envelope.__pydantic_complete__, Reason.__pydantic_complete__)
"""


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_a_sync_client_does_not_import_asyncio() -> None:
    done = _run(_FRESH)
    assert done.returncode == 0, done.stderr
    left_out, built = done.stdout.splitlines()
    assert left_out == "[]"
    assert built == "False False"  # defer_build: made on first validation, not at import


_HTTPX_AS_IT_IS = """
import sys
{first}
import httpx
print(httpx.main.__module__, sorted(m for m in sys.modules if m.startswith("httpx._main")))
"""


def test_the_runtime_imports_httpx_as_httpx_imports_itself() -> None:
    """Importing the runtime leaves httpx exactly as a plain ``import httpx`` does, whatever is
    installed: the same ``httpx.main`` and the same ``httpx._main`` module (httpx's command-line
    client where click, rich and pygments are installed, httpx's own stand-in where not)."""
    plain = _run(_HTTPX_AS_IT_IS.format(first=""))
    ours = _run(
        _HTTPX_AS_IT_IS.format(
            first="import xcompleteness.runtime.operations, xcompleteness.runtime.tool_result"
        )
    )
    assert plain.returncode == 0 and ours.returncode == 0, plain.stderr + ours.stderr
    assert ours.stdout == plain.stdout
    assert ours.stdout.split()[0].startswith("httpx")


def test_the_async_walker_sleeps_with_asyncio_by_default() -> None:
    from support.fault_server import native_contract
    from xcompleteness.runtime.walk import AsyncWalker

    async def fetch(request: object) -> object:
        raise AssertionError("not called")

    walker = AsyncWalker(native_contract(), fetch)

    async def nap() -> float:
        started = time.monotonic()
        await walker.sleep(0.01)
        return time.monotonic() - started

    assert asyncio.run(nap()) >= 0.01


def test_the_client_codes_models_are_imported_on_first_lookup() -> None:
    """A server never sends the client's own codes, so their models (runtime/client_codes.py)
    are made when first looked up, not with the envelope; the mappings and names stay whole."""
    code = (
        "import sys\n"
        "from xcompleteness.runtime import envelope as e\n"
        "m = 'xcompleteness.runtime.client_codes'\n"
        "print(m in sys.modules)\n"
        "print(len(e.STANDARD_REASON_MODELS), len(e.STANDARD_WARNING_MODELS),\n"
        "      'CLIENT_PAGE_LIMIT' in e.STANDARD_REASON_MODELS,\n"
        "      'NOPE' in e.STANDARD_REASON_MODELS,\n"
        "      list(e.STANDARD_WARNING_MODELS)[3], m in sys.modules)\n"
        "print(e.make_reason({'code': 'MORE_PAGES_AVAILABLE'}).code, m in sys.modules)\n"
        "r = e.make_reason({'code': 'CLIENT_PAGE_LIMIT', 'max_pages': 2})\n"
        "print(type(r).__name__, type(r) is e.ClientPageLimit, m in sys.modules)\n"
        "from xcompleteness.runtime.envelope import EndInferred\n"
        "models = [*e.STANDARD_REASON_MODELS.items(), *e.STANDARD_WARNING_MODELS.items()]\n"
        "print(all(c.model_fields['code'].default == k for k, c in models),\n"
        "      e.STANDARD_WARNING_MODELS.get('END_INFERRED') is EndInferred,\n"
        "      e.STANDARD_REASON_MODELS.get('NOPE'))\n"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "False",
        "16 8 True False ITEM_SCHEMA_MISMATCH False",
        "MORE_PAGES_AVAILABLE False",
        "ClientPageLimit True True",
        "True True None",
    ]
