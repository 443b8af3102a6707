"""A hostile output folder (issue 18, item 2): the manifest is a record, never an authority, and a
write is all or nothing."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path, PurePosixPath

import pytest
from support.hostile import codes, run, write_spec
from xcompleteness.emit._write import MANIFEST, write_tree

P = PurePosixPath


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _tree(root: Path) -> dict[str, bytes | str]:
    out: dict[str, bytes | str] = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_symlink():
            out[rel] = "-> " + os.readlink(p)
        elif p.is_file():
            out[rel] = p.read_bytes()
        else:
            out[rel] = "dir"
    return out


def _forge(out: Path, files: dict[str, str]) -> None:
    manifest = {"generator": "xcompleteness", "files": files}
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


@pytest.fixture
def generated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    spec = write_spec(tmp_path / "in")
    out = tmp_path / "out"
    rc, _, err = run(capsys, "generate", str(spec), "-o", str(out), "--package", "hostile")
    assert rc == 0, err
    return spec, out


@pytest.mark.parametrize(
    "entry", ["/etc/passwd", "../secret.txt", "link/passwd", "hostile/../x.py"]
)
def test_check_never_reads_a_path_the_manifest_invents(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    generated: tuple[Path, Path],
    entry: str,
) -> None:
    spec, out = generated
    (tmp_path / "secret.txt").write_text("SECRET-OUTSIDE\n")
    (out / "link").symlink_to("/etc")
    manifest = json.loads((out / MANIFEST).read_text())
    _forge(out, {**manifest["files"], entry: "0" * 64})
    before = _tree(out)
    rc, outtext, err = run(capsys, "generate", str(spec), "-o", str(out), "--check")
    assert rc == 2 and "XC604" in codes(err)
    assert "root:x" not in outtext + err and "SECRET-OUTSIDE" not in outtext + err
    rc, _, err = run(capsys, "generate", str(spec), "-o", str(out))
    assert rc == 2 and "XC604" in codes(err)
    assert _tree(out) == before


def test_generate_never_removes_files_a_forged_manifest_claims(
    capsys: pytest.CaptureFixture[str], generated: tuple[Path, Path]
) -> None:
    spec, out = generated
    git = out / ".git"
    git.mkdir()
    (git / "HEAD").write_bytes(b"ref: refs/heads/main\n")
    (git / "config").write_bytes(b"[core]\n")
    manifest = json.loads((out / MANIFEST).read_text())
    forged = {**manifest["files"], ".git/HEAD": _sha(b"ref: refs/heads/main\n")}
    forged[".git/config"] = _sha(b"[core]\n")
    _forge(out, forged)
    rc, _, err = run(capsys, "generate", str(spec), "-o", str(out))
    assert rc == 2 and "XC604" in codes(err)
    assert (git / "HEAD").read_bytes() == b"ref: refs/heads/main\n"
    assert (git / "config").is_file()


def test_a_failed_write_leaves_out_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_tree(out, {P("pkg/a.py"): "a = 1\n", P("pkg/old.py"): "old = 1\n"})
    (out / "pkg" / "sub").write_text("a file where the new tree needs a folder\n")
    before = _tree(out)
    with pytest.raises(OSError):
        write_tree(out, {P("pkg/a.py"): "a = 2\n", P("pkg/sub/b.py"): "b = 1\n"})
    assert _tree(out) == before  # a.py not rewritten, old.py not removed, no temporary files


def test_a_failed_write_of_many_files_leaves_out_as_it_was(tmp_path: Path) -> None:
    """Many files staged, then a failure: everything staged is undone."""
    out = tmp_path / "out"
    old = {P(f"pkg/m{n:02}.py"): f"n = {n}\n" for n in range(40)}
    write_tree(out, {**old, P("pkg/old.py"): "old = 1\n"})
    (out / "pkg" / "sub").write_text("a file where the new tree needs a folder\n")
    before = _tree(out)
    new = {P(f"pkg/m{n:02}.py"): f"n = {n + 1}\n" for n in range(40)}
    new.update({P(f"pkg/new/x{n:02}.py"): "x = 1\n" for n in range(20)})
    with pytest.raises(OSError):
        write_tree(out, {**new, P("pkg/sub/b.py"): "b = 1\n"})
    assert _tree(out) == before  # nothing rewritten or removed, no new folder, no temporary file
    report = write_tree(out, new)  # and the same tree without the obstacle is written whole
    assert sorted(report.written) == sorted(str(rel) for rel in new)
    assert report.removed == ["pkg/old.py"]
    assert all((out / str(rel)).read_text() == text for rel, text in new.items())


def test_a_bad_entry_refuses_before_anything_is_written(
    capsys: pytest.CaptureFixture[str], generated: tuple[Path, Path]
) -> None:
    spec, out = generated
    init = out / "hostile" / "__init__.py"
    init.write_text("# edited\n")  # drift that a write would repair
    manifest = json.loads((out / MANIFEST).read_text())
    _forge(out, {**manifest["files"], "../x.py": "0" * 64})
    before = _tree(out)
    rc, _, err = run(capsys, "generate", str(spec), "-o", str(out))
    assert rc == 2 and "XC604" in codes(err)
    assert _tree(out) == before
