"""``xcompleteness.api``: results with diagnostics and exit codes, nothing printed, CLI parity.

The command line only formats what these functions return, so for the same input the CLI's JSON
diagnostics and exit code must equal the api's. Bad input is a result (never an exception, never
``sys.exit``), and nothing reaches stdout or stderr.
"""

from __future__ import annotations

import ast
import dataclasses
import datetime
import json
import threading
from pathlib import Path, PurePosixPath

import httpx
import pytest
import yaml
from support.mock_proc import mock_in_thread
from support.paths import EXAMPLES, ROOT
from xcompleteness import ExitCode, api
from xcompleteness.cli import main
from xcompleteness.diagnostics import render_json
from xcompleteness.progress import reporting, stage

SVC = EXAMPLES / "service_accounts" / "openapi.yaml"
BASE = EXAMPLES / "link_header_search" / "base.yaml"  # valid, two undeclared listings (XC100)
GH = EXAMPLES / "link_header_search" / "openapi.yaml"


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A spec whose declaration has a schema error (XC043): findings, exit code 1."""
    doc = yaml.safe_load(GH.read_text(encoding="utf-8"))
    doc["paths"]["/orgs/{org}/repos"]["get"]["x-completeness"]["kind"] = "listing-ish"
    path = tmp_path_factory.mktemp("api") / "broken.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def not_yaml(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("api") / "not.yaml"
    path.write_text("openapi: [unclosed\n", encoding="utf-8")
    return path


def _json(diagnostics) -> list[dict]:
    return json.loads(render_json(diagnostics))["diagnostics"]


def _quiet(capsys: pytest.CaptureFixture[str]) -> None:
    out, err = capsys.readouterr()
    assert (out, err) == ("", ""), "the api printed"


# -- check -----------------------------------------------------------------------------------


def test_check_of_a_clean_spec(capsys) -> None:
    stages: list[str] = []
    report = api.check(SVC, progress=stages.append)
    _quiet(capsys)
    assert report.exit_code is ExitCode.OK and report.ok
    assert report.diagnostics == () and report.errors == () and report.warnings == ()
    assert sorted(report.contracts) == [
        "archiveServiceAccounts",
        "getServiceAccount",
        "listServiceAccounts",
        "searchServiceAccounts",
    ]
    assert report.contracts["listServiceAccounts"]  # the canonical contract
    assert report.summary.endswith("0 error(s), 0 warning(s); 4 declaration(s) checked")
    assert stages[0] == "loading the spec" and "running rules" in stages
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.exit_code = ExitCode.FINDINGS  # type: ignore[misc]


def test_check_warnings_pass_unless_strict(capsys) -> None:
    lenient = api.check(BASE)
    strict = api.check(BASE, strict=True)
    _quiet(capsys)
    assert [d.code for d in lenient.warnings] == ["XC100", "XC100"]
    assert lenient.exit_code is ExitCode.OK
    assert strict.exit_code is ExitCode.FINDINGS and strict.diagnostics == lenient.diagnostics


def test_check_of_a_spec_with_errors_is_findings(broken, capsys) -> None:
    report = api.check(broken)
    _quiet(capsys)
    assert report.exit_code is ExitCode.FINDINGS
    assert [d.code for d in report.errors] == ["XC043"]
    assert report.errors[0].pointer == "/paths/~1orgs~1{org}~1repos/get/x-completeness/kind"
    assert "listing-ish" not in json.dumps(list(report.contracts))  # not normalized


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda tmp, bad: tmp / "missing.yaml", "XC001"),
        (lambda tmp, bad: bad, "XC003"),
    ],
    ids=["missing-file", "not-yaml"],
)
def test_unusable_input_is_a_result_not_an_exception(make, code, tmp_path, not_yaml, capsys):
    spec = make(tmp_path, not_yaml)
    for result in (
        api.check(spec),
        api.audit(spec),
        api.generate(spec, tmp_path / "out"),
        api.verify(spec, "http://127.0.0.1:9"),
        api.mock(spec),
    ):
        assert result.exit_code is ExitCode.UNUSABLE, type(result).__name__
        assert [d.code for d in result.diagnostics] == [code]
        assert result.spec == str(spec)
    _quiet(capsys)
    assert not (tmp_path / "out").exists()


def test_a_broken_overlay_is_unusable_input(tmp_path, capsys) -> None:
    overlay = tmp_path / "o.yaml"
    overlay.write_text("overlay: 1.0.0\nactions: nope\n", encoding="utf-8")
    report = api.check(SVC, overlay)  # a single path is a list of one overlay
    _quiet(capsys)
    assert report.exit_code is ExitCode.UNUSABLE and report.result is None
    assert {d.code for d in report.diagnostics} <= {f"XC0{n:02d}" for n in range(100)}
    assert all(d.file == str(overlay) for d in report.diagnostics)


def test_show_effective(capsys) -> None:
    report = api.check(SVC, show_effective="listServiceAccounts")
    unknown = api.check(SVC, show_effective="noSuchOperation")
    _quiet(capsys)
    assert report.ok and report.effective is not None
    assert report.effective["operation_id"] == "listServiceAccounts"
    assert report.effective["contract"] == report.contracts["listServiceAccounts"].to_dict()
    assert unknown.exit_code is ExitCode.UNUSABLE
    assert [d.code for d in unknown.diagnostics] == ["XC150"]


def test_today_reaches_the_review_by_rule(capsys) -> None:
    case = ROOT / "tests" / "invalid" / "rule_XC119_review_by_passed" / "spec.yaml"
    before = api.check(case, strict=True, today=datetime.date(2019, 1, 1))
    after = api.check(case, strict=True, today=datetime.date(2026, 12, 1))
    _quiet(capsys)
    assert before.exit_code is ExitCode.OK and before.diagnostics == ()
    assert after.exit_code is ExitCode.FINDINGS
    assert [(d.code, d.pointer) for d in after.warnings] == [
        ("XC119", "/x-completeness-registry/reasons/SHARD_MOVING/review-by")
    ]


# -- parity with the command line ------------------------------------------------------------


def _cli(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("which", ["clean", "warnings", "errors", "missing"])
def test_check_parity_with_the_cli(which, strict, broken, tmp_path, capsys) -> None:
    spec = {"clean": SVC, "warnings": BASE, "errors": broken, "missing": tmp_path / "no.yaml"}
    path = str(spec[which])
    argv = ["check", path, "--format", "json", *(["--strict"] if strict else [])]
    code, out, err = _cli(argv, capsys)
    report = api.check(path, strict=strict)
    _quiet(capsys)
    assert code == report.exit_code
    assert json.loads(out)["diagnostics"] == _json(report.diagnostics)
    code, _, err = _cli(["check", path, *(["--strict"] if strict else [])], capsys)
    assert code == report.exit_code
    if report.summary:  # the text format prints the api's summary last
        assert err.rstrip("\n").endswith(report.summary)


@pytest.mark.parametrize("which", ["undeclared", "declared", "missing"])
def test_audit_parity_with_the_cli(which, tmp_path, capsys) -> None:
    path = str({"undeclared": BASE, "declared": SVC, "missing": tmp_path / "no.yaml"}[which])
    code, out, _ = _cli(["audit", path, "--format", "json"], capsys)
    result = api.audit(path)
    _quiet(capsys)
    assert code == result.exit_code
    if result.report is None:
        assert json.loads(out)["diagnostics"] == _json(result.diagnostics)
    else:
        assert json.loads(out) == result.report.to_json()


def test_audit_writes_the_same_draft_as_the_cli(tmp_path, capsys) -> None:
    code, _, err = _cli(["audit", str(BASE), "--emit-overlay", str(tmp_path / "cli.yaml")], capsys)
    result = api.audit(BASE, emit_overlay=tmp_path / "api.yaml")
    _quiet(capsys)
    assert code == result.exit_code == ExitCode.FINDINGS
    assert result.overlay == str(tmp_path / "api.yaml")
    written = (tmp_path / "api.yaml").read_text(encoding="utf-8")
    assert written == (tmp_path / "cli.yaml").read_text(encoding="utf-8") == result.drafts_yaml
    assert yaml.safe_load(written) == result.drafts
    assert len(result.drafts["actions"]) == len(result.report.undeclared) == 2
    assert f"draft written to {tmp_path / 'cli.yaml'}" in err


def test_audit_of_a_fully_declared_spec_has_no_drafts(tmp_path, capsys) -> None:
    result = api.audit(SVC, emit_overlay=tmp_path / "d.yaml")
    _quiet(capsys)
    assert result.ok and result.drafts is None and result.overlay is None
    assert not (tmp_path / "d.yaml").exists()  # an overlay needs at least one action


def test_audit_an_unwritable_draft_is_unusable(tmp_path, capsys) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    result = api.audit(BASE, emit_overlay=tmp_path / "file" / "d.yaml")
    _quiet(capsys)
    assert result.exit_code is ExitCode.UNUSABLE
    assert [d.code for d in result.diagnostics] == ["XC901"]


# -- generate --------------------------------------------------------------------------------


def test_generate_in_memory_touches_no_disk(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    result = api.generate(SVC, package="svc")
    _quiet(capsys)
    assert result.ok and result.out is None and result.package == "svc"
    assert PurePosixPath("svc/client.py") in result.files
    assert result.written == () and list(tmp_path.iterdir()) == []
    assert result.summary.startswith("summary: 4 of 4 operation(s) generated")


def test_generate_parity_with_the_cli(tmp_path, capsys) -> None:
    code, out, err = _cli(
        ["generate", str(GH), "-o", str(tmp_path / "cli"), "--package", "repos", "--no-cache"],
        capsys,
    )
    result = api.generate(GH, tmp_path / "api", package="repos", cache=False)
    _quiet(capsys)
    assert code == result.exit_code == ExitCode.OK
    on_disk = {
        p.relative_to(tmp_path / "cli").as_posix(): p.read_text(encoding="utf-8")
        for p in (tmp_path / "cli").rglob("*")
        if p.is_file() and p.name != ".xcompleteness-manifest.json"
    }
    assert on_disk == {str(k): v for k, v in result.files.items()}
    assert sorted(result.written) == sorted(on_disk)
    assert f"generated {len(result.files)} files in {tmp_path / 'cli'}" in err
    assert result.summary in err
    again = api.generate(GH, tmp_path / "api", package="repos")
    assert again.written == () and sorted(again.unchanged) == sorted(on_disk)


def test_generate_check_reports_drift_like_the_cli(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    assert api.generate(GH, out, package="repos").ok
    in_sync = api.generate(GH, out, package="repos", check=True)
    assert in_sync.ok and not in_sync.drifted and in_sync.diff == ""
    (out / "repos" / "models.py").write_text("# edited\n", encoding="utf-8")
    drift = api.generate(GH, out, package="repos", check=True)
    code, stdout, _ = _cli(
        ["generate", str(GH), "-o", str(out), "--package", "repos", "--check"], capsys
    )
    _quiet(capsys)
    assert drift.exit_code is ExitCode.FINDINGS and drift.drifted
    assert code == drift.exit_code and stdout == drift.diff
    assert drift.diff.startswith("--- a/repos/models.py\n+++ b/repos/models.py\n")
    assert (out / "repos" / "models.py").read_text(encoding="utf-8") == "# edited\n"


def test_generate_refuses_a_spec_with_errors(broken, tmp_path, capsys) -> None:
    code, out, _ = _cli(
        ["generate", str(broken), "-o", str(tmp_path / "a"), "--format", "json"], capsys
    )
    result = api.generate(broken, tmp_path / "b")
    _quiet(capsys)
    assert code == result.exit_code == ExitCode.FINDINGS
    assert json.loads(out)["diagnostics"] == _json(result.diagnostics)
    assert [d.code for d in result.errors] == ["XC043"] and result.files == {}
    assert not (tmp_path / "b").exists()


def test_generate_refuses_a_folder_it_does_not_own(tmp_path, capsys) -> None:
    (tmp_path / "keep.txt").write_text("x", encoding="utf-8")
    code, out, _ = _cli(["generate", str(SVC), "-o", str(tmp_path), "--format", "json"], capsys)
    result = api.generate(SVC, tmp_path)
    _quiet(capsys)
    assert code == result.exit_code == ExitCode.UNUSABLE
    assert [d.code for d in result.write_diagnostics] == ["XC604"]
    assert result.diagnostics[-1:] == result.write_diagnostics
    assert json.loads(out)["diagnostics"] == _json(result.write_diagnostics)
    assert result.files  # generated in memory, only the writing was refused
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


def test_an_output_path_the_disk_refuses_is_xc604_not_an_internal_error(tmp_path, capsys):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    out = tmp_path / "file" / "out"  # a file where a folder must go: OSError while writing
    result = api.generate(SVC, out)
    code, _, err = _cli(["generate", str(SVC), "-o", str(out)], capsys)
    _quiet(capsys)
    assert result.exit_code is ExitCode.UNUSABLE == code
    assert [d.code for d in result.write_diagnostics] == ["XC604"]
    assert "XC604" in err and "XC000" not in err


def test_a_bad_package_name_is_unusable(capsys) -> None:
    result = api.generate(SVC, package="Not-A-Package")
    _quiet(capsys)
    assert result.exit_code is ExitCode.UNUSABLE
    assert [d.code for d in result.diagnostics] == ["XC601"]


def test_check_without_a_folder_is_misuse() -> None:
    with pytest.raises(ValueError, match="out"):
        api.generate(SVC, check=True)


# -- verify and mock -------------------------------------------------------------------------


def test_verify_parity_with_the_cli_against_a_buggy_mock(capsys) -> None:
    plan = "items: 12\nbugs:\n  - {operation: listServiceAccounts, kind: undeclared-code}\n"
    with mock_in_thread(SVC, plan) as url:
        result = api.verify(SVC, url, params={"q": "a"})
        _quiet(capsys)
        code, out, _ = _cli(
            ["verify", str(SVC), "--base-url", url, "--param", "q=a", "--format", "json"], capsys
        )
        calls = httpx.get(f"{url}/_mock/calls").json()["calls"]
    assert code == result.exit_code == ExitCode.FINDINGS
    assert json.loads(out)["diagnostics"] == _json(result.diagnostics)
    assert "XC711" in {d.code for d in result.errors}
    assert result.summary  # one line per walk
    assert calls == []


@pytest.mark.parametrize(
    ("url", "kwargs"),
    [("ftp://example.com", {}), ("http://127.0.0.1:9", {"max_pages": 0})],
)
def test_verify_bad_arguments_are_xc721(url, kwargs, capsys) -> None:
    result = api.verify(SVC, url, **kwargs)
    _quiet(capsys)
    assert result.exit_code is ExitCode.UNUSABLE
    assert [d.code for d in result.diagnostics] == ["XC721"]


def test_verify_refuses_a_spec_with_errors(broken, capsys) -> None:
    result = api.verify(broken, "http://127.0.0.1:9")
    _quiet(capsys)
    assert result.exit_code is ExitCode.UNUSABLE and [d.code for d in result.errors] == ["XC043"]


def test_mock_builds_a_transport_free_api(tmp_path, capsys) -> None:
    result = api.mock(SVC)
    _quiet(capsys)
    assert result.ok and result.api is not None
    status, _headers, body = result.api.handle(
        "GET", "/service-accounts", {"limit": "2"}, None, "http://mock/"
    )
    assert status == 200 and len(body["items"]) == 2
    plan = tmp_path / "plan.yaml"
    plan.write_text("items: 3\nfaults:\n  - {operation: nope, kind: empty-page}\n", "utf-8")
    bad = api.mock(SVC, faults=plan)
    assert bad.exit_code is ExitCode.UNUSABLE and bad.api is None
    assert all(d.code.startswith("XC70") for d in bad.diagnostics) and bad.diagnostics
    with pytest.raises(ValueError):
        bad.app()


# -- the api's own rules ---------------------------------------------------------------------


def test_the_api_module_never_prints_or_exits() -> None:
    tree = ast.parse((ROOT / "generator" / "xcompleteness" / "api.py").read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"print", "exit", "quit", "input"}, node.lineno
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "sys":
                assert node.attr not in {"exit", "stdout", "stderr"}, node.lineno


def test_no_api_call_raises_system_exit(broken, tmp_path) -> None:
    calls = [
        lambda: api.check(broken, strict=True),
        lambda: api.check(tmp_path / "none.yaml"),
        lambda: api.audit(tmp_path / "none.yaml"),
        lambda: api.generate(broken, tmp_path / "o"),
        lambda: api.verify(broken, "nope"),
        lambda: api.mock(tmp_path / "none.yaml"),
    ]
    for call in calls:
        try:
            result = call()
        except SystemExit as exc:  # pragma: no cover - the failure this test exists for
            pytest.fail(f"the api called sys.exit({exc.code})")
        assert result.exit_code in (ExitCode.FINDINGS, ExitCode.UNUSABLE)


def test_progress_callbacks_are_per_thread() -> None:
    seen: dict[str, list[str]] = {"a": [], "b": []}
    barrier = threading.Barrier(2)

    def run(name: str) -> None:
        with reporting(seen[name].append):
            barrier.wait()
            for i in range(50):
                stage(f"{name}{i}")

    threads = [threading.Thread(target=run, args=(n,)) for n in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {n: [f"{n}{i}" for i in range(50)] for n in "ab"}
    stage("nobody listens")  # no listener: a no-op


def test_public_names() -> None:
    import xcompleteness

    assert api.__all__ == sorted(api.__all__)
    assert xcompleteness.__all__ == sorted(xcompleteness.__all__)
    for name in ("CheckReport", "AuditResult", "GenerateResult", "VerifyResult", "MockResult"):
        assert getattr(xcompleteness, name) is getattr(api, name)
    with pytest.raises(AttributeError):
        xcompleteness.NoSuchThing  # noqa: B018


def test_verify_and_mock_honour_allow_external_refs(capsys) -> None:
    """``--allow-external-refs`` is an option every command shares; verify and mock used to
    drop it (the spec failed with XC008 although the flag was given)."""
    spec = ROOT / "tests" / "invalid" / "ok_external_ref_inside_folder" / "spec.yaml"
    assert [d.code for d in api.verify(spec, "http://127.0.0.1:9").diagnostics] == ["XC008"]
    allowed = api.verify(spec, "http://127.0.0.1:9", allow_external_refs=True)
    assert allowed.exit_code is ExitCode.OK  # nothing declared, nothing to walk
    argv = ["verify", str(spec), "--base-url", "http://127.0.0.1:9", "--format", "json"]
    assert _cli([*argv, "--allow-external-refs"], capsys)[0] == ExitCode.OK
    mocked = api.mock(spec, allow_external_refs=True)
    assert [d.code for d in mocked.diagnostics] == ["XC707"]  # read, and it has no listing
    _quiet(capsys)


def test_generate_uses_the_cache_like_the_cli(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    cache_dir = tmp_path / "xdg" / "xcompleteness" / "generate"
    uncached = api.generate(GH, package="repos", cache=False)
    assert not uncached.cached and not cache_dir.exists()  # cache=False writes nothing
    first = api.generate(GH, package="repos")
    second = api.generate(GH, tmp_path / "out", package="repos")
    _quiet(capsys)
    assert not first.cached and second.cached
    assert second.files == first.files == uncached.files
    assert second.package == "repos" and second.diagnostics == first.diagnostics
    assert second.summary.startswith(first.summary) and "cache" in second.summary
    code, _, err = _cli(
        ["generate", str(GH), "-o", str(tmp_path / "cli"), "--package", "repos"], capsys
    )
    assert code == 0 and "reused the result of an identical earlier run" in err
    code, _, err = _cli(
        ["generate", str(GH), "-o", str(tmp_path / "cli2"), "--package", "repos", "--no-cache"],
        capsys,
    )
    assert code == 0 and "reused" not in err
