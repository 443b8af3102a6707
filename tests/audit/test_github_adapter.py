"""The worked GitHub adapter (examples/github/) against a local fake in GitHub's shapes.

The overlay is applied to the small GitHub-shaped excerpt (the same paths and operationIds as
GitHub's description; `make test-corpus` applies it to GitHub's full description) and the
canonical contracts ``check`` produces drive the shared runtime walk over real HTTP (uvicorn on
127.0.0.1): Link-header listings read to the end and come back complete; searches are complete
within the token's view (scope.visibility; issue 19: no VISIBILITY_RESTRICTED when: always), report
TIME_BUDGET_EXCEEDED when GitHub's ``incomplete_results`` is set, and RESULT_LIMIT_REACHED when
``total_count`` exceeds the 1,000 results GitHub lets one page to.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from support.fault_server import serve
from support.github_fake import COUNTS, MANY, dataset, make_app
from support.paths import ROOT
from xcompleteness.audit._report import audit_document
from xcompleteness.check._pipeline import check_spec
from xcompleteness.load import load_spec
from xcompleteness.runtime.contract import Contract
from xcompleteness.runtime.expressions import ResponseView
from xcompleteness.runtime.walk import Limits, PageRequest, Walker

EXAMPLE = ROOT / "examples" / "github"
PATH_PARAMS = {
    "org": "acme",
    "username": "octocat",
    "owner": "acme",
    "repo": "widgets",
    "issue_number": "1",
}
LISTINGS = {  # operationId -> (dataset key, query)
    "repos/list-for-org": ("repos", {}),
    "repos/list-for-user": ("user_repos", {}),
    "issues/list-for-repo": ("issues", {"state": "all"}),
    "pulls/list": ("pulls", {}),
    "orgs/list-members": ("members", {}),
    "repos/list-commits": ("commits", {}),
    "repos/list-branches": ("branches", {}),
    "issues/list-comments": ("comments", {}),
    "actions/list-workflow-runs-for-repo": ("runs", {}),
}


@pytest.fixture(scope="module")
def contracts() -> dict[str, Any]:
    result = check_spec(EXAMPLE / "excerpt.yaml", [EXAMPLE / "overlay.yaml"])
    assert [d.render() for d in result.diagnostics] == []
    assert len(result.contracts) == 13
    return result.contracts


@pytest.fixture(scope="module")
def http() -> Iterator[tuple[str, httpx.Client]]:
    with serve(make_app()) as base, httpx.Client(timeout=10) as client:
        yield base, client


def _walker(contract: Contract, http: tuple[str, httpx.Client]) -> Walker:
    base, client = http
    path = str(contract.path).format(**PATH_PARAMS)

    def fetch(request: PageRequest) -> ResponseView:
        if request.url is not None:  # a Link rel="next" URL, followed as given
            return ResponseView.from_httpx(client.get(request.url))
        return ResponseView.from_httpx(client.get(base + path, params=request.params))

    return Walker(contract, fetch)


def test_audit_of_the_excerpt_finds_every_adapted_operation() -> None:
    report = audit_document(load_spec(EXAMPLE / "excerpt.yaml").data)
    assert report.operations == 13 and len(report.undeclared) == 13
    styles = {f.operation_id: f.style for f in report.findings}
    # Like GitHub's own description, the excerpt declares no Link header on search responses,
    # so audit can only see page/per_page there; the overlay adds the header GitHub really sends.
    assert {k for k, v in styles.items() if v == "page"} == {
        "search/repos",
        "search/code",
        "search/issues-and-pull-requests",
        "search/users",
    }
    assert {k for k, v in styles.items() if v == "link-header"} == set(LISTINGS)
    search = next(f for f in report.findings if f.operation_id == "search/repos")
    assert {s.kind for s in search.signals} >= {"incomplete_results", "total"}


@pytest.mark.parametrize("op_id", sorted(LISTINGS))
def test_link_header_listing_reads_to_the_end_complete(
    op_id: str, contracts: dict[str, Any], http: tuple[str, httpx.Client]
) -> None:
    key, query = LISTINGS[op_id]
    result = _walker(contracts[op_id], http).collect({**query, "per_page": 20})
    expected = dataset()[key]
    assert result.items == expected
    assert result.complete and result.reasons == () and result.continuation is None
    assert result.pages == math.ceil(COUNTS[key] / 20)


def test_stopping_early_is_reported_with_a_continuation(
    contracts: dict[str, Any], http: tuple[str, httpx.Client]
) -> None:
    walker = _walker(contracts["repos/list-for-org"], http)
    result = walker.collect({"per_page": 30}, Limits(max_pages=2))
    assert len(result.items) == 60 and not result.complete
    assert result.codes == ["CLIENT_PAGE_LIMIT"]
    assert result.continuation is not None and result.continuation.kind == "next_cursor"


def test_search_within_reach_is_complete_within_visibility(
    contracts: dict[str, Any], http: tuple[str, httpx.Client]
) -> None:
    result = _walker(contracts["search/repos"], http).collect({"q": "widget-01", "per_page": 4})
    assert [r["name"] for r in result.items] == [f"widget-01{i}" for i in range(10)]
    assert result.pages == 3
    assert result.complete and result.codes == []


def test_search_past_the_cap_reports_result_limit_reached(
    contracts: dict[str, Any], http: tuple[str, httpx.Client]
) -> None:
    result = _walker(contracts["search/issues-and-pull-requests"], http).collect(
        {"q": "many", "per_page": 100}
    )
    assert len(result.items) == 1000 and result.pages == 10  # never asks for the 422 page
    assert MANY > 1000 and not result.complete
    assert sorted(result.codes) == ["RESULT_LIMIT_REACHED"]
    limit = result.reason("RESULT_LIMIT_REACHED")
    assert limit is not None and limit.details.get("limit") == 1000


def test_search_timeout_flag_reports_time_budget_exceeded(
    contracts: dict[str, Any], http: tuple[str, httpx.Client]
) -> None:
    result = _walker(contracts["search/code"], http).collect({"q": "slow f1", "per_page": 5})
    assert {r["name"] for r in result.items} == {"f1.py"} | {f"f1{i}.py" for i in range(10)}
    assert sorted(result.codes) == ["TIME_BUDGET_EXCEEDED"]
