"""The generated packages type-check (docs/generate.md#typing).

Each golden case is generated whole (with its ``_runtime/``) and checked with mypy: plain mypy on
the whole package and ``mypy --strict`` on its public surface (client, models, tools: every module
outside ``_runtime/``) report 0 errors. User code written the way docs/client.md shows (``with
Client(...) as c``, ``async with AsyncClient(...)``, ``page()``, ``collect()``, a mutation) passes
``mypy --strict`` and pyright, and a misspelt operation is an error in both.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import refresh  # noqa: E402

CASES = sorted(refresh.CASES)
BIN = Path(sys.executable).parent

USER_CODE = {
    "service_accounts": '''
import asyncio

from service_accounts.client import AsyncClient, Client, CollectResult


def listing(base_url: str) -> int:
    with Client(base_url, headers={"Authorization": "Bearer x"}) as client:
        result: CollectResult = client.list_service_accounts.collect(max_pages=10, deadline=5.0)
        page = client.list_service_accounts.page(limit=5)
        cursor: str | None = page.next_cursor
        complete: bool = page.complete
        codes = [reason.code for reason in result.reasons]
        if result.continuation is not None:
            kind: str = result.continuation.kind
        found = client.search_service_accounts.collect(q="bot", max_items=50)
        one = client.get_service_account(id="svc-1")
        client.archive_service_accounts(ids=["svc-1"], evidence=result.evidence)
        return len(result.items) + len(codes) + len(found.items) + int(complete) + len(one.id)


async def listing_async(base_url: str) -> bool:
    async with AsyncClient(base_url) as client:
        result = await client.list_service_accounts.collect(max_pages=2)
        page = await client.list_service_accounts.page()
        return result.complete and page.complete


asyncio.run(listing_async("http://localhost"))
''',
    "link_header_search": '''
from link_header_search.client import AsyncClient, Client


def listing(base_url: str) -> int:
    with Client(base_url) as client:
        result = client.search_repositories.collect(q="x", max_pages=3)
        page = client.list_repositories.page(org="acme", page=2)
        return len(result.items) + len(page.items) + int(result.complete)


async def listing_async(base_url: str) -> bool:
    async with AsyncClient(base_url) as client:
        result = await client.search_repositories.collect(q="x")
        return result.complete
''',
}
MISSPELT = {
    "service_accounts": ("client.list_service_accounts.collect", "client.list_service_acounts.collect"),
    "link_header_search": ("client.search_repositories.collect", "client.search_repositores.collect"),
}


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from xcompleteness import api

    out = tmp_path_factory.mktemp("typed")
    for case in CASES:
        spec, package = refresh.CASES[case]
        result = api.generate(ROOT / spec, out / case, package=package, cache=False)
        assert result.exit_code == 0, result.diagnostics
    return out


def _mypy(cwd: Path, *args: str) -> tuple[int, list[str]]:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--hide-error-context", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr  # 2: mypy itself failed
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    return proc.returncode, errors


def _user_file(generated: Path, case: str, name: str, text: str) -> Path:
    path = generated / case / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def strict_errors(generated: Path) -> dict[str, list[str]]:
    """case -> the errors of one ``mypy --strict`` run over the package and both user files."""
    out = {}
    for case in CASES:
        package = refresh.CASES[case][1]
        right, wrong = MISSPELT[case]
        good = _user_file(generated, case, "user_good.py", USER_CODE[case])
        bad = _user_file(generated, case, "user_bad.py", USER_CODE[case].replace(right, wrong))
        _, out[case] = _mypy(generated / case, "--strict", package, good.name, bad.name)
    return out


@pytest.mark.parametrize("case", CASES)
def test_plain_mypy_on_the_whole_package(case: str, generated: Path) -> None:
    code, errors = _mypy(generated / case, "-p", refresh.CASES[case][1])
    assert (code, errors) == (0, [])


@pytest.mark.parametrize("case", CASES)
def test_strict_mypy_on_the_public_surface(case: str, strict_errors: dict[str, list[str]]) -> None:
    package = refresh.CASES[case][1]
    public = [e for e in strict_errors[case] if e.startswith(f"{package}/")]
    assert [e for e in public if not e.startswith(f"{package}/_runtime/")] == []


@pytest.mark.parametrize("case", CASES)
def test_documented_user_code_type_checks_and_a_misspelt_call_does_not(
    case: str, strict_errors: dict[str, list[str]]
) -> None:
    errors = strict_errors[case]
    assert [e for e in errors if e.startswith("user_good.py")] == []
    bad = [e for e in errors if e.startswith("user_bad.py")]
    wrong = MISSPELT[case][1].split(".")[1]
    assert bad and "[attr-defined]" in bad[0] and f'no attribute "{wrong}"' in bad[0], bad


def _pyright(cwd: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("pyright", path=str(BIN))
    if exe is None:
        pytest.skip("pyright is not installed (pip install pyright)")
    env = {**os.environ, "PYRIGHT_PYTHON_CACHE_DIR": str(ROOT / ".cache" / "pyright")}
    try:
        proc = subprocess.run(
            [exe, "--pythonpath", sys.executable, *targets],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=600,
            env=env,
        )
    except subprocess.TimeoutExpired:
        pytest.skip("pyright did not start within 10 minutes (it fetches node from npm once)")
    if proc.returncode not in (0, 1):
        pytest.skip(f"pyright could not run: {(proc.stderr or proc.stdout).strip()[:300]}")
    return proc


@pytest.mark.parametrize("case", CASES)
def test_pyright_on_documented_user_code(case: str, generated: Path) -> None:
    right, wrong = MISSPELT[case]
    _user_file(generated, case, "user_good.py", USER_CODE[case])
    _user_file(generated, case, "user_bad.py", USER_CODE[case].replace(right, wrong))
    proc = _pyright(generated / case, "user_good.py", "user_bad.py")
    errors = [line for line in proc.stdout.splitlines() if " - error: " in line]
    assert [e for e in errors if "user_good.py" in e] == [], proc.stdout
    bad = [e for e in errors if "user_bad.py" in e]
    assert bad and all("Cannot access attribute" in e for e in bad), proc.stdout
    assert f'"{wrong.split(".")[1]}"' in bad[0]


RENAMED_PATH_USER = """
from jobs_typed.client import Client


