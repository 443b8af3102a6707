"""The only module that touches the disk: an atomic writer with a manifest, and ``--check``.

Safety rules (documented in docs/generate.md):

1. OUT must be missing, empty, or carry our manifest ``OUT/.xcompleteness-manifest.json``; any
   other non-empty folder is refused (``XC604``, exit 2) — we never write into someone's tree.
2. Every file is written atomically (temporary file in the same folder, then ``os.replace``) and
   only when its content changed, so an interrupted run never leaves a half-written module.
3. Only files listed in the manifest are ever replaced or removed. A file we generated earlier and
   no longer generate is removed only if it still has the content we wrote (a hand-edited one is
   left in place and reported). A file that exists but is not ours is never overwritten.
4. Nothing is written through a symbolic link or outside OUT.
5. The manifest is written last, so it always describes files that are complete on disk.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from xcompleteness.diagnostics import Diagnostic, InputError, Severity

__all__ = ["MANIFEST", "WriteReport", "diff_tree", "read_manifest", "write_tree"]

MANIFEST = ".xcompleteness-manifest.json"


@dataclass
class WriteReport:
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # earlier output edited by hand: left alone


def _refuse(out: Path, message: str, hint: str) -> InputError:
    return InputError([Diagnostic(str(out), "", "XC604", Severity.ERROR, message, hint)])


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_manifest(out: Path) -> dict[str, str] | None:
    """The ``{relative path: sha256}`` map of our earlier run, or None when OUT is not ours."""
    path = out / MANIFEST
    if not path.is_file() or path.is_symlink():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        files = data["files"]
        if data.get("generator") != "xcompleteness" or not isinstance(files, dict):
            return None
        return {str(k): str(v) for k, v in files.items()}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _safe_target(out: Path, rel: str) -> Path:
    p = PurePosixPath(rel)
    if p.is_absolute() or ".." in p.parts or not p.parts or rel == MANIFEST:
        raise _refuse(out, f"refusing to write {rel!r}: not a plain relative path", "generator bug")
    target = out.joinpath(*p.parts)
    probe = out
    for part in p.parts:
        probe = probe / part
        if probe.is_symlink():
            raise _refuse(out, f"refusing to write through the symbolic link {probe}", "remove it")
    return target


def _ownership(out: Path) -> dict[str, str]:
    """Check rule 1 and return the earlier manifest ({} for a new or empty folder)."""
    if out.is_symlink():
        raise _refuse(out, "the output folder is a symbolic link", "pass the real folder")
    if out.exists() and not out.is_dir():
        raise _refuse(out, "the output path exists and is not a folder", "choose another -o")
    manifest = read_manifest(out) if out.exists() else None
    if manifest is None:
        if out.exists() and any(out.iterdir()):
            raise _refuse(
                out,
                "the output folder is not empty and was not created by xcompleteness generate",
                "choose an empty or new folder; we never write into folders we do not own",
            )
        return {}
    return manifest


def _file_mode() -> int:
    """0o666 minus the process umask: what ``open()`` would give (mkstemp uses 0o600)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _atomic_write(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".xc-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, _file_mode())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_tree(out: Path, files: Mapping[PurePosixPath, str]) -> WriteReport:
    """Write ``files`` (relative to OUT) following the safety rules above."""
    out = Path(out)
    previous = _ownership(out)
    report = WriteReport()
    encoded = {str(rel): text.encode("utf-8") for rel, text in sorted(files.items())}
    targets = {rel: _safe_target(out, rel) for rel in encoded}
    for rel, target in targets.items():  # rule 3: check everything before writing anything
        if target.exists() and rel not in previous:
            raise _refuse(
                out, f"{rel} exists and was not generated by xcompleteness", "move it away"
            )
    out.mkdir(parents=True, exist_ok=True)
    for rel, data in encoded.items():
        target = targets[rel]
        if target.is_file() and target.read_bytes() == data:
            report.unchanged.append(rel)
            continue
        _atomic_write(target, data)
        report.written.append(rel)
    for rel in sorted(set(previous) - set(encoded)):
        target = _safe_target(out, rel)
        if not target.is_file():
            continue
        if _sha(target.read_bytes()) != previous[rel]:
            report.kept.append(rel)
            continue
        target.unlink()
        report.removed.append(rel)
        parent = target.parent
        while parent != out and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent
    manifest = {"generator": "xcompleteness", "files": {r: _sha(d) for r, d in encoded.items()}}
    manifest["files"].update({r: previous[r] for r in report.kept})
    data = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
    target = out / MANIFEST
    if not (target.is_file() and target.read_bytes() == data):
        _atomic_write(target, data)
    return report


def diff_tree(out: Path, files: Mapping[PurePosixPath, str]) -> str:
    """Unified diff from the files on disk to ``files``; empty when nothing drifted."""
    out = Path(out)
    previous = read_manifest(out) or {}
    chunks: list[str] = []
    wanted = {str(rel): text for rel, text in files.items()}
    for rel in sorted(set(wanted) | set(previous)):
        target = out.joinpath(*PurePosixPath(rel).parts)
        try:
            current = target.read_text(encoding="utf-8") if target.is_file() else None
        except (OSError, UnicodeDecodeError):
            current = "<unreadable>\n"
        new = wanted.get(rel)
        if current == new:
            continue
        chunks.extend(
            difflib.unified_diff(
                (current or "").splitlines(keepends=True),
                (new or "").splitlines(keepends=True),
                fromfile=f"a/{rel}" if current is not None else "/dev/null",
                tofile=f"b/{rel}" if new is not None else "/dev/null",
            )
        )
    return "".join(c if c.endswith("\n") else c + "\n" for c in chunks)
