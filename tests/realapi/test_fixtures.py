"""The real-API walks on the committed excerpts (``make test``; no cache, no network).

Each excerpt in specs/ is a trimmed cut of the real description (tests/realapi/excerpt.py), so
the walks below exercise the same operations, parameters and item schemas as the corpus tests in
test_real_specs.py, which run them on the full descriptions.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from realapi.harness import APIS, Generated, fixture_spec, generate_package
from realapi.scenarios import SCENARIOS

CASES = [(api, fn) for api, fns in SCENARIOS.items() for fn in fns]


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Generated]:
    made: dict[str, Generated] = {}
    for api, overlay in APIS.items():
        out = Path(tmp_path_factory.mktemp(f"rx_{api}"))
        pkg = generate_package(fixture_spec(api), overlay, out, f"rx_{api}")
        made[api] = Generated(api, pkg, out)
    return made


@pytest.mark.parametrize(("api", "scenario"), CASES, ids=[f.__name__ for _, f in CASES])
def test_walk_on_excerpt(packages: dict[str, Generated], api: str, scenario) -> None:
    scenario(packages[api])
