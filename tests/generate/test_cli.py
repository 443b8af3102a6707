"""``xcompleteness generate`` through its CLI entry: exit codes, --check drift, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from support.paths import EXAMPLES
from xcompleteness.cli import main

SPEC = EXAMPLES / "link_header_search" / "openapi.yaml"


def test_generate_then_check_then_drift(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["generate", str(SPEC), "-o", str(out), "--package", "repos"]) == 0
    assert (out / "repos" / "models.py").is_file()
    assert (out / ".xcompleteness-manifest.json").is_file()
    assert main(["generate", str(SPEC), "-o", str(out), "--package", "repos", "--check"]) == 0
    capsys.readouterr()
    (out / "repos" / "models.py").write_text("# edited\n", encoding="utf-8")
    assert main(["generate", str(SPEC), "-o", str(out), "--package", "repos", "--check"]) == 1
    diff = capsys.readouterr().out
    assert diff.startswith("--- a/repos/models.py\n+++ b/repos/models.py\n")
    assert "-# edited" in diff
    assert (out / "repos" / "models.py").read_text(encoding="utf-8") == "# edited\n"  # untouched


def test_regenerating_is_a_no_op_and_removes_only_its_stale_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["generate", str(SPEC), "-o", str(out), "--package", "repos"]) == 0
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    assert main(["generate", str(SPEC), "-o", str(out), "--package", "repos"]) == 0
    after = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    changed = [p.name for p in before if before[p] != after[p]]
    assert changed == []
    assert main(["generate", str(SPEC), "-o", str(out), "--package", "renamed"]) == 0
    assert not (out / "repos").exists() and (out / "renamed" / "models.py").is_file()
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_refuses_a_folder_it_does_not_own(tmp_path: Path, capsys) -> None:
    (tmp_path / "keep.txt").write_text("x", encoding="utf-8")
    code = main(["generate", str(SPEC), "-o", str(tmp_path), "--format", "json"])
    assert code == 2
    codes = [d["code"] for d in json.loads(capsys.readouterr().out)["diagnostics"]]
    assert codes == ["XC604"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


def test_a_spec_with_errors_is_refused_with_its_diagnostics(tmp_path: Path, capsys) -> None:
    doc = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    doc["paths"]["/orgs/{org}/repos"]["get"]["x-completeness"]["kind"] = "listing-ish"
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(doc), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["generate", str(bad), "-o", str(out), "--format", "json"]) == 1
    diagnostics = json.loads(capsys.readouterr().out)["diagnostics"]
    assert any(d["pointer"].startswith("/paths/~1orgs~1{org}~1repos/get") for d in diagnostics)
    assert not out.exists()


def test_default_package_name_comes_from_the_title(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert (
        main(["generate", str(EXAMPLES / "service_accounts" / "openapi.yaml"), "-o", str(out)]) == 0
    )
    assert (out / "service_accounts" / "server.py").is_file()


def test_overlay_form_generates_the_same_package_as_the_inline_form() -> None:
    from xcompleteness.emit._generate import generate_files

    folder = EXAMPLES / "link_header_search"
    inline = generate_files(folder / "openapi.yaml", (), "repos")
    overlaid = generate_files(folder / "base.yaml", [folder / "overlay.yaml"], "repos")
    assert sorted(inline) == sorted(overlaid)
    different = [str(p) for p in inline if inline[p] != overlaid[p]]
    assert different == []


def test_a_spec_without_declarations_generates_an_importable_empty_package(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No declared operation (a spec before its first overlay, or every operation `kind: none`)
    is no reason to crash: the package has no operations, and the summary says so."""
    import subprocess
    import sys

    spec = tmp_path / "bare.yaml"
    spec.write_text(
        yaml.safe_dump(
            {
                "openapi": "3.0.3",
                "info": {"title": "bare", "version": "1"},
                "paths": {
                    "/things": {
                        "get": {
                            "operationId": "getThings",
                            "responses": {"200": {"description": "ok"}},
                        }
                    }
                },
            }
        ),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    assert main(["generate", str(spec), "-o", str(out), "--package", "bare"]) == 0
    assert "0 of 1 operation(s) generated" in capsys.readouterr().err
    probe = (
        "import bare, bare.models, bare.server\n"
        "c = bare.Client('http://127.0.0.1:9')\n"
        "print(sorted(n for n in dir(c) if not n.startswith('_') and n.islower()))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], cwd=out, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
