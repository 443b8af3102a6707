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


def _resolving_check(root: Path, rel: str) -> Path | None:
    """The guard as it was written first (every part lstat-ed, then both sides resolved): the
    oracle PathChecker must agree with on every case below."""
    from xcompleteness.safety import emittable

    if not emittable(rel):
        return None
    probe = root
    for part in rel.split("/"):
        probe = probe / part
        try:
            if os.path.islink(probe):
                return None
            os.lstat(probe)
        except (FileNotFoundError, NotADirectoryError):
            break
    target = root.joinpath(*rel.split("/"))
    return target if target.resolve().is_relative_to(root.resolve()) else None


def test_the_batch_path_check_agrees_with_resolving_each_path(tmp_path: Path) -> None:
    from xcompleteness.safety import PathChecker, checked_path

    root = tmp_path / "out"
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "a.py").write_text("a\n")
    (root / "pkg" / "file").write_text("a file where a folder would go\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.py").write_text("SECRET\n")
    (root / "pkg" / "link").symlink_to(outside)
    (root / "pkg" / "sub" / "l.py").symlink_to(outside / "x.py")
    (root / "dangling.py").symlink_to(tmp_path / "missing.py")
    names = [
        "pkg/a.py", "pkg/new.py", "pkg/sub/new/deep.py", "pkg/link/x.py", "pkg/link/new/y.py",
        "pkg/sub/l.py", "dangling.py", "pkg/file/b.py", "new/x.py", "../x.py", "pkg/../x.py",
        "/etc/passwd.py", ".git/HEAD", "pkg/./a.py", "pkg//a.py", "pkg/a.exe",
    ]  # fmt: skip
    checker = PathChecker(root)
    for rel in names:  # one checker for all names (its folder memo), and one per name
        found = checker.check(rel)
        assert (found and found[0]) == _resolving_check(root, rel) == checked_path(root, rel), rel
    found = checker.check("pkg/a.py")
    assert found is not None and found[1] is not None and found[1].st_size == 2
    assert checker.check("pkg/new.py") == (root / "pkg" / "new.py", None)
    assert checker.check("pkg/sub/new/deep.py") == (root / "pkg" / "sub" / "new" / "deep.py", None)


def test_a_new_file_is_never_written_through_a_link_that_appeared_after_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that did not exist at the check is created under its own name with O_EXCL: a
    link (or file) put there between the check and the write stops the run, and everything
    written before it is undone."""
    from xcompleteness import safety

    out = tmp_path / "out"
    write_tree(out, {P("pkg/a.py"): "a = 1\n"})
    victim = tmp_path / "victim.txt"
    victim.write_text("untouched\n")
    real_check = safety.PathChecker.check

    def check_then_plant(self: safety.PathChecker, rel: str) -> object:
        found = real_check(self, rel)
        if rel == "pkg/z.py" and found is not None:  # the race: after the check, a link
            found[0].symlink_to(victim)
        return found

    monkeypatch.setattr(safety.PathChecker, "check", check_then_plant)
    before = {k: v for k, v in _tree(out).items() if k != "pkg/z.py"}
    with pytest.raises(OSError):
        write_tree(out, {P("pkg/a.py"): "a = 2\n", P("pkg/b.py"): "b\n", P("pkg/z.py"): "z\n"})
    assert victim.read_text() == "untouched\n"
    after = _tree(out)
    assert after.pop("pkg/z.py") == "-> " + str(victim)  # the planted link, left as it was
    assert after == before  # a.py not rewritten, b.py (created first) removed again


def test_an_output_folder_everyone_can_write_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whoever can write OUT can replace the generated code before it is imported: such a folder
    (writable by everyone without the sticky bit) is refused before anything is written."""
    spec = write_spec(tmp_path / "in")
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o777)
    rc, _, err = run(capsys, "generate", str(spec), "-o", str(out))
    assert rc == 2 and "XC604" in codes(err), err
    assert "writable by everyone (mode 777, no sticky bit)" in err and "chmod o-w" in err
    assert list(out.iterdir()) == []


def test_a_folder_inside_out_that_everyone_can_write_is_refused(
    capsys: pytest.CaptureFixture[str], generated: tuple[Path, Path]
) -> None:
    spec, out = generated
    (out / "hostile" / "_models").chmod(0o777)
    (out / "hostile" / "__init__.py").write_text("# drift a write would repair\n")
    before = _tree(out)
    rc, _, err = run(capsys, "generate", str(spec), "-o", str(out))
    assert rc == 2 and "XC604" in codes(err), err
    assert "hostile/_models: a folder writable by everyone" in err
    assert _tree(out) == before


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs chown (root)")
def test_an_output_folder_another_user_owns_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An empty OUT made by someone else in a folder anyone can write (``mkdir /tmp/out`` before
    the victim's run) is theirs: they could swap every file we write. Refused, nothing written.
    The same folder inside its owner's own private folder (a checkout owned by the host's user,
    written by root in a container) is their area that you chose: written."""
    spec = write_spec(tmp_path / "in")
    shared = tmp_path / "tmp"
    shared.mkdir()
    shared.chmod(0o1777)  # like /tmp
    out = shared / "out"
    out.mkdir(mode=0o755)
    os.chown(out, 65534, 65534)
    rc, _, err = run(capsys, "generate", str(spec), "-o", str(out))
    assert rc == 2 and "XC604" in codes(err) and "owned by user id 65534" in err, err
    assert "anyone could have made it" in err
    assert list(out.iterdir()) == []
    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    checkout = home / "out"
    checkout.mkdir(mode=0o755)
    os.chown(home, 65534, 65534)
    os.chown(checkout, 65534, 65534)
    rc, _, err = run(capsys, "generate", str(spec), "-o", str(checkout))
    assert rc == 0, err


def test_nothing_written_is_writable_by_everyone_whatever_the_umask(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With ``umask 0`` the folders and files we create would be 0777/0666, the very folders
    the rule above refuses; they are capped at 0775/0664, and a second run accepts its own."""
    spec = write_spec(tmp_path / "in")
    out = tmp_path / "out"
    old = os.umask(0)
    try:
        rc, _, err = run(capsys, "generate", str(spec), "-o", str(out))
        assert rc == 0, err
        loose = [p for p in [out, *out.rglob("*")] if p.stat().st_mode & 0o002]
        assert loose == []
        (out / "hostile" / "__init__.py").write_text("# drift\n")
        rc, _, err = run(capsys, "generate", str(spec), "-o", str(out))
        assert rc == 0 and "1 written" in err, err
    finally:
        os.umask(old)


def test_a_file_where_a_folder_is_needed_is_named_and_nothing_changes(
    capsys: pytest.CaptureFixture[str], generated: tuple[Path, Path]
) -> None:
    import shutil

    spec, out = generated
    shutil.rmtree(out / "hostile" / "_ops")
    (out / "hostile" / "_ops").write_text("a file where the package needs a folder\n")
    before = _tree(out)
    rc, _, err = run(capsys, "generate", str(spec), "-o", str(out))
    assert rc == 2 and "XC604" in codes(err), err
    assert "Not a directory" in err and "a file is where the output needs a folder" in err
    assert "Traceback" not in err
    assert _tree(out) == before
