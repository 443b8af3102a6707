"""Refresh the golden output trees: ``make golden`` (or ``python tests/golden/refresh.py``).

Each case generates one example spec into ``tests/golden/<case>/`` through the real pipeline
(check -> IR -> emitters -> ruff -> writer). The verbatim ``_runtime/`` copy is not kept here
(it is the tested runtime itself; ``test_golden.py`` checks the copy is byte-identical instead).
Review the diff (``git diff tests/golden``) before committing a refresh.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CASES: dict[str, tuple[str, str]] = {
    # case folder: (spec relative to the repository root, package name)
    "service_accounts": ("examples/service_accounts/openapi.yaml", "service_accounts"),
    "link_header_search": ("examples/link_header_search/openapi.yaml", "link_header_search"),
}
SKIPPED_DIR = "_runtime"


def expected_files(case: str) -> dict[str, str]:
    """The golden files of ``case`` as generated now (relative path -> text), minus _runtime/."""
    from xcompleteness.emit import generate

    spec, package = CASES[case]
    files = generate(ROOT / spec, (), package).files
    return {str(p): t for p, t in sorted(files.items()) if SKIPPED_DIR not in p.parts}


def stored_files(case: str) -> dict[str, str]:
    folder = HERE / case
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def refresh(case: str) -> None:
    folder = HERE / case
    if folder.exists():
        shutil.rmtree(folder)
    for rel, text in expected_files(case).items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    print(f"refreshed tests/golden/{case}")


def main(argv: list[str]) -> int:
    for case in argv or sorted(CASES):
        refresh(case)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
