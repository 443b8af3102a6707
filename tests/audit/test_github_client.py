"""The generated client of the GitHub adapter, run against the local GitHub-shaped fake.

``generate`` on the GitHub-shaped excerpt plus examples/github/overlay.yaml (the same overlay
that applies to GitHub's full description) writes a package whose typed client walks Link-header
pages to the end and computes completeness on the client side from GitHub's native signals.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from support.fault_server import serve
from support.gen import import_generated
from support.github_fake import COUNTS, dataset, make_app
from support.paths import EXAMPLES
from xcompleteness.emit._generate import generate
from xcompleteness.emit._write import write_tree

PACKAGE = "gh_audit_area"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    out = tmp_path_factory.mktemp("gh")
    gen = generate(
        EXAMPLES / "github" / "excerpt.yaml", [EXAMPLES / "github" / "overlay.yaml"], PACKAGE
    )
    write_tree(Path(out), gen.files)
    return import_generated(out, PACKAGE)


@pytest.fixture(scope="module")
def client(pkg: ModuleType) -> Iterator[object]:
    with serve(make_app()) as base:
        yield pkg.Client(base)


def test_listing_walks_every_page_to_a_complete_result(client: object) -> None:
    result = client.repos_list_for_org.collect(org="acme", per_page=25)  # type: ignore[attr-defined]
    assert [r.id for r in result.items] == [r["id"] for r in dataset()["repos"]]
    assert result.complete and result.pages == -(-COUNTS["repos"] // 25)


def test_one_page_is_never_mistaken_for_the_whole(client: object) -> None:
    page = client.issues_list_for_repo.page(  # type: ignore[attr-defined]
        owner="acme", repo="widgets", state="all", per_page=10
    )
    assert len(page.items) == 10 and page.complete is False
    assert [r.code for r in page.incomplete_reasons] == ["MORE_PAGES_AVAILABLE"]
    assert page.next_cursor  # the Link rel="next" URL, carried as the continuation


def test_search_reports_the_cap(client: object) -> None:
    result = client.search_repos.collect(q="many", per_page=100)  # type: ignore[attr-defined]
    assert len(result.items) == 1000 and not result.complete
    assert result.codes == ["RESULT_LIMIT_REACHED"]


def test_search_timeout_flag_is_kept(client: object) -> None:
    result = client.search_code.collect(q="slow f1", per_page=50)  # type: ignore[attr-defined]
    assert "TIME_BUDGET_EXCEEDED" in result.codes and not result.complete
