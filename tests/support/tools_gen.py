"""Generate packages for the tools tests through the real pipeline (check -> IR -> emit -> ruff).

``generate_spec(spec, dest, package)`` writes any spec; ``generate_for_tools(name, ...)`` an
example. Each tools test package has its own name (``xct_*``) so module caches never clash with
other areas.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath
from typing import Any

from support.paths import EXAMPLES

TOOLS_SPECS = Path(__file__).resolve().parents[1] / "tools" / "specs"
TOOLS_PACKAGES: dict[str, Path | None] = {
    "xct_items": TOOLS_SPECS / "items.yaml",
    "xct_hostile": TOOLS_SPECS / "hostile.yaml",
    "xct_recheck": TOOLS_SPECS / "recheck.yaml",
    "xct_svc": None,  # examples/service_accounts
}


def generation_files(spec: Path, package: str) -> dict[PurePosixPath, str]:
    """The generated files (relative to OUT) of ``spec``, without touching the disk."""
    from xcompleteness.emit._generate import generate

    return generate(spec, (), package).files


def generate_spec(spec: Path, dest: Path, package: str) -> Path:
    """Generate any spec file as ``package`` into ``dest``; returns ``dest``."""
    from xcompleteness.emit._write import write_tree

    write_tree(Path(dest), generation_files(spec, package))
    return Path(dest)


def generate_for_tools(name: str, dest: Path, package: str) -> Path:
    """Generate ``examples/<name>/openapi.yaml`` as ``package`` into ``dest``."""
    return generate_spec(EXAMPLES / name / "openapi.yaml", dest, package)


def load_tools_json(folder: Path, name: str) -> Any:
    """``NAME/tools/<name>`` parsed."""
    return json.loads((folder / "tools" / name).read_text(encoding="utf-8"))
