"""What importing the runtime leaves out (issue 21, first call): httpx's command-line client and
asyncio are not imported by a synchronous client, and the envelope models are built on first use.

Each check runs in a fresh interpreter, so modules other tests imported do not count.
"""

from __future__ import annotations

import asyncio
import importlib.util
import subprocess
import sys
import time

import pytest

_FRESH = """
import sys
import xcompleteness.runtime.operations
import xcompleteness.runtime.tool_result
from xcompleteness.runtime.envelope import Envelope, Reason
print(sorted(m for m in ("httpx._main", "asyncio", "click", "rich") if m in sys.modules))
print(Envelope.__pydantic_complete__, Reason.__pydantic_complete__)
"""


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_a_sync_client_imports_neither_the_httpx_command_nor_asyncio() -> None:
    done = _run(_FRESH)
    assert done.returncode == 0, done.stderr
    left_out, built = done.stdout.splitlines()
    assert left_out == "[]"
    assert built == "False False"  # defer_build: made on first validation, not at import


@pytest.mark.skipif(
    not all(importlib.util.find_spec(m) for m in ("click", "rich", "pygments")),
    reason="httpx's command-line client needs click, rich and pygments (httpx[cli])",
)
def test_the_httpx_command_still_runs_after_the_runtime_imported_httpx() -> None:
    code = (
        "import xcompleteness.runtime.operations, httpx, sys\n"
        "assert 'httpx._main' not in sys.modules\n"
        "httpx.main(['--help'])\n"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr
    assert "Usage" in done.stdout
    assert "could not run" not in done.stdout


def test_httpx_imported_first_is_used_as_it_is() -> None:
    code = (
        "import httpx, sys\n"
        "main = httpx.main\n"
        "import xcompleteness.runtime.operations\n"
        "assert httpx.main is main\n"
        "print(sys.modules['xcompleteness.runtime.operations'].httpx is httpx)\n"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


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
        "15 8 True False ITEM_SCHEMA_MISMATCH False",
        "MORE_PAGES_AVAILABLE False",
        "ClientPageLimit True True",
        "True True None",
    ]
