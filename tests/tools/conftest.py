"""Generated packages shared by the tools tests (one generation per session and spec)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.tools_gen import TOOLS_PACKAGES, generate_for_tools, generate_spec


@pytest.fixture(scope="session")
def generated(tmp_path_factory) -> dict[str, Path]:
    """Package name -> its folder (``OUT/NAME``)."""
    out = tmp_path_factory.mktemp("tools_gen")
    for name, spec in TOOLS_PACKAGES.items():
        if spec is None:
            generate_for_tools("service_accounts", out / name, package=name)
        else:
            generate_spec(spec, out / name, package=name)
    return {name: out / name / name for name in TOOLS_PACKAGES}
