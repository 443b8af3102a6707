"""The CI integrations of docs/ci.md: the pre-commit hooks and the GitHub Action's script.

The hooks are run by the real ``pre-commit`` on a fixture git repository (an API project with its
spec and its generated package), with the entries, file patterns and ``pass_filenames`` taken
from ``.pre-commit-hooks.yaml`` (as a ``repo: local`` hook with ``language: system``, so the test
uses this checkout's ``xcompleteness`` instead of installing it from the network). The action's
script runs in bash as the composite action runs it, with its inputs in the environment.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml
from support.paths import EXAMPLES, ROOT

BIN = Path(sys.executable).parent
SPEC = EXAMPLES / "service_accounts" / "openapi.yaml"
SARIF_SCHEMA = json.loads((ROOT / "tests/fixtures/sarif-2.1.0-rtm.5.schema.json").read_text())
HOOK_ARGS = {
    "xcompleteness-check": ["api/openapi.yaml", "--strict"],
    "xcompleteness-generate-check": ["api/openapi.yaml", "-o", "generated", "--package", "svc"],
}


def _env(tmp: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "PRE_COMMIT_HOME": str(tmp / "pre-commit-home"),
        "XDG_CACHE_HOME": str(tmp / "cache"),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }


def _git(repo: Path, env: dict[str, str], *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A git repository with api/openapi.yaml and its package generated into generated/."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "project"
    (repo / "api").mkdir(parents=True)
    shutil.copy(SPEC, repo / "api" / "openapi.yaml")
    env = _env(tmp_path)
    subprocess.run(
        [BIN / "xcompleteness", "generate", "api/openapi.yaml", "-o", "generated"]
        + ["--package", "svc", "-q"],
        cwd=repo,
        env=env,
        check=True,
        capture_output=True,
    )
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    local = []
    for hook in hooks:
        assert hook["language"] == "python"  # installs this repository's package
        local.append({**hook, "language": "system", "args": HOOK_ARGS[hook["id"]]})
    config = {"repos": [{"repo": "local", "hooks": local}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    _git(repo, env, "init", "-q")
    _git(repo, env, "add", "-A")
    _git(repo, env, "commit", "-q", "-m", "init")
    return repo, env


def _pre_commit(repo: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "pre-commit"), "run", "--all-files", "--color", "never"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_hooks_pass_on_a_clean_project(project: tuple[Path, dict[str, str]]) -> None:
    repo, env = project
    proc = _pre_commit(repo, env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "x-completeness check" in proc.stdout and "Passed" in proc.stdout


def test_check_hook_fails_on_a_broken_declaration(project: tuple[Path, dict[str, str]]) -> None:
    repo, env = project
    spec = repo / "api" / "openapi.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "id: /id" in text
    spec.write_text(text.replace("id: /id", "id: /uuid", 1), encoding="utf-8")
    proc = _pre_commit(repo, env)
    assert proc.returncode == 1
    assert "error XC104" in proc.stdout, proc.stdout


def test_generate_check_hook_fails_on_drift(project: tuple[Path, dict[str, str]]) -> None:
    repo, env = project
    client = repo / "generated" / "svc" / "client.py"
    client.write_text(client.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    proc = _pre_commit(repo, env)
    assert proc.returncode == 1
    assert "x-completeness generate --check (drift)" in proc.stdout
    assert "+++ " in proc.stdout and "svc/client.py" in proc.stdout, proc.stdout


# -- the action --------------------------------------------------------------------------------


def _action_script(
    cwd: Path, tmp: Path, **inputs: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    out = tmp / "github_output"
    out.write_text("")
    env = {**_env(tmp), "GITHUB_OUTPUT": str(out), "GITHUB_ACTIONS": "true"}
    env.update({f"XC_{k.upper()}": v for k, v in inputs.items()})
    proc = subprocess.run(
        ["bash", str(ROOT / "ci" / "xcompleteness-ci.sh")],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    outputs = dict(line.split("=", 1) for line in out.read_text().splitlines() if "=" in line)
    return proc, outputs


def test_action_wires_its_inputs_into_the_script() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    run = next(s for s in steps if s.get("id") == "run")
    assert run["run"] == 'bash "$GITHUB_ACTION_PATH/ci/xcompleteness-ci.sh"'
    script = (ROOT / "ci" / "xcompleteness-ci.sh").read_text(encoding="utf-8")
    for name in run["env"]:
        assert name in script, name
    for name in action["inputs"]:
        used = any(f"inputs.{name}" in json.dumps(s) for s in steps)
        assert used, f"input {name} is never used"
    upload = next(s for s in steps if "upload-sarif" in s.get("uses", ""))
    assert upload["if"].startswith("always()")  # findings still reach code scanning
    assert upload["with"]["sarif_file"] == "${{ inputs.sarif }}"


def test_action_script_on_a_clean_project(
    project: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, _ = project
    proc, outputs = _action_script(
        repo, tmp_path, spec="api/openapi.yaml", output="generated", package="svc", strict="true"
    )
    assert proc.returncode == 0, proc.stderr
    assert outputs == {"sarif": "xcompleteness.sarif", "check": "0", "drift": "0"}
    log = json.loads((repo / "xcompleteness.sarif").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    assert log["runs"][0]["results"] == []
    assert proc.stdout == ""  # no annotation for a clean spec


def test_action_script_reports_findings_and_drift(
    project: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, _ = project
    spec = repo / "api" / "openapi.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("id: /id", "id: /uuid", 1))
    proc, outputs = _action_script(
        repo, tmp_path, spec="api/openapi.yaml", output="generated", package="svc"
    )
    assert proc.returncode == 1
    assert outputs["check"] == "1"
    log = json.loads((repo / "xcompleteness.sarif").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    results = log["runs"][0]["results"]
    assert {r["ruleId"] for r in results} == {"XC104"}
    uri = results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "api/openapi.yaml"  # relative to the checkout, as code scanning wants
    assert proc.stdout.startswith("::error file=api/openapi.yaml,line=")


def test_action_script_needs_a_spec(tmp_path: Path) -> None:
    proc, _ = _action_script(tmp_path, tmp_path)
    assert proc.returncode == 2
    assert "XC_SPEC" in proc.stderr


def test_the_action_installs_x_completeness_from_its_own_checkout() -> None:
    """The action's default install was the bare name ``x-completeness``, which no package index
    serves (pip fails, and whoever registered the name would run in every user's CI). Empty now
    means the action's own checkout: the version the user's ``uses:`` line pins."""
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["inputs"]["install"]["default"] == ""
    run = next(s for s in action["runs"]["steps"] if s.get("id") == "run")
    assert run["env"]["XC_INSTALL"] == "${{ inputs.install || github.action_path }}"


def test_no_page_tells_a_user_to_install_x_completeness_from_a_package_index() -> None:
    """A newcomer following docs/adopting.md's ``pip install x-completeness`` got "no matching
    distribution"; every page, template and message names a checkout instead."""
    bare = re.compile(r"pip install ['\"]?x-completeness\b")
    pages = [ROOT / "README.md", ROOT / "action.yml", *sorted((ROOT / "docs").glob("*.md"))]
    pages += sorted((ROOT / "templates").rglob("*.jinja"))
    pages += sorted((ROOT / "generator").rglob("*.py"))
    found = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in pages
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if bare.search(line)
    ]
    assert found == []
