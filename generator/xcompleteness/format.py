"""Format generated Python in memory with ruff, under an explicit configuration.

Why: generated code must be ruff-clean and byte-identical on every machine. We pipe each file
through ``ruff check --select I,F401 --fix -`` (sort imports, drop unused ones) and then
``ruff format -`` with ``--isolated`` (no user ``pyproject.toml``/``ruff.toml`` is read) and the
few settings we rely on passed on the command line, from an empty working folder. Files copied
verbatim (the ``_runtime/`` package) and non-Python files are left untouched. A file ruff cannot
parse is a generator bug: :class:`FormatError` names it instead of writing broken code.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import PurePosixPath

RUFF_SETTINGS = ("--isolated", "--line-length", "100", "--target-version", "py310")
VERBATIM_DIR = "_runtime"


class FormatError(RuntimeError):
    """ruff could not parse or format a generated file (a generator bug, never user input)."""


def _ruff_bin() -> str:
    from ruff.__main__ import find_ruff_bin

    return str(find_ruff_bin())


def _run(args: list[str], text: str, name: str, cwd: str) -> str:
    proc = subprocess.run(
        [_ruff_bin(), *args, *RUFF_SETTINGS, "--stdin-filename", name, "-"],
        input=text.encode("utf-8"),
        capture_output=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )
    if proc.returncode not in (0, 1):
        msg = proc.stderr.decode("utf-8", "replace").strip()
        raise FormatError(f"ruff failed on generated file {name}: {msg}")
    return proc.stdout.decode("utf-8")


def format_source(text: str, name: str = "generated.py") -> str:
    """Return ``text`` with imports fixed and ruff formatting applied."""
    with tempfile.TemporaryDirectory(prefix="xc-ruff-") as cwd:
        fixed = _run(
            ["check", "--select", "I,F401", "--fix", "--exit-zero", "--quiet"], text, name, cwd
        )
        return _run(["format", "--quiet"], fixed, name, cwd)


def needs_format(path: PurePosixPath) -> bool:
    return path.suffix == ".py" and VERBATIM_DIR not in path.parts


def format_files(files: Mapping[PurePosixPath, str]) -> dict[PurePosixPath, str]:
    """Format every generated ``.py`` file (in parallel); other files pass through unchanged."""
    todo = sorted(p for p in files if needs_format(p))
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = dict(
            zip(todo, pool.map(lambda p: format_source(files[p], str(p)), todo), strict=True)
        )
    return {p: done.get(p, files[p]) for p in sorted(files)}
