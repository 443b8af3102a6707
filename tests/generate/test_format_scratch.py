"""Where ruff formats: a memory folder when there is one, the disk otherwise; same bytes."""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

import pytest
from xcompleteness.emit import _format

SOURCES = {
    PurePosixPath("pkg/__init__.py"): "from .a import x\nimport os\n__all__=['x']\n",
    PurePosixPath("pkg/a.py"): "from typing import Optional\nx: Optional[int]=None\n"
    + "y = {}\n".format(repr("word " * 40)),
}


def _sticky(folder: Path) -> Path:
    folder.mkdir()
    folder.chmod(0o1777)
    return folder


def test_a_sticky_writable_folder_is_used_unless_tmpdir_is_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = _sticky(tmp_path / "shm")
    monkeypatch.setattr(_format, "_MEMORY_TMP", memory)
    monkeypatch.delenv("TMPDIR", raising=False)
    assert _format._scratch() == str(memory)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    assert _format._scratch() is None  # the user's choice wins
    monkeypatch.delenv("TMPDIR")
    memory.chmod(0o777)  # not sticky: anyone could swap our folder
    assert _format._scratch() is None
    monkeypatch.setattr(_format, "_MEMORY_TMP", tmp_path / "missing")
    assert _format._scratch() is None


def test_same_bytes_in_memory_on_disk_and_after_a_failing_memory_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.setattr(_format, "_MEMORY_TMP", tmp_path / "missing")
    on_disk = _format._format_fresh(SOURCES)
    assert on_disk[PurePosixPath("pkg/a.py")].startswith("x: int | None = None\n")
    memory = _sticky(tmp_path / "shm")
    monkeypatch.setattr(_format, "_MEMORY_TMP", memory)
    assert _format._format_fresh(SOURCES) == on_disk
    assert list(memory.iterdir()) == []  # its folder is removed afterwards
    real = _format._format_in
    used: list[str | None] = []

    def full(sources, scratch):  # type: ignore[no-untyped-def]
        used.append(scratch)
        if scratch is not None:
            raise OSError(28, "No space left on device")
        return real(sources, scratch)

    monkeypatch.setattr(_format, "_format_in", full)
    assert _format._format_fresh(SOURCES) == on_disk  # the disk took over
    assert used == [str(memory), None]
    assert stat.S_IMODE(os.stat(memory).st_mode) == 0o1777
