"""The wheel ships everything: build it, install it in a clean venv, run the CLI from there.

Offline and quick: the wheel is built with ``--no-isolation`` (hatchling comes with the test
extra), the venv is created without pip, the wheel is installed into it with ``--no-deps`` by
our own pip, and the dependencies are borrowed from the project venv through a ``.pth`` entry.
Entries added by a ``.pth`` file are plain path entries, so the project's *editable* install
(itself a ``.pth`` in that folder) is not activated: ``xcompleteness`` can only come from the
installed wheel, which this test asserts.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from support.paths import EXAMPLES, ROOT


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)


def test_wheel_installs_and_checks_an_example(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    built = _run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), "."],
        cwd=ROOT,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = dist.glob("x_completeness-*.whl")

    venv = tmp_path / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    installed = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            str(wheel),
        ],
        cwd=tmp_path,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    site = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            cwd=tmp_path,
        ).stdout.strip()
    )
    (site / "zz_borrowed_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    probe = _run(
        [
            str(python),
            "-c",
            "import xcompleteness, xcompleteness.resources as r; "
            "print(xcompleteness.__file__); print(r.spec_ext_dir()); print(r.templates_dir())",
        ],
        cwd=tmp_path,
    )
    assert probe.returncode == 0, probe.stderr
    module, spec_ext, templates = (Path(line) for line in probe.stdout.split())
    for path in (module, spec_ext, templates):
        assert path.is_relative_to(site), path  # from the wheel, not the checkout
    assert (spec_ext / "codes.json").is_file()
    assert any(templates.rglob("*")), "templates/ is empty in the wheel"

    spec = tmp_path / "openapi.yaml"
    shutil.copy(EXAMPLES / "service_accounts" / "openapi.yaml", spec)
    checked = _run(
        [str(venv / "bin" / "xcompleteness"), "check", "--strict", str(spec)], cwd=tmp_path
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "0 error(s), 0 warning(s)" in checked.stderr
