"""The library versions in cache keys, read without ``importlib.metadata`` (``reuse``).

``installed_version`` answers from a listing of the ``sys.path`` folders and the ``Version``
header of the ``*.dist-info/METADATA`` found first, and asks ``importlib.metadata`` for anything
unusual. Observed: the same answer as ``importlib.metadata.version`` for every distribution
installed here and for absent ones; on a made-up path, the first folder in ``sys.path`` order
wins, names are normalized as ``importlib.metadata`` does, and a folded header, an ``.egg-info``
or a zip on the path are answered by ``importlib.metadata`` itself.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from xcompleteness import reuse


def test_the_same_versions_as_importlib_metadata() -> None:
    names = {d.metadata["Name"] for d in metadata.distributions()}
    assert len(names) > 20
    for name in sorted(names):
        assert reuse.installed_version(name) == metadata.version(name), name
        assert reuse.installed_version(name.upper().replace("-", ".")) == metadata.version(name)
    assert reuse.installed_version("no-such-distribution-xc") is None
    assert reuse.library_versions(["ruff", "no-such-distribution-xc"]) == (
        f"ruff {metadata.version('ruff')}\nno-such-distribution-xc -\n".encode()
    )


def _dist(root: Path, folder: str, metadata_text: str) -> None:
    path = root / folder
    path.mkdir(parents=True)
    (path / "METADATA").write_text(metadata_text, "utf-8")


PROBE = """
import json, sys
from importlib import metadata
from xcompleteness import reuse
names = sys.argv[1:]
def official(name):
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None
print(json.dumps([[reuse.installed_version(n), official(n)] for n in names]))
"""


@pytest.mark.parametrize("zipped", [False, True])
def test_made_up_paths_answer_as_importlib_metadata(tmp_path: Path, zipped: bool) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    _dist(
        first, "Alpha_Lib-1.0.dist-info", "Metadata-Version: 2.1\nName: alpha-lib\nVersion: 1.0\n"
    )
    _dist(
        second, "alpha_lib-2.0.dist-info", "Metadata-Version: 2.1\nName: alpha-lib\nVersion: 2.0\n"
    )
    _dist(first, "folded-3.dist-info", "Name: folded\nVersion: 3\n  .1\n")
    _dist(first, "spaced-4.dist-info", "Name: spaced\nVersion:\t4.0 \n\nVersion: 9\n")
    _dist(first, "late-5.dist-info", "Name: late\nnot a header\nVersion: 5\n")
    (first / "old-6.egg-info").mkdir()
    (first / "old-6.egg-info" / "PKG-INFO").write_text("Name: old\nVersion: 6\n", "utf-8")
    paths = [str(first), str(second)]
    if zipped:
        archive = tmp_path / "lib.zip"
        with zipfile.ZipFile(archive, "w") as zf:
            zf.writestr("zipped-7.dist-info/METADATA", "Name: zipped\nVersion: 7\n")
        paths.append(str(archive))
    names = ["alpha-lib", "ALPHA.LIB", "folded", "spaced", "late", "old", "zipped", "absent"]
    code = PROBE
    env_path = ":".join([*paths, *sys.path[1:]])
    done = subprocess.run(
        [sys.executable, "-c", code, *names],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
    )
    answers = dict(zip(names, __import__("json").loads(done.stdout), strict=True))
    for name, (ours, official) in answers.items():
        assert ours == official, name
    assert answers["alpha-lib"][0] == "1.0"  # the first folder in sys.path order
    assert answers["spaced"][0] == "4.0 "  # as email keeps it
    assert answers["absent"][0] is None
    assert (answers["zipped"][0] == "7") is zipped
