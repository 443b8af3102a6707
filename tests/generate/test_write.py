"""The writer's safety rules and ``--check`` drift detection, on a real folder."""

from __future__ import annotations

import json
import os
from pathlib import Path, PurePosixPath

import pytest
from xcompleteness.diagnostics import InputError
from xcompleteness.emit._write import MANIFEST, diff_tree, write_tree

P = PurePosixPath


def test_writes_files_and_manifest(tmp_path: Path) -> None:
    out = tmp_path / "out"
    report = write_tree(out, {P("pkg/a.py"): "a = 1\n", P("pkg/sub/b.json"): "{}\n"})
    assert sorted(report.written) == ["pkg/a.py", "pkg/sub/b.json"]
    assert (out / "pkg/a.py").read_text() == "a = 1\n"
    umask = os.umask(0)
    os.umask(umask)
    assert (out / "pkg/a.py").stat().st_mode & 0o777 == 0o664 & ~umask  # not mkstemp's 0o600
    manifest = json.loads((out / MANIFEST).read_text())
    assert sorted(manifest["files"]) == ["pkg/a.py", "pkg/sub/b.json"]
    again = write_tree(out, {P("pkg/a.py"): "a = 1\n", P("pkg/sub/b.json"): "{}\n"})
    assert again.written == [] and len(again.unchanged) == 2


def test_refuses_foreign_non_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "precious.txt").write_text("keep me")
    with pytest.raises(InputError) as exc:
        write_tree(tmp_path, {P("pkg/a.py"): "a = 1\n"})
    assert exc.value.diagnostics[0].code == "XC604"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["precious.txt"]


def test_removes_only_its_own_stale_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_tree(out, {P("pkg/a.py"): "a\n", P("pkg/old/b.py"): "b\n", P("pkg/edited.py"): "e\n"})
    (out / "pkg/mine.txt").write_text("user file")
    (out / "pkg/edited.py").write_text("edited by hand\n")
    report = write_tree(out, {P("pkg/a.py"): "a2\n"})
    assert report.removed == ["pkg/old/b.py"]
    assert report.kept == ["pkg/edited.py"]
    assert not (out / "pkg/old").exists()
    assert (out / "pkg/mine.txt").read_text() == "user file"
    assert (out / "pkg/edited.py").read_text() == "edited by hand\n"
    assert (out / "pkg/a.py").read_text() == "a2\n"


def test_never_overwrites_a_file_it_did_not_write(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_tree(out, {P("pkg/a.py"): "a\n"})
    (out / "pkg/client.py").write_text("handwritten\n")
    with pytest.raises(InputError):
        write_tree(out, {P("pkg/a.py"): "a\n", P("pkg/client.py"): "generated\n"})
    assert (out / "pkg/client.py").read_text() == "handwritten\n"


def test_refuses_unsafe_paths_and_symlinks(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        write_tree(tmp_path / "o1", {P("../escape.py"): "x\n"})
    assert not (tmp_path / "escape.py").exists()
    out = tmp_path / "o2"
    write_tree(out, {P("pkg/a.py"): "a\n"})
    target = tmp_path / "elsewhere"
    target.mkdir()
    os.symlink(target, out / "link")
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["files"]["link/x.py"] = "0"
    (out / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(InputError):
        write_tree(out, {P("link/x.py"): "x\n"})
    assert list(target.iterdir()) == []


def test_diff_tree_reports_drift_and_nothing_when_in_sync(tmp_path: Path) -> None:
    files = {P("pkg/a.py"): "a = 1\n", P("pkg/b.py"): "b = 1\n"}
    write_tree(tmp_path, files)
    assert diff_tree(tmp_path, files) == ""
    (tmp_path / "pkg/a.py").write_text("a = 2\n")
    diff = diff_tree(tmp_path, {P("pkg/a.py"): "a = 1\n"})
    assert "-a = 2\n+a = 1\n" in diff
    assert "--- a/pkg/b.py\n+++ /dev/null" in diff


def test_a_file_edited_to_the_same_size_is_rewritten(tmp_path: Path) -> None:
    """The size is only a shortcut to "changed": same size, other bytes is still drift."""
    out = tmp_path / "out"
    write_tree(out, {P("pkg/a.py"): "a = 1\n", P("pkg/b.py"): "b = 1\n"})
    (out / "pkg/a.py").write_text("a = 2\n")  # same length
    (out / "pkg/b.py").write_text("b = 10\n")  # other length
    report = write_tree(out, {P("pkg/a.py"): "a = 1\n", P("pkg/b.py"): "b = 1\n"})
    assert sorted(report.written) == ["pkg/a.py", "pkg/b.py"] and report.unchanged == []
    assert (out / "pkg/a.py").read_text() == "a = 1\n"
    assert (out / "pkg/b.py").read_text() == "b = 1\n"
