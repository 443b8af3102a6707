"""generate on two processes (validation in a forked child) gives what one process gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.paths import EXAMPLES
from xcompleteness.check import _prevalidate as prevalidate
from xcompleteness.check._pipeline import check_spec
from xcompleteness.check._validate import validate_openapi
from xcompleteness.diagnostics import InputError
from xcompleteness.emit._generate import GenerationRefused, generate

INVALID = Path(__file__).resolve().parents[1] / "invalid"
CASES = sorted(p for p in INVALID.iterdir() if (p / "spec.yaml").is_file())
BASE = INVALID / "base.yaml"

pytestmark = pytest.mark.skipif(not prevalidate.wanted(), reason="needs fork and 2 CPUs")


def _inputs(case: Path) -> tuple[Path, list[Path]]:
    overlay = case / "overlay.yaml"
    spec = case / "spec.yaml" if (case / "spec.yaml").is_file() else BASE
    return spec, [overlay] if overlay.is_file() else []


@pytest.mark.parametrize("case", CASES + [INVALID / "overlay_ok_finding_in_overlay"], ids=str)
def test_merge_rebuilds_check_specs_diagnostics(case: Path) -> None:
    spec, overlays = _inputs(case)
    try:
        full = check_spec(spec, overlays)
    except InputError:
        return  # unusable input stops before validation in both pipelines
    partial = check_spec(spec, overlays, validate=False)
    assert prevalidate.merge(partial, validate_openapi(partial.doc)) == full.diagnostics
    background = prevalidate.Validation(partial.doc)
    assert prevalidate.merge(partial, background.result() or []) == full.diagnostics


def _outcome(spec: Path, overlays: list[Path], monkeypatch: pytest.MonkeyPatch, jobs: str):
    monkeypatch.setenv("XC_JOBS", jobs)
    assert prevalidate.wanted() is (jobs != "1")
    try:
        gen = generate(spec, overlays, "pkg", cache=False)
    except GenerationRefused as exc:
        return "refused", exc.diagnostics
    except InputError as exc:
        return "unusable", exc.diagnostics
    return gen.files, gen.diagnostics


@pytest.mark.parametrize(
    "spec,overlays",
    [
        (EXAMPLES / "link_header_search" / "base.yaml", ["overlay.yaml"]),
        (EXAMPLES / "service_accounts" / "openapi.yaml", []),
        (INVALID / "openapi_invalid" / "spec.yaml", []),
        (INVALID / "rule_XC100_undeclared_listing" / "spec.yaml", []),
        (INVALID / "finding_XC014_dangling_ref" / "spec.yaml", []),
    ],
    ids=lambda v: str(v)[-40:],
)
def test_same_files_diagnostics_and_refusals_on_one_or_two_processes(
    spec: Path, overlays: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = [spec.parent / o for o in overlays]
    one = _outcome(spec, paths, monkeypatch, "1")
    two = _outcome(spec, paths, monkeypatch, "2")
    assert one == two
    if INVALID in spec.parents:  # warnings, or the refusal's errors, to compare
        assert one[1]


def test_a_refusal_lists_the_validation_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XC_JOBS", raising=False)
    with pytest.raises(GenerationRefused) as info:
        generate(INVALID / "openapi_invalid" / "spec.yaml", [], "pkg", cache=False)
    assert [d.code for d in info.value.diagnostics] == ["XC030"]


def test_a_child_that_cannot_validate_answers_none() -> None:
    background = prevalidate.Validation(object())  # no document: validate_openapi fails
    assert background.result() is None  # the parent then validates in-process


def test_the_child_validates_the_document_the_parent_loaded(tmp_path: Path) -> None:
    """Forked after loading: an edit to the file afterwards cannot reach the child's verdict."""
    spec = tmp_path / "spec.yaml"
    spec.write_bytes((INVALID / "openapi_invalid" / "spec.yaml").read_bytes())
    loaded = check_spec(spec, validate=False).doc
    spec.write_bytes((EXAMPLES / "service_accounts" / "openapi.yaml").read_bytes())
    errors = prevalidate.Validation(loaded).result()
    assert errors is not None and [d.code for d in errors] == ["XC030"]


def test_output_buffered_before_the_fork_is_written_once(tmp_path: Path) -> None:
    import subprocess
    import sys

    spec = str(EXAMPLES / "service_accounts" / "openapi.yaml")
    script = (
        "import sys\n"
        "from xcompleteness.emit._generate import generate\n"
        "sys.stdout.write('buffered-before-fork\\n')\n"  # a pipe: block-buffered, not flushed
        f"generate({spec!r}, (), 'pkg', cache=False)\n"
        "print('done')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=600,
        env={**__import__("os").environ, "XDG_CACHE_HOME": str(tmp_path)},
        check=True,
    )
    assert proc.stdout == "buffered-before-fork\ndone\n"


def test_no_fork_under_a_threaded_host(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    monkeypatch.delenv("XC_JOBS", raising=False)
    assert prevalidate.wanted()
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait, name="host-worker")
    worker.start()
    try:
        assert not prevalidate.wanted()
        spec = EXAMPLES / "service_accounts" / "openapi.yaml"
        assert generate(spec, (), "pkg", cache=False).files  # one process, same pipeline
    finally:
        stop.set()
        worker.join()
    assert prevalidate.wanted()