def artifacts(base_url: str) -> int:
    with Client(base_url) as client:
        return len(client.list_artifacts.collect(job_id="42").items)
"""


def test_a_renamed_path_parameter_is_a_required_keyword_for_mypy(tmp_path: Path) -> None:
    """``/jobs/{jobId}/artifacts``: the client's keyword is ``job_id``; it was typed
    ``str | None = None`` and a call without it type-checked, failing only at run time."""
    from support import jobs
    from xcompleteness import api

    spec = tmp_path / "jobs.yaml"
    spec.write_text(
        jobs.spec(jobs.listing("/jobs/{jobId}/artifacts", "listArtifacts", "jobId")),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    assert api.generate(spec, out, package="jobs_typed", cache=False).exit_code == 0
    good = _user_file(tmp_path, "out", "user_good.py", RENAMED_PATH_USER)
    bad = _user_file(tmp_path, "out", "user_bad.py", RENAMED_PATH_USER.replace('job_id="42"', ""))
    _, errors = _mypy(out, "--strict", good.name, bad.name)
    assert [e for e in errors if e.startswith("user_good.py")] == []
    bad_errors = [e for e in errors if e.startswith("user_bad.py")]
    assert len(bad_errors) == 1 and '"job_id"' in bad_errors[0], errors
    assert "[call-arg]" in bad_errors[0], bad_errors


BUILTIN_PATH_USER = """
import asyncio

from jobs_builtin.client import AsyncClient, Client


def artifacts(base_url: str) -> int:
    with Client(base_url) as client:
        by_spec_name = client.list_artifacts.collect(id="42")
        by_keyword = client.list_artifacts.collect(id_="42")
        page = client.list_artifacts.page(id="42")
        streamed = list(client.list_artifacts.iter_items(id_="42"))
        return len(by_spec_name.items) + len(by_keyword.items) + len(page.items) + len(streamed)


async def artifacts_async(base_url: str) -> bool:
    async with AsyncClient(base_url) as client:
        result = await client.list_artifacts.collect(id="42")
        return result.complete


asyncio.run(artifacts_async("http://localhost"))
"""


def test_a_builtin_named_path_parameter_is_required_under_both_keywords(tmp_path: Path) -> None:
    """``/jobs/{id}/artifacts``: the keyword is ``id_`` (a builtin's name escaped) and callers
    also write the spec's ``id`` (docs/client.md). It was ``id_: str | None = None``, so a call
    with neither type-checked and failed only at run time; two overloads now require one of
    them, and both spellings keep type-checking (no caller breaks)."""
    from support import jobs
    from xcompleteness import api

    spec = tmp_path / "jobs.yaml"
    spec.write_text(
        jobs.spec(jobs.listing("/jobs/{id}/artifacts", "listArtifacts", "id")), encoding="utf-8"
    )
    out = tmp_path / "out"
    assert api.generate(spec, out, package="jobs_builtin", cache=False).exit_code == 0
    good = _user_file(tmp_path, "out", "user_good.py", BUILTIN_PATH_USER)
    bad_text = BUILTIN_PATH_USER.replace('collect(id_="42")', "collect()")
    bad = _user_file(tmp_path, "out", "user_bad.py", bad_text)
    _, errors = _mypy(out, "--strict", good.name, bad.name)
    assert [e for e in errors if e.startswith("user_good.py")] == [], errors
    bad_errors = [e for e in errors if e.startswith("user_bad.py")]
    assert len(bad_errors) == 1 and "[call-overload]" in bad_errors[0], errors
