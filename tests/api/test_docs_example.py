"""The example script of docs/api.md runs as written, from the repository root."""

from __future__ import annotations

import re
import subprocess
import sys

from support.paths import ROOT

DOC = ROOT / "docs" / "api.md"


def _example() -> str:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## A complete example", 1)[1]
    blocks = re.findall(r"^```python\n(.*?)^```$", section, flags=re.S | re.M)
    assert len(blocks) == 1, "docs/api.md: one python block under 'A complete example'"
    return blocks[0]


def test_the_docs_example_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _example()],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "done"
    assert "4 declaration(s) checked" in proc.stdout
    assert "2 ['XC001']" in proc.stdout  # bad input came back as a result
    assert "file(s) written to out" in proc.stdout
    assert proc.stderr == ""  # the api printed nothing on stderr (no progress line either)


def test_the_readme_links_the_api_page() -> None:
    assert "(docs/api.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
