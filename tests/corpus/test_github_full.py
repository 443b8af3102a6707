"""Audit and the worked adapter on GitHub's full REST description (npm @octokit/openapi 23.0.2).

Fetched at run time into the ignored .cache/ (bench/fetch.py), so this lives behind the corpus
marker. The sample below was checked by hand against the description and GitHub's docs (the
verdicts and reasons are in docs/corpus.md): 24 GETs drawn with random.Random(6) plus six
chosen borderline cases.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from corpus.harness import ROOT
from xcompleteness.audit._report import audit_document
from xcompleteness.check._pipeline import check_spec
from xcompleteness.diagnostics import Severity
from xcompleteness.emit._generate import generate_from_check
from xcompleteness.emit._write import write_tree
from xcompleteness.load import load_spec

pytestmark = pytest.mark.corpus

SAMPLE: dict[str, tuple[str, str] | None] = {  # None: not list-like; else (kind, style)
    "GET /user/starred": ("collection", "link-header"),
    "GET /organizations/{org}/settings/billing/usage": ("collection", "none"),
    "GET /repos/{owner}/{repo}/rulesets/rule-suites/{rule_suite_id}": None,
    "GET /repos/{owner}/{repo}/actions/cache/storage-limit": None,
    "GET /enterprises/{enterprise}/dependabot/alerts": ("collection", "cursor"),
    "GET /": None,
    "GET /orgs/{org}/codespaces/secrets/{secret_name}": None,
    "GET /users/{username}/docker/conflicts": ("collection", "none"),
    "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews": ("collection", "link-header"),
    "GET /repos/{owner}/{repo}/contributors": ("collection", "link-header"),
    "GET /repos/{owner}/{repo}/branches/{branch}/protection/required_pull_request_reviews": None,
    "GET /codes_of_conduct/{key}": None,
    "GET /repos/{owner}/{repo}/actions/permissions/artifact-and-log-retention": None,
    # page+per_page beside before/after cursors that nothing in the body feeds: the page walk
    # (with an empty-page end under a TODO) over a cursor walk the draft could not complete
    "GET /repos/{owner}/{repo}/secret-scanning/alerts": ("collection", "page"),
    "GET /orgs/{org}/members/{username}/copilot": None,
    "GET /repos/{owner}/{repo}/immutable-releases": None,
    "GET /user/codespaces/secrets/{secret_name}/repositories": ("collection", "none"),
    "GET /user/codespaces/{codespace_name}": None,
    "GET /orgs/{org}/actions/hosted-runners/platforms": ("collection", "none"),
    "GET /orgs/{org}/issue-types": ("collection", "none"),
    "GET /user/orgs": ("collection", "link-header"),
    "GET /user/keys": ("collection", "link-header"),
    "GET /repos/{owner}/{repo}/actions/concurrency_groups/{concurrency_group_name}": (
        "collection",
        "none",
    ),
    "GET /users/{username}/received_events": ("collection", "page"),
    # chosen borderline cases
    "GET /repos/{owner}/{repo}/git/trees/{tree_sha}": ("collection", "none"),
    "GET /repos/{owner}/{repo}/traffic/views": None,
    "GET /repos/{owner}/{repo}/languages": ("collection", "none"),
    "GET /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers": (
        "collection",
        "link-header",
    ),
    "GET /search/code": ("search", "page"),
    "GET /gists/{gist_id}": None,
}


@pytest.fixture(scope="module")
def github() -> Path:
    sys.path.insert(0, str(ROOT / "bench"))
    from fetch import github_spec

    return github_spec()


def test_audit_counts_and_hand_checked_sample(github: Path) -> None:
    report = audit_document(load_spec(github).data)
    assert report.operations == 1223
    assert len(report.findings) == 353
    assert sum(1 for f in report.findings if f.kind == "search") == 7
    found = {f"{f.method.upper()} {f.path}": (f.kind, f.style) for f in report.findings}
    assert {k: found.get(k) for k in SAMPLE} == SAMPLE


def test_adapter_overlay_checks_and_generates(github: Path, tmp_path: Path) -> None:
    overlay = ROOT / "examples" / "github" / "overlay.yaml"
    result = check_spec(github, [overlay])
    assert [d.render() for d in result.diagnostics if d.severity is Severity.ERROR] == []
    assert len(result.contracts) == 13
    assert {d.code for d in result.diagnostics} <= {"XC100"}  # other listings, not yet declared
    gen = generate_from_check(result, "github_api")
    write_tree(tmp_path, gen.files)
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import github_api; print(len(vars(github_api.Client('http://x'))))",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr


def test_check_on_spec_plus_audit_draft_reports_exactly_the_todos(
    github: Path, tmp_path: Path
) -> None:
    """check and audit share one list-likeness heuristic: only the draft's TODOs remain."""
    draft = tmp_path / "draft.yaml"
    proc = subprocess.run(
        [sys.executable, "-m", "xcompleteness", "audit", str(github), "--emit-overlay", str(draft)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 1, proc.stderr  # undeclared listings found
    result = check_spec(github, [draft])
    codes = {d.code for d in result.diagnostics}
    assert codes == {"XC900"}, sorted(d.render() for d in result.diagnostics if d.code != "XC900")[
        :10
    ]
