"""The docs site: ``mkdocs build --strict`` over docs/ (mkdocs.yml, Material theme).

Strict mode turns every warning into a failure: a link to a missing page or anchor, a page left out
of the navigation, a file link that leaves docs/. This is how ``make test`` catches broken links.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from support.paths import ROOT


def test_mkdocs_build_strict(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "site" / "ci" / "index.html").is_file()
    assert (tmp_path / "site" / "vocabulary" / "index.html").is_file()


def test_every_page_is_in_the_navigation() -> None:
    import yaml

    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    listed = {next(iter(entry.values())) for entry in config["nav"]}
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    assert pages == listed
